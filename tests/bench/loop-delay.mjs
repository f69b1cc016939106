// Preloaded into the server by `npm run bench:scale` (node --import): measures the event loop's delay
// with perf_hooks.monitorEventLoopDelay and the garbage collector's pauses, and on SIGUSR2 writes what
// it saw since the last reading (milliseconds) and the process's memory to BENCH_LOOP_DELAY_FILE, then
// starts again. With BENCH_LOOP_PROFILE_FILE it also samples the CPU between two readings (the
// inspector's profiler, every 250 microseconds) and writes that profile there with the stretches in
// which a 1 ms timer fired more than 20 ms late (`stalls`, in the profile's microseconds), so the
// bench can name what ran while the loop was held.
//
// Every stretch over 20 ms between two turns of a 1 ms timer is also split by where the loop's
// thread was (its /proc schedstat): running (our code and the collector's steps on that thread),
// waiting for the CPU (runnable while the core ran another thread: on the bench's one pinned core,
// the collector's helpers, the store's read thread or another process) or neither (asleep: a lock,
// a collector's join, a blocking call). Only the first is the loop held by the server's own work.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const ms = (nanoseconds) => Math.round(nanoseconds / 1e4) / 100;

const GC_KINDS = { 1: 'scavenge', 2: 'mark-compact', 4: 'incremental', 8: 'weak callbacks' };
let pauses = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push({ kind: GC_KINDS[entry.detail?.kind] ?? String(entry.detail?.kind), ms: entry.duration });
}).observe({ entryTypes: ['gc'] });

const profileFile = process.env.BENCH_LOOP_PROFILE_FILE;
const session = profileFile ? new Session() : undefined;
let profiling = false;
let late = [];
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
}

// The loop's thread is the process's first: its schedstat is CPU time, then time runnable but waiting, in ns.
const schedstat = `/proc/${process.pid}/task/${process.pid}/schedstat`;
const threadTimes = () => {
  try {
    const [running, waiting] = readFileSync(schedstat, 'utf8').split(' ').map(Number);
    return { running, waiting };
  } catch {
    return undefined;
  }
};
let stretches = [];
// V8's profile counts microseconds of the monotonic clock that process.hrtime reads.
const now = () => Number(process.hrtime.bigint() / 1000n);
let last = now();
let lastTimes = threadTimes();
setInterval(() => {
  const at = now();
  const times = threadTimes();
  if (at - last > 20_000) {
    if (profiling) late.push([last, at]);
    if (times && lastTimes) {
      const running = (times.running - lastTimes.running) / 1e6;
      const waiting = (times.waiting - lastTimes.waiting) / 1e6;
      stretches.push({ ms: (at - last) / 1000, running, waiting, asleep: Math.max(0, (at - last) / 1000 - running - waiting) });
    }
  }
  last = at;
  lastTimes = times;
}, 1).unref();

process.on('SIGUSR2', async () => {
  if (!process.env.BENCH_LOOP_DELAY_FILE) return;
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const mib = (bytes) => Math.round(bytes / 104857.6) / 10;
  const gc = pauses.reduce(
    (sum, pause) => ({ count: sum.count + 1, totalMs: sum.totalMs + pause.ms, maxMs: Math.max(sum.maxMs, pause.ms), over20: sum.over20 + (pause.ms > 20 ? 1 : 0) }),
    { count: 0, totalMs: 0, maxMs: 0, over20: 0 },
  );
  const longest = pauses.toSorted((a, b) => b.ms - a.ms).slice(0, 3).map((pause) => `${pause.kind} ${pause.ms.toFixed(1)}`);
  // Per kind: how many, in all and the longest (ms).
  const kinds = {};
  for (const pause of pauses) {
    const kind = (kinds[pause.kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
    kind.count++;
    kind.totalMs = Math.round((kind.totalMs + pause.ms) * 10) / 10;
    kind.maxMs = Math.max(kind.maxMs, Math.round(pause.ms * 10) / 10);
  }
  pauses = [];
  if (session && profiling) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify({ ...profile, stalls: late }));
    late = [];
  }
  writeFileSync(
    process.env.BENCH_LOOP_DELAY_FILE,
    JSON.stringify({
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      gc: { count: gc.count, totalMs: Math.round(gc.totalMs), maxMs: Math.round(gc.maxMs * 10) / 10, over20: gc.over20, longest, kinds },
      stretches: over20(stretches),
      memoryMiB: { rss: mib(rss), heapTotal: mib(heapTotal), heapUsed: mib(heapUsed), external: mib(external), arrayBuffers: mib(arrayBuffers) },
    }),
  );
  histogram.reset();
  // From here: the reading's own work (the file, the profile) is no stretch of the next reading.
  stretches = [];
  last = now();
  lastTimes = threadTimes();
  if (session) {
    await session.post('Profiler.start');
    profiling = true;
  }
});

/** Stretches over 20 ms: how many, the longest, and the longest time the loop's thread ran within one. */
function over20(all) {
  const round = (value) => Math.round(value * 10) / 10;
  const longest = all.toSorted((a, b) => b.ms - a.ms)[0];
  const mostRun = all.toSorted((a, b) => b.running - a.running)[0];
  const shape = (stretch) => stretch && { ms: round(stretch.ms), running: round(stretch.running), waiting: round(stretch.waiting), asleep: round(stretch.asleep) };
  return { count: all.length, heldOver20: all.filter((stretch) => stretch.running > 20).length, longest: shape(longest), mostRunning: shape(mostRun) };
}
