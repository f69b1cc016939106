// `npm run bench`: load figures for the built server beside a bare node:http server, in one run.
// Not part of `npm test`: the machines are shared and noisy, so figures are printed, never asserted.
//
// Fair by construction: each server runs in its own process pinned to core 0, the load generator
// (wrk, or autocannon's command line without it) in another pinned to core 1 (`taskset`, when the
// machine has it and more than one core); each case alternates ours and bare BENCH_RUNS times (default 3) and keeps
// the best run of each. The bare server does the least equivalent work: it sends the same static
// bytes with a Content-Length, or parses the JSON body and answers a small JSON object.
// `ratio` is best throughput against the bare server's best; `cpu ratio` is the bare server's CPU
// time per request over ours (1.0 = no more work than bare node:http), steadier on a busy machine;
// `paired ratio` is the median, over the runs, of ours against the bare run right after it: on a
// machine whose speed drifts over minutes, the two bests can come from different moments, a pair
// cannot. `load cpu` is how much of its core the generator used against ours / against bare.
//
// Also printed: cold start (process start to the first stored premium quote, fresh DATA_DIR), the
// restart after a SIGKILL under quote load (process start to the first store read answered), and
// the server's resident memory at start, after the first store write and after the quote load.
// BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 16) and BENCH_RUNS tune the runs;
// BENCH_ONLY=quote runs only the cases whose name contains that text. Every load case also runs on
// the previous release (.ci/previous-release) or BENCH_BASELINE, side by side, and the bench prints
// both ratios and says which case fell by more than 10 % (BENCH_PREVIOUS=0 skips it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanUp, cpuMicros, generator, load as loadFor, pinning, root, rssMiB, scriptDir, sleep, start, stop, timed } from './harness.mjs';
import { payForTurn, PREMIUM_QUESTION, RECEIVER, RESERVE } from '../helpers/paid-turn.ts';
import { buildPreviousRelease } from '../helpers/previous-release.ts';
import { paidTurnBodies } from './paid-turn-bodies.mjs';
import { startSandbox } from '../../src/sandbox/server.ts';
import { longQuestions } from './long-questions.mjs';
import { answerIndexOf } from '../../src/domain/assistant/answer-index.ts';
import { indexSentencesOf } from '../../src/build/answer-index-file.ts';
import { termsFactDocument } from '../../src/build/fact-documents.ts';
import { createDocsProvider } from '../../src/services/model/docs-provider.ts';

const entry = `${root}dist/server/fast-entry.mjs`;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const load = (target, duration = seconds) => loadFor(target, { duration, connections });

if (!existsSync(entry)) {
  console.error('bench: no build found; run `npm run build` first.');
  process.exit(1);
}

// BENCH_BUILD=1 times a full `astro build` first.
let buildSeconds;
if (process.env.BENCH_BUILD === '1') {
  const startedAt = performance.now();
  const result = spawnSync(process.execPath, [`${root}node_modules/astro/bin/astro.mjs`, 'build'], { cwd: root, stdio: 'ignore', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error('bench: build failed');
  buildSeconds = (performance.now() - startedAt) / 1000;
}

/** Polls `url` until it answers `status`; the time since `startedAt`. */
async function firstAnswer(url, startedAt, init = {}, status = 200) {
  for (;;) {
    try {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      if (response.status === status) return performance.now() - startedAt;
    } catch {}
    await sleep(2);
  }
}

const postJson = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const policyExample = JSON.parse(readFileSync(`${root}dist/client/api/agent-economy/wallet-agent/policy-check/index.json`, 'utf8')).example_request;
const staticPath = '/api/agents/registry';
const staticBody = readFileSync(`${root}dist/client/api/agents/registry/index.json`, 'utf8');

// The assistant routes run for real: a sandbox chain, the embedded store in a fresh folder, limits
// raised so the load generator measures the work rather than the 429s.
const sandbox = await startSandbox({ port: 0, startHeight: 3_000 });
const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
const serverEnv = {
  DATA_DIR: dataDir,
  CHAIN_SOURCE: 'sandbox',
  ERGO_EXPLORER_URL: sandbox.url,
  ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
  ASSISTANT_RESERVE_BOX_ID: RESERVE,
  RATE_LIMIT_QUOTE_PER_MINUTE: '1000000',
  RATE_LIMIT_VERIFY_PER_MINUTE: '1000000',
};
const quoteRequest = postJson({ question: PREMIUM_QUESTION });

// Cold start: a fresh DATA_DIR, process start to the first premium quote stored and answered.
let server = await start(entry, serverEnv);
const coldStartMs = await firstAnswer(`${server.url}/api/assistant/quote`, server.startedAt, quoteRequest);
await stop(server.child);
rmSync(dataDir, { recursive: true, force: true });

server = await start(entry, serverEnv);
await sleep(1_000);
const memory = { start: rssMiB(server.child.pid) };
const firstQuote = await (await fetch(`${server.url}/api/assistant/quote`, quoteRequest)).json();
memory.afterFirstWrite = rssMiB(server.child.pid);
const turn = await payForTurn({ server: { url: server.url }, sandbox });

/** Waits (15 s at most) for the log's first checkpoint, signed within LOG_CHECKPOINT_INTERVAL_SECONDS of a turn; a release without the log has none. */
async function firstCheckpoint(url) {
  const deadline = Date.now() + 15_000;
  while ((await fetch(`${url}/api/transparency/receipts/tile/0/000.p/1`)).status !== 200 && Date.now() < deadline) await sleep(200);
}
await firstCheckpoint(server.url);

// Every load case runs on this build and, beside it in the same run, on the previous release
// (.ci/previous-release, built from git) or on BENCH_BASELINE (any commit); BENCH_PREVIOUS=0 skips it.
const only = process.env.BENCH_ONLY;
const builds = [{ label: 'this build', entry, checkout: undefined }];
let previousRelease;
if (process.env.BENCH_PREVIOUS !== '0') {
  previousRelease = await buildPreviousRelease(process.env.BENCH_BASELINE);
  builds.push({ label: `${process.env.BENCH_BASELINE ? 'baseline' : 'previous release'} ${previousRelease.commit.slice(0, 7)}`, entry: previousRelease.entry, checkout: previousRelease });
}
const caseTargets = [{ ...builds[0], server, turn }];
const bare = await start(`${root}tests/bench/bare-server.mjs`, { BARE_STATIC_BODY: staticBody });
const post = (base, path, body) => ({ url: base + path, method: 'POST', body: JSON.stringify(body) });
const cases = [
  { name: `static descriptor GET ${staticPath}`, ours: (base) => ({ url: base + staticPath }), bare: (base) => ({ url: base + '/' }) },
  {
    name: 'dev-tools hash POST',
    ours: (base) => post(base, '/api/dev/tools', { action: 'hash', input: 'agent-economy', encoding: 'utf8', network: 'testnet' }),
    bare: (base) => post(base, '/', { action: 'hash', input: 'agent-economy', encoding: 'utf8', network: 'testnet' }),
  },
  {
    name: 'assistant quote POST (premium: chain height + stored quote)',
    ours: (base) => post(base, '/api/assistant/quote', { question: PREMIUM_QUESTION }),
    bare: (base) => post(base, '/', { question: PREMIUM_QUESTION }),
    afterEach: () => (memory.afterQuoteLoad = Math.max(memory.afterQuoteLoad ?? 0, rssMiB(server.child.pid))),
  },
  // The receipt log's read path: the checkpoint and a tile change only when the log grows.
  { name: 'receipt log checkpoint GET', ours: (base) => ({ url: `${base}/api/transparency/receipts/checkpoint` }), bare: (base) => ({ url: base + '/' }) },
  { name: 'receipt log tile GET (level 0)', ours: (base) => ({ url: `${base}/api/transparency/receipts/tile/0/000.p/1` }), bare: (base) => ({ url: base + '/' }) },
  {
    name: 'stored receipt GET (in a checkpoint: kept bytes)',
    ours: (base, target) => ({ url: `${base}/api/assistant/receipt/${target.turn.receiptId}` }),
    bare: (base) => ({ url: base + '/' }),
    bareServer: (target) => target.bareReceipt,
  },
  {
    name: 'policy-check POST',
    ours: (base) => post(base, '/api/agent-economy/wallet-agent/policy-check', policyExample),
    bare: (base) => post(base, '/', policyExample),
  },
  {
    // What follows writes (the WAL's fold, retention, bundle making, the checkpointer) must not take
    // the request core's time: the policy check touches no store, measured the moment a quote load ends.
    name: 'policy-check POST right after 5 s of quote load',
    before: (base) => load(post(base, '/api/assistant/quote', { question: PREMIUM_QUESTION }), 5),
    ours: (base) => post(base, '/api/agent-economy/wallet-agent/policy-check', policyExample),
    bare: (base) => post(base, '/', policyExample),
  },
];

const chosenCases = cases.filter((entry) => !only || entry.name.includes(only));
if (builds[1] && chosenCases.length > 0) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-previous-'));
  const previousServer = await start(builds[1].entry, { ...serverEnv, DATA_DIR: dataDir }, builds[1].checkout);
  const previousTurn = await payForTurn({ server: { url: previousServer.url }, sandbox });
  await firstCheckpoint(previousServer.url);
  caseTargets.push({ ...builds[1], server: previousServer, turn: previousTurn, dataDir });
}

// A stored receipt is compared with a bare server sending its very bytes (it is served from memory once
// in a checkpoint); each build's receipt is its own, with its own bare server.
for (const target of caseTargets) {
  const receiptBody = await (await fetch(`${target.server.url}/api/assistant/receipt/${target.turn.receiptId}`)).text();
  target.bareReceipt = await start(`${root}tests/bench/bare-server.mjs`, { BARE_STATIC_BODY: receiptBody });
}


/** One load run against `pid`'s server, with its CPU time per request. */
async function measured(pid, target) {
  const before = cpuMicros(pid);
  const result = await load(target);
  return { result, cpuPerRequest: (cpuMicros(pid) - before) / Math.max(1, result.requests.total) };
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};
const better = (a, b) => (!a || b.result.requests.average > a.result.requests.average ? b : a);

const rows = [];
/** Each case's row per build, for the comparison printed at the end. */
const caseRows = [];
for (const { name, before, ours, bare: yardstick, bareServer = () => bare, afterEach } of chosenCases) {
  const measuredBuilds = caseTargets.map((target) => ({ target, bestOurs: undefined, bestBare: undefined, pairRatios: [] }));
  for (let run = 0; run < runs; run++) {
    // The builds take turns, the first to go alternating, so a machine whose speed drifts meets both alike.
    for (const build of run % 2 ? [...measuredBuilds].reverse() : measuredBuilds) {
      const { target } = build;
      if (before) await before(target.server.url).catch(() => undefined);
      const oursRun = await measured(target.server.child.pid, ours(target.server.url, target));
      if (target === caseTargets[0]) afterEach?.();
      const yard = bareServer(target);
      const bareRun = await measured(yard.child.pid, yardstick(yard.url));
      build.bestOurs = better(build.bestOurs, oursRun);
      build.bestBare = better(build.bestBare, bareRun);
      build.pairRatios.push(oursRun.result.requests.average / bareRun.result.requests.average);
    }
  }
  const byBuild = {};
  for (const build of measuredBuilds) {
    const caseRow = row(caseTargets.length > 1 ? `${name} (${build.target.label})` : name, build.bestOurs, build.bestBare, build.pairRatios);
    rows.push(caseRow);
    byBuild[build.target.label] = caseRow;
  }
  caseRows.push({ name, byBuild });
}

/** One line of the table. */
function row(name, bestOurs, bestBare, pairRatios) {
  return {
    case: name,
    'req/s': Math.round(bestOurs.result.requests.average),
    'p50 ms': bestOurs.result.latency.p50,
    'p99 ms': bestOurs.result.latency.p99,
    'errors+non2xx': bestOurs.result.errors + bestOurs.result.non2xx,
    'bare req/s': Math.round(bestBare.result.requests.average),
    ratio: Number((bestOurs.result.requests.average / bestBare.result.requests.average).toFixed(2)),
    'paired ratio': Number(median(pairRatios).toFixed(2)),
    'cpu us/req': Math.round(bestOurs.cpuPerRequest),
    'bare cpu us/req': Math.round(bestBare.cpuPerRequest),
    'cpu ratio': Number((bestBare.cpuPerRequest / bestOurs.cpuPerRequest).toFixed(2)),
    'load cpu': `${Math.round(100 * bestOurs.result.loadCpu)}% / ${Math.round(100 * bestBare.result.loadCpu)}%`,
  };
}
memory.afterAllLoad = rssMiB(server.child.pid);
await stop(bare.child);
for (const target of caseTargets) await stop(target.bareReceipt.child);
for (const target of caseTargets.slice(1)) {
  await stop(target.server.child);
  rmSync(target.dataDir, { recursive: true, force: true });
}

// A SIGKILL in the middle of quote load, then a restart on the same DATA_DIR: process start to the
// first store read answered (a quote stored before the kill, read back by id).
const quoteCase = cases.find((entry) => entry.name.startsWith('assistant quote'));
const killedUnderLoad = load(quoteCase.ours(server.url), 2).catch(() => undefined);
await sleep(1_000);
server.child.kill('SIGKILL');
await killedUnderLoad;
const restarted = await start(entry, serverEnv);
const restartToReadMs = await firstAnswer(`${restarted.url}/api/assistant/quote/${firstQuote.quoteId}`, restarted.startedAt);
await stop(restarted.child);
rmSync(dataDir, { recursive: true, force: true });

// A settled paid turn, POST verify-payment: the Note read from the sandbox chain, the checks, and one
// store transaction that claims the Note, stores the receipt and appends it to the receipt log. Each
// request spends its own Note, so every run's bodies are made first (quotes from the server, Notes
// minted on the in-process sandbox, then one block mined) and each body is sent once; the bare
// server parses the same bodies. The same case runs on the previous release (.ci/previous-release,
// built from git), or on BENCH_BASELINE (any commit: the one before a change shows what that change
// costs; 65be373^ is the build before the receipt log). BENCH_TURNS (default 2000) bodies per run;
// BENCH_PREVIOUS=0 skips the baseline.
const turnsPerRun = Number(process.env.BENCH_TURNS ?? 2000);

/** Sends each body once from core 1; throughput, latency and the server's CPU time per request. */
async function fixedLoad(pid, url, bodies) {
  const file = join(scriptDir, 'bodies.jsonl');
  writeFileSync(file, bodies.join('\n'));
  const before = cpuMicros(pid);
  const { out, cpuSeconds } = await timed(process.execPath, [`${root}tests/bench/fixed-load.mjs`, url, file, String(connections)]);
  const result = JSON.parse(out.trim().split('\n').pop());
  return {
    result: { requests: { average: result.requests / result.elapsedSeconds, total: result.requests }, latency: { p50: result.p50, p99: result.p99 }, errors: result.errors, non2xx: result.non2xx, loadCpu: cpuSeconds / result.elapsedSeconds },
    cpuPerRequest: (cpuMicros(pid) - before) / Math.max(1, result.requests),
  };
}

const paidTurnRows = {};
const cpuPairs = [];
if (!only || 'settled paid turn'.includes(only)) {
  // Both builds run side by side and take turns run by run (the first to go alternates), so a
  // machine whose speed drifts meets both alike; each run's bodies are made before it is timed.
  const bareTurns = await start(`${root}tests/bench/bare-server.mjs`);
  const serving = [];
  for (const build of builds) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-turns-'));
    serving.push({ ...build, dataDir, server: await start(build.entry, { ...serverEnv, DATA_DIR: dataDir }, build.checkout), pairRatios: [] });
  }
  for (let run = 0; run < runs; run++) {
    const cpuThisRun = {};
    for (const build of run % 2 ? [...serving].reverse() : serving) {
      const bodies = await paidTurnBodies(sandbox, build.server.url, turnsPerRun);
      const oursRun = await fixedLoad(build.server.child.pid, `${build.server.url}/api/assistant/verify-payment`, bodies);
      const bareRun = await fixedLoad(bareTurns.child.pid, `${bareTurns.url}/`, bodies);
      build.bestOurs = better(build.bestOurs, oursRun);
      build.bestBare = better(build.bestBare, bareRun);
      build.pairRatios.push(oursRun.result.requests.average / bareRun.result.requests.average);
      cpuThisRun[build.label] = oursRun.cpuPerRequest;
    }
    if (serving.length === 2) cpuPairs.push(cpuThisRun[serving[0].label] / cpuThisRun[serving[1].label]);
  }
  for (const build of serving) {
    await stop(build.server.child);
    rmSync(build.dataDir, { recursive: true, force: true });
    paidTurnRows[build.label] = row(`settled paid turn: verify-payment POST (${build.label})`, build.bestOurs, build.bestBare, build.pairRatios);
    rows.push(paidTurnRows[build.label]);
  }
  await stop(bareTurns.child);
}
// Long questions: 4 KB tickets of a dozen asks each, every one different. In process, the docs
// provider reads each from the built index while a ticker measures the longest stretch the event
// loop was held; then the built server quotes them (premium: longer than the free tier) while a
// probe GET of a static descriptor measures what a request beside them waits.
let longQuestionFigures;
if (!only || 'long questions'.includes(only)) {
  const questions = longQuestions(root, Number(process.env.BENCH_LONG_QUESTIONS ?? 300));
  const data = JSON.parse(readFileSync(`${root}dist/server/answer-index.json`, 'utf8'));
  const indexStartedAt = performance.now();
  const index = answerIndexOf(data, indexSentencesOf([termsFactDocument()], new Set(), data.documents.length));
  const indexMs = performance.now() - indexStartedAt;
  const provider = createDocsProvider(() => index);
  let longest = 0;
  let ticking = true;
  const ticker = (async () => {
    let last = performance.now();
    while (ticking) {
      await new Promise((resolve) => setImmediate(resolve));
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }
  })();
  const costs = [];
  for (const question of questions) {
    const startedAt = performance.now();
    await provider.judge(question);
    costs.push(performance.now() - startedAt);
  }
  ticking = false;
  await ticker;
  costs.sort((a, b) => a - b);
  const longDataDir = mkdtempSync(join(tmpdir(), 'bench-long-'));
  const longServer = await start(entry, { ...serverEnv, DATA_DIR: longDataDir });
  await fetch(`${longServer.url}/api/assistant/quote`, quoteRequest).then((response) => response.arrayBuffer());
  const probes = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const startedAt = performance.now();
      await fetch(`${longServer.url}${staticPath}`).then((response) => response.arrayBuffer());
      probes.push(performance.now() - startedAt);
      await sleep(20);
    }
  })();
  const quoted = await fixedLoad(longServer.child.pid, `${longServer.url}/api/assistant/quote`, questions.map((question) => JSON.stringify({ question })));
  probing = false;
  await prober;
  await stop(longServer.child);
  rmSync(longDataDir, { recursive: true, force: true });
  probes.sort((a, b) => a - b);
  longQuestionFigures = {
    questions: questions.length,
    characters: Math.round(questions.reduce((sum, question) => sum + question.length, 0) / questions.length),
    indexLoadMs: Number(indexMs.toFixed(1)),
    readMsMedian: Number(median(costs).toFixed(2)),
    readMsP99: Number(costs[Math.floor(costs.length * 0.99)].toFixed(2)),
    longestLoopStretchMs: Number(longest.toFixed(1)),
    quoteRequestsPerSecond: Math.round(quoted.result.requests.average),
    quoteP99Ms: quoted.result.latency.p99,
    quoteNon2xx: quoted.result.non2xx + quoted.result.errors,
    probeMsP99: Number(probes[Math.floor(probes.length * 0.99)].toFixed(1)),
    probeMsMax: Number(probes.at(-1).toFixed(1)),
  };
}
previousRelease?.remove();
await sandbox.close();
cleanUp();

const mib = (value) => `${value.toFixed(1)} MiB`;
console.log(`\nbench: best of ${runs} alternating ${seconds}s runs, ${connections} connections, load by ${generator}, node ${process.version}, ${cpus().length} cores, ${pinning ? 'servers on core 0, load generator on core 1' : 'no pinning (taskset missing or one core)'}`);
console.table(rows);
if (caseTargets.length > 1) {
  // Ratios against the bare server of the same run, so the two builds compare even on a machine whose speed drifts.
  const [ours, theirs] = caseTargets.map((target) => target.label);
  const comparison = caseRows.map(({ name, byBuild }) => {
    const [mine, before] = [byBuild[ours], byBuild[theirs]];
    const comparable = mine['errors+non2xx'] === 0 && before['errors+non2xx'] === 0;
    return { case: name, [ours]: mine.ratio, [theirs]: comparable ? before.ratio : 'n/a', 'change %': comparable ? Math.round(100 * (mine.ratio / before.ratio - 1)) : 'n/a' };
  });
  console.table(comparison);
  const fell = comparison.filter((entry) => typeof entry['change %'] === 'number' && entry['change %'] < -10);
  console.log(
    fell.length
      ? `fell by more than 10 % against the ${theirs}: ${fell.map((entry) => `${entry.case} (${entry['change %']} %)`).join('; ')}`
      : `no case fell by more than 10 % against the ${theirs} (n/a: a case that release does not answer)`,
  );
}
console.log(`cold start (fresh DATA_DIR) to the first stored premium quote: ${coldStartMs.toFixed(0)} ms`);
console.log(`restart after SIGKILL under quote load to the first store read: ${restartToReadMs.toFixed(0)} ms`);
console.log(`server RSS: ${mib(memory.start)} at start, ${mib(memory.afterFirstWrite)} after the first store write, ${memory.afterQuoteLoad === undefined ? '(quote load not run)' : `${mib(memory.afterQuoteLoad)} after ${seconds}s of quote load at ${connections} connections`}, ${mib(memory.afterAllLoad)} after every case`);
const [withLog, beforeLog] = [paidTurnRows['this build'], previousRelease && paidTurnRows[builds[1].label]];
if (withLog && beforeLog) {
  const extra = median(cpuPairs) - 1;
  console.log(
    `settled paid turn, this build against the ${builds[1].label}: ratio ${withLog.ratio} against ${beforeLog.ratio}; ` +
      `server CPU per turn ${withLog['cpu us/req']} against ${beforeLog['cpu us/req']} us (best runs), ${extra >= 0 ? '+' : ''}${(100 * extra).toFixed(1)} % (median of ${cpuPairs.length} paired runs). ` +
      'Against a baseline just before a change (BENCH_BASELINE), the difference is that change.',
  );
}
if (longQuestionFigures) {
  const figures = longQuestionFigures;
  console.log(
    `long questions (${figures.questions} different, ~${figures.characters} characters, a dozen asks each): the docs provider reads one in ${figures.readMsMedian} ms (median; p99 ${figures.readMsP99} ms), ` +
      `holding the event loop at most ${figures.longestLoopStretchMs} ms at a stretch (goal: 20 ms); the index loads in ${figures.indexLoadMs} ms. ` +
      `The built server quotes them at ${figures.quoteRequestsPerSecond} req/s (p99 ${figures.quoteP99Ms} ms, ${figures.quoteNon2xx} not 2xx) while a probe GET beside them waits at most ${figures.probeMsMax} ms (p99 ${figures.probeMsP99} ms).`,
  );
}
if (buildSeconds !== undefined) console.log(`build time: ${buildSeconds.toFixed(1)} s`);
mkdirSync(`${root}.bench`, { recursive: true });
writeFileSync(
  `${root}.bench/results.json`,
  JSON.stringify({ at: new Date().toISOString(), seconds, connections, runs, turnsPerRun, pinning, generator, rows, comparedWith: caseTargets[1]?.label, coldStartMs, restartToReadMs, memoryMiB: memory, buildSeconds, paidTurnCpuPairs: cpuPairs, longQuestions: longQuestionFigures }, null, 2),
);
process.exit(0);
