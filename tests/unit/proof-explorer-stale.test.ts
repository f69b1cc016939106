/**
 * The proof explorer answers the previous proofs while it builds the next only when they are of the
 * interval before: after a quiet hour a request waits for fresh ones, rather than getting the log's
 * health of an hour ago (`receipt_log.agrees: true` although a receipt was removed meanwhile).
 */
import { describe, expect, it, vi } from 'vitest';
import { PROOFS_CACHE_SECONDS } from '../../src/config/limits.ts';
import { createProofExplorer } from '../../src/services/proof-explorer.ts';
import { FakeChain, FakeStore } from '../helpers/fakes.ts';
import { memoryReceiptLog } from '../helpers/memory-receipt-log.ts';
import { hex32, makeQuote, makeReceipt } from '../helpers/store-fixtures.ts';

describe('proof explorer after a quiet hour', () => {
  it('does not answer proofs an hour old while the next build runs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = new FakeStore();
      store.receipts.push(makeReceipt(makeQuote(), hex32(), { chain: 'sandbox' }));
      const chain = new FakeChain(1_100, 'sandbox');
      const memory = memoryReceiptLog(() => store.receipts);
      let first = true;
      const service = createProofExplorer(
        async () => {
          if (first) for (const receipt of store.receipts) memory.append(receipt);
          first = false;
          await memory.log.checkpointNow();
          return { store, chain, receiptLog: memory.log };
        },
        { report: () => undefined, chainBudgetMs: 1000 },
      );
      const before = await service.proofs();
      expect(before.receipt_log.agrees).toBe(true);

      // An hour without a request; meanwhile the receipt is removed from the store.
      vi.setSystemTime(Date.now() + 3_600_000);
      store.receipts.pop();
      // The next build is slow (the chain source, say).
      const list = store.listReceiptTexts.bind(store);
      vi.spyOn(store, 'listReceiptTexts').mockImplementationOnce(async (limit) => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return list(limit);
      });
      const answer = await service.proofs();
      const ageMs = Date.now() - Date.parse(answer.generated_at);
      expect(ageMs, `an answer ${Math.round(ageMs / 1000)} s old, receipt_log.agrees=${answer.receipt_log.agrees}`).toBeLessThanOrEqual(2 * PROOFS_CACHE_SECONDS * 1000);
    } finally {
      vi.useRealTimers();
    }
  });
});
