/**
 * The reputation aggregates in SQL (migration 9): folding a stretch of the receipt log into them,
 * inside one transaction, and reading them a page at a time in the graph's order. Folding starts by
 * updating the totals' one row, so on PostgreSQL concurrent folds wait for one another there and
 * the second finds the stretch done; on SQLite the transaction already holds the write lock.
 */
import type { ReceiptSummary, SubjectKind } from '../../../schemas/reputation.ts';
import type { ReputationEvidence } from '../../domain/reputation.ts';
import { foldReceipts, subjectKey, type ReputationTotals, type SubjectAggregate } from '../../domain/reputation-fold.ts';
import type { ReceiptDay, SubjectCursor } from '../../domain/ports.ts';
import type { Queryable } from './database.ts';
import type { Dialect } from './dialect.ts';
import { receiptSummaryColumns, receiptSummaryOf, type ReceiptSummaryRow } from './rows.ts';

interface TotalsRow {
  log_size: number | string;
  subjects: number | string;
  receipts_counted: number | string;
  sandbox_excluded: number | string;
  without_payer: number | string;
  total_nano_erg: string;
  latest_settled_at: string | null;
}

interface SubjectRow {
  kind: SubjectKind;
  subject_id: string;
  receipt_count: number | string;
  settled_nano_erg: string;
  first_settled_at: string;
  last_settled_at: string;
  latest: string;
}

const TOTALS_COLUMNS = 'log_size, subjects, receipts_counted, sandbox_excluded, without_payer, total_nano_erg, latest_settled_at';
const SUBJECT_COLUMNS = 'kind, subject_id, receipt_count, settled_nano_erg, first_settled_at, last_settled_at, latest';

const totalsOf = (row: TotalsRow): ReputationTotals => ({
  logSize: Number(row.log_size),
  subjects: Number(row.subjects),
  receiptsCounted: Number(row.receipts_counted),
  sandboxReceiptsExcluded: Number(row.sandbox_excluded),
  receiptsWithoutPayer: Number(row.without_payer),
  totalSettledNanoErg: BigInt(row.total_nano_erg),
  latestSettledAt: row.latest_settled_at,
});

const subjectOf = (row: SubjectRow): SubjectAggregate => ({
  kind: row.kind,
  subjectId: row.subject_id,
  receiptCount: Number(row.receipt_count),
  settledNanoErg: BigInt(row.settled_nano_erg),
  firstSettledAt: row.first_settled_at,
  lastSettledAt: row.last_settled_at,
  latest: JSON.parse(row.latest) as ReputationEvidence[],
});

/** Rows a multi-row statement writes at most, well within either engine's parameter limit. */
const ROWS_PER_STATEMENT = 200;

const chunks = <T>(items: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/**
 * Folds the log's entries from where the aggregates stand up to `toSize`, at most `maxEntries` of
 * them, inside `tx`. The log size the aggregates covered before and cover afterwards.
 */
export async function foldStretch(tx: Queryable, dialect: Dialect, toSize: number, maxEntries: number): Promise<{ from: number; to: number }> {
  const [locked] = await tx.query<TotalsRow>(`UPDATE reputation_totals SET log_size = log_size WHERE id = 1 RETURNING ${TOTALS_COLUMNS}`);
  const totals = totalsOf(locked!);
  if (totals.logSize >= toSize) return { from: totals.logSize, to: totals.logSize };
  const end = Math.min(toSize, totals.logSize + Math.max(1, maxEntries));
  const summaries: ReceiptSummary[] = (
    await tx.query<ReceiptSummaryRow>(
      `SELECT ${receiptSummaryColumns(dialect)} FROM log_entries e JOIN receipts r ON r.receipt_id = e.receipt_id WHERE e.idx >= $1 AND e.idx < $2 ORDER BY e.idx`,
      [totals.logSize, end],
    )
  ).map(receiptSummaryOf);
  // An entry whose receipt is gone from the store folds as nothing; the monitor reports such an entry.
  const current = await readSubjectsByKey(tx, summaries);
  const folded = foldReceipts(totals, current, summaries);
  for (const subject of folded.changed) {
    await tx.query(
      `INSERT INTO reputation_subjects (${SUBJECT_COLUMNS}, rank_count, rank_time) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (kind, subject_id) DO UPDATE SET receipt_count = $3, settled_nano_erg = $4, first_settled_at = $5, last_settled_at = $6, latest = $7, rank_count = $8, rank_time = $9`,
      [subject.kind, subject.subjectId, subject.receiptCount, subject.settledNanoErg.toString(), subject.firstSettledAt, subject.lastSettledAt, JSON.stringify(subject.latest), ...rankOf(subject)],
    );
  }
  for (const batch of chunks(folded.credits, ROWS_PER_STATEMENT)) {
    await tx.query(
      `INSERT INTO reputation_evidence (kind, subject_id, settled_at, receipt_id, settlement_tx_id, rank_time) VALUES ${batch.map((_, i) => `(${[1, 2, 3, 4, 5, 6].map((n) => `$${6 * i + n}`).join(', ')})`).join(', ')}`,
      batch.flatMap(({ kind, subjectId, evidence }) => [kind, subjectId, evidence.settledAt, evidence.receiptId, evidence.settlementTxId, -Date.parse(evidence.settledAt)]),
    );
  }
  // Every receipt of the stretch, sandbox ones too, counted on its settlement day for the proofs picture.
  const days = new Map<string, { day: string; chain: string; count: number }>();
  for (const { settledAt, chain } of summaries) {
    const day = Number.isFinite(Date.parse(settledAt ?? '')) ? settledAt.slice(0, 10) : '';
    const entry = days.get(`${day} ${chain}`) ?? { day, chain, count: 0 };
    entry.count += 1;
    days.set(`${day} ${chain}`, entry);
  }
  for (const { day, chain, count } of days.values()) {
    await tx.query('INSERT INTO receipt_days (day, chain, count) VALUES ($1, $2, $3) ON CONFLICT (day, chain) DO UPDATE SET count = receipt_days.count + $3', [day, chain, count]);
  }
  const next = { ...folded.totals, logSize: end };
  await tx.query(
    'UPDATE reputation_totals SET log_size = $1, receipts_counted = $2, sandbox_excluded = $3, without_payer = $4, total_nano_erg = $5, latest_settled_at = $6, subjects = $7 WHERE id = 1',
    [next.logSize, next.receiptsCounted, next.sandboxReceiptsExcluded, next.receiptsWithoutPayer, next.totalSettledNanoErg.toString(), next.latestSettledAt, next.subjects],
  );
  return { from: totals.logSize, to: end };
}

/** The aggregates of every subject `receipts` credit that has one, by subjectKey. */
async function readSubjectsByKey(tx: Queryable, receipts: readonly ReceiptSummary[]): Promise<Map<string, SubjectAggregate>> {
  const wanted = new Map<string, [SubjectKind, string]>();
  for (const receipt of receipts) {
    if (receipt.chain !== 'testnet') continue;
    wanted.set(subjectKey('service_provider', receipt.receiverAddress), ['service_provider', receipt.receiverAddress]);
    if (receipt.payerAddress !== null) wanted.set(subjectKey('agent', receipt.payerAddress), ['agent', receipt.payerAddress]);
  }
  const found = new Map<string, SubjectAggregate>();
  for (const batch of chunks([...wanted.values()], ROWS_PER_STATEMENT)) {
    const rows = await tx.query<SubjectRow>(
      `SELECT ${SUBJECT_COLUMNS} FROM reputation_subjects WHERE ${batch.map((_, i) => `(kind = $${2 * i + 1} AND subject_id = $${2 * i + 2})`).join(' OR ')}`,
      batch.flat(),
    );
    for (const row of rows) found.set(subjectKey(row.kind, row.subject_id), subjectOf(row));
  }
  return found;
}

export async function readTotals(q: Pick<Queryable, 'query'>): Promise<ReputationTotals> {
  const [row] = await q.query<TotalsRow>(`SELECT ${TOTALS_COLUMNS} FROM reputation_totals WHERE id = 1`);
  return totalsOf(row!);
}

export async function readSubject(q: Pick<Queryable, 'query'>, kind: SubjectKind, subjectId: string): Promise<SubjectAggregate | undefined> {
  const [row] = await q.query<SubjectRow>(`SELECT ${SUBJECT_COLUMNS} FROM reputation_subjects WHERE kind = $1 AND subject_id = $2`, [kind, subjectId]);
  return row && subjectOf(row);
}

/** A subject's place in the graph's order as the ranked index keeps it: most receipts, then newest, first. */
const rankOf = (subject: Pick<SubjectAggregate, 'receiptCount' | 'lastSettledAt'>): [number, number] => [-subject.receiptCount, -Date.parse(subject.lastSettledAt)];

/** Up to `limit` subjects in the graph's order (compareSubjects), after `after`: one range of the ranked index. */
export async function readSubjects(q: Pick<Queryable, 'query'>, limit: number, after?: SubjectCursor): Promise<SubjectAggregate[]> {
  const order = 'ORDER BY rank_count, rank_time, subject_id, kind';
  const rows = after
    ? await q.query<SubjectRow>(`SELECT ${SUBJECT_COLUMNS} FROM reputation_subjects WHERE (rank_count, rank_time, subject_id, kind) > ($1, $2, $3, $4) ${order} LIMIT $5`, [
        ...rankOf(after),
        after.subjectId,
        after.kind,
        limit,
      ])
    : await q.query<SubjectRow>(`SELECT ${SUBJECT_COLUMNS} FROM reputation_subjects ${order} LIMIT $1`, [limit]);
  return rows.map(subjectOf);
}

/** Up to `limit` receipts credited to a subject, newest first (compareEvidence), after `after`: one range of its index. */
export async function readEvidence(q: Pick<Queryable, 'query'>, kind: SubjectKind, subjectId: string, limit: number, after?: ReputationEvidence): Promise<ReputationEvidence[]> {
  const rows = await q.query<{ receipt_id: string; settlement_tx_id: string; settled_at: string }>(
    `SELECT receipt_id, settlement_tx_id, settled_at FROM reputation_evidence
      WHERE kind = $1 AND subject_id = $2 ${after ? 'AND (rank_time, receipt_id) > ($4, $5)' : ''}
      ORDER BY rank_time, receipt_id LIMIT $3`,
    after ? [kind, subjectId, limit, -Date.parse(after.settledAt), after.receiptId] : [kind, subjectId, limit],
  );
  return rows.map((row) => ({ receiptId: row.receipt_id, settlementTxId: row.settlement_tx_id, settledAt: row.settled_at }));
}

/** Receipts settled per UTC day and chain ('' for no settlement date), over all the folded log. */
export async function readReceiptDays(q: Pick<Queryable, 'query'>): Promise<ReceiptDay[]> {
  const rows = await q.query<{ day: string; chain: ReceiptDay['chain']; count: number | string }>('SELECT day, chain, count FROM receipt_days ORDER BY day, chain');
  return rows.map((row) => ({ day: row.day, chain: row.chain, count: Number(row.count) }));
}
