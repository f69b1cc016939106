/**
 * The event loop's thread first on a busy core. Once a server asks for it, the process's other
 * threads (V8's collector helpers, the embedded store's read thread, libuv's pool that gzips entry
 * bundles) run a few steps of nice below the loop's thread, so where they share a core with the loop
 * the kernel runs the loop's thread first. With the whole server on one core (a one-CPU container,
 * or the bench's pinned core) the loop's longest stretch under load was 23 to 36 ms at a million
 * receipts while its own thread ran at most 9 ms of it: the rest it waited for these threads, V8's
 * above all (docs/performance.md, "The loop's thread waited for the server's own helpers"). Where
 * there are cores enough, nothing changes.
 *
 * Linux only: there `setpriority` on a thread id sets that one thread's priority (setpriority(2)),
 * and /proc lists the threads. A thread started later is lowered when its owner says so (the store's
 * read thread, once online) or at the next look. A thread already as low or lower is left as it is,
 * so nothing is ever raised (a process started with `nice` keeps its helpers below its loop).
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How many steps of nice every thread but the loop's runs below it; each step is about 1.25 times
 * less of a contended core. At a million receipts on one core, 10 (or 10 with two V8 helpers
 * instead of four) kept the loop's stretches a little shorter than 5, but V8's helpers, with less of
 * the core, returned freed memory later: up to 264 MiB resident under load, over the 250 the scale
 * goals allow. 5 cost about 10 MiB (docs/performance.md).
 */
export const HELPER_THREAD_NICE_STEPS = 5;
const LOWEST_NICE = 19;
const LOOK_AGAIN_MS = 10_000;

let wanted = false;
const lowered = new Set<number>();

/** Lowers the helper threads not lowered yet, where a server asked for it; the ids of those it lowered. */
export function lowerNewHelperThreads(): number[] {
  if (!wanted) return [];
  let ids: number[];
  try {
    ids = readdirSync(`/proc/${process.pid}/task`).map(Number);
  } catch {
    // /proc not mounted: the kernel's default order stays.
    return [];
  }
  const now: number[] = [];
  const target = Math.min(LOWEST_NICE, getPriority(process.pid) + HELPER_THREAD_NICE_STEPS);
  for (const id of ids) {
    if (id === process.pid || lowered.has(id)) continue;
    try {
      if (getPriority(id) < target) setPriority(id, target);
      lowered.add(id);
      now.push(id);
    } catch {
      // The thread ended between the listing and here.
    }
  }
  // The ids of threads that ended can be given to new ones.
  for (const id of lowered) if (!ids.includes(id)) lowered.delete(id);
  return now;
}

/** Lowers the helper threads now, as new ones start, and every few seconds (on a timer that does not keep the process alive). */
export function keepHelperThreadsBehindTheLoop(): { stop: () => void } {
  if (process.platform !== 'linux') return { stop: () => {} };
  wanted = true;
  lowerNewHelperThreads();
  const timer = setInterval(lowerNewHelperThreads, LOOK_AGAIN_MS);
  timer.unref();
  return {
    stop: () => {
      wanted = false;
      clearInterval(timer);
    },
  };
}
