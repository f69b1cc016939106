/**
 * The quote's chain height: served from memory for a bounded time, refreshed in the background past
 * half that time, read afresh (once for all waiting callers) past it, and never older than allowed.
 */
import { describe, expect, it } from 'vitest';
import { ChainUnavailableError } from '../../src/domain/ports.ts';
import { recentHeight } from '../../src/services/chain/recent-height.ts';

function chain(start: number) {
  const state = { height: start, reads: 0, failing: false };
  const read = async () => {
    state.reads++;
    if (state.failing) throw new ChainUnavailableError('down');
    return state.height;
  };
  return { state, read };
}

describe('recentHeight', () => {
  it('serves one read for half the maximum age, then refreshes in the background while serving the held height', async () => {
    let clock = 0;
    const { state, read } = chain(1_000);
    const height = recentHeight(read, 4_000, () => clock);
    expect(await height()).toBe(1_000);
    state.height = 1_001;
    clock = 1_999;
    expect(await height()).toBe(1_000);
    expect(state.reads).toBe(1);
    clock = 2_000;
    // Past half the age: the held height now, a refresh behind it.
    expect(await height()).toBe(1_000);
    expect(state.reads).toBe(2);
    await Promise.resolve();
    expect(await height()).toBe(1_001);
    expect(state.reads).toBe(2);
  });

  it('never serves a height older than the maximum age: past it, callers wait for one shared fresh read', async () => {
    let clock = 0;
    const { state, read } = chain(7);
    const height = recentHeight(read, 1_000, () => clock);
    await height();
    state.height = 9;
    clock = 1_000;
    const answers = await Promise.all([height(), height(), height()]);
    expect(answers).toEqual([9, 9, 9]);
    expect(state.reads).toBe(2);
  });

  it('answers the chain error once the held height is too old and the chain is down, and recovers', async () => {
    let clock = 0;
    const { state, read } = chain(50);
    const height = recentHeight(read, 1_000, () => clock);
    await height();
    state.failing = true;
    clock = 600;
    // A failed background refresh keeps the held height while it is young enough.
    expect(await height()).toBe(50);
    clock = 999;
    expect(await height()).toBe(50);
    clock = 1_000;
    await expect(height()).rejects.toBeInstanceOf(ChainUnavailableError);
    state.failing = false;
    state.height = 51;
    expect(await height()).toBe(51);
  });

  it('reads the chain every time when the maximum age is 0', async () => {
    const { state, read } = chain(3);
    const height = recentHeight(read, 0);
    await height();
    await height();
    expect(state.reads).toBe(2);
  });
});
