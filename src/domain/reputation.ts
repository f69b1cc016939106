/**
 * Reputation derived from receipts and nothing else. A subject (agent or service provider) is
 * receipt-backed when at least one of its receipts settled on the Ergo testnet; receipts verified
 * against the sandbox explorer (tests, local demo) never count, and a receipt id seen twice counts
 * once. Pure: the caller reads the receipts from the store and turns the result into a body.
 */
import type { ReceiptSummary } from '../../schemas/reputation.ts';

export interface ReputationEvidence {
  receiptId: string;
  settlementTxId: string;
  settledAt: string;
}

export interface ReputationSubject {
  subjectId: string;
  kind: ReceiptSummary['subjectKind'];
  receiptCount: number;
  settledNanoErg: bigint;
  firstSettledAt: string;
  lastSettledAt: string;
  /** Newest first. */
  evidence: ReputationEvidence[];
}

export interface ReputationDerivation {
  subjects: ReputationSubject[];
  receiptsCounted: number;
  sandboxReceiptsExcluded: number;
  duplicateReceiptsIgnored: number;
  totalSettledNanoErg: bigint;
  latestSettledAt: string | null;
}

const byTime = (a: string, b: string) => Date.parse(a) - Date.parse(b);

/**
 * Groups testnet receipts by subject. Subjects are ordered by receipt count (most first), then by
 * latest settlement (newest first), then by id, so the same receipts always give the same graph.
 */
export function deriveReputationGraph(receipts: readonly ReceiptSummary[]): ReputationDerivation {
  const seen = new Set<string>();
  const bySubject = new Map<string, ReceiptSummary[]>();
  let sandboxReceiptsExcluded = 0;
  let duplicateReceiptsIgnored = 0;

  for (const receipt of receipts) {
    if (receipt.chain !== 'testnet') {
      sandboxReceiptsExcluded += 1;
      continue;
    }
    if (seen.has(receipt.receiptId)) {
      duplicateReceiptsIgnored += 1;
      continue;
    }
    seen.add(receipt.receiptId);
    const key = `${receipt.subjectKind}\u0000${receipt.subjectId}`;
    const list = bySubject.get(key) ?? [];
    list.push(receipt);
    bySubject.set(key, list);
  }

  const subjects: ReputationSubject[] = [...bySubject.values()].map((list) => {
    const newestFirst = [...list].sort((a, b) => byTime(b.settledAt, a.settledAt) || a.receiptId.localeCompare(b.receiptId));
    return {
      subjectId: list[0]!.subjectId,
      kind: list[0]!.subjectKind,
      receiptCount: list.length,
      settledNanoErg: list.reduce((sum, receipt) => sum + BigInt(receipt.amountNanoErg), 0n),
      firstSettledAt: newestFirst[newestFirst.length - 1]!.settledAt,
      lastSettledAt: newestFirst[0]!.settledAt,
      evidence: newestFirst.map(({ receiptId, settlementTxId, settledAt }) => ({ receiptId, settlementTxId, settledAt })),
    };
  });
  subjects.sort(
    (a, b) => b.receiptCount - a.receiptCount || byTime(b.lastSettledAt, a.lastSettledAt) || a.subjectId.localeCompare(b.subjectId),
  );

  const latest = subjects.map((subject) => subject.lastSettledAt).sort(byTime).at(-1) ?? null;
  return {
    subjects,
    receiptsCounted: seen.size,
    sandboxReceiptsExcluded,
    duplicateReceiptsIgnored,
    totalSettledNanoErg: subjects.reduce((sum, subject) => sum + subject.settledNanoErg, 0n),
    latestSettledAt: latest,
  };
}
