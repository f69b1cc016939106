/**
 * The loop's thread first on a busy core (src/lib/helper-threads.ts): on one core, the built
 * server's loop waited up to 26 ms at a stretch for its own helper threads (the collector's, the
 * store's read thread) while it ran at most 9 ms of it. Every thread but the loop's now runs at a
 * lower priority; before, all ran at the process's own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { HELPER_THREAD_NICE_STEPS, keepHelperThreadsBehindTheLoop, lowerNewHelperThreads } from '../../src/lib/helper-threads.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';

/** Each thread of a process: its id, name and nice value (/proc/<pid>/task/<tid>/stat, field 19). */
function threads(pid: number): Array<{ id: number; name: string; nice: number }> {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // The name is in parentheses and may hold spaces; the fields after it start at field 3.
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [{ id: Number(tid), name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), nice: Number(after[19 - 3]) }];
    } catch {
      return [];
    }
  });
}

const onLinux = process.platform === 'linux';
/** The nice value helpers get below a loop's thread at `loop`. */
const below = (loop: number) => Math.min(19, loop + HELPER_THREAD_NICE_STEPS);

describe.runIf(onLinux)('helper threads behind the loop', () => {
  let server: RunningServer | undefined;
  afterAll(() => server?.stop());

  it('runs every thread of the built server but the loop’s at a lower priority, among them the store’s read thread and the collector’s', async () => {
    server = await startBuiltServer({ LOG_LEVEL: 'silent' });
    const pid = server.process.pid!;
    // The store's read thread starts with the first read: a request that reads the store.
    expect((await fetch(`${server.url}/api/assistant/activity`)).status).toBe(200);
    let seen = threads(pid);
    const loopNice = seen.find((thread) => thread.id === pid)!.nice;
    const settled = () => seen.some((thread) => thread.name === 'sqlite reads') && seen.every((thread) => thread.id === pid || thread.nice === below(loopNice));
    // Lowered just after the `listening` line, and the read thread as it comes online.
    for (let waited = 0; waited < 10_000 && !settled(); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = threads(pid);
    }
    // The loop's thread keeps the priority the server was started with (this runner's).
    expect(seen.find((thread) => thread.id === pid)?.nice).toBe(threads(process.pid).find((thread) => thread.id === process.pid)!.nice);
    const helpers = seen.filter((thread) => thread.id !== pid);
    expect(helpers.map((thread) => thread.name)).toEqual(expect.arrayContaining(['sqlite reads', expect.stringMatching(/^V8Worker|^V8 DefaultWorke/)]));
    expect(helpers.filter((thread) => thread.nice !== below(loopNice))).toEqual([]);
    // Still answering.
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });

  it('lowers a thread started after the first look on the next one, and each thread once, and none before a server asks', async () => {
    const early = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => early.once('online', resolve));
    expect(lowerNewHelperThreads()).toEqual([]);
    const loopNice = threads(process.pid).find((thread) => thread.id === process.pid)!.nice;
    const keeping = keepHelperThreadsBehindTheLoop();
    const first = threads(process.pid).filter((thread) => thread.id !== process.pid);
    expect(first.filter((thread) => thread.nice !== below(loopNice))).toEqual([]);
    const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => worker.once('online', resolve));
    const now = lowerNewHelperThreads();
    expect(now.length).toBeGreaterThan(0);
    expect(now.filter((id) => first.some((thread) => thread.id === id))).toEqual([]);
    const mine = threads(process.pid);
    for (const id of now) expect(mine.find((thread) => thread.id === id)?.nice).toBe(below(loopNice));
    expect(mine.find((thread) => thread.id === process.pid)?.nice).toBe(loopNice);
    expect(lowerNewHelperThreads()).toEqual([]);
    keeping.stop();
    await Promise.all([early.terminate(), worker.terminate()]);
  });
});
