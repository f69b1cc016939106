/**
 * Event-loop turns handed out one at a time, for background work built of many short synchronous
 * pieces (the proofs' 200 receipt checks, the live probes). The embedded store answers at once, so
 * pieces awaited side by side run back to back as microtasks; and pieces that each await
 * `setImmediate` all resume in the same check phase. Either way one loop iteration ran all of them
 * (the proofs build held the loop 60 to 140 ms at 100,000 receipts). A piece that awaits its turn
 * here goes on in the same iteration while the pieces before it took less than `sliceMs`, and
 * otherwise resumes in an iteration of its own, after the loop has polled for I/O: requests wait
 * for a slice at most. A slice rather than a turn for every piece: under load each turn also serves
 * the requests waiting, so a build of 200 turns took seconds for whoever waited for it.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export type TurnTaker = () => Promise<void>;

/** A queue of turns: each call resolves after the previous call's, in a new loop iteration once `sliceMs` of work went by (0: every call). */
export function turnTaker(sliceMs = 0): TurnTaker {
  let last: Promise<unknown> = Promise.resolve();
  // The first call always yields: whatever ran before it in this iteration is not counted.
  let sliceStarted = -Infinity;
  return () => {
    const turn = last.then(async () => {
      if (sliceMs > 0 && performance.now() - sliceStarted < sliceMs) return;
      await nextTurn();
      sliceStarted = performance.now();
    });
    last = turn;
    return turn;
  };
}

/** Runs `tasks` at most `limit` at a time (for their I/O), each starting when `turn` (one a task by default) lets it. */
export async function pooled<T>(tasks: Array<() => Promise<T>>, limit: number, turn: TurnTaker = turnTaker()): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        await turn();
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

/** Runs `steps` (a build that yields between pieces) to its end now, for a caller that needs the result this turn. */
export function runAtOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs `steps` to its end, taking a turn from `turn` at every yield: the loop serves requests between slices. */
export async function runInTurns<T>(steps: Generator<void, T>, turn: TurnTaker): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await turn();
  }
}
