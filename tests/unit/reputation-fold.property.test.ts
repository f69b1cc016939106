/**
 * Folding the log's receipts into aggregates, in any number of steps, gives exactly the graph the
 * from-scratch derivation gives for them: every subject's count, exact total, first and last
 * settlement and newest receipts, and the totals. Property-tested over random receipt sets (few
 * subjects, so they share receipts; sandbox ones; payers unknown) cut at random places.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReceiptSummary } from '../../schemas/reputation.ts';
import { compareSubjects, deriveReputationGraph } from '../../src/domain/reputation.ts';
import { EMPTY_TOTALS, foldedFromScratch, foldReceipts, subjectKey, type SubjectAggregate } from '../../src/domain/reputation-fold.ts';

const address = fc.constantFrom('3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt', '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw', '3Wxx', 'a-lower', 'B-upper');
const receiptsArbitrary = fc
  .array(
    fc.record({
      chain: fc.constantFrom('testnet', 'testnet', 'testnet', 'sandbox') as fc.Arbitrary<'testnet' | 'sandbox'>,
      minute: fc.integer({ min: 0, max: 50 }),
      value: fc.bigInt({ min: 1n, max: 10n ** 17n }),
      receiver: address,
      payer: fc.option(address, { nil: null }),
    }),
    { maxLength: 60 },
  )
  .map((drawn) =>
    drawn.map(
      (entry, index): ReceiptSummary => ({
        receiptId: `r${String(index).padStart(3, '0')}`,
        chain: entry.chain,
        settledAt: new Date(Date.UTC(2026, 10, 1, 0, entry.minute)).toISOString(),
        settlementTxId: index.toString(16).padStart(64, '0'),
        valueNanoErg: entry.value.toString(),
        receiverAddress: entry.receiver,
        payerAddress: entry.payer,
      }),
    ),
  );

describe('foldReceipts', () => {
  it('folded in any steps, equals the derivation from scratch', () => {
    fc.assert(
      fc.property(receiptsArbitrary, fc.array(fc.nat(), { maxLength: 6 }), (receipts, cuts) => {
        const bounds = [...new Set(cuts.map((cut) => cut % (receipts.length + 1)))].sort((a, b) => a - b);
        let totals = EMPTY_TOTALS;
        const kept = new Map<string, SubjectAggregate>();
        let credits = 0;
        for (const [start, end] of [0, ...bounds].map((start, index, all) => [start, all[index + 1] ?? receipts.length] as const)) {
          const step = foldReceipts(totals, kept, receipts.slice(start, end));
          totals = step.totals;
          credits += step.credits.length;
          for (const aggregate of step.changed) kept.set(subjectKey(aggregate.kind, aggregate.subjectId), aggregate);
        }
        const derived = deriveReputationGraph(receipts);
        const expected = foldedFromScratch(derived, receipts.length);
        expect(totals).toEqual(expected.totals);
        expect([...kept.values()].sort(compareSubjects)).toEqual(expected.subjects);
        expect(credits).toBe(derived.subjects.reduce((sum, subject) => sum + subject.evidence.length, 0));
      }),
      { numRuns: 300 },
    );
  });
});
