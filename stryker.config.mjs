// `npm run test:mutation`: mutation testing of the money, payment and proof rules (issue 56). Each
// rule of these modules is pinned when a test fails with the rule removed or its boundary moved:
// Stryker changes the code one mutant at a time and runs the unit tests that cover it (vitest).
// Incremental: results are kept in .stryker/incremental.json (committed), so a rerun tries only
// the mutants of code or tests that changed. Not part of `npm test`: a full run takes long.
// The report is written to .stryker/report.html and as JSON to .stryker/mutation.json.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // A static mutant (a module-level constant, a regular expression compiled at load) is tested by
  // running every test again, 92 % of a full run's time for 29 % of its mutants: they are left out,
  // and the constants that are rules (which refusals clear by themselves, the total supply) are
  // pinned by tests that name them.
  ignoreStatic: true,
  mutate: [
    'src/domain/policy-engine.ts',
    'src/domain/money.ts',
    'src/domain/assistant/note-rules.ts',
    'src/domain/assistant/facilitator-requirements.ts',
    'src/domain/assistant/a2a-task-owner.ts',
    'src/domain/assistant/offer-receipt.ts',
    'src/services/paid-turn/paid-turn.ts',
    'src/domain/faucet/proof-of-work.ts',
    'src/domain/publish-validation.ts',
    'src/domain/ergo/receipt-check.ts',
    'src/domain/tlog/tree.ts',
    'src/domain/tlog/tiles.ts',
    'src/domain/tlog/proofs.ts',
    'src/domain/tlog/note.ts',
    'src/domain/tlog/note-text.ts',
    'src/domain/tlog/tlog-proof-text.ts',
    'src/domain/tlog/signing-rule.ts',
    'src/domain/tlog/cosignature.ts',
    'src/domain/tlog/witness-protocol.ts',
  ],
  // The sandbox is a copy of the project: the build's output is not needed by these tests, and a
  // build running beside a mutation run would change it under the copy.
  ignorePatterns: ['dist', '.astro'],
  incremental: true,
  incrementalFile: '.stryker/incremental.json',
  tempDirName: '.stryker/tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: '.stryker/report.html' },
  jsonReporter: { fileName: '.stryker/mutation.json' },
  thresholds: { high: 95, low: 90, break: null },
  concurrency: 2,
  timeoutMS: 20_000,
  cleanTempDir: 'always',
};
