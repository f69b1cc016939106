/**
 * The reputation derivation (spec 2.2): subjects are backed by testnet-settled receipts only; sandbox
 * receipts and repeated receipt ids never count; the order is deterministic; and the published body
 * built from it validates against agent-reputation.schema.v0.json.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { receiptSummarySchema, reputationGraphSchema, type ReceiptSummary } from '../../schemas/reputation.ts';
import { buildReputationGraph } from '../../src/descriptors/reputation.ts';
import { deriveReputationGraph } from '../../src/domain/reputation.ts';

const hex = (label: string) => createHash('sha256').update(label).digest('hex');

function receipt(receiptId: string, subjectId: string, settledAt: string, overrides: Partial<ReceiptSummary> = {}): ReceiptSummary {
  return receiptSummarySchema.parse({
    receiptId,
    subjectId,
    subjectKind: 'service_provider',
    chain: 'testnet',
    settledAt,
    settlementTxId: hex(`tx ${receiptId}`),
    amountNanoErg: '10000000',
    ...overrides,
  });
}

const fixtures: ReceiptSummary[] = [
  receipt('rcpt-a1', 'hosted-assistant', '2026-11-20T10:00:00Z'),
  receipt('rcpt-a2', 'hosted-assistant', '2026-11-22T09:30:00Z', { amountNanoErg: '25000000' }),
  receipt('rcpt-a3', 'hosted-assistant', '2026-11-21T08:00:00Z'),
  receipt('rcpt-b1', '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw', '2026-11-23T07:00:00Z', { subjectKind: 'agent', amountNanoErg: '400000000' }),
  receipt('rcpt-s1', 'sandbox-only-agent', '2026-11-23T08:00:00Z', { chain: 'sandbox', subjectKind: 'agent' }),
  receipt('rcpt-s2', 'hosted-assistant', '2026-11-23T09:00:00Z', { chain: 'sandbox' }),
  receipt('rcpt-a2', 'hosted-assistant', '2026-11-22T09:30:00Z', { amountNanoErg: '25000000' }),
];

describe('deriveReputationGraph', () => {
  const derived = deriveReputationGraph(fixtures);

  it('counts distinct testnet receipts per subject and never sandbox receipts', () => {
    expect(derived.receiptsCounted).toBe(4);
    expect(derived.sandboxReceiptsExcluded).toBe(2);
    expect(derived.duplicateReceiptsIgnored).toBe(1);
    expect(derived.subjects.map((subject) => [subject.subjectId, subject.receiptCount])).toEqual([
      ['hosted-assistant', 3],
      ['3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw', 1],
    ]);
    expect(derived.subjects.some((subject) => subject.subjectId === 'sandbox-only-agent')).toBe(false);
  });

  it('sums settled value exactly and keeps evidence newest first', () => {
    const assistant = derived.subjects[0]!;
    expect(assistant.settledNanoErg).toBe(45_000_000n);
    expect(assistant.evidence.map((item) => item.receiptId)).toEqual(['rcpt-a2', 'rcpt-a3', 'rcpt-a1']);
    expect(assistant.firstSettledAt).toBe('2026-11-20T10:00:00Z');
    expect(assistant.lastSettledAt).toBe('2026-11-22T09:30:00Z');
    expect(derived.totalSettledNanoErg).toBe(445_000_000n);
    expect(derived.latestSettledAt).toBe('2026-11-23T07:00:00Z');
  });

  it('gives the same graph whatever the order of the receipts', () => {
    expect(deriveReputationGraph([...fixtures].reverse())).toEqual(derived);
  });

  it('keeps the same id under two kinds apart', () => {
    const both = deriveReputationGraph([
      receipt('r1', 'dual-role', '2026-11-20T10:00:00Z', { subjectKind: 'agent' }),
      receipt('r2', 'dual-role', '2026-11-20T11:00:00Z'),
    ]);
    expect(both.subjects.map((subject) => subject.kind).toSorted()).toEqual(['agent', 'service_provider']);
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
  it('publishes the derivation with receipt URLs and a trust boundary per subject', () => {
    const graph = reputationGraphSchema.parse(buildReputationGraph(deriveReputationGraph(fixtures), new Date('2026-11-23T12:00:00Z')));
    expect(graph.summary).toMatchObject({
      receipt_backed_subjects: 2,
      receipts_counted: 4,
      sandbox_receipts_excluded: 2,
      total_settled_nanoerg: '445000000',
    });
    expect(graph.last_updated).toBe('2026-11-23');
    const assistant = graph.subjects[0]!;
    expect(assistant.settled_erg).toBe('0.045000000');
    expect(assistant.evidence[0]!.receipt_url.endsWith('/api/assistant/receipt/rcpt-a2')).toBe(true);
    expect(assistant.trust_boundary).toMatchObject({ basis: 'testnet_settled_receipts', network: 'ergo_testnet', mainnet_ready: false });
    expect(graph.posture.mainnet_ready).toBe(false);
  });
});
