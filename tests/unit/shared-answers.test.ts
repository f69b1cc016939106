/** Answers shared for a moment: one computation for requests that come together, none kept that failed, the oldest dropped past the bound. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedAnswers } from '../../src/lib/shared-answers.ts';

afterEach(() => vi.useRealTimers());

describe('sharedAnswers', () => {
  it('computes once for the requests within its seconds, and again after', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const shared = sharedAnswers<number>(2, 4);
    let computed = 0;
    const compute = async () => ++computed;
    expect(await Promise.all([shared('a', compute), shared('a', compute), shared('a', compute)])).toEqual([1, 1, 1]);
    expect(await shared('b', compute)).toBe(2);
    vi.setSystemTime(Date.now() + 1_999);
    expect(await shared('a', compute)).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect(await shared('a', compute)).toBe(3);
  });

  it('keeps no failure, and no more than its bound', async () => {
    const shared = sharedAnswers<string>(60, 2);
    await expect(shared('x', async () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(await shared('x', async () => 'answered')).toBe('answered');
    await shared('y', async () => 'y');
    await shared('z', async () => 'z');
    // 'x' was the oldest of three: computed again.
    expect(await shared('x', async () => 'again')).toBe('again');
    expect(await shared('z', async () => 'not again')).toBe('z');
  });
});
