// `npm run bench:scale`: what the store-derived public routes cost as history grows. For each size
// (BENCH_SCALE_SIZES, default 1000,100000,1000000) it seeds that many paid turns through the store's
// own API into a fresh data folder (and into a fresh PostgreSQL schema as well when DATABASE_URL is
// set), starts the built server on it, and prints for each route p50/p99 latency and body size, then
// the server's event-loop delay (perf_hooks.monitorEventLoopDelay, read inside the server) and
// resident memory under a mixed load of every route, store bytes per receipt, seeding time and the
// time the server took to fold the seeded receipts into the reputation aggregates (what a
// migration's backfill costs), and the event-loop delay of a bare node:http server under the same load
// (tests/bench/bare-server.mjs, the yardstick of `npm run bench`): on a shared machine its max is the
// floor. Each stretch over 20 ms without a turn of the loop is split by where the loop's thread was:
// running, waiting for the CPU, or asleep (tests/bench/loop-delay.mjs); only the first is the server's
// own work holding the loop. Figures are printed, never asserted: the machines are shared.
//
// The server runs pinned to core 0 and the load generator (wrk, or autocannon's command line) to
// core 1, as in `npm run bench`; BENCH_SCALE_SECONDS (default 5) per route and BENCH_SCALE_CONNECTIONS
// (default 4) per route; the mixed load (every route in turn) runs twice as long at as many connections.
// BENCH_SCALE_NODE_OPTIONS adds Node flags to the server's (to try a heap size, say).
// BENCH_SCALE_PROFILE=1 samples the server's CPU during the mixed load and prints the stretches in
// which the event loop was held over 20 ms with the functions that ran in them (tests/bench/stalls.mjs); the
// profile is left in the data folder (loop.cpuprofile) for Chrome DevTools or speedscope.
// BENCH_SCALE_COLD=1 empties the operating system's page cache (as root: /proc/sys/vm/drop_caches)
// before each route's load and before the mixed load, so the store is read from disk as a store
// larger than the machine's memory would be; without it, a store seeded a moment ago is all in memory.
// BENCH_SCALE_KEEP=1 keeps each seeded store (embedded: .bench/scale-sqlite-<size>; PostgreSQL: the schema
// bench_scale_kept_<size>) and a later run measures it again without seeding; BENCH_SCALE_ENGINES=postgres
// (or sqlite) measures one engine only; BENCH_SCALE_SEED_UNSYNCED=1 seeds PostgreSQL without waiting for
// each commit's WAL flush (a kept store's seeding, whose time is then not a figure).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { createStore } from '../../src/services/store/index.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { RECEIVER, RESERVE } from '../helpers/paid-turn.ts';
import { cleanUp, generator, load, pinning, root, rssMiB, sleep, start, stop } from './harness.mjs';
import { seedReceipts } from '../helpers/receipt-seed.ts';
import { stalls } from './stalls.mjs';

const entry = `${root}dist/server/fast-entry.mjs`;
if (!existsSync(entry)) {
  console.error('bench:scale: no build found; run `npm run build` first.');
  process.exit(1);
}
const sizes = (process.env.BENCH_SCALE_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const seconds = Number(process.env.BENCH_SCALE_SECONDS ?? 5);
const connections = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 4);
const MIB = 1024 * 1024;
const profiling = process.env.BENCH_SCALE_PROFILE === '1';
const cold = process.env.BENCH_SCALE_COLD === '1';

/** With BENCH_SCALE_COLD=1, the page cache emptied: the store's next reads go to the disk. */
function dropPageCache() {
  if (!cold) return;
  spawnSync('sync');
  writeFileSync('/proc/sys/vm/drop_caches', '1\n');
}

const sandbox = await startSandbox({ port: 0, startHeight: 3_000 });
// BENCH_SCALE_ENGINES=postgres (or sqlite) measures one engine only.
const engines = [{ name: 'sqlite' }, ...(process.env.DATABASE_URL ? [{ name: 'postgres', url: process.env.DATABASE_URL }] : [])].filter(
  (engine) => !process.env.BENCH_SCALE_ENGINES || process.env.BENCH_SCALE_ENGINES.split(',').includes(engine.name),
);

/**
 * A fresh place for one run's store: a data folder, and a schema of its own on PostgreSQL. With
 * BENCH_SCALE_KEEP=1 an embedded store is kept in .bench/scale-sqlite-<size> once seeded, and a
 * later run measures it again without seeding (7.7 GB at a million receipts: delete it after); on
 * PostgreSQL the schema bench_scale_kept_<size> is kept, its signing key and mark in .bench/scale-postgres-<size>.
 */
async function freshStore(engine, size) {
  if (engine.name === 'sqlite' && process.env.BENCH_SCALE_KEEP === '1') {
    const dataDir = join(root, '.bench', `scale-sqlite-${size}`);
    mkdirSync(dataDir, { recursive: true });
    const seeded = existsSync(join(dataDir, 'seeded'));
    return { dataDir, seeded, config: { driver: 'sqlite', dataDir }, env: { DATABASE_URL: '' }, bytes: () => folderBytes(dataDir), drop: async () => writeFileSync(join(dataDir, 'seeded'), ''), keep: true };
  }
  if (engine.name === 'sqlite') {
    const dataDir = mkdtempSync(join(tmpdir(), `bench-scale-${size}-`));
    return { dataDir, config: { driver: 'sqlite', dataDir }, env: { DATABASE_URL: '' }, bytes: () => folderBytes(dataDir), drop: async () => {} };
  }
  // Kept on PostgreSQL: a schema of its own, with the log's signing key and the `seeded` mark in .bench.
  const keep = process.env.BENCH_SCALE_KEEP === '1';
  const dataDir = keep ? join(root, '.bench', `scale-postgres-${size}`) : mkdtempSync(join(tmpdir(), `bench-scale-${size}-`));
  mkdirSync(dataDir, { recursive: true });
  const schema = keep ? `bench_scale_kept_${size}` : `bench_scale_${size}_${process.pid}`;
  const seeded = keep && existsSync(join(dataDir, 'seeded'));
  const keyFile = join(dataDir, 'log-signing-key.pem');
  // The x402 signing key too: on PostgreSQL the server refuses to start without one.
  const x402KeyFile = join(dataDir, 'x402-signing-key.pem');
  if (!keep) {
    const admin = new pg.Client({ connectionString: engine.url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
  return {
    dataDir,
    seeded,
    keep,
    config: { driver: 'postgres', connectionString: engine.url, schema, poolSize: 8 },
    env: { DATABASE_URL: engine.url, DATABASE_SCHEMA: schema, LOG_SIGNING_KEY_FILE: keyFile, X402_SIGNING_KEY_FILE: x402KeyFile, REDIS_URL: '' },
    keyFile,
    x402KeyFile,
    bytes: async () => {
      const client = new pg.Client({ connectionString: engine.url });
      await client.connect();
      const { rows } = await client.query(
        "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')",
        [schema],
      );
      await client.end();
      return Number(rows[0].bytes);
    },
    analyze: async () => {
      const client = new pg.Client({ connectionString: engine.url });
      await client.connect();
      const { rows } = await client.query('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema]);
      for (const { tablename } of rows) await client.query(`ANALYZE ${schema}.${tablename}`);
      await client.end();
    },
    drop: async () => {
      if (keep) return writeFileSync(join(dataDir, 'seeded'), '');
      const client = new pg.Client({ connectionString: engine.url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

/** A loop-delay reading's stretches over 20 ms, split by where the loop's thread was (tests/bench/loop-delay.mjs). */
function stretchText(stretches) {
  if (!stretches?.count) return 'none';
  const parts = (stretch) => `${stretch.ms} ms: ${stretch.running} running, ${stretch.waiting} waiting for the CPU, ${stretch.asleep} asleep`;
  return `${stretches.count}, ${stretches.heldOver20} with the thread running over 20 ms; longest ${parts(stretches.longest)}; most running ${parts(stretches.mostRunning)}`;
}

/** `url` with libpq `options` (run-time settings for its sessions). */
function withOptions(url, options) {
  const parsed = new URL(url);
  parsed.searchParams.set('options', options);
  return parsed.toString();
}

function folderBytes(dir) {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

/** The server's event-loop delay since the last reading (the preload answers SIGUSR2 with a file). */
async function loopDelay(child, file) {
  rmSync(file, { force: true });
  child.kill('SIGUSR2');
  for (let waited = 0; waited < 5_000 && !existsSync(file); waited += 20) await sleep(20);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Moves V8's sampling thread off the server's core, so the profile samples the loop at its interval
 * rather than when the pinned core has time for the sampler (which is when the loop is not busy).
 */
function samplerOnCore1(pid) {
  for (let waited = 0; waited < 50; waited++) {
    const sampler = readdirSync(`/proc/${pid}/task`).find((tid) => readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === 'v8:ProfEvntProc');
    if (sampler) return void spawnSync('taskset', ['-p', '-c', '1', sampler], { stdio: 'ignore' });
    spawnSync('sleep', ['0.02']);
  }
}

/** GETs `url` once: status and body bytes as sent (identity, unless `headers` ask for a coding). */
async function once(url, headers = { 'accept-encoding': 'identity' }) {
  const response = await request(url, { headers });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, bytes: body.length, body };
}

/** Waits until `check` returns a value, polling every 200 ms for at most `ms`. */
async function until(check, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`bench:scale: ${what} did not happen within ${ms / 1000} s`);
    await sleep(200);
  }
}

const results = [];
for (const engine of engines) {
  for (const size of sizes) {
    const place = await freshStore(engine, size);
    if (place.keyFile && !place.seeded) {
      const { generateKeyPairSync } = await import('node:crypto');
      writeFileSync(place.keyFile, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    }
    if (place.x402KeyFile && !existsSync(place.x402KeyFile)) {
      const { generateKeyPairSync } = await import('node:crypto');
      writeFileSync(place.x402KeyFile, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    }
    // BENCH_SCALE_SEED_UNSYNCED=1: PostgreSQL seeding commits without waiting for the WAL's flush (on the
    // seeding connections only; the server measured runs with the database's own setting). Each settlement
    // appends to the log under one lock, so seeding otherwise waits a flush per group: for a kept store,
    // whose seeding time is then not a figure to report.
    const unsynced = engine.name === 'postgres' && process.env.BENCH_SCALE_SEED_UNSYNCED === '1';
    const seedConfig = unsynced ? { ...place.config, connectionString: withOptions(place.config.connectionString, '-c synchronous_commit=off') } : place.config;
    const store = createStore({ ...seedConfig, statementTimeoutMs: 30_000, connectTimeoutMs: 10_000 });
    await store.ready();
    const seedStarted = performance.now();
    let shown = 0;
    // A kept store whose seeding was stopped is topped up to `size`.
    const had = place.keep && !place.seeded ? await store.countReceipts() : 0;
    if (!place.seeded) {
      if (had > 0) process.stderr.write(`bench:scale ${engine.name}: ${had} receipts kept from a seeding that stopped; adding ${size - had}\n`);
      await seedReceipts(store, size - had, {
        progress: (stored) => {
          if (had + stored - shown >= 100_000) process.stderr.write(`bench:scale ${engine.name}: ${(shown = had + stored)} of ${size} receipts stored\n`);
        },
      });
    }
    const seedSeconds = place.seeded ? undefined : (performance.now() - seedStarted) / 1000;
    const seededNow = size - had;
    // PostgreSQL's planner reads statistics that autovacuum keeps after a bulk load; where it is off
    // (as on these machines), the busiest subject's evidence was read whole (1.1 s at a million receipts).
    if (place.analyze) await place.analyze();
    await store.close();
    const storeBytes = await place.bytes();

    const delayFile = join(place.dataDir, 'loop-delay.json');
    const profileFile = join(place.dataDir, 'loop.cpuprofile');
    const server = await start(entry, {
      LOG_LEVEL: 'warn',
      DATA_DIR: place.dataDir,
      CHAIN_SOURCE: 'sandbox',
      ERGO_EXPLORER_URL: sandbox.url,
      ERGO_NODE_URL: '',
      ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
      ASSISTANT_RESERVE_BOX_ID: RESERVE,
      NODE_OPTIONS: `--import=${root}tests/bench/loop-delay.mjs ${process.env.BENCH_SCALE_NODE_OPTIONS ?? ''}`,
      BENCH_LOOP_DELAY_FILE: delayFile,
      ...(profiling ? { BENCH_LOOP_PROFILE_FILE: profileFile } : {}),
      ...place.env,
    });
    const base = server.url;
    const startedAt = performance.now();
    // The server signs a checkpoint of the seeded log, then folds it into the reputation aggregates.
    await until(async () => {
      const note = (await once(`${base}/api/transparency/receipts/checkpoint`)).body.toString();
      return Number(note.split('\n')[1]) >= size ? true : undefined;
    }, 600_000, 'a checkpoint of the whole log');
    const first = await until(async () => {
      const answer = await once(`${base}/api/agents/reputation`);
      return answer.status === 200 ? JSON.parse(answer.body) : undefined;
    }, 3_600_000, 'the reputation graph of the seeded receipts');
    const foldSeconds = (performance.now() - startedAt) / 1000;

    const top = first.subjects[0];
    const evidence = JSON.parse((await once(`${base}/api/agents/reputation/evidence?kind=${top.kind}&subject_id=${encodeURIComponent(top.subject_id)}&limit=200`)).body);
    const receiptId = evidence.evidence.at(-1).receipt_id;
    const logSize = size;
    const lastFull = Math.floor(logSize / 256) - 1;
    const tileIndex = (n) => {
      const digits = String(n).padStart(3 * Math.max(1, Math.ceil(String(n).length / 3)), '0');
      return digits.match(/.{3}/g).map((part, i, all) => (i < all.length - 1 ? `x${part}` : part)).join('/');
    };
    const routes = [
      ['reputation (first page, 50)', '/api/agents/reputation'],
      ['reputation (200 a page)', '/api/agents/reputation?limit=200'],
      ['reputation (next page)', new URL(first.page.next_url ?? `${base}/api/agents/reputation`).pathname + new URL(first.page.next_url ?? `${base}/api/agents/reputation`).search],
      ['reputation evidence (busiest subject, 200)', `/api/agents/reputation/evidence?kind=${top.kind}&subject_id=${encodeURIComponent(top.subject_id)}&limit=200`],
      ['reputation evidence (next page)', evidence.page.next_url ? new URL(evidence.page.next_url).pathname + new URL(evidence.page.next_url).search : null],
      ['proofs (newest 200)', '/api/agent-economy/proofs'],
      ['proofs timeline SVG', '/api/agent-economy/proofs/timeline.svg'],
      ['live status', '/api/agent-economy/live'],
      ['live timeline SVG', '/api/agent-economy/live/timeline.svg'],
      ['activity feed', '/api/assistant/activity'],
      ['receipt', `/api/assistant/receipt/${receiptId}`],
      ['receipt page (HTML)', `/receipt/${receiptId}/`],
      ['receipt tlog-proof', `/api/assistant/receipt/${receiptId}/proof`],
      ['log checkpoint', '/api/transparency/receipts/checkpoint'],
      ['log tile, level 0 (last full)', lastFull >= 0 ? `/api/transparency/receipts/tile/0/${tileIndex(lastFull)}` : null],
      // Sent gzipped whatever the client asks (tlog-tiles allows it): the bytes as sent.
      ['log entries tile (last full)', lastFull >= 0 ? `/api/transparency/receipts/tile/entries/${tileIndex(lastFull)}` : null],
      // A reader walking the log: each request a full bundle not read before (beyond what is kept in memory).
      ['log entries tiles (100 different, gzip)', lastFull >= 0 ? Array.from({ length: Math.min(100, lastFull + 1) }, (_, i) => `/api/transparency/receipts/tile/entries/${tileIndex(Math.floor((i * (lastFull + 1)) / Math.min(100, lastFull + 1)))}`) : null, { 'accept-encoding': 'gzip' }],
    ].filter(([, path]) => path);

    const rows = [];
    for (const [name, path, headers] of routes) {
      const paths = Array.isArray(path) ? path : [path];
      const { status, bytes } = await once(base + paths[0], headers);
      dropPageCache();
      const result = await load({ url: base + paths[0], ...(paths.length > 1 ? { paths } : {}), headers }, { duration: seconds, connections });
      rows.push({
        route: name,
        status,
        'body bytes': bytes,
        'req/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        'errors+non2xx': result.errors + result.non2xx,
        // Resident memory after the route's load, the routes in the order above: which answers grow it.
        'RSS MiB after': Math.round(rssMiB(server.child.pid)),
      });
    }
    await loopDelay(server.child, delayFile);
    if (profiling) samplerOnCore1(server.child.pid);
    dropPageCache();
    const mixed = await load({ url: base + routes[0][1], paths: routes.flatMap(([, path]) => (Array.isArray(path) ? path.slice(0, 3) : [path])) }, { duration: 2 * seconds, connections });
    const delay = await loopDelay(server.child, delayFile);
    const rss = rssMiB(server.child.pid);
    await stop(server.child);
    // The yardstick: a bare node:http server (tests/bench/bare-server.mjs) under the same load, its loop
    // delay read the same way. On a shared machine its max is the floor no server here gets under.
    const bareDelayFile = join(place.dataDir, 'bare-loop-delay.json');
    const bare = await start(`${root}tests/bench/bare-server.mjs`, { NODE_OPTIONS: `--import=${root}tests/bench/loop-delay.mjs`, BENCH_LOOP_DELAY_FILE: bareDelayFile });
    await loopDelay(bare.child, bareDelayFile);
    const bareMixed = await load({ url: `${bare.url}/` }, { duration: 2 * seconds, connections });
    const bareDelay = await loopDelay(bare.child, bareDelayFile);
    await stop(bare.child);
    await place.drop();
    if (!place.keep) rmSync(place.dataDir, { recursive: true, force: true });

    const summary = {
      engine: engine.name,
      receipts: size,
      seedSeconds: seedSeconds === undefined ? null : Number(seedSeconds.toFixed(1)),
      foldSeconds: Number(foldSeconds.toFixed(1)),
      storeBytesPerReceipt: Math.round(storeBytes / size),
      mixed: { 'req/s': Math.round(mixed.requests.average), p50: mixed.latency.p50, p99: mixed.latency.p99, errors: mixed.errors + mixed.non2xx },
      eventLoopDelayMs: { p50: delay.p50, p99: delay.p99, max: delay.max },
      bareEventLoopDelayMs: { 'req/s': Math.round(bareMixed.requests.average), p50: bareDelay.p50, p99: bareDelay.p99, max: bareDelay.max },
      gcPauses: delay.gc,
      stretchesOver20: delay.stretches,
      bareStretchesOver20: bareDelay.stretches,
      memoryMiB: delay.memoryMiB,
      rssMiB: Number(rss.toFixed(1)),
      rows,
    };
    results.push(summary);
    const seeding = seedSeconds === undefined ? 'kept from an earlier run' : `${had > 0 ? `${had} kept, ${seededNow} more ` : ''}seeded in ${summary.seedSeconds} s (${Math.round(seededNow / seedSeconds)} a second${unsynced ? ', commits unsynced' : ''})`;
    console.log(`\n${engine.name}, ${size} receipts: ${seeding}, ${summary.storeBytesPerReceipt} store bytes a receipt; server start to the first reputation answer ${summary.foldSeconds} s`);
    console.table(rows);
    const over = rows.filter((row) => row['body bytes'] > MIB || row['p99 ms'] > 50);
    console.log(
      `mixed load (every route in turn, ${connections} connections, ${2 * seconds} s): ${summary.mixed['req/s']} req/s, p50 ${summary.mixed.p50} ms, p99 ${summary.mixed.p99} ms; ` +
        `event-loop delay p50 ${delay.p50} ms, p99 ${delay.p99} ms, max ${delay.max} ms; RSS ${summary.rssMiB} MiB (V8 heap ${delay.memoryMiB.heapUsed} of ${delay.memoryMiB.heapTotal} MiB)` +
        (over.length ? `; over the goals (p99 50 ms, body 1 MiB): ${over.map((row) => row.route).join(', ')}` : ''),
    );
    console.log(`bare node:http under the same load (${summary.bareEventLoopDelayMs['req/s']} req/s): event-loop delay p50 ${bareDelay.p50} ms, p99 ${bareDelay.p99} ms, max ${bareDelay.max} ms`);
    console.log(`stretches over 20 ms between turns of the loop (where its thread was): this server ${stretchText(delay.stretches)}; the bare server ${stretchText(bareDelay.stretches)}`);
    console.log(
      `garbage collector during the mixed load: ${delay.gc.count} pauses, ${delay.gc.totalMs} ms in all, longest ${delay.gc.longest.join(', ')} ms (${delay.gc.over20} over 20 ms); ` +
        Object.entries(delay.gc.kinds ?? {}).map(([kind, { count, totalMs, maxMs }]) => `${kind} ${count} (${totalMs} ms, longest ${maxMs})`).join(', '),
    );
    if (profiling && existsSync(profileFile)) {
      const busiest = stalls(JSON.parse(readFileSync(profileFile, 'utf8'))).slice(0, 5);
      console.log(`event loop held over 20 ms at a stretch during the mixed load: ${busiest.length ? '' : 'none'}`);
      for (const stall of busiest) console.log(`  ${stall.ms} ms at ${stall.atMs} ms: self ${stall.self.join(', ')}\n    within ${stall.within.join(', ')}`);
    }
  }
}
await sandbox.close();
cleanUp();
console.log(`\nbench:scale: load by ${generator}, node ${process.version}, ${pinning ? 'server on core 0, load generator on core 1' : 'no pinning'}, ${seconds} s a route at ${connections} connections${cold ? ', the page cache emptied before each load' : ''}`);
mkdirSync(`${root}.bench`, { recursive: true });
writeFileSync(`${root}.bench/scale.json`, JSON.stringify({ at: new Date().toISOString(), seconds, connections, generator, pinning, results }, null, 2));
process.exit(0);
