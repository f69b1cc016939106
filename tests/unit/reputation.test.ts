/**
 * The reputation derivation (spec 2.2): each testnet-settled receipt credits its service provider
 * (the receiver) and its payer; sandbox receipts and repeated receipt ids never count; the order is
 * deterministic; and the published body built from it validates against agent-reputation.schema.v0.json.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { receiptSummarySchema, reputationGraphSchema, type ReceiptSummary } from '../../schemas/reputation.ts';
import { buildReputationGraph } from '../../src/descriptors/reputation.ts';
import { deriveReputationGraph } from '../../src/domain/reputation.ts';
import { foldedFromScratch } from '../../src/domain/reputation-fold.ts';

const hex = (label: string) => createHash('sha256').update(label).digest('hex');

const ASSISTANT = '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt';
const PAYER_A = '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw';
const PAYER_B = '3WxxVQqxoVSWEKG5B73eNttBX51ZZ6WXLW7fiVDgCFhzRK8R4gmk';

function receipt(receiptId: string, settledAt: string, overrides: Partial<ReceiptSummary> = {}): ReceiptSummary {
  return receiptSummarySchema.parse({
    receiptId,
    chain: 'testnet',
    settledAt,
    settlementTxId: hex(`tx ${receiptId}`),
    valueNanoErg: '10000000',
    receiverAddress: ASSISTANT,
    payerAddress: PAYER_A,
    ...overrides,
  });
}

const fixtures: ReceiptSummary[] = [
  receipt('rcpt-a1', '2026-11-20T10:00:00Z'),
  receipt('rcpt-a2', '2026-11-22T09:30:00Z', { valueNanoErg: '25000000', payerAddress: PAYER_B }),
  receipt('rcpt-a3', '2026-11-21T08:00:00Z', { payerAddress: null }),
  receipt('rcpt-b1', '2026-11-23T07:00:00Z', { receiverAddress: PAYER_B, payerAddress: PAYER_A, valueNanoErg: '400000000' }),
  receipt('rcpt-s1', '2026-11-23T08:00:00Z', { chain: 'sandbox', receiverAddress: 'sandbox-only-provider', payerAddress: 'sandbox-only-agent' }),
  receipt('rcpt-s2', '2026-11-23T09:00:00Z', { chain: 'sandbox' }),
  receipt('rcpt-a2', '2026-11-22T09:30:00Z', { valueNanoErg: '25000000', payerAddress: PAYER_B }),
];

const rows = (derived: ReturnType<typeof deriveReputationGraph>) => derived.subjects.map((subject) => [subject.kind, subject.subjectId, subject.receiptCount]);

describe('deriveReputationGraph', () => {
  const derived = deriveReputationGraph(fixtures);

  it('credits the receiver and the payer of every distinct testnet receipt, never a sandbox one', () => {
    expect(derived.receiptsCounted).toBe(4);
    expect(derived.sandboxReceiptsExcluded).toBe(2);
    expect(derived.duplicateReceiptsIgnored).toBe(1);
    expect(derived.receiptsWithoutPayer).toBe(1);
    expect(rows(derived)).toEqual([
      ['service_provider', ASSISTANT, 3],
      ['agent', PAYER_A, 2],
      ['service_provider', PAYER_B, 1],
      ['agent', PAYER_B, 1],
    ]);
    expect(derived.subjects.some((subject) => subject.subjectId.startsWith('sandbox-only'))).toBe(false);
  });

  it('sums settled value exactly, counts each receipt once in the total, and keeps evidence newest first', () => {
    const assistant = derived.subjects[0]!;
    expect(assistant.settledNanoErg).toBe(45_000_000n);
    expect(assistant.evidence.map((item) => item.receiptId)).toEqual(['rcpt-a2', 'rcpt-a3', 'rcpt-a1']);
    expect(assistant.firstSettledAt).toBe('2026-11-20T10:00:00Z');
    expect(assistant.lastSettledAt).toBe('2026-11-22T09:30:00Z');
    expect(derived.subjects[1]!.settledNanoErg).toBe(410_000_000n);
    expect(derived.totalSettledNanoErg).toBe(445_000_000n);
    expect(derived.latestSettledAt).toBe('2026-11-23T07:00:00Z');
  });

  it('keeps values beyond 2^53 exact', () => {
    const big = deriveReputationGraph([receipt('x1', '2026-11-20T10:00:00Z', { valueNanoErg: '9007199254740993' }), receipt('x2', '2026-11-20T10:00:01Z', { valueNanoErg: '1' })]);
    expect(big.totalSettledNanoErg).toBe(9_007_199_254_740_994n);
  });

  it('gives the same graph whatever the order of the receipts', () => {
    expect(deriveReputationGraph([...fixtures].reverse())).toEqual(derived);
  });

  it('moves when a receipt is added', () => {
    const more = deriveReputationGraph([...fixtures, receipt('rcpt-a4', '2026-11-24T10:00:00Z', { payerAddress: PAYER_B })]);
    expect(more.receiptsCounted).toBe(5);
    expect(rows(more).slice(0, 2)).toEqual([
      ['service_provider', ASSISTANT, 4],
      ['agent', PAYER_B, 2],
    ]);
    expect(more.latestSettledAt).toBe('2026-11-24T10:00:00Z');
  });

  it('is empty for no receipts and for sandbox receipts only', () => {
    for (const input of [[], fixtures.filter((item) => item.chain === 'sandbox')]) {
      const empty = deriveReputationGraph(input);
      expect(empty.subjects).toEqual([]);
      expect(empty.receiptsCounted).toBe(0);
      expect(empty.totalSettledNanoErg).toBe(0n);
      expect(empty.latestSettledAt).toBeNull();
    }
  });
});

describe('buildReputationGraph', () => {
  it('publishes a page of subjects with receipt URLs, where the rest of their receipts are, a trust boundary per subject, and the next page', () => {
    const checkpoint = { size: 7, root_hash: 'A'.repeat(43) + '=', origin: 'example.org/api/transparency/receipts', checkpoint_api: 'https://example.org/api/transparency/receipts/checkpoint' };
    const derived = deriveReputationGraph(fixtures);
    const { totals, subjects } = foldedFromScratch(derived, fixtures.length);
    const page = { totals: { ...totals, duplicateReceiptsIgnored: derived.duplicateReceiptsIgnored }, subjects: subjects.slice(0, 2), limit: 2, nextCursor: 'abc' };
    const graph = reputationGraphSchema.parse(buildReputationGraph(page, new Date('2026-11-23T12:00:00Z'), checkpoint));
    expect(graph.subjects).toHaveLength(2);
    expect(graph.page).toEqual({ limit: 2, next_cursor: 'abc', next_url: expect.stringMatching(/\/api\/agents\/reputation\?limit=2&cursor=abc$/) });
    expect(graph.subjects[1]!.evidence_url).toMatch(/\/api\/agents\/reputation\/evidence\?kind=agent&subject_id=3Wvd/);
    expect(graph.checkpoint).toEqual(checkpoint);
    expect(graph.summary).toEqual({
      receipt_backed_subjects: 4,
      receipts_counted: 4,
      sandbox_receipts_excluded: 2,
      duplicate_receipts_ignored: 1,
      receipts_without_payer: 1,
      total_settled_nanoerg: '445000000',
      latest_settled_at: '2026-11-23T07:00:00Z',
    });
    expect(graph.last_updated).toBe('2026-11-23');
    const assistant = graph.subjects[0]!;
    expect(assistant).toMatchObject({ kind: 'service_provider', subject_id: ASSISTANT, settled_erg: '0.045000000' });
    expect(assistant.evidence[0]!.receipt_url.endsWith('/api/assistant/receipt/rcpt-a2')).toBe(true);
    expect(assistant.trust_boundary).toMatchObject({ basis: 'testnet_settled_receipts', network: 'ergo_testnet', mainnet_ready: false });
    expect(graph.method.subjects.agent).toMatch(/first input of the settlement transaction/);
    expect(graph.posture.mainnet_ready).toBe(false);
  });
});
