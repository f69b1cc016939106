// `npm run bench`: load figures for the built server beside a bare node:http server, in one run.
// Not part of `npm test`: the machines are shared and noisy, so figures are printed, never asserted.
// BENCH_SECONDS (default 5) and BENCH_CONNECTIONS (default 32) tune the runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = `${root}dist/server/fast-entry.mjs`;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

if (!existsSync(entry)) {
  console.error('bench: no build found; run `npm run build` first.');
  process.exit(1);
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

const server = await start(entry);
const bare = await start(`${root}tests/bench/bare-server.mjs`, { BARE_STATIC_BODY: staticBody });
const rssBefore = rssKiB(server.child.pid);

const json = { method: 'POST', headers: { 'content-type': 'application/json' } };
const cases = [
  { name: `static descriptor GET ${staticPath}`, ours: { url: server.url + staticPath }, bare: { url: bare.url + '/' } },
  {
    name: 'policy-check POST',
    ours: { url: server.url + '/api/agent-economy/wallet-agent/policy-check', ...json, body: JSON.stringify(policyExample) },
    bare: { url: bare.url + '/', ...json, body: JSON.stringify(policyExample) },
  },
];

const rows = [];
for (const { name, ours, bare: yardstick } of cases) {
  const a = await load(ours.url, ours);
  const b = await load(yardstick.url, yardstick);
  rows.push({
    case: name,
    'req/s': Math.round(a.requests.average),
    'p50 ms': a.latency.p50,
    'p99 ms': a.latency.p99,
    'errors+non2xx': a.errors + a.non2xx,
    'bare req/s': Math.round(b.requests.average),
    ratio: Number((a.requests.average / b.requests.average).toFixed(2)),
  });
}
const rssAfter = rssKiB(server.child.pid);
server.child.kill('SIGTERM');
bare.child.kill('SIGTERM');

console.log(`\nbench: ${seconds}s per run, ${connections} connections, node ${process.version}, ${(await import('node:os')).cpus().length} cores`);
console.table(rows);
console.log(`cold start to first answer: ${coldStartMs.toFixed(0)} ms`);
console.log(`server RSS: ${(rssBefore / 1024).toFixed(1)} MiB before, ${(rssAfter / 1024).toFixed(1)} MiB after`);
mkdirSync(`${root}.bench`, { recursive: true });
writeFileSync(`${root}.bench/results.json`, JSON.stringify({ at: new Date().toISOString(), seconds, connections, rows, coldStartMs, rssBefore, rssAfter }, null, 2));
process.exit(0);
