// Preloaded into the server by `npm run bench:scale` (node --import): measures the event loop's delay
// with perf_hooks.monitorEventLoopDelay, and on SIGUSR2 writes what it saw since the last reading
// (milliseconds) and the process's memory to BENCH_LOOP_DELAY_FILE, then starts again.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const ms = (nanoseconds) => Math.round(nanoseconds / 1e4) / 100;
process.on('SIGUSR2', () => {
  if (!process.env.BENCH_LOOP_DELAY_FILE) return;
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const mib = (bytes) => Math.round(bytes / 104857.6) / 10;
  writeFileSync(
    process.env.BENCH_LOOP_DELAY_FILE,
    JSON.stringify({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), memoryMiB: { rss: mib(rss), heapTotal: mib(heapTotal), heapUsed: mib(heapUsed), external: mib(external), arrayBuffers: mib(arrayBuffers) } }),
  );
  histogram.reset();
});
