// The unit tests of the money, payment and proof rules, which the mutation run (stryker.config.mjs)
// runs against each mutant: they need no build and no outside service, and test the rules where
// they live. Tests of descriptors, pages and the assistant's answers are left out: they exercise
// these modules only on their way to something else, and take most of a run's time.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'tests/unit/policy-engine.test.ts',
      'tests/unit/policy-engine.property.test.ts',
      'tests/unit/money.test.ts',
      'tests/unit/assistant-domain.test.ts',
      'tests/unit/assistant-handlers.test.ts',
      'tests/unit/paid-turn-service.test.ts',
      'tests/unit/facilitator-requirements.test.ts',
      'tests/unit/x402-facilitator.property.test.ts',
      'tests/unit/a2a-x402-attacks.test.ts',
      'tests/unit/a2a-task-ownership.test.ts',
      'tests/unit/offer-receipt.test.ts',
      'tests/unit/faucet.test.ts',
      'tests/unit/publish-validation.test.ts',
      'tests/unit/validation-check.test.ts',
      'tests/unit/job-validation.test.ts',
      'tests/unit/receipt-check.test.ts',
      'tests/unit/receipt-id.test.ts',
      'tests/unit/dev-tools.test.ts',
      'tests/unit/tlog-*.test.ts',
      'tests/unit/receipt-log-memory.test.ts',
      'tests/unit/receipt-log-signing.test.ts',
      'tests/unit/checkpointer.test.ts',
      'tests/unit/published-verifier-key.test.ts',
    ],
    testTimeout: 30_000,
  },
});
