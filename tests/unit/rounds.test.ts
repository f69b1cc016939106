/**
 * The embedded store folds its WAL a short while after a commit (src/services/store/sqlite-database.ts).
 * A commit made while a fold was running was left out of it and got no fold of its own: the WAL kept
 * it until some later commit (CI saw the last of a hundred inserts never reach the database file).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterChanges } from '../../src/lib/rounds.ts';

describe('afterChanges', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A round that ends only when the test says so. */
  function controlledRounds() {
    const ends: Array<() => void> = [];
    const round = vi.fn(() => new Promise<void>((resolve) => ends.push(resolve)));
    return { round, endRound: async () => { ends.shift()!(); await vi.advanceTimersByTimeAsync(0); } };
  }

  it('runs one round a while after a burst of changes, covering all of them', async () => {
    const { round, endRound } = controlledRounds();
    const rounds = afterChanges(250, round);
    rounds.changed();
    await vi.advanceTimersByTimeAsync(100);
    rounds.changed();
    rounds.changed();
    expect(round).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(150);
    expect(round).toHaveBeenCalledTimes(1);
    await endRound();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(round).toHaveBeenCalledTimes(1);
  });

  it('gives a change made while a round runs a round of its own after it', async () => {
    const { round, endRound } = controlledRounds();
    const rounds = afterChanges(250, round);
    rounds.changed();
    await vi.advanceTimersByTimeAsync(250);
    expect(round).toHaveBeenCalledTimes(1);
    rounds.changed();
    await vi.advanceTimersByTimeAsync(1_000);
    // Never two at once.
    expect(round).toHaveBeenCalledTimes(1);
    await endRound();
    await vi.advanceTimersByTimeAsync(250);
    expect(round).toHaveBeenCalledTimes(2);
  });

  it('waits for the next change after a failed round, and runs none once stopped', async () => {
    const round = vi.fn(async () => {
      throw new Error('busy');
    });
    const rounds = afterChanges(250, round);
    rounds.changed();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(round).toHaveBeenCalledTimes(1);
    rounds.changed();
    await vi.advanceTimersByTimeAsync(250);
    expect(round).toHaveBeenCalledTimes(2);
    rounds.changed();
    rounds.stop();
    rounds.changed();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(round).toHaveBeenCalledTimes(2);
  });
});
