import { describe, expect, it } from 'vitest';
import { pooled, turnTaker } from '../../src/lib/loop-turns.ts';
import { loopIterations } from '../helpers/loop-iterations.ts';

describe('loop turns', () => {
  it('hands out one turn a loop iteration, in the order asked', async () => {
    const loop = loopIterations();
    const turn = turnTaker();
    const seen: Array<[number, number]> = [];
    await Promise.all([0, 1, 2, 3, 4].map((i) => turn().then(() => seen.push([i, loop.now()]))));
    loop.stop();
    expect(seen.map(([i]) => i)).toEqual([0, 1, 2, 3, 4]);
    // A different iteration for each: the counter moved between any two.
    expect(new Set(seen.map(([, at]) => at)).size).toBe(5);
  });

  it('runs tasks that answer at once each in an iteration of its own, however many run side by side, and keeps their order', async () => {
    const loop = loopIterations();
    const ranAt: number[] = [];
    const results = await pooled(
      Array.from({ length: 24 }, (_, i) => async () => {
        ranAt.push(loop.now());
        return i * 2;
      }),
      8,
    );
    loop.stop();
    expect(results).toEqual(Array.from({ length: 24 }, (_, i) => i * 2));
    expect(new Set(ranAt).size).toBe(24);
  });

  it('with a slice, runs tasks in the same iteration until the slice is spent, then turns', async () => {
    const loop = loopIterations();
    const ranAt: number[] = [];
    // Each task holds the loop 2 ms: a 5 ms slice takes at most three (the third ends past it).
    await pooled(
      Array.from({ length: 12 }, () => async () => {
        ranAt.push(loop.now());
        const until = performance.now() + 2;
        while (performance.now() < until);
      }),
      4,
      turnTaker(5),
    );
    loop.stop();
    const perIteration = new Map<number, number>();
    for (const at of ranAt) perIteration.set(at, (perIteration.get(at) ?? 0) + 1);
    expect(Math.max(...perIteration.values())).toBeLessThanOrEqual(3);
    expect(ranAt.length).toBe(12);
  });

  it('still overlaps tasks that wait on I/O', async () => {
    let running = 0;
    let most = 0;
    await pooled(
      Array.from({ length: 8 }, () => async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
      }),
      4,
    );
    expect(most).toBe(4);
  });
});
