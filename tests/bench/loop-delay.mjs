// Preloaded into the server by `npm run bench:scale` (node --import): measures the event loop's delay
// with perf_hooks.monitorEventLoopDelay and the garbage collector's pauses, and on SIGUSR2 writes what
// it saw since the last reading (milliseconds) and the process's memory to BENCH_LOOP_DELAY_FILE, then
// starts again. With BENCH_LOOP_PROFILE_FILE it also samples the CPU between two readings (the
// inspector's profiler, every 250 microseconds) and writes that profile there with the stretches in
// which a 1 ms timer fired more than 20 ms late (`stalls`, in the profile's microseconds), so the
// bench can name what ran while the loop was held.
import { writeFileSync } from 'node:fs';
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
  // V8's profile counts microseconds of the monotonic clock that process.hrtime reads.
  const now = () => Number(process.hrtime.bigint() / 1000n);
  let last = now();
  setInterval(() => {
    const at = now();
    if (profiling && at - last > 20_000) late.push([last, at]);
    last = at;
  }, 1).unref();
}

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
      memoryMiB: { rss: mib(rss), heapTotal: mib(heapTotal), heapUsed: mib(heapUsed), external: mib(external), arrayBuffers: mib(arrayBuffers) },
    }),
  );
  histogram.reset();
  if (session) {
    await session.post('Profiler.start');
    profiling = true;
  }
});
