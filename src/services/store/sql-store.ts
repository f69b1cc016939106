/**
 * The assistant's store: one implementation of AssistantStore in SQL over either engine. It opens
 * the database and applies the migrations on first use (the server asks for that at start), and
 * retries on the next call when it failed, so a database that comes up after the server does is
 * picked up without a restart.
 *
 * Amounts travel as decimal text (`CAST(... AS TEXT)` on read, strings on write) so no driver ever
 * turns a nanoERG value into a float; JSON documents are read as text and parsed here, so both
 * engines hand back the same shape; timestamps are normalised to Date whatever the driver returns.
 */
import type { ReceiptBundle } from '../../../schemas/receipt.ts';
import type { ReceiptSummary, SubjectKind } from '../../../schemas/reputation.ts';
import type { ProbeRun } from '../../domain/probe-history.ts';
import { receiptLogEntry, receiptLogEntryText } from '../../domain/receipt-log-entry.ts';
import {
  NoteAlreadyUsedError,
  StoreUnavailableError,
  StoreUnusableError,
  type ActivityEvent,
  type RecordedActivityEvent,
  type AssistantStore,
  type ReissueTokenInput,
  type ReissueTokenResult,
  type SettlePaymentInput,
  type SpendTokenResult,
  type StoredQuote,
  type LogEntry,
  type ReceiptLogStore,
  type StoredCheckpoint,
  type KeptBundle,
  type A2aTaskQuery,
  type A2aTaskRecord,
  type CompleteA2aTaskResult,
  type SubjectCursor,
  type ReceiptDay,
  type ReputationStore,
  type StoredA2aTask,
  type StoredReceiptText,
  type SweepWindow,
} from '../../domain/ports.ts';
import type { Dialect } from './dialect.ts';
import { UniqueViolationError, type Database, type Queryable } from './database.ts';
import { a2aTaskOf, a2aTaskStateIs, A2A_TASK_COLUMNS, activityValues, clampLimit, receiptSummaryColumns, receiptSummaryOf, INSERT_ACTIVITY, normaliseId, readBundle, toDate, type ActivityRow, type ProbeResultRow, type A2aTaskRow, type QuoteRow, type ReceiptSummaryRow, type TokenRow } from './rows.ts';
import { migrate, SchemaTooNewError } from './migrations.ts';
import { appendEntry, appendUnlogged } from './receipt-log.ts';
import { foldStretch, readEvidence, readReceiptDays, readSubject, readSubjects, readTotals } from './reputation.ts';
import type { ReputationEvidence } from '../../domain/reputation.ts';
import type { ReputationTotals, SubjectAggregate } from '../../domain/reputation-fold.ts';
import { hex } from '@fleet-sdk/crypto';
import { leafHash, sameBytes, storedHashIndex } from '../../domain/tlog/tree.ts';

/** Concurrent retries of one verification each rotate the token once; more rounds than this is a storm. */
const MAX_REISSUE_ATTEMPTS = 8;

/** Money moved: a settled payment and a spent token must survive a power loss, not only a crash. */
const DURABLE = { durable: true };

/** Ends the claim made at $5 (the task's `updated_at` since): a claim taken over as stale writes nothing. */
const RELEASE_TASK = `UPDATE a2a_tasks SET state = $2, record = $3, updated_at = $4 WHERE task_id = $1 AND state = 'working' AND updated_at = $5 RETURNING task_id`;

/**
 * Spends a token inside `tx`: one statement decides, so concurrent spends of one token serialise on
 * its row and the loser re-reads used_at as set and updates nothing.
 */
async function spendIn(tx: Queryable, tokenHash: string, questionHash: string, now: Date): Promise<SpendTokenResult> {
  const at = now.toISOString();
  const [spent] = await tx.query<{ quote_id: string; receipt_id: string }>(
    `UPDATE payment_tokens SET used_at = $3
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $3 AND question_hash = $2
      RETURNING quote_id, receipt_id`,
    [tokenHash, questionHash, at],
  );
  if (spent) return { ok: true, quoteId: spent.quote_id, receiptId: spent.receipt_id };
  const [token] = await tx.query<TokenRow>('SELECT used_at, expires_at, question_hash FROM payment_tokens WHERE token_hash = $1', [tokenHash]);
  if (!token) return { ok: false, reason: 'unknown' };
  if (token.used_at !== null) return { ok: false, reason: 'used' };
  if (toDate(token.expires_at).getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: false, reason: 'question_mismatch' };
}

/** The reads of `database` as the reputation queries take them: from the newest committed state, beside any write. */
const readsOf = (database: Database): Pick<Queryable, 'query'> => ({ query: (sql, params) => database.read(sql, params) });

/** Thrown inside a completion whose token did not spend, to roll the task's completion back. */
class NotSpent extends Error {
  readonly result: Exclude<SpendTokenResult, { ok: true }>;

  constructor(result: Exclude<SpendTokenResult, { ok: true }>) {
    super(`token not spent: ${result.reason}`);
    this.result = result;
  }
}

/** The fewest folded entries after which PostgreSQL's statistics of the reputation tables are refreshed. */
const ANALYZE_AFTER_ENTRIES = 1_000;

export class SqlAssistantStore implements AssistantStore, ReceiptLogStore, ReputationStore {
  readonly kind: 'sqlite' | 'postgres';
  readonly #where: string;
  #open: () => Database;
  #database: Promise<Database> | undefined;
  #closed = false;
  /** Entries this instance folded into the reputation tables since it last analysed them (PostgreSQL). */
  #foldedSinceAnalyze = 0;

  /**
   * `open` creates the engine connection; it is called lazily and again after a failed attempt.
   * `where` names the store in messages (the DATA_DIR file, or "the PostgreSQL at DATABASE_URL").
   */
  constructor(kind: 'sqlite' | 'postgres', where: string, open: () => Database) {
    this.kind = kind;
    this.#where = where;
    this.#open = open;
  }

  /**
   * The opened and migrated database; rejects with StoreUnavailableError when it cannot be reached,
   * and with StoreUnusableError when its data cannot be used by this build (corrupt, or newer).
   */
  ready(): Promise<Database> {
    if (this.#closed) return Promise.reject(new StoreUnavailableError('the store is closed'));
    this.#database ??= (async () => {
      const database = this.#open();
      try {
        await migrate(database.dialect, (work) => database.transaction(work));
      } catch (error) {
        await database.close().catch(() => undefined);
        if (error instanceof SchemaTooNewError) {
          throw new StoreUnusableError(
            `${this.#where} was migrated by a newer build of this service (schema version ${error.found}; this build knows up to ${error.known}). Run that newer build, or point ${this.kind === 'sqlite' ? 'DATA_DIR' : 'DATABASE_URL (or DATABASE_SCHEMA)'} at another store.`,
            { cause: error },
          );
        }
        throw error;
      }
      return database;
    })().catch((error: unknown) => {
      this.#database = undefined;
      throw error;
    });
    return this.#database;
  }

  async ping(): Promise<void> {
    await (await this.ready()).read('SELECT 1');
  }

  async insertQuote(quote: StoredQuote): Promise<void> {
    const database = await this.ready();
    await database.query(
      `INSERT INTO quotes (quote_id, task_hash, question_hash, price_nano_erg, receiver_address, reserve_box_id,
                           note_expiry_min_height, min_confirmations, issued_height, issued_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        quote.quoteId,
        quote.taskHash,
        quote.questionHash,
        quote.priceNanoErg.toString(),
        quote.receiverAddress,
        quote.reserveBoxId,
        quote.noteExpiryMinHeight,
        quote.minConfirmations,
        quote.issuedHeight,
        quote.issuedAt.toISOString(),
        quote.expiresAt.toISOString(),
      ],
    );
  }

  async getQuote(quoteId: string): Promise<StoredQuote | undefined> {
    const database = await this.ready();
    const [row] = await database.read<QuoteRow>(
      `SELECT quote_id, task_hash, question_hash, CAST(price_nano_erg AS TEXT) AS price_nano_erg, receiver_address, reserve_box_id,
              note_expiry_min_height, min_confirmations, issued_height, issued_at, expires_at
         FROM quotes WHERE quote_id = $1`,
      [quoteId],
    );
    if (!row) return undefined;
    return {
      quoteId: row.quote_id,
      taskHash: row.task_hash,
      questionHash: row.question_hash,
      priceNanoErg: BigInt(row.price_nano_erg),
      receiverAddress: row.receiver_address,
      reserveBoxId: row.reserve_box_id,
      noteExpiryMinHeight: Number(row.note_expiry_min_height),
      minConfirmations: Number(row.min_confirmations),
      issuedHeight: Number(row.issued_height),
      issuedAt: toDate(row.issued_at),
      expiresAt: toDate(row.expires_at),
    };
  }

  async settlePayment(input: SettlePaymentInput): Promise<void> {
    const database = await this.ready();
    const noteBoxId = input.noteBoxId.toLowerCase();
    const receipt = input.receipt;
    try {
      await database.transaction(async (tx) => {
        // First, so a Note that already paid stops the transaction before anything else is written.
        await tx.query('INSERT INTO used_notes (note_box_id, quote_id) VALUES ($1, $2)', [noteBoxId, input.quoteId]);
        // Stored as its log entry's text (RFC 8785 JSON, made once when the bundle was built): where the
        // store keeps text as written (SQLite), an entry bundle is then read without parsing a receipt.
        await tx.query(
          `INSERT INTO receipts (receipt_id, settlement_tx_id, note_box_id, quote_id, chain, bundle, payer_address)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [receipt.receiptId, receipt.settlementTxId, noteBoxId, input.quoteId, receipt.chain, receiptLogEntryText(receipt), input.payerAddress],
        );
        await tx.query(
          `INSERT INTO payment_tokens (token_hash, quote_id, receipt_id, question_hash, expires_at, retry_key_hash)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [input.tokenHash, input.quoteId, receipt.receiptId, input.questionHash, input.tokenExpiresAt.toISOString(), input.retryKeyHash],
        );
        // Last, so the log's head row is held for as short a time as this transaction allows.
        await appendEntry(tx, receipt);
      }, DURABLE);
    } catch (error) {
      if (error instanceof UniqueViolationError && error.table === 'used_notes') throw new NoteAlreadyUsedError(noteBoxId);
      throw error;
    }
  }

  async reissueToken(input: ReissueTokenInput): Promise<ReissueTokenResult> {
    const database = await this.ready();
    return database.transaction(async (tx) => {
      // PostgreSQL runs concurrent retries side by side: one may rotate the token between this read
      // and the update below, which then matches nothing; the loop reads the rotated row again.
      for (let attempt = 0; attempt < MAX_REISSUE_ATTEMPTS; attempt++) {
        const [settled] = await tx.query<{ quote_id: string; receipt_id: string; bundle: string; token_hash: string; used_at: Date | string | null; retry_key_hash: string | null }>(
          `SELECT u.quote_id, r.receipt_id, CAST(r.bundle AS TEXT) AS bundle, t.token_hash, t.used_at, t.retry_key_hash
             FROM used_notes u
             JOIN receipts r ON r.note_box_id = u.note_box_id
             JOIN payment_tokens t ON t.receipt_id = r.receipt_id
            WHERE u.note_box_id = $1`,
          [input.noteBoxId.toLowerCase()],
        );
        if (!settled || settled.quote_id !== input.quoteId) return { status: 'other_quote' };
        if (settled.used_at !== null) return { status: 'answered', receiptId: settled.receipt_id };
        // Everything else a retry names is public once settled: only the payer's key hands the turn back.
        if (settled.retry_key_hash === null || settled.retry_key_hash !== input.retryKeyHash) return { status: 'not_payer', receiptId: settled.receipt_id };
        // Guarded by used_at: a chat spending the token at the same moment wins or loses as a whole.
        const [rotated] = await tx.query<{ receipt_id: string }>(
          `UPDATE payment_tokens SET token_hash = $2, expires_at = $3
            WHERE token_hash = $1 AND used_at IS NULL
            RETURNING receipt_id`,
          [settled.token_hash, input.tokenHash, input.tokenExpiresAt.toISOString()],
        );
        if (rotated) return { status: 'reissued', receipt: readBundle(database.dialect, settled.bundle) };
      }
      throw new StoreUnavailableError(`the payment token of Note ${input.noteBoxId} kept changing under ${MAX_REISSUE_ATTEMPTS} reissues; retry shortly`);
    }, DURABLE);
  }

  async spendToken(tokenHash: string, questionHash: string, now: Date): Promise<SpendTokenResult> {
    const database = await this.ready();
    return database.transaction((tx) => spendIn(tx, tokenHash, questionHash, now), DURABLE);
  }

  async getReceipt(idOrTxId: string): Promise<ReceiptBundle | undefined> {
    const database = await this.ready();
    const id = normaliseId(idOrTxId);
    // A receipt id wins over a settlement transaction id; several Notes of one transaction: the first stored.
    const [row] = await database.read<{ bundle: string }>(
      `SELECT CAST(bundle AS TEXT) AS bundle FROM receipts
        WHERE receipt_id = $1 OR settlement_tx_id = $1
        ORDER BY (receipt_id = $1) DESC, created_at ASC
        LIMIT 1`,
      [id],
    );
    return row ? readBundle(database.dialect, row.bundle) : undefined;
  }

  async listReceiptTexts(limit: number): Promise<StoredReceiptText[]> {
    const database = await this.ready();
    const rows = await database.read<{ bundle: string }>(
      `SELECT CAST(bundle AS TEXT) AS bundle FROM receipts ORDER BY created_at DESC, ${database.dialect.insertionOrder} LIMIT $1`,
      [clampLimit(limit)],
    );
    return rows.map(({ bundle: text }) => ({ text, bundle: () => readBundle(database.dialect, text) }));
  }

  async listReceiptSummaries(logSize?: number): Promise<ReceiptSummary[]> {
    const database = await this.ready();
    const columns = receiptSummaryColumns(database.dialect);
    const rows =
      logSize === undefined
        ? await database.read<ReceiptSummaryRow>(`SELECT ${columns} FROM receipts r ORDER BY r.created_at ASC, r.receipt_id ASC`)
        : await database.read<ReceiptSummaryRow>(`SELECT ${columns} FROM receipts r JOIN log_entries e ON e.receipt_id = r.receipt_id WHERE e.idx < $1 ORDER BY e.idx ASC`, [logSize]);
    return rows.map(receiptSummaryOf);
  }

  async recordActivity(event: RecordedActivityEvent): Promise<void> {
    const database = await this.ready();
    await database.query(INSERT_ACTIVITY, activityValues(event));
  }

  async listActivity(limit: number): Promise<ActivityEvent[]> {
    const database = await this.ready();
    // The newest recorded events and the newest stored quotes (each its own quote_issued event),
    // merged; at one instant a quote lists after what followed it, and quotes in the order stored.
    const { column } = database.dialect.quoteSequence;
    const rows = await database.read<ActivityRow>(
      `SELECT kind, at, amount_nano_erg, task_hash, receipt_id FROM (
         SELECT * FROM (SELECT kind, at, CAST(amount_nano_erg AS TEXT) AS amount_nano_erg, task_hash, receipt_id, 1 AS rank, id AS seq
                          FROM activity ORDER BY at DESC, id DESC LIMIT $1) AS recorded
         UNION ALL
         SELECT * FROM (SELECT 'quote_issued' AS kind, issued_at AS at, CAST(price_nano_erg AS TEXT) AS amount_nano_erg, task_hash,
                               NULL AS receipt_id, 0 AS rank, ${column} AS seq
                          FROM quotes ORDER BY ${column} DESC LIMIT $1) AS issued
       ) AS feed ORDER BY at DESC, rank DESC, seq DESC LIMIT $1`,
      [clampLimit(limit)],
    );
    return rows.map((row) => ({
      kind: row.kind,
      at: toDate(row.at),
      ...(row.amount_nano_erg !== null ? { amountNanoErg: BigInt(row.amount_nano_erg) } : {}),
      ...(row.task_hash !== null ? { taskHash: row.task_hash } : {}),
      ...(row.receipt_id !== null ? { receiptId: row.receipt_id } : {}),
    }));
  }

  async isNoteUsed(noteBoxId: string): Promise<boolean> {
    const database = await this.ready();
    const rows = await database.read('SELECT 1 AS used FROM used_notes WHERE note_box_id = $1', [normaliseId(noteBoxId)]);
    return rows.length > 0;
  }

  async recordProbeRun(run: ProbeRun, { keepRuns, everyMs }: { keepRuns: number; everyMs: number }): Promise<boolean> {
    if (run.results.length === 0) return false;
    const database = await this.ready();
    const at = run.at.toISOString();
    const rows = run.results.map((_, index) => `($1, $${index * 3 + 2}, $${index * 3 + 3}, $${index * 3 + 4})`);
    const values = [at, ...run.results.flatMap((result) => [result.gate, result.state, result.latencyMs])];
    return database.transaction(async (tx) => {
      // Several instances read live status: the history keeps one reading per interval, whoever made it.
      const [recent] = await tx.query('SELECT 1 AS found FROM probe_results WHERE at > $1 AND at < $2 LIMIT 1', [
        new Date(run.at.getTime() - everyMs).toISOString(),
        new Date(run.at.getTime() + everyMs).toISOString(),
      ]);
      if (recent) return false;
      await tx.query(`INSERT INTO probe_results (at, gate, state, latency_ms) VALUES ${rows.join(', ')} ON CONFLICT (at, gate) DO NOTHING`, values);
      // Older than the oldest of the newest `keepRuns` runs; nothing while fewer are kept.
      await tx.query(
        `DELETE FROM probe_results
          WHERE at < (SELECT at FROM (SELECT DISTINCT at FROM probe_results ORDER BY at DESC LIMIT 1 OFFSET $1) AS oldest_kept)`,
        [Math.max(0, Math.floor(keepRuns) - 1)],
      );
      return true;
    });
  }

  async listProbeRuns(limit: number): Promise<ProbeRun[]> {
    const database = await this.ready();
    const rows = await database.read<ProbeResultRow>(
      `SELECT at, gate, state, latency_ms FROM probe_results
        WHERE at >= (SELECT MIN(at) FROM (SELECT DISTINCT at FROM probe_results ORDER BY at DESC LIMIT $1) AS newest)
        ORDER BY at ASC, gate ASC`,
      // Not clampLimit: a day of readings is more than the 1 000 rows other lists stop at.
      [Math.max(1, Math.trunc(limit))],
    );
    const runs = new Map<string, ProbeRun>();
    for (const row of rows) {
      const at = toDate(row.at);
      const run = runs.get(at.toISOString()) ?? { at, results: [] };
      run.results.push({ gate: row.gate, state: row.state, latencyMs: row.latency_ms === null ? null : Number(row.latency_ms) });
      runs.set(at.toISOString(), run);
    }
    return [...runs.values()];
  }

  async reserveFreeUsage(clientKey: string, day: string, limit: number): Promise<number | null> {
    const database = await this.ready();
    // One statement reads and counts: the row lock (PostgreSQL) or the write lock (SQLite) orders
    // racing reservations, and the one that finds the limit reached updates, and returns, nothing.
    const rows = await database.query<{ count: number }>(
      `INSERT INTO free_usage (client_key, day, count) VALUES ($1, $2, 1)
       ON CONFLICT (client_key, day) DO UPDATE SET count = free_usage.count + 1 WHERE free_usage.count < $3
       RETURNING count`,
      [clientKey, day, limit],
    );
    return rows.length ? Number(rows[0]!.count) : null;
  }

  async releaseFreeUsage(clientKey: string, day: string): Promise<void> {
    const database = await this.ready();
    await database.query('UPDATE free_usage SET count = count - 1 WHERE client_key = $1 AND day = $2 AND count > 0', [clientKey, day]);
  }

  async getFreeUsage(clientKey: string, day: string): Promise<number> {
    const database = await this.ready();
    const [row] = await database.read<{ count: number }>('SELECT count FROM free_usage WHERE client_key = $1 AND day = $2', [clientKey, day]);
    return row ? Number(row.count) : 0;
  }

  async sweepUnpaidQuotes(from: Date, expiredBefore: Date, limit: number): Promise<SweepWindow> {
    return this.#sweepWindow('quotes', 'quote_id', 'NOT EXISTS (SELECT 1 FROM used_notes u WHERE u.quote_id = quotes.quote_id)', from, expiredBefore, limit);
  }

  async insertA2aTask(task: StoredA2aTask): Promise<void> {
    const database = await this.ready();
    await database.query(
      `INSERT INTO a2a_tasks (task_id, context_id, quote_id, state, retry_key, record, expires_at, created_at, updated_at, owner_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        task.taskId,
        task.contextId,
        task.quoteId,
        task.state,
        task.retryKey,
        JSON.stringify(task.record),
        task.expiresAt.toISOString(),
        task.createdAt.toISOString(),
        task.updatedAt.toISOString(),
        task.ownerHash ?? null,
      ],
    );
  }

  async listA2aTasks({ ownerHash, contextId, state, updatedFrom, after, limit }: A2aTaskQuery): Promise<{ tasks: StoredA2aTask[]; total: number }> {
    const database = await this.ready();
    // Each filter is a condition and a parameter; the owner's comes first, as the index has it.
    const conditions = ['owner_hash = $1'];
    const values: unknown[] = [ownerHash];
    const where = ({ value, condition }: { value: unknown; condition: (at: string) => string }) => {
      values.push(value);
      conditions.push(condition(`$${values.length}`));
    };
    if (contextId !== undefined) where({ value: contextId, condition: (at) => `context_id = ${at}` });
    if (state !== undefined) where(a2aTaskStateIs(state));
    if (updatedFrom !== undefined) where({ value: updatedFrom.toISOString(), condition: (at) => `updated_at >= ${at}` });
    const filtered = conditions.join(' AND ');
    const filterValues = [...values];
    if (after !== undefined) {
      values.push(after.updatedAt.toISOString(), after.taskId);
      conditions.push(`(updated_at, task_id) < ($${values.length - 1}, $${values.length})`);
    }
    values.push(clampLimit(limit));
    // The page and the count read one snapshot's worth apart at most: a task that changes between
    // them moves in the next page's order, as it would between two pages.
    const [rows, [counted]] = await Promise.all([
      database.read<A2aTaskRow>(`SELECT ${A2A_TASK_COLUMNS} FROM a2a_tasks WHERE ${conditions.join(' AND ')} ORDER BY updated_at DESC, task_id DESC LIMIT $${values.length}`, values),
      database.read<{ total: number | string }>(`SELECT count(*) AS total FROM a2a_tasks WHERE ${filtered}`, filterValues),
    ]);
    return { tasks: rows.map(a2aTaskOf), total: Number(counted?.total ?? 0) };
  }

  async cancelA2aTask({ taskId, seenAt, record, now }: { taskId: string; seenAt: Date; record: A2aTaskRecord; now: Date }): Promise<StoredA2aTask | undefined> {
    const database = await this.ready();
    // Fenced like a claim: a task claimed, ended or changed since it was read is left as it is.
    const [row] = await database.query<A2aTaskRow>(
      `UPDATE a2a_tasks SET state = 'failed', canceled_at = $3, record = $2, updated_at = $3
        WHERE task_id = $1 AND state = 'input-required' AND updated_at = $4
        RETURNING ${A2A_TASK_COLUMNS}`,
      [taskId, JSON.stringify(record), now.toISOString(), seenAt.toISOString()],
    );
    return row && a2aTaskOf(row);
  }

  async getA2aTask(taskId: string): Promise<StoredA2aTask | undefined> {
    const database = await this.ready();
    const [row] = await database.read<A2aTaskRow>(`SELECT ${A2A_TASK_COLUMNS} FROM a2a_tasks WHERE task_id = $1`, [taskId]);
    return row && a2aTaskOf(row);
  }

  async claimA2aTask(taskId: string, now: Date, staleBefore: Date): Promise<StoredA2aTask | undefined> {
    const database = await this.ready();
    // One statement reads and moves the state: of two requests racing for one task, one claims it.
    const [row] = await database.query<A2aTaskRow>(
      `UPDATE a2a_tasks SET state = 'working', updated_at = $2
        WHERE task_id = $1 AND (state = 'input-required' OR (state = 'working' AND updated_at < $3))
        RETURNING ${A2A_TASK_COLUMNS}`,
      [taskId, now.toISOString(), staleBefore.toISOString()],
    );
    return row && a2aTaskOf(row);
  }

  async releaseA2aTask({ taskId, claimedAt, state, record, now }: { taskId: string; claimedAt: Date; state: 'input-required' | 'failed'; record: A2aTaskRecord; now: Date }): Promise<boolean> {
    const database = await this.ready();
    const rows = await database.query(RELEASE_TASK, [taskId, state, JSON.stringify(record), now.toISOString(), claimedAt.toISOString()]);
    return rows.length > 0;
  }

  async completeA2aTask({ taskId, claimedAt, record, tokenHash, questionHash, now }: { taskId: string; claimedAt: Date; record: A2aTaskRecord; tokenHash: string; questionHash: string; now: Date }): Promise<CompleteA2aTaskResult> {
    const database = await this.ready();
    try {
      return await database.transaction(async (tx) => {
        const released = await tx.query(RELEASE_TASK, [taskId, 'completed', JSON.stringify(record), now.toISOString(), claimedAt.toISOString()]);
        if (released.length === 0) return { ok: false, reason: 'claim_lost' } as const;
        const spent = await spendIn(tx, tokenHash, questionHash, now);
        // Not spent: the task must not show an answer nobody paid for, so the completion rolls back.
        if (!spent.ok) throw new NotSpent(spent);
        return spent;
      }, DURABLE);
    } catch (error) {
      if (error instanceof NotSpent) return error.result;
      throw error;
    }
  }

  async sweepStaleA2aTasks(from: Date, expiredBefore: Date, limit: number): Promise<SweepWindow> {
    return this.#sweepWindow(
      'a2a_tasks',
      'task_id',
      "state <> 'completed' AND NOT EXISTS (SELECT 1 FROM used_notes u WHERE u.quote_id = a2a_tasks.quote_id)",
      from,
      expiredBefore,
      limit,
    );
  }

  /**
   * One window of a retention sweep over `table`: the rows that expired from `from` (inclusive) up to
   * the `limit`+1-th row's expiry or `expiredBefore`, found through the table's expiry index, those
   * `unkept` deleted. Every row is read by one window, once: the paid quotes and completed tasks kept
   * for ever are not read again by later sweeps, which start where this one ended (one statement
   * read every quote there ever was: 0.5 s on the event loop, 1.2 s in PostgreSQL, at a million).
   */
  async #sweepWindow(table: 'quotes' | 'a2a_tasks', idColumn: string, unkept: string, from: Date, expiredBefore: Date, limit: number): Promise<SweepWindow> {
    const database = await this.ready();
    // Read beside the writes (the embedded store's read thread): where a window ends takes no write lock.
    const [boundary] = await database.read<{ expires_at: string | Date }>(
      `SELECT expires_at FROM ${table} WHERE expires_at >= $1 AND expires_at < $2 ORDER BY expires_at LIMIT 1 OFFSET $3`,
      [from.toISOString(), expiredBefore.toISOString(), Math.max(1, Math.trunc(limit))],
    );
    // Rows are written to the millisecond: more than `limit` of them in `from`'s millisecond make one window.
    const next = boundary ? new Date(Math.max(toDate(boundary.expires_at).getTime(), from.getTime() + 1)) : expiredBefore;
    const deleted = await database.query<Record<string, string>>(`DELETE FROM ${table} WHERE expires_at >= $1 AND expires_at < $2 AND ${unkept} RETURNING ${idColumn}`, [
      from.toISOString(),
      next.toISOString(),
    ]);
    return { deleted: deleted.length, next };
  }

  async deleteFreeUsageBefore(day: string): Promise<number> {
    const database = await this.ready();
    const deleted = await database.query<{ day: string }>('DELETE FROM free_usage WHERE day < $1 RETURNING day', [day]);
    return deleted.length;
  }

  async logSize(): Promise<number> {
    const database = await this.ready();
    const [head] = await database.read<{ size: number | string }>('SELECT size FROM log_head WHERE id = 1');
    return Number(head?.size ?? 0);
  }

  async readLogHashes(indexes: readonly number[]): Promise<Uint8Array[]> {
    if (indexes.length === 0) return [];
    const database = await this.ready();
    const byIndex = new Map<number, string>();
    // Bounded statements: a proof or a tile asks for at most a few hundred hashes.
    for (let start = 0; start < indexes.length; start += 500) {
      const chunk = indexes.slice(start, start + 500);
      const rows = await database.read<{ hash_index: number | string; hash: string }>(
        `SELECT hash_index, hash FROM log_hashes WHERE hash_index IN (${chunk.map((_, i) => `$${i + 1}`).join(', ')})`,
        [...chunk],
      );
      for (const row of rows) byIndex.set(Number(row.hash_index), row.hash);
    }
    return indexes.map((index) => {
      const hash = byIndex.get(index);
      if (hash === undefined) throw new Error(`receipt log: stored hash ${index} is missing`);
      return hex.decode(hash);
    });
  }

  async readLogEntries(start: number, end: number): Promise<LogEntry[]> {
    const database = await this.ready();
    const rows = await database.read<{ idx: number | string; receipt_id: string; bundle: string | null }>(
      `SELECT e.idx, e.receipt_id, CAST(r.bundle AS TEXT) AS bundle
         FROM log_entries e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
        WHERE e.idx >= $1 AND e.idx < $2 ORDER BY e.idx`,
      [start, end],
    );
    // Where the store keeps a receipt's text as written, a receipt stored as its entry's text is the
    // entry itself, as its leaf hash shows: the entry is then read without parsing the receipt.
    const leaves = database.dialect.jsonKeepsText && rows.length ? await this.readLogHashes(rows.map((row) => storedHashIndex(0, Number(row.idx)))) : [];
    return rows.map((row, i) => logEntry(Number(row.idx), row.receipt_id, row.bundle, database.dialect, leaves[i]));
  }

  async logIndexOf(receiptId: string): Promise<number | undefined> {
    const database = await this.ready();
    const [row] = await database.read<{ idx: number | string }>('SELECT idx FROM log_entries WHERE receipt_id = $1', [normaliseId(receiptId)]);
    return row ? Number(row.idx) : undefined;
  }

  async latestCheckpoint(): Promise<StoredCheckpoint | undefined> {
    const database = await this.ready();
    const [row] = await database.read<{ size: number | string; root: string; note: string; issued_at: Date | string }>(
      'SELECT size, root, note, issued_at FROM log_checkpoints ORDER BY size DESC LIMIT 1',
    );
    return row ? { size: Number(row.size), rootHex: row.root, note: row.note, issuedAt: toDate(row.issued_at) } : undefined;
  }

  async checkpointOfSize(size: number): Promise<StoredCheckpoint | undefined> {
    const database = await this.ready();
    const [row] = await database.read<{ size: number | string; root: string; note: string; issued_at: Date | string }>('SELECT size, root, note, issued_at FROM log_checkpoints WHERE size = $1', [size]);
    return row ? { size: Number(row.size), rootHex: row.root, note: row.note, issuedAt: toDate(row.issued_at) } : undefined;
  }

  async foldReputation(toSize: number, maxEntries: number): Promise<number> {
    const database = await this.ready();
    const { from, to } = await database.transaction((tx) => foldStretch(tx, database.dialect, toSize, maxEntries));
    await this.#refreshReputationStatistics(database, to - from, to);
    return to;
  }

  /**
   * PostgreSQL plans a subject's evidence page from the tables' statistics, which autovacuum
   * refreshes after large changes. Where it is off, a fold of a long backlog left them empty and the
   * busiest subject's page was read whole (1.1 s at a million receipts; 0.16 ms once analysed). So
   * after folding a tenth of the log (and at least ANALYZE_AFTER_ENTRIES) since it last did, this
   * instance analyses them itself: sampled, a fraction of a second in the database, nothing on the
   * loop. A failure only leaves the statistics as they were. SQLite's ANALYZE reads every row on the
   * writer, and its planner picks the indexes by their shape: not there.
   */
  async #refreshReputationStatistics(database: Database, folded: number, logSize: number): Promise<void> {
    if (database.dialect.name !== 'postgres') return;
    this.#foldedSinceAnalyze += folded;
    if (this.#foldedSinceAnalyze < Math.max(ANALYZE_AFTER_ENTRIES, logSize / 10)) return;
    this.#foldedSinceAnalyze = 0;
    await database.exec('ANALYZE reputation_evidence, reputation_subjects').catch(() => undefined);
  }

  async reputationTotals(): Promise<ReputationTotals> {
    const database = await this.ready();
    return readTotals(readsOf(database));
  }

  async reputationSubjects(limit: number, after?: SubjectCursor): Promise<SubjectAggregate[]> {
    const database = await this.ready();
    return readSubjects(readsOf(database), clampLimit(limit), after);
  }

  async receiptDays(): Promise<ReceiptDay[]> {
    const database = await this.ready();
    return readReceiptDays(readsOf(database));
  }

  async reputationSubject(kind: SubjectKind, subjectId: string): Promise<SubjectAggregate | undefined> {
    const database = await this.ready();
    return readSubject(readsOf(database), kind, subjectId);
  }

  async reputationEvidence(kind: SubjectKind, subjectId: string, limit: number, after?: ReputationEvidence): Promise<ReputationEvidence[]> {
    const database = await this.ready();
    return readEvidence(readsOf(database), kind, subjectId, clampLimit(limit), after);
  }

  async saveCheckpoint(checkpoint: StoredCheckpoint): Promise<void> {
    const database = await this.ready();
    await database.query(`INSERT INTO log_checkpoints (size, root, note, issued_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (size) DO UPDATE SET note = excluded.note, issued_at = excluded.issued_at WHERE log_checkpoints.root = excluded.root`, [
      checkpoint.size,
      checkpoint.rootHex,
      checkpoint.note,
      checkpoint.issuedAt.toISOString(),
    ]);
  }

  async appendUnloggedReceipts(): Promise<number> {
    const database = await this.ready();
    // The tally and the log's size agree unless a build without the log stored receipts: only then is every receipt looked at.
    const [row] = await database.read<{ stored: number | string; logged: number | string }>('SELECT t.count AS stored, h.size AS logged FROM receipt_tally t, log_head h');
    if (row && Number(row.stored) <= Number(row.logged)) return 0;
    return database.transaction((tx) => appendUnlogged(tx, database.dialect), DURABLE);
  }

  async countReceipts(): Promise<number> {
    const database = await this.ready();
    const [row] = await database.read<{ count: number | string }>('SELECT count FROM receipt_tally WHERE id = 1');
    return Number(row?.count ?? 0);
  }

  async keptBundle(n: number): Promise<KeptBundle | undefined> {
    const database = await this.ready();
    const [row] = await database.read<{ revision: number | string; gzipped: Uint8Array }>('SELECT revision, gzipped FROM log_bundles WHERE n = $1', [n]);
    return row ? { revision: String(row.revision), gzipped: new Uint8Array(row.gzipped.buffer, row.gzipped.byteOffset, row.gzipped.byteLength) } : undefined;
  }

  async keepBundle(n: number, { revision, gzipped }: KeptBundle): Promise<void> {
    const database = await this.ready();
    await database.query(
      'INSERT INTO log_bundles (n, revision, gzipped) VALUES ($1, $2, $3) ON CONFLICT (n) DO UPDATE SET revision = excluded.revision, gzipped = excluded.gzipped',
      [n, revision, Buffer.from(gzipped.buffer, gzipped.byteOffset, gzipped.byteLength)],
    );
  }

  async keptBundleIndexes(revision: string): Promise<number[]> {
    const database = await this.ready();
    return (await database.read<{ n: number | string }>('SELECT n FROM log_bundles WHERE revision = $1', [revision])).map((row) => Number(row.n));
  }

  async logRevision(): Promise<string> {
    const database = await this.ready();
    const [row] = await database.read<{ revision: number | string }>('SELECT revision FROM log_revision WHERE id = 1');
    return String(row?.revision ?? 0);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const opening = this.#database;
    this.#database = undefined;
    if (!opening) return;
    const database = await opening.catch(() => undefined);
    await database?.close();
  }
}

/**
 * A log entry as read, its bytes made only when asked for: with its `leaf` hash, a stored text that
 * hashes to it is the entry's bytes as they are; otherwise they are the receipt's canonical JSON.
 */
function logEntry(index: number, receiptId: string, stored: string | null, dialect: Dialect, leaf?: Uint8Array): LogEntry {
  if (stored === null) return { index, receiptId, bytes: undefined };
  let bytes: Uint8Array | undefined;
  const asStored = () => {
    if (!leaf) return undefined;
    const text = new TextEncoder().encode(stored);
    return sameBytes(leafHash(text), leaf) ? text : undefined;
  };
  return {
    index,
    receiptId,
    stored,
    // Otherwise (a receipt stored before its text was the entry's, PostgreSQL's jsonb, a rewritten row)
    // the bytes are made from the receipt: a rewrite then shows as an entry that misses its leaf.
    get bytes() {
      return (bytes ??= asStored() ?? receiptLogEntry(readBundle(dialect, stored)));
    },
  };
}
