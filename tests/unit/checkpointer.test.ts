/**
 * The checkpointer starts the reputation's fold after a round without waiting for it: a long fold
 * (221 s at a million receipts, docs/performance.md) must not stop the periodic checkpoints or the
 * search for unlogged receipts. Failed while the round awaited the fold.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ReceiptLog } from '../../src/services/receipt-log.ts';
import { startCheckpointer } from '../../src/services/receipt-log.ts';
import type { ReceiptLogStore } from '../../src/domain/ports.ts';

describe('checkpointer beside a long reputation fold', () => {
  const stops: Array<() => void> = [];
  afterEach(() => stops.splice(0).forEach((stop) => stop()));

  it('keeps signing checkpoints every interval while a fold started after a checkpoint is still running', async () => {
    let signed = 0;
    const log = { checkpointNow: async () => void signed++ } as unknown as ReceiptLog;
    const store = { appendUnloggedReceipts: async () => 0 } as unknown as ReceiptLogStore;
    // A fold of a long backlog: it outlasts many checkpoint intervals.
    const longFold = () => new Promise<void>(() => undefined);
    stops.push(startCheckpointer(() => log, store, 0.05, longFold).stop);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // About ten intervals have passed.
    expect(signed).toBeGreaterThanOrEqual(5);
  });
});
