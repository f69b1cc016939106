/**
 * The retention sweep over a store: what it deletes at a given instant (unpaid quotes past their
 * expiry and the grace period, in bounded batches, with the A2A tasks waiting for them; past days'
 * free-tier counts) and what it keeps.
 */
import { describe, expect, it } from 'vitest';
import { sweepExpired, sweepFromTheStart } from '../../src/services/retention.ts';
import { FakeStore } from '../helpers/fakes.ts';
import { makeQuote } from '../helpers/store-fixtures.ts';

const HOUR = 3_600_000;

describe('retention sweep', () => {
  it('deletes unpaid quotes expired longer ago than the grace, keeps paid and recent ones, and past days\' free counts', async () => {
    const store = new FakeStore();
    const now = new Date('2026-11-28T12:00:00.000Z');
    const expired = (hoursAgo: number) => makeQuote({ issuedAt: new Date(now.getTime() - hoursAgo * HOUR - 15 * 60_000), expiresAt: new Date(now.getTime() - hoursAgo * HOUR) });
    const old = Array.from({ length: 1_203 }, () => expired(30));
    const withinGrace = expired(2);
    const paid = expired(48);
    for (const quote of [...old, withinGrace, paid]) await store.insertQuote(quote);
    store.usedNotes.set('ab'.repeat(32), paid.quoteId);
    for (const day of ['2026-11-26', '2026-11-27', '2026-11-28']) await store.reserveFreeUsage('client', day, 5);
    // A2A tasks waiting for an expired quote go with it; a completed one stays, as does one within the grace.
    const task = (taskId: string, quote: typeof paid, state: 'input-required' | 'completed') =>
      store.insertA2aTask({ taskId, contextId: 'c', quoteId: quote.quoteId, state, retryKey: 'k'.repeat(43), record: { status: { text: '', metadata: {} } }, expiresAt: quote.expiresAt, createdAt: now, updatedAt: now });
    await task('waiting-old', old[0]!, 'input-required');
    await task('waiting-recent', withinGrace, 'input-required');
    await task('completed-old', paid, 'completed');

    const result = await sweepExpired(store, { quoteGraceSeconds: 24 * 3600, sweepIntervalSeconds: 600 }, now);
    expect(result).toEqual({ quotes: 1_203, tasks: 1, freeUsageDays: 1 });
    expect([...store.a2aTasks.keys()].sort()).toEqual(['completed-old', 'waiting-recent']);
    expect(await store.getQuote(withinGrace.quoteId)).toEqual(withinGrace);
    expect(await store.getQuote(paid.quoteId)).toEqual(paid);
    expect(await store.getQuote(old[0]!.quoteId)).toBeUndefined();
    expect([...store.freeUsage.keys()]).toEqual(['client/2026-11-27', 'client/2026-11-28']);
  });

  it('reads a bounded number of windows a sweep; the next sweep goes on from where it stopped', async () => {
    const store = new FakeStore();
    const now = new Date('2026-11-28T12:00:00.000Z');
    const windows: Date[] = [];
    // A history that never ends: every window moves a millisecond on and deletes one quote.
    store.sweepUnpaidQuotes = async (from) => (windows.push(from), { deleted: 1, next: new Date(from.getTime() + 1) });
    const config = { quoteGraceSeconds: 3600, sweepIntervalSeconds: 600 };
    const marks = sweepFromTheStart();
    expect((await sweepExpired(store, config, now, marks)).quotes).toBe(1_000);
    expect(marks.quotesFrom).toEqual(new Date(1_000));
    expect((await sweepExpired(store, config, now, marks)).quotes).toBe(1_000);
    expect(windows.map((from) => from.getTime())).toEqual(Array.from({ length: 2_000 }, (_, index) => index));
  });

  it('does not read again what an earlier sweep read: paid history is read once per process, not once per sweep', async () => {
    const store = new FakeStore();
    const now = new Date('2026-11-28T12:00:00.000Z');
    // Three thousand paid quotes, a second apart, long expired, and one unpaid after them.
    for (let index = 0; index < 3_000; index++) {
      const quote = makeQuote({ expiresAt: new Date(now.getTime() - 48 * HOUR + index * 1000) });
      await store.insertQuote(quote);
      store.usedNotes.set(`note-${index}`, quote.quoteId);
    }
    const unpaid = makeQuote({ expiresAt: new Date(now.getTime() - 47 * HOUR) });
    await store.insertQuote(unpaid);
    const config = { quoteGraceSeconds: 3600, sweepIntervalSeconds: 600 };
    const marks = sweepFromTheStart();
    const read: Date[] = [];
    const sweepWindow = store.sweepUnpaidQuotes.bind(store);
    store.sweepUnpaidQuotes = (from, expiredBefore, limit) => (read.push(from), sweepWindow(from, expiredBefore, limit));

    expect((await sweepExpired(store, config, now, marks)).quotes).toBe(1);
    expect(read.length).toBe(7);
    expect(marks.quotesFrom).toEqual(new Date(now.getTime() - HOUR));
    expect(await store.getQuote(unpaid.quoteId)).toBeUndefined();

    // Ten minutes later: one window, from where the last sweep ended, whatever the history holds.
    read.length = 0;
    const later = makeQuote({ expiresAt: new Date(now.getTime() - HOUR + 60_000) });
    await store.insertQuote(later);
    expect((await sweepExpired(store, config, new Date(now.getTime() + 10 * 60_000), marks)).quotes).toBe(1);
    expect(read).toEqual([new Date(now.getTime() - HOUR)]);
  });
});
