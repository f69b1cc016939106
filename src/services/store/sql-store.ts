/**
 * The assistant's store: one implementation of AssistantStore in SQL over either engine. It opens
 * the database and applies the migrations on first use, and retries that on the next call when it
 * failed, so a database that comes up after the server does is picked up without a restart.
 *
 * Amounts travel as decimal text (`::text` on read, strings on write) so no driver ever turns a
 * nanoERG value into a float; timestamps are normalised to Date whatever the driver returns.
 */
import type { ReceiptBundle } from '../../../schemas/receipt.ts';
import {
  NoteAlreadyUsedError,
  StoreUnavailableError,
  type ActivityEvent,
  type AssistantStore,
  type SettlePaymentInput,
  type SpendTokenResult,
  type StoredQuote,
} from '../ports.ts';
import { isUniqueViolation, type Database } from './database.ts';
import { migrate } from './migrations.ts';

const MAX_LIST_LIMIT = 1_000;

interface QuoteRow {
  quote_id: string;
  task_hash: string;
  question_hash: string;
  price_nano_erg: string;
  receiver_address: string;
  reserve_box_id: string;
  note_expiry_min_height: number;
  min_confirmations: number;
  issued_height: number;
  issued_at: Date | string;
  expires_at: Date | string;
  quote: Record<string, unknown>;
}

interface ActivityRow {
  kind: ActivityEvent['kind'];
  at: Date | string;
  amount_nano_erg: string | null;
  task_hash: string | null;
  receipt_id: string | null;
}

interface TokenRow {
  used_at: Date | string | null;
  expires_at: Date | string;
  question_hash: string;
}

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

const clampLimit = (limit: number): number => Math.min(Math.max(Math.trunc(Number.isFinite(limit) ? limit : 1), 1), MAX_LIST_LIMIT);

/** Ids this service stores are lower-case hex; a lookup given upper-case hex still finds them. */
const normaliseId = (id: string): string => (/^[0-9a-fA-F]{64}$/.test(id) ? id.toLowerCase() : id);

export class SqlAssistantStore implements AssistantStore {
  readonly kind: 'pglite' | 'postgres';
  #open: () => Promise<Database>;
  #database: Promise<Database> | undefined;
  #closed = false;

  /** `open` creates the engine connection; it is called lazily and again after a failed attempt. */
  constructor(kind: 'pglite' | 'postgres', open: () => Promise<Database>) {
    this.kind = kind;
    this.#open = open;
  }

  /** The opened and migrated database; rejects with StoreUnavailableError when it cannot be reached. */
  ready(): Promise<Database> {
    if (this.#closed) return Promise.reject(new StoreUnavailableError('the store is closed'));
    this.#database ??= (async () => {
      const database = await this.#open();
      try {
        await migrate((work) => database.transaction(work));
      } catch (error) {
        await database.close().catch(() => undefined);
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
    await (await this.ready()).query('SELECT 1');
  }

  async insertQuote(quote: StoredQuote, issued?: ActivityEvent): Promise<void> {
    const database = await this.ready();
    const insert = `INSERT INTO quotes (quote_id, task_hash, question_hash, price_nano_erg, receiver_address, reserve_box_id,
                           note_expiry_min_height, min_confirmations, issued_height, issued_at, expires_at, quote)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::text::jsonb)`;
    const values = [
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
      JSON.stringify(quote.quote),
    ];
    if (!issued) {
      await database.query(insert, values);
      return;
    }
    // One statement, so one round trip and one implicit transaction: the embedded engine runs each on
    // the event loop, and a premium quote is the busiest write there is.
    await database.query(
      `WITH stored AS (${insert} RETURNING quote_id)
       INSERT INTO activity (kind, at, amount_nano_erg, task_hash, receipt_id) SELECT $13, $14, $15, $16, $17 FROM stored`,
      [...values, ...activityValues(issued)],
    );
  }

  async getQuote(quoteId: string): Promise<StoredQuote | undefined> {
    const database = await this.ready();
    const [row] = await database.query<QuoteRow>(
      `SELECT quote_id, task_hash, question_hash, price_nano_erg::text AS price_nano_erg, receiver_address, reserve_box_id,
              note_expiry_min_height, min_confirmations, issued_height, issued_at, expires_at, quote
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
      quote: row.quote,
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
        await tx.query(
          `INSERT INTO receipts (receipt_id, settlement_tx_id, note_box_id, quote_id, chain, bundle)
           VALUES ($1, $2, $3, $4, $5, $6::text::jsonb)`,
          [receipt.receiptId, receipt.settlementTxId, noteBoxId, input.quoteId, receipt.chain, JSON.stringify(receipt)],
        );
        await tx.query(
          `INSERT INTO payment_tokens (token_hash, quote_id, receipt_id, question_hash, expires_at)
           VALUES ($1, $2, $3, $4, $5)`,
          [input.tokenHash, input.quoteId, receipt.receiptId, input.questionHash, input.tokenExpiresAt.toISOString()],
        );
      });
    } catch (error) {
      if (isUniqueViolation(error, 'used_notes_pkey', 'used_notes')) throw new NoteAlreadyUsedError(noteBoxId);
      throw error;
    }
  }

  async spendToken(tokenHash: string, questionHash: string, now: Date): Promise<SpendTokenResult> {
    const database = await this.ready();
    const at = now.toISOString();
    return database.transaction(async (tx) => {
      // One statement decides: concurrent spends of one token serialise on its row, and the loser
      // re-reads used_at as set and updates nothing.
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
    });
  }

  async getReceipt(idOrTxId: string): Promise<ReceiptBundle | undefined> {
    const database = await this.ready();
    const id = normaliseId(idOrTxId);
    // A receipt id wins over a settlement transaction id; several Notes of one transaction: the first stored.
    const [row] = await database.query<{ bundle: ReceiptBundle }>(
      `SELECT bundle FROM receipts
        WHERE receipt_id = $1 OR settlement_tx_id = $1
        ORDER BY (receipt_id = $1) DESC, created_at ASC
        LIMIT 1`,
      [id],
    );
    return row?.bundle;
  }

  async listReceipts(limit: number): Promise<ReceiptBundle[]> {
    const database = await this.ready();
    const rows = await database.query<{ bundle: ReceiptBundle }>('SELECT bundle FROM receipts ORDER BY created_at DESC, receipt_id LIMIT $1', [clampLimit(limit)]);
    return rows.map((row) => row.bundle);
  }

  async recordActivity(event: ActivityEvent): Promise<void> {
    const database = await this.ready();
    await database.query('INSERT INTO activity (kind, at, amount_nano_erg, task_hash, receipt_id) VALUES ($1, $2, $3, $4, $5)', activityValues(event));
  }

  async listActivity(limit: number): Promise<ActivityEvent[]> {
    const database = await this.ready();
    const rows = await database.query<ActivityRow>(
      'SELECT kind, at, amount_nano_erg::text AS amount_nano_erg, task_hash, receipt_id FROM activity ORDER BY at DESC, id DESC LIMIT $1',
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

  async incrementFreeUsage(clientKey: string, day: string): Promise<number> {
    const database = await this.ready();
    const [row] = await database.query<{ count: number }>(
      `INSERT INTO free_usage (client_key, day, count) VALUES ($1, $2, 1)
       ON CONFLICT (client_key, day) DO UPDATE SET count = free_usage.count + 1
       RETURNING count`,
      [clientKey, day],
    );
    return Number(row!.count);
  }

  async getFreeUsage(clientKey: string, day: string): Promise<number> {
    const database = await this.ready();
    const [row] = await database.query<{ count: number }>('SELECT count FROM free_usage WHERE client_key = $1 AND day = $2', [clientKey, day]);
    return row ? Number(row.count) : 0;
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

/** An activity event as the five values of an `activity` row. */
function activityValues(event: ActivityEvent): unknown[] {
  return [event.kind, event.at.toISOString(), event.amountNanoErg === undefined ? null : event.amountNanoErg.toString(), event.taskHash ?? null, event.receiptId ?? null];
}
