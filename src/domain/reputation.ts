/**
 * Reputation derived from receipts and nothing else. Each receipt credits two subjects: the service
 * provider it paid (the receiver of the quote) and the agent that paid (the payer, when the chain
 * named one). A subject is receipt-backed when at least one of its receipts settled on the Ergo
 * testnet; receipts verified against the sandbox explorer (tests, local demo) never count, and a
 * receipt id seen twice counts once. Pure: the caller reads the receipts from the store and turns
 * the result into a body.
 */
import type { ReceiptSummary, SubjectKind } from '../../schemas/reputation.ts';

export interface ReputationEvidence {
  receiptId: string;
  settlementTxId: string;
  settledAt: string;
}

export interface ReputationSubject {
  subjectId: string;
  kind: SubjectKind;
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
  receiptsWithoutPayer: number;
  totalSettledNanoErg: bigint;
  latestSettledAt: string | null;
}

const byTime = (a: string, b: string) => Date.parse(a) - Date.parse(b);

/**
 * Groups testnet receipts by subject. Subjects are ordered by receipt count (most first), then by
 * latest settlement (newest first), then by id, so the same receipts always give the same graph.
 */
export function deriveReputationGraph(receipts: readonly ReceiptSummary[]): ReputationDerivation {
  const counted = new Map<string, ReceiptSummary>();
  const bySubject = new Map<string, { subjectId: string; kind: SubjectKind; receipts: ReceiptSummary[] }>();
  let sandboxReceiptsExcluded = 0;
  let duplicateReceiptsIgnored = 0;
  let receiptsWithoutPayer = 0;
  const credit = (subjectId: string, kind: SubjectKind, receipt: ReceiptSummary) => {
    const key = `${kind}\u0000${subjectId}`;
    const entry = bySubject.get(key) ?? { subjectId, kind, receipts: [] };
    entry.receipts.push(receipt);
    bySubject.set(key, entry);
  };

  for (const receipt of receipts) {
    if (receipt.chain !== 'testnet') {
      sandboxReceiptsExcluded += 1;
      continue;
    }
    if (counted.has(receipt.receiptId)) {
      duplicateReceiptsIgnored += 1;
      continue;
    }
    counted.set(receipt.receiptId, receipt);
    credit(receipt.receiverAddress, 'service_provider', receipt);
    if (receipt.payerAddress === null) receiptsWithoutPayer += 1;
    else credit(receipt.payerAddress, 'agent', receipt);
  }

  const subjects: ReputationSubject[] = [...bySubject.values()].map(({ subjectId, kind, receipts: list }) => {
    const newestFirst = [...list].sort((a, b) => byTime(b.settledAt, a.settledAt) || a.receiptId.localeCompare(b.receiptId));
    return {
      subjectId,
      kind,
      receiptCount: list.length,
      settledNanoErg: sumValues(list),
      firstSettledAt: newestFirst[newestFirst.length - 1]!.settledAt,
      lastSettledAt: newestFirst[0]!.settledAt,
      evidence: newestFirst.map(({ receiptId, settlementTxId, settledAt }) => ({ receiptId, settlementTxId, settledAt })),
    };
  });
  subjects.sort(
    (a, b) =>
      b.receiptCount - a.receiptCount ||
      byTime(b.lastSettledAt, a.lastSettledAt) ||
      a.subjectId.localeCompare(b.subjectId) ||
      a.kind.localeCompare(b.kind),
  );

  const latest = [...counted.values()].map((receipt) => receipt.settledAt).sort(byTime).at(-1) ?? null;
  return {
    subjects,
    receiptsCounted: counted.size,
    sandboxReceiptsExcluded,
    duplicateReceiptsIgnored,
    receiptsWithoutPayer,
    totalSettledNanoErg: sumValues([...counted.values()]),
    latestSettledAt: latest,
  };
}

const sumValues = (list: readonly ReceiptSummary[]) => list.reduce((sum, receipt) => sum + BigInt(receipt.valueNanoErg), 0n);
