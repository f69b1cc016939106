/**
 * The event loop's thread first on a busy core. Once a server asks for it, the process's other
 * threads (V8's collector helpers, the embedded store's read thread, libuv's pool that gzips entry
 * bundles) run at a lower scheduling priority, so where they share a core with the loop the kernel
 * runs the loop's thread first. With the whole server on one core (a one-CPU container, or the
 * bench's pinned core) the loop's longest stretch under load was 23 to 29 ms at a million receipts
 * while its own thread ran at most 9 ms of it: the rest it waited for these threads
 * (docs/performance.md, "The loop's thread waited for the server's own helpers"). Where there are
 * cores enough, nothing changes.
 *
 * Linux only: there `setpriority` on a thread id sets that one thread's priority (setpriority(2)),
 * and /proc lists the threads. A thread started later is lowered when its owner says so (the store's
 * read thread, once online) or at the next look. A process may always lower its own threads' priority;
 * raising it back would need privileges, so no value is ever raised.
 */
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value of every thread but the loop's (0): about a tenth of its share of a contended core. */
export const HELPER_THREAD_NICE = 10;
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
  for (const id of ids) {
    if (id === process.pid || lowered.has(id)) continue;
    try {
      setPriority(id, HELPER_THREAD_NICE);
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
