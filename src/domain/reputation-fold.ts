/**
 * The reputation graph kept up to date instead of rebuilt: the receipts of each new stretch of the
 * receipt log are folded into per-subject aggregates (counts, exact nanoERG totals, first and last
 * settlement, the newest few receipts) and the graph's totals, so reading the graph never reads
 * every receipt. Folding the log's first N entries in any number of steps gives exactly what
 * deriveReputationGraph gives for them (the log holds each receipt once, so nothing is a repeat).
 * Pure: the store reads the aggregates a stretch touches and writes back what this returns.
 */
import type { ReceiptSummary, SubjectKind } from '../../schemas/reputation.ts';
import { compareEvidence, type ReputationDerivation, type ReputationEvidence, type ReputationSubject } from './reputation.ts';

/** How many of its newest receipts a subject's entry names; the rest are read page by page. */
export const LATEST_EVIDENCE = 5;

/** A subject as kept: its aggregates and its newest receipts (at most LATEST_EVIDENCE, newest first). */
export type SubjectAggregate = Omit<ReputationSubject, 'evidence'> & { latest: ReputationEvidence[] };

/** The graph's totals over the first `logSize` entries of the log. */
export interface ReputationTotals {
  logSize: number;
  /** Subjects with at least one counted receipt. */
  subjects: number;
  receiptsCounted: number;
  sandboxReceiptsExcluded: number;
  receiptsWithoutPayer: number;
  totalSettledNanoErg: bigint;
  latestSettledAt: string | null;
}

export const EMPTY_TOTALS: ReputationTotals = { logSize: 0, subjects: 0, receiptsCounted: 0, sandboxReceiptsExcluded: 0, receiptsWithoutPayer: 0, totalSettledNanoErg: 0n, latestSettledAt: null };

/** One receipt credited to one subject: a row of the subject's evidence. */
export interface Credit {
  kind: SubjectKind;
  subjectId: string;
  evidence: ReputationEvidence;
}

export const subjectKey = (kind: SubjectKind, subjectId: string): string => `${kind}\u0000${subjectId}`;

/** The subjects a receipt credits: its service provider, and its payer when the chain named one. Sandbox receipts credit nobody. */
export function creditsOf(receipt: ReceiptSummary): Credit[] {
  if (receipt.chain !== 'testnet') return [];
  const evidence = { receiptId: receipt.receiptId, settlementTxId: receipt.settlementTxId, settledAt: receipt.settledAt };
  return [
    { kind: 'service_provider', subjectId: receipt.receiverAddress, evidence },
    ...(receipt.payerAddress === null ? [] : [{ kind: 'agent' as const, subjectId: receipt.payerAddress, evidence }]),
  ];
}

/**
 * Folds `receipts`, the entries [totals.logSize, totals.logSize + receipts.length) of the log in
 * order, into `totals` and the aggregates in `current` (which must hold every subject they credit
 * that has one). The new totals, the aggregates that changed, and the credits made.
 */
export function foldReceipts(
  totals: ReputationTotals,
  current: ReadonlyMap<string, SubjectAggregate>,
  receipts: readonly ReceiptSummary[],
): { totals: ReputationTotals; changed: SubjectAggregate[]; credits: Credit[] } {
  const changed = new Map<string, SubjectAggregate>();
  const credits: Credit[] = [];
  const next = { ...totals, logSize: totals.logSize + receipts.length };
  for (const receipt of receipts) {
    if (receipt.chain !== 'testnet') {
      next.sandboxReceiptsExcluded += 1;
      continue;
    }
    next.receiptsCounted += 1;
    next.totalSettledNanoErg += BigInt(receipt.valueNanoErg);
    if (receipt.payerAddress === null) next.receiptsWithoutPayer += 1;
    if (next.latestSettledAt === null || receipt.settledAt > next.latestSettledAt) next.latestSettledAt = receipt.settledAt;
    for (const credit of creditsOf(receipt)) {
      credits.push(credit);
      const key = subjectKey(credit.kind, credit.subjectId);
      const before = changed.get(key) ?? current.get(key);
      if (!before) next.subjects += 1;
      const { settledAt } = credit.evidence;
      changed.set(
        key,
        before
          ? {
              ...before,
              receiptCount: before.receiptCount + 1,
              settledNanoErg: before.settledNanoErg + BigInt(receipt.valueNanoErg),
              firstSettledAt: settledAt < before.firstSettledAt ? settledAt : before.firstSettledAt,
              lastSettledAt: settledAt > before.lastSettledAt ? settledAt : before.lastSettledAt,
              latest: [...before.latest, credit.evidence].sort(compareEvidence).slice(0, LATEST_EVIDENCE),
            }
          : {
              subjectId: credit.subjectId,
              kind: credit.kind,
              receiptCount: 1,
              settledNanoErg: BigInt(receipt.valueNanoErg),
              firstSettledAt: settledAt,
              lastSettledAt: settledAt,
              latest: [credit.evidence],
            },
      );
    }
  }
  return { totals: next, changed: [...changed.values()], credits };
}

/**
 * What folding the `logSize` entries a derivation read gives: its totals, and its subjects with
 * their newest `latest` receipts (all of them with Infinity, as a reader who paged through them has).
 */
export function foldedFromScratch(derivation: ReputationDerivation, logSize: number, latest = LATEST_EVIDENCE): { totals: ReputationTotals; subjects: SubjectAggregate[] } {
  const { subjects, receiptsCounted, sandboxReceiptsExcluded, receiptsWithoutPayer, totalSettledNanoErg, latestSettledAt } = derivation;
  return {
    totals: { logSize, subjects: subjects.length, receiptsCounted, sandboxReceiptsExcluded, receiptsWithoutPayer, totalSettledNanoErg, latestSettledAt },
    subjects: subjects.map(({ evidence, ...subject }) => ({ ...subject, latest: evidence.slice(0, latest) })),
  };
}
