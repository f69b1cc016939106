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
  const stops: Array<() => Promise<void>> = [];
  afterEach(() => Promise.all(stops.splice(0).map((stop) => stop())));

  it('keeps signing checkpoints every interval while a fold started after a checkpoint is still running', async () => {
    let signed = 0;
    const log = { checkpointNow: async () => void signed++, keepBundles: async () => 0 } as unknown as ReceiptLog;
    const store = { appendUnloggedReceipts: async () => 0 } as unknown as ReceiptLogStore;
    // A fold of a long backlog: it outlasts many checkpoint intervals.
    const longFold = () => new Promise<void>(() => undefined);
    stops.push(startCheckpointer(() => log, store, 0.05, longFold).stop);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // About ten intervals have passed.
    expect(signed).toBeGreaterThanOrEqual(5);
  });

  it('stops only once the round in progress has ended, and starts none after: a round after shutdown closed the store would open it again', async () => {
    let started = 0;
    let finish: () => void = () => undefined;
    const log = {
      checkpointNow: () => {
        started++;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      keepBundles: async () => 0,
    } as unknown as ReceiptLog;
    const store = { appendUnloggedReceipts: async () => 0 } as unknown as ReceiptLogStore;
    const { stop } = startCheckpointer(() => log, store, 0.02);
    await new Promise((resolve) => setTimeout(resolve, 50));
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Before, stop() only cleared the timer: the round went on after it returned.
    expect(stopped).toBe(false);
    expect(started).toBe(1);
    finish();
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(started).toBe(1);
  });
});
