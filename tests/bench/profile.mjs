// `npm run bench:profile`: a CPU profile of the built server under load on one route (default
// the assistant quote, the slowest), summarised as self time per function and per area. The raw
// profile is kept in .bench/ for Chrome DevTools or speedscope. Not part of `npm test`.
// PROFILE_ROUTE=quote|policy|hash|static|turn picks the route (static: a descriptor GET from memory;
// turn: a settled paid turn, POST verify-payment, each request spending its own Note);
// PROFILE_STORE=postgres uses DATABASE_URL's PostgreSQL (default
// postgres://postgres@127.0.0.1:5432/test) instead of the embedded store.
import { spawn, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { nodeFlagsFor, sharedLogKeyFile, sharedX402KeyFile } from '../helpers/built-server.ts';
import { PREMIUM_QUESTION, RECEIVER, RESERVE } from '../helpers/paid-turn.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { paidTurnBodies } from './paid-turn-bodies.mjs';
import { buildPreviousRelease } from '../helpers/previous-release.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// PROFILE_PREVIOUS=1 profiles the previous release (.ci/previous-release, built from git) instead, to set beside this build's profile.
const previous = process.env.PROFILE_PREVIOUS === '1' ? await buildPreviousRelease() : undefined;
const entry = previous?.entry ?? `${root}dist/server/fast-entry.mjs`;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const routeName = process.env.PROFILE_ROUTE ?? 'quote';
const onPostgres = process.env.PROFILE_STORE === 'postgres';
if (!existsSync(entry)) {
  console.error('bench:profile: no build found; run `npm run build` first.');
  process.exit(1);
}

const policyExample = JSON.parse(readFileSync(`${root}dist/client/api/agent-economy/wallet-agent/policy-check/index.json`, 'utf8')).example_request;
const routes = {
  quote: { path: '/api/assistant/quote', body: { question: PREMIUM_QUESTION } },
  policy: { path: '/api/agent-economy/wallet-agent/policy-check', body: policyExample },
  hash: { path: '/api/dev/tools', body: { action: 'hash', input: 'agent-economy', encoding: 'utf8', network: 'testnet' } },
  static: { path: '/api/agents/registry' },
  turn: { path: '/api/assistant/verify-payment', oneUseBodies: true },
};
const route = routes[routeName];
if (!route) throw new Error(`PROFILE_ROUTE must be one of ${Object.keys(routes).join(', ')}`);

const sandbox = await startSandbox({ port: 0, startHeight: 3_000 });
const dataDir = mkdtempSync(join(tmpdir(), 'profile-data-'));
const profileDir = `${root}.bench/profile-${routeName}-${Date.now()}`;
mkdirSync(profileDir, { recursive: true });
// Pinned as in `npm run bench`: the server alone on core 0, this process (autocannon, the sandbox) on
// core 1, so the kernel's loopback work is not charged to the server's socket writes by a shared core.
const pinning = cpus().length > 1 && spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' }).status === 0;
const serverCommand = pinning ? ['taskset', ['-c', '0', process.execPath]] : [process.execPath, []];
const child = spawn(serverCommand[0], [...serverCommand[1], ...nodeFlagsFor(entry, previous), '--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=200', entry], {
  cwd: previous?.root ?? root,
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: onPostgres ? (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test') : '',
    DATABASE_SCHEMA: onPostgres ? `profile_${process.pid}` : '',
    // One log key and one x402 key, as every instance on one PostgreSQL is given (the start is refused without).
    ...(onPostgres ? { LOG_SIGNING_KEY_FILE: sharedLogKeyFile(), X402_SIGNING_KEY_FILE: sharedX402KeyFile() } : {}),
    CHAIN_SOURCE: 'sandbox',
    ERGO_EXPLORER_URL: sandbox.url,
    ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
    ASSISTANT_RESERVE_BOX_ID: RESERVE,
    RATE_LIMIT_QUOTE_PER_MINUTE: '1000000',
    RATE_LIMIT_VERIFY_PER_MINUTE: '1000000',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    const match = /"msg":"listening"[^\n]*"url":"([^"]+)"|"url":"([^"]+)"[^\n]*"msg":"listening"/.exec(buffered);
    if (match) resolve(match[1] ?? match[2]);
  });
  child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});
child.stdout.resume();

/** The load: the route's one body for `duration` seconds, or (one-use bodies) `count` fresh bodies, each sent once. */
async function loadOptions(duration, count) {
  if (route.oneUseBodies) {
    const bodies = await paidTurnBodies(sandbox, url, count);
    let next = 0;
    return { amount: bodies.length, requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (request) => ({ ...request, body: bodies[next++] }) }] };
  }
  return route.body === undefined ? { duration } : { duration, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(route.body) };
}
const turns = Number(process.env.PROFILE_TURNS ?? 3000);
// Warm up: open the store, load the handlers, let the JIT settle.
const warmUp = await loadOptions(2, 500);
await new Promise((resolve, reject) => autocannon({ url: url + route.path, connections: 8, ...warmUp }, (error, result) => (error ? reject(error) : resolve(result))));
const measured = await loadOptions(seconds, turns);
// The profile's clock and process.hrtime are both CLOCK_MONOTONIC: only samples taken under load count.
const loadStart = Number(process.hrtime.bigint() / 1000n);
const result = await new Promise((resolve, reject) =>
  autocannon({ url: url + route.path, connections: 32, ...measured }, (error, outcome) => (error ? reject(error) : resolve(outcome))),
);
const loadEnd = Number(process.hrtime.bigint() / 1000n);
const exited = new Promise((resolve) => child.once('exit', resolve));
child.kill('SIGTERM');
await exited;
await sandbox.close();
rmSync(dataDir, { recursive: true, force: true });
previous?.remove();

const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written in ${profileDir}`);
const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));

// Self time per node: each sample taken under load, weighted by the time to the next sample.
const selfMicros = new Map();
let at = profile.startTime;
for (let index = 0; index < profile.samples.length; index++) {
  at += profile.timeDeltas[index];
  if (at < loadStart || at > loadEnd) continue;
  const id = profile.samples[index];
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
}
const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);

function area(url, name) {
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(idle)' || name === '(program)') return name;
  // node:sqlite's statements are native methods: no script URL, their own names.
  if (!url && /^(all|get|run|exec|prepare|DatabaseSync)$/.test(name)) return 'node:sqlite (embedded store, fsync included)';
  if (!url) return 'V8 / native';
  if (/node_modules\/pg|pg-protocol|pg-pool/.test(url)) return 'pg driver';
  if (/undici/.test(url) || url.startsWith('node:internal/deps/undici')) return 'undici (chain reads)';
  if (/zod/.test(url)) return 'zod';
  if (/pino/.test(url)) return 'pino (request log)';
  if (url.startsWith('node:internal/http') || url.startsWith('node:_http') || url.startsWith('node:http') || /node:net|stream/.test(url)) return 'node:http, net and streams';
  if (url.startsWith('node:')) return 'other Node internals';
  if (url.includes('/dist/server/')) return 'our code (bundled)';
  return 'other libraries';
}

const byFunction = new Map();
const byArea = new Map();
for (const node of profile.nodes) {
  const micros = selfMicros.get(node.id) ?? 0;
  if (!micros) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || '(anonymous)';
  const where = url ? `${url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : '';
  const key = `${name} ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  const areaName = area(url, name);
  byArea.set(areaName, (byArea.get(areaName) ?? 0) + micros);
}
const share = (micros) => `${((micros / total) * 100).toFixed(1)}%`;
const top = (map, count) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => ({ name: name.slice(0, 110), 'self ms': Math.round(micros / 1000), share: share(micros) }));

console.log(
  `\nprofile: ${route.body === undefined && !route.oneUseBodies ? 'GET' : 'POST'} ${route.path} on ${onPostgres ? 'PostgreSQL' : 'embedded SQLite'}, ${pinning ? 'server on core 0, load on core 1' : 'unpinned'}, ${route.oneUseBodies ? `${turns} turns` : `${seconds}s`} at 32 connections: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.errors + result.non2xx} errors/non-2xx`,
);
console.log('\nself time by area:');
console.table(top(byArea, 12));
console.log('top functions by self time:');
console.table(top(byFunction, 20));
console.log(`raw profile: ${join(profileDir, file)}`);
process.exit(0);
