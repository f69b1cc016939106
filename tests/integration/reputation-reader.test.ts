/**
 * The reputation as requests read it, over a store of a few thousand receipts made through the
 * store's API: a request never folds more than INLINE_BACKLOG entries itself (a longer backlog is a
 * 503 saying how far the background fold is), the fold goes in small steps, and a page's size does
 * not grow with the receipts behind it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StoredCheckpoint } from '../../src/domain/ports.ts';
import { ProblemError } from '../../src/lib/problem-error.ts';
import { createReputationReader, INLINE_BACKLOG } from '../../src/services/reputation.ts';
import { createStore } from '../../src/services/store/index.ts';
import { seedReceipts } from '../helpers/receipt-seed.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const dataDir = mkdtempSync(join(tmpdir(), 'reputation-reader-'));
const store = createStore({ driver: 'sqlite', dataDir, statementTimeoutMs: 5_000, connectTimeoutMs: 5_000 });
/** The checkpoint the reader folds to: the test moves it as it seeds. */
let signed: StoredCheckpoint | undefined;
const checkpointAt = (size: number): StoredCheckpoint => ({ size, rootHex: '00'.repeat(32), note: '', issuedAt: new Date() });

beforeAll(async () => {
  await store.ready();
  await seedReceipts(store, INLINE_BACKLOG + 500);
});

afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the reputation reader', () => {
  it('refuses a request behind a long backlog with a 503 that says how far the fold is, folds it in the background in small steps, then answers', async () => {
    const folds = vi.spyOn(store, 'foldReputation');
    const reader = createReputationReader(store, async () => signed);
    signed = checkpointAt(INLINE_BACKLOG + 500);

    const refused = await reader.subjects(10).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({ status: 503, code: 'reputation_catching_up', headers: { 'retry-after': '5' }, extra: { folded: 0, log_size: INLINE_BACKLOG + 500 } });
    // The picture draws what is folded so far rather than refusing.
    expect(Array.isArray(await reader.receiptDays())).toBe(true);

    await reader.catchUp();
    const { totals, subjects } = await reader.subjects(10);
    expect(totals.logSize).toBe(INLINE_BACKLOG + 500);
    expect(totals.receiptsCounted).toBe(INLINE_BACKLOG + 500);
    expect(subjects).toHaveLength(10);
    const steps = folds.mock.calls.map(([, maxEntries]) => maxEntries);
    folds.mockRestore();
    expect(steps.length).toBeGreaterThan(1);
    expect(Math.max(...steps)).toBeLessThanOrEqual(200);
  });

  it('folds a short backlog within the request, and a page is as large at twice the receipts', async () => {
    const reader = createReputationReader(store, async () => signed);
    signed = checkpointAt(INLINE_BACKLOG + 500);
    await reader.catchUp();
    const before = await reader.subjects(50);

    await seedReceipts(store, INLINE_BACKLOG);
    signed = checkpointAt(2 * INLINE_BACKLOG + 500);
    const after = await reader.subjects(50);
    expect(after.totals.logSize).toBe(2 * INLINE_BACKLOG + 500);
    expect(after.subjects).toHaveLength(50);
    for (const subject of after.subjects) expect(subject.latest.length).toBeLessThanOrEqual(5);
    // The same number of subjects, each with at most five receipts: only the counts' digits may differ.
    const bytes = (page: typeof before) => Buffer.byteLength(JSON.stringify(page.subjects, (_, value) => (typeof value === 'bigint' ? value.toString() : value)));
    expect(Math.abs(bytes(after) - bytes(before))).toBeLessThan(200);
  });
});
