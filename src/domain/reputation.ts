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

/** Code-unit order, as SQLite's BINARY and PostgreSQL's "C" collations sort: the same everywhere. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Instants are ISO-8601 UTC text written by `Date#toISOString`: their text order is their time order. */
const byTime = byText;

/**
 * The documented order of subjects: receipt count (most first), then latest settlement (newest
 * first), then subject id and kind in code-unit order, so the same receipts always give the same
 * graph, and a page of it can be read by a cursor.
 */
export function compareSubjects(a: Pick<ReputationSubject, 'receiptCount' | 'lastSettledAt' | 'subjectId' | 'kind'>, b: typeof a): number {
  return b.receiptCount - a.receiptCount || byTime(b.lastSettledAt, a.lastSettledAt) || byText(a.subjectId, b.subjectId) || byText(a.kind, b.kind);
}

/** The order of a subject's evidence: newest settlement first, then receipt id. */
export function compareEvidence(a: ReputationEvidence, b: ReputationEvidence): number {
  return byTime(b.settledAt, a.settledAt) || byText(a.receiptId, b.receiptId);
}

/**
 * Groups testnet receipts by subject, in the documented order (compareSubjects), each with its
 * evidence newest first (compareEvidence).
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
    const newestFirst = list.map(({ receiptId, settlementTxId, settledAt }) => ({ receiptId, settlementTxId, settledAt })).sort(compareEvidence);
    return {
      subjectId,
      kind,
      receiptCount: list.length,
      settledNanoErg: sumValues(list),
      firstSettledAt: newestFirst[newestFirst.length - 1]!.settledAt,
      lastSettledAt: newestFirst[0]!.settledAt,
      evidence: newestFirst,
    };
  });
  subjects.sort(compareSubjects);

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
