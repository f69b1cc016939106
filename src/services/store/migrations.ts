/**
 * The one set of schema migrations, in the PostgreSQL dialect that both drivers speak (PGlite is
 * PostgreSQL compiled to WebAssembly). They are plain strings in a module, not `.sql` files read
 * from disk, so the bundled server carries them and no path has to be resolved at run time.
 *
 * Append only: a migration that has shipped is never edited; a change is a new entry.
 */
import type { Queryable } from './database.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'paid assistant turn',
    sql: `
      CREATE TABLE quotes (
        quote_id               text        PRIMARY KEY,
        task_hash              text        NOT NULL,
        question_hash          text        NOT NULL,
        price_nano_erg         bigint      NOT NULL CHECK (price_nano_erg > 0),
        receiver_address       text        NOT NULL,
        reserve_box_id         text        NOT NULL,
        note_expiry_min_height integer     NOT NULL,
        min_confirmations      integer     NOT NULL CHECK (min_confirmations >= 1),
        issued_height          integer     NOT NULL,
        issued_at              timestamptz NOT NULL,
        expires_at             timestamptz NOT NULL,
        quote                  jsonb       NOT NULL
      );

      -- The primary key is the guard against a Note paying twice: two instances racing to settle
      -- the same Note both try this insert and exactly one commits.
      CREATE TABLE used_notes (
        note_box_id text        PRIMARY KEY,
        quote_id    text        NOT NULL REFERENCES quotes (quote_id),
        used_at     timestamptz NOT NULL DEFAULT clock_timestamp()
      );

      CREATE TABLE receipts (
        receipt_id       text        PRIMARY KEY,
        settlement_tx_id text        NOT NULL,
        note_box_id      text        NOT NULL UNIQUE REFERENCES used_notes (note_box_id),
        quote_id         text        NOT NULL REFERENCES quotes (quote_id),
        chain            text        NOT NULL CHECK (chain IN ('testnet', 'sandbox')),
        bundle           jsonb       NOT NULL,
        created_at       timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX receipts_by_settlement_tx ON receipts (settlement_tx_id);
      CREATE INDEX receipts_newest_first ON receipts (created_at DESC);

      -- Only the hash of a payment token is kept; the token itself is shown once, to the payer.
      CREATE TABLE payment_tokens (
        token_hash    text        PRIMARY KEY,
        quote_id      text        NOT NULL REFERENCES quotes (quote_id),
        receipt_id    text        NOT NULL REFERENCES receipts (receipt_id),
        question_hash text        NOT NULL,
        expires_at    timestamptz NOT NULL,
        used_at       timestamptz,
        created_at    timestamptz NOT NULL DEFAULT clock_timestamp()
      );

      CREATE TABLE activity (
        id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind            text        NOT NULL CHECK (kind IN ('quote_issued', 'payment_verified', 'turn_answered')),
        at              timestamptz NOT NULL,
        amount_nano_erg bigint,
        task_hash       text,
        receipt_id      text
      );
      CREATE INDEX activity_newest_first ON activity (at DESC, id DESC);

      CREATE TABLE free_usage (
        client_key text    NOT NULL,
        day        date    NOT NULL,
        count      integer NOT NULL,
        PRIMARY KEY (client_key, day)
      );
    `,
  },
];

/** Arbitrary constant naming "schema migration in progress" for pg_advisory_xact_lock. */
const MIGRATION_LOCK_KEY = 7_314_902_216;

/**
 * Applies every migration not yet recorded, in one transaction under an advisory lock, so instances
 * starting together against one PostgreSQL apply each migration exactly once and none of them sees
 * a half-migrated schema. Returns the versions applied now.
 */
export async function migrate(transaction: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>): Promise<number[]> {
  return transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer     PRIMARY KEY,
      name       text        NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`);
    const rows = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => Number(row.version)));
    const pending = MIGRATIONS.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    return pending.map((migration) => migration.version);
  });
}
