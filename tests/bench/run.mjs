// `npm run bench`: load figures for the built server beside a bare node:http server, in one run.
// Not part of `npm test`: the machines are shared and noisy, so figures are printed, never asserted.
// `ratio` is throughput against the bare server; `cpu ratio` is the bare server's CPU time per
// request over ours (1.0 = no more work than bare node:http), steadier on a busy machine.
// BENCH_SECONDS (default 5) and BENCH_CONNECTIONS (default 32) tune the runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { payForTurn, PREMIUM_QUESTION, RECEIVER, RESERVE } from '../helpers/paid-turn.ts';
import { startSandbox } from '../../src/sandbox/server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = `${root}dist/server/fast-entry.mjs`;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

if (!existsSync(entry)) {
  console.error('bench: no build found; run `npm run build` first.');
  process.exit(1);
}

// BENCH_BUILD=1 times a full `astro build` first (the figure issue 9 asks for).
let buildSeconds;
if (process.env.BENCH_BUILD === '1') {
  const startedAt = performance.now();
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync(process.execPath, [`${root}node_modules/astro/bin/astro.mjs`, 'build'], { cwd: root, stdio: 'ignore', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error('bench: build failed');
  buildSeconds = (performance.now() - startedAt) / 1000;
}

function start(script, env = {}) {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(process.execPath, [script], { cwd: root, env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    const onData = (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        try {
          const record = JSON.parse(line);
          if (record.msg !== 'listening') continue;
          // From here on the request log is drained unread, as a log shipper would.
          child.stdout.off('data', onData);
          child.stdout.resume();
          resolve({ child, url: record.url, startedAt });
          return;
        } catch {}
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function rssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** CPU time (user + system) the process has used so far, in microseconds (clock ticks of 10 ms). */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

function load(url, options = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function firstAnswer(url, startedAt) {
  for (;;) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      return performance.now() - startedAt;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

const policyExample = JSON.parse(readFileSync(`${root}dist/client/api/agent-economy/wallet-agent/policy-check/index.json`, 'utf8')).example_request;
const staticPath = '/api/agents/registry';
const staticBody = readFileSync(`${root}dist/client/api/agents/registry/index.json`, 'utf8');

const cold = await start(entry);
const coldStartMs = await firstAnswer(`${cold.url}${staticPath}`, cold.startedAt);
cold.child.kill('SIGTERM');

// The assistant routes run for real: a sandbox chain, the embedded store in a fresh folder, limits
// raised so the load generator measures the work rather than the 429s.
const sandbox = await startSandbox({ port: 0, startHeight: 3_000 });
const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
const server = await start(entry, {
  DATA_DIR: dataDir,
  CHAIN_SOURCE: 'sandbox',
  ERGO_EXPLORER_URL: sandbox.url,
  ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
  ASSISTANT_RESERVE_BOX_ID: RESERVE,
  RATE_LIMIT_QUOTE_PER_MINUTE: '1000000',
});
const bare = await start(`${root}tests/bench/bare-server.mjs`, { BARE_STATIC_BODY: staticBody });
const turn = await payForTurn({ server: { url: server.url }, sandbox });
const rssBefore = rssKiB(server.child.pid);

const json = { method: 'POST', headers: { 'content-type': 'application/json' } };
const cases = [
  { name: `static descriptor GET ${staticPath}`, ours: { url: server.url + staticPath }, bare: { url: bare.url + '/' } },
  {
    name: 'dev-tools hash POST',
    ours: { url: server.url + '/api/dev/tools', ...json, body: JSON.stringify({ action: 'hash', input: 'agent-economy', encoding: 'utf8', network: 'testnet' }) },
    bare: { url: bare.url + '/', ...json, body: JSON.stringify({ action: 'hash', input: 'agent-economy', encoding: 'utf8', network: 'testnet' }) },
  },
  {
    name: 'assistant quote POST (premium: chain height + stored quote)',
    ours: { url: server.url + '/api/assistant/quote', ...json, body: JSON.stringify({ question: PREMIUM_QUESTION }) },
    bare: { url: bare.url + '/', ...json, body: JSON.stringify({ question: PREMIUM_QUESTION }) },
  },
  { name: 'receipt GET (store lookup)', ours: { url: `${server.url}/api/assistant/receipt/${turn.receiptId}` }, bare: { url: bare.url + '/' } },
  {
    name: 'policy-check POST',
    ours: { url: server.url + '/api/agent-economy/wallet-agent/policy-check', ...json, body: JSON.stringify(policyExample) },
    bare: { url: bare.url + '/', ...json, body: JSON.stringify(policyExample) },
  },
];

const rows = [];
// Throughput ratios move with whatever else the shared machine runs (the load generator shares its
// cores too); the server's own CPU time per request does not, so both are printed.
const measured = async (pid, options) => {
  const before = cpuMicros(pid);
  const result = await load(options.url, options);
  return { result, cpuPerRequest: (cpuMicros(pid) - before) / Math.max(1, result.requests.total) };
};
for (const { name, ours, bare: yardstick } of cases) {
  const a = await measured(server.child.pid, ours);
  const b = await measured(bare.child.pid, yardstick);
  rows.push({
    case: name,
    'req/s': Math.round(a.result.requests.average),
    'p50 ms': a.result.latency.p50,
    'p99 ms': a.result.latency.p99,
    'errors+non2xx': a.result.errors + a.result.non2xx,
    'bare req/s': Math.round(b.result.requests.average),
    ratio: Number((a.result.requests.average / b.result.requests.average).toFixed(2)),
    'cpu us/req': Math.round(a.cpuPerRequest),
    'bare cpu us/req': Math.round(b.cpuPerRequest),
    'cpu ratio': Number((b.cpuPerRequest / a.cpuPerRequest).toFixed(2)),
  });
}
const rssAfter = rssKiB(server.child.pid);
server.child.kill('SIGTERM');
bare.child.kill('SIGTERM');
await sandbox.close();
rmSync(dataDir, { recursive: true, force: true });

console.log(`\nbench: ${seconds}s per run, ${connections} connections, node ${process.version}, ${(await import('node:os')).cpus().length} cores`);
console.table(rows);
console.log(`cold start to first answer: ${coldStartMs.toFixed(0)} ms`);
if (buildSeconds !== undefined) console.log(`build time: ${buildSeconds.toFixed(1)} s`);
console.log(`server RSS: ${(rssBefore / 1024).toFixed(1)} MiB before, ${(rssAfter / 1024).toFixed(1)} MiB after`);
mkdirSync(`${root}.bench`, { recursive: true });
writeFileSync(`${root}.bench/results.json`, JSON.stringify({ at: new Date().toISOString(), seconds, connections, rows, coldStartMs, buildSeconds, rssBefore, rssAfter }, null, 2));
process.exit(0);
