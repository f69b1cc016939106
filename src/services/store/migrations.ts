/**
 * The one set of schema migrations, written once and rendered for each dialect (dialect.ts holds
 * the few column types and defaults that differ). They are strings in a module, not `.sql` files
 * read from disk, so the bundled server carries them and no path has to be resolved at run time.
 *
 * Append only: a migration that has shipped is never changed in what it creates; a change is a new
 * entry. Expand, then contract: during a rolling deploy the previous release and this one share one
 * PostgreSQL, so a migration either only expands (the previous release keeps working on its result,
 * and may start again on it) or contracts, and a contraction removes only what a release before it
 * already stopped using. A database recording a contraction this list does not have was migrated by
 * a newer build that an older one cannot run beside, and opening it is refused (SchemaTooNewError)
 * rather than guessed at.
 */
import type { Queryable } from './database.ts';
import type { Dialect } from './dialect.ts';
import { appendUnlogged } from './receipt-log.ts';

export interface Migration {
  version: number;
  name: string;
  /**
   * `expand`: only adds (tables, indexes, columns that are nullable or have a default), so a build
   * that does not know it reads and writes the migrated store as before. `contract`: drops, renames,
   * narrows or rewrites something an older build uses; such a build refuses the store afterwards.
   */
  change: 'expand' | 'contract';
  sql: (dialect: Dialect) => string;
  /** Work SQL alone cannot do (hashing), run after `sql` in the same transaction. */
  backfill?: (tx: Queryable, dialect: Dialect) => Promise<unknown>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'paid assistant turn',
    change: 'expand',
    sql: ({ types, now, tableOptions }) => `
      CREATE TABLE quotes (
        quote_id               text              PRIMARY KEY,
        task_hash              text              NOT NULL,
        question_hash          text              NOT NULL,
        price_nano_erg         ${types.bigint}   NOT NULL CHECK (price_nano_erg > 0),
        receiver_address       text              NOT NULL,
        reserve_box_id         text              NOT NULL,
        note_expiry_min_height integer           NOT NULL,
        min_confirmations      integer           NOT NULL CHECK (min_confirmations >= 1),
        issued_height          integer           NOT NULL,
        issued_at              ${types.timestamp} NOT NULL,
        expires_at             ${types.timestamp} NOT NULL,
        quote                  ${types.json}     NOT NULL
      )${tableOptions};

      -- The primary key is the guard against a Note paying twice: two instances racing to settle
      -- the same Note both try this insert and exactly one commits.
      CREATE TABLE used_notes (
        note_box_id text               PRIMARY KEY,
        quote_id    text               NOT NULL REFERENCES quotes (quote_id),
        used_at     ${types.timestamp} NOT NULL DEFAULT ${now}
      )${tableOptions};

      CREATE TABLE receipts (
        receipt_id       text               PRIMARY KEY,
        settlement_tx_id text               NOT NULL,
        note_box_id      text               NOT NULL UNIQUE REFERENCES used_notes (note_box_id),
        quote_id         text               NOT NULL REFERENCES quotes (quote_id),
        chain            text               NOT NULL CHECK (chain IN ('testnet', 'sandbox')),
        bundle           ${types.json}      NOT NULL,
        created_at       ${types.timestamp} NOT NULL DEFAULT ${now}
      )${tableOptions};
      CREATE INDEX receipts_by_settlement_tx ON receipts (settlement_tx_id);
      CREATE INDEX receipts_newest_first ON receipts (created_at DESC);

      -- Only the hash of a payment token is kept; the token itself is shown once, to the payer.
      CREATE TABLE payment_tokens (
        token_hash    text               PRIMARY KEY,
        quote_id      text               NOT NULL REFERENCES quotes (quote_id),
        receipt_id    text               NOT NULL REFERENCES receipts (receipt_id),
        question_hash text               NOT NULL,
        expires_at    ${types.timestamp} NOT NULL,
        used_at       ${types.timestamp},
        created_at    ${types.timestamp} NOT NULL DEFAULT ${now}
      )${tableOptions};

      CREATE TABLE activity (
        id              ${types.identity},
        kind            text               NOT NULL CHECK (kind IN ('quote_issued', 'payment_verified', 'turn_answered')),
        at              ${types.timestamp} NOT NULL,
        amount_nano_erg ${types.bigint},
        task_hash       text,
        receipt_id      text
      )${tableOptions};
      CREATE INDEX activity_newest_first ON activity (at DESC, id DESC);

      CREATE TABLE free_usage (
        client_key text          NOT NULL,
        day        ${types.date} NOT NULL,
        count      integer       NOT NULL,
        PRIMARY KEY (client_key, day)
      )${tableOptions};
    `,
  },
  {
    version: 2,
    name: 'receipt payer',
    change: 'expand',
    // Receipts stored before it have no payer: they credit their service provider only.
    sql: () => 'ALTER TABLE receipts ADD COLUMN payer_address text;',
  },
  {
    version: 3,
    name: 'probe history',
    change: 'expand',
    // One row per gate per kept run of the live status's probes; the store trims it to a bounded number of runs.
    sql: ({ types, tableOptions }) => `
      CREATE TABLE probe_results (
        at         ${types.timestamp} NOT NULL,
        gate       text               NOT NULL,
        state      text               NOT NULL CHECK (state IN ('up', 'degraded', 'down')),
        latency_ms integer            CHECK (latency_ms >= 0),
        PRIMARY KEY (at, gate)
      )${tableOptions};
    `,
  },
  {
    version: 4,
    name: 'quotes keep only their terms',
    change: 'contract',
    // A quote's body follows byte for byte from the terms in its row (premiumQuoteBody), and its
    // quote_issued activity event from the same row; storing either again made each quote's commit
    // write three times what the terms need. Its events are read from the quotes, newest first.
    // It shipped as a contraction in the same release that stopped writing the column, which is
    // why builds before it answer 500 to premium quotes once it ran; later contractions wait a release.
    sql: ({ quoteSequence }) => `
      ALTER TABLE quotes DROP COLUMN quote;
      ${quoteSequence.migration}
      DELETE FROM activity WHERE kind = 'quote_issued';
    `,
  },
  {
    version: 5,
    name: 'payment retry key',
    change: 'expand',
    // The hash of the secret the payer sent with its first verification; a retry that hands the
    // turn back must present it. Null: the payer sent none, so no retry can recover the turn.
    // A build that does not know the column keeps working beside one that does.
    sql: () => 'ALTER TABLE payment_tokens ADD COLUMN retry_key_hash text;',
  },
  {
    version: 6,
    name: 'quote retention indexes',
    change: 'expand',
    // The retention sweep finds expired quotes by expiry, and deleting one makes each engine look up
    // the rows that refer to it: without these, each deleted quote would scan every Note, receipt and token.
    sql: () => `
      CREATE INDEX quotes_by_expiry ON quotes (expires_at);
      CREATE INDEX used_notes_by_quote ON used_notes (quote_id);
      CREATE INDEX receipts_by_quote ON receipts (quote_id);
      CREATE INDEX payment_tokens_by_quote ON payment_tokens (quote_id);
    `,
  },
  {
    version: 7,
    name: 'receipt log',
    change: 'expand',
    // The transparency log of receipts (docs/transparency-log.md): one head row whose size hands out
    // entry indexes, each entry's receipt, every stored hash of the Merkle tree (hex, by golang
    // tlog's stored hash index), and the signed checkpoints. Receipts stored before it are appended
    // by the backfill, in the order they were stored. Only added (expand).
    sql: ({ types, tableOptions }) => `
      CREATE TABLE log_head (
        id   integer       PRIMARY KEY CHECK (id = 1),
        size ${types.bigint} NOT NULL CHECK (size >= 0)
      )${tableOptions};
      INSERT INTO log_head (id, size) VALUES (1, 0);
      CREATE TABLE log_entries (
        idx        ${types.bigint} PRIMARY KEY,
        receipt_id text            NOT NULL UNIQUE REFERENCES receipts (receipt_id)
      )${tableOptions};
      CREATE TABLE log_hashes (
        hash_index ${types.bigint} PRIMARY KEY,
        hash       text            NOT NULL
      )${tableOptions};
      CREATE TABLE log_checkpoints (
        size      ${types.bigint}    PRIMARY KEY,
        root      text               NOT NULL,
        note      text               NOT NULL,
        issued_at ${types.timestamp} NOT NULL
      )${tableOptions};
    `,
    backfill: (tx, dialect) => appendUnlogged(tx, dialect),
  },
  {
    version: 8,
    name: 'a2a tasks',
    change: 'expand',
    // Tasks of A2A's a2a-x402 extension, so any instance continues one. The record is JSON kept as
    // text: no query reads inside it, and jsonb refuses a U+0000 a client's question may carry. No foreign key to quotes:
    // an older build's retention deletes expired unpaid quotes without knowing tasks refer to them;
    // this build deletes such tasks by their own copy of the expiry.
    sql: ({ types, tableOptions }) => `
      CREATE TABLE a2a_tasks (
        task_id    text               PRIMARY KEY,
        context_id text               NOT NULL,
        quote_id   text               NOT NULL,
        state      text               NOT NULL CHECK (state IN ('input-required', 'working', 'completed', 'failed')),
        retry_key  text               NOT NULL,
        record     text               NOT NULL,
        expires_at ${types.timestamp} NOT NULL,
        created_at ${types.timestamp} NOT NULL,
        updated_at ${types.timestamp} NOT NULL
      )${tableOptions};
      CREATE INDEX a2a_tasks_by_expiry ON a2a_tasks (expires_at);
    `,
  },
  {
    version: 9,
    name: 'reputation aggregates',
    change: 'expand',
    // The reputation graph kept up to date per checkpoint of the receipt log (src/domain/reputation-fold.ts):
    // its totals with the log size they cover, one row per subject ranked as the graph lists them
    // (rank_count and rank_time negate the count and the last settlement's epoch milliseconds, so one
    // ascending index serves the order and a cursor reads a page as one range of it),
    // and one row per receipt credited to a subject, paged newest first. Amounts are decimal text;
    // ids and instants sort by code unit on both engines; and the receipts settled per UTC day and
    // chain, which the proofs picture draws ('' for a receipt without a settlement date). A store
    // with history is folded after start, in the background (src/services/reputation.ts): until
    // 2026-11-29 this migration folded it in its own transaction, minutes at a million receipts
    // with the server not yet listening; both end in the same aggregates.
    sql: ({ types, tableOptions }) => `
      CREATE TABLE reputation_totals (
        id                 integer         PRIMARY KEY CHECK (id = 1),
        log_size           ${types.bigint} NOT NULL,
        subjects           ${types.bigint} NOT NULL,
        receipts_counted   ${types.bigint} NOT NULL,
        sandbox_excluded   ${types.bigint} NOT NULL,
        without_payer      ${types.bigint} NOT NULL,
        total_nano_erg     text            NOT NULL,
        latest_settled_at  ${types.binaryText}
      )${tableOptions};
      INSERT INTO reputation_totals (id, log_size, subjects, receipts_counted, sandbox_excluded, without_payer, total_nano_erg, latest_settled_at) VALUES (1, 0, 0, 0, 0, 0, '0', NULL);
      CREATE TABLE reputation_subjects (
        kind             ${types.binaryText} NOT NULL,
        subject_id       ${types.binaryText} NOT NULL,
        receipt_count    ${types.bigint}     NOT NULL,
        settled_nano_erg text                NOT NULL,
        first_settled_at ${types.binaryText} NOT NULL,
        last_settled_at  ${types.binaryText} NOT NULL,
        latest           text                NOT NULL,
        rank_count       ${types.bigint}     NOT NULL,
        rank_time        ${types.bigint}     NOT NULL,
        PRIMARY KEY (kind, subject_id)
      )${tableOptions};
      CREATE INDEX reputation_subjects_ranked ON reputation_subjects (rank_count, rank_time, subject_id, kind);
      CREATE TABLE reputation_evidence (
        kind             ${types.binaryText} NOT NULL,
        subject_id       ${types.binaryText} NOT NULL,
        settled_at       ${types.binaryText} NOT NULL,
        receipt_id       ${types.binaryText} NOT NULL,
        settlement_tx_id text                NOT NULL,
        rank_time        ${types.bigint}     NOT NULL,
        PRIMARY KEY (kind, subject_id, receipt_id)
      )${tableOptions};
      CREATE INDEX reputation_evidence_newest_first ON reputation_evidence (kind, subject_id, rank_time, receipt_id);
      CREATE TABLE receipt_days (
        day   ${types.binaryText} NOT NULL,
        chain text                NOT NULL,
        count ${types.bigint}     NOT NULL,
        PRIMARY KEY (day, chain)
      )${tableOptions};
    `,
  },
  {
    version: 10,
    name: 'receipt tally',
    change: 'expand',
    // How many receipts the store holds, moved by triggers on every insert and delete (whoever makes
    // it, an older build beside this one included), so the log's health compares it with the log's
    // size without counting a million rows, and the checkpointer looks for receipts without an entry
    // only when the two differ. The triggers come before the count: creating one waits for the
    // inserts in flight and holds off new ones until this transaction ends, so no receipt is both
    // uncounted and unseen. PostgreSQL's TRUNCATE fires no row trigger: a statement trigger zeroes
    // the tally; the function keeps the search_path it was made with, so a session looking at
    // another schema moves this store's tally, not that schema's.
    sql: ({ name, types, tableOptions }) => `
      CREATE TABLE receipt_tally (
        id    integer         PRIMARY KEY CHECK (id = 1),
        count ${types.bigint} NOT NULL
      )${tableOptions};
      ${
        name === 'sqlite'
          ? `CREATE TRIGGER receipt_tally_in AFTER INSERT ON receipts BEGIN UPDATE receipt_tally SET count = count + 1 WHERE id = 1; END;
             CREATE TRIGGER receipt_tally_out AFTER DELETE ON receipts BEGIN UPDATE receipt_tally SET count = count - 1 WHERE id = 1; END;`
          : `CREATE FUNCTION receipt_tally_move() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $tally$
             BEGIN
               IF TG_OP = 'TRUNCATE' THEN UPDATE receipt_tally SET count = 0 WHERE id = 1;
               ELSE UPDATE receipt_tally SET count = count + CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END WHERE id = 1;
               END IF;
               RETURN NULL;
             END $tally$;
             CREATE TRIGGER receipt_tally_rows AFTER INSERT OR DELETE ON receipts FOR EACH ROW EXECUTE FUNCTION receipt_tally_move();
             CREATE TRIGGER receipt_tally_truncate AFTER TRUNCATE ON receipts FOR EACH STATEMENT EXECUTE FUNCTION receipt_tally_move();`
      }
      INSERT INTO receipt_tally (id, count) SELECT 1, count(*) FROM receipts;
    `,
  },
  {
    version: 11,
    name: 'log revision',
    change: 'expand',
    // A number that moves whenever a stored receipt or log entry is rewritten or removed: nothing in
    // any build does either, so it moves only when the store was changed behind the service's back.
    // A kept entry bundle is served while the number it was read at still holds, instead of reading
    // 1.3 MB of receipts a request to find them unchanged; a rewrite or a removal shows on the next
    // read, as it did. Appends do not move it: they never change a full bundle. Same trigger rules
    // as the tally (migration 10).
    sql: ({ name, types, tableOptions }) => `
      CREATE TABLE log_revision (
        id       integer         PRIMARY KEY CHECK (id = 1),
        revision ${types.bigint} NOT NULL
      )${tableOptions};
      INSERT INTO log_revision (id, revision) VALUES (1, 0);
      ${
        name === 'sqlite'
          ? `CREATE TRIGGER log_revision_receipts_update AFTER UPDATE ON receipts BEGIN UPDATE log_revision SET revision = revision + 1 WHERE id = 1; END;
             CREATE TRIGGER log_revision_receipts_delete AFTER DELETE ON receipts BEGIN UPDATE log_revision SET revision = revision + 1 WHERE id = 1; END;
             CREATE TRIGGER log_revision_log_entries_update AFTER UPDATE ON log_entries BEGIN UPDATE log_revision SET revision = revision + 1 WHERE id = 1; END;
             CREATE TRIGGER log_revision_log_entries_delete AFTER DELETE ON log_entries BEGIN UPDATE log_revision SET revision = revision + 1 WHERE id = 1; END;`
          : `CREATE FUNCTION log_revision_move() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $revision$
             BEGIN
               UPDATE log_revision SET revision = revision + 1 WHERE id = 1;
               RETURN NULL;
             END $revision$;
             CREATE TRIGGER log_revision_receipts_rows AFTER UPDATE OR DELETE ON receipts FOR EACH ROW EXECUTE FUNCTION log_revision_move();
             CREATE TRIGGER log_revision_receipts_truncate AFTER TRUNCATE ON receipts FOR EACH STATEMENT EXECUTE FUNCTION log_revision_move();
             CREATE TRIGGER log_revision_log_entries_rows AFTER UPDATE OR DELETE ON log_entries FOR EACH ROW EXECUTE FUNCTION log_revision_move();
             CREATE TRIGGER log_revision_log_entries_truncate AFTER TRUNCATE ON log_entries FOR EACH STATEMENT EXECUTE FUNCTION log_revision_move();`
      }
    `,
  },
  {
    version: 12,
    name: 'kept entry bundles',
    change: 'expand',
    // A full entry bundle never changes while the log revision holds (migration 11): its gzip is kept
    // here once made, with the revision it was made at, so every instance, and this one after a
    // restart, serves it without reading 256 receipts again. A revision that moved makes it stale.
    sql: ({ types, tableOptions }) => `
      CREATE TABLE log_bundles (
        n        ${types.bigint} PRIMARY KEY CHECK (n >= 0),
        revision ${types.bigint} NOT NULL,
        gzipped  ${types.bytes}  NOT NULL
      )${tableOptions};
    `,
  },
  {
    version: 13,
    name: 'a2a task owners',
    change: 'expand',
    // Who may end an A2A task by its own choice (CancelTask, a rejected payment) and find it with
    // ListTasks: the hash of the bearer credential it was created with (src/domain/assistant/
    // a2a-task-owner.ts), never the credential. Tasks stored before have none: nobody owns them, and
    // they end when paid or when their quote expires. One owner's tasks are paged newest status first
    // through the partial index, which holds only owned tasks. A canceled task keeps the state
    // `failed` and the instant it was canceled, which the store reads as `canceled`: a new value for
    // `state` would widen its CHECK, which SQLite can only do by rebuilding the table, and a previous
    // build beside this one (or rolled back to) would read a state it does not know. It reads a
    // canceled task as failed: ended, taking no more messages.
    sql: ({ types }) => `
      ALTER TABLE a2a_tasks ADD COLUMN owner_hash text;
      ALTER TABLE a2a_tasks ADD COLUMN canceled_at ${types.timestamp};
      CREATE INDEX a2a_tasks_by_owner ON a2a_tasks (owner_hash, updated_at, task_id) WHERE owner_hash IS NOT NULL;
    `,
  },
];

/**
 * Builds up to version 4 read schema_migrations alone: they refuse any version there they do not
 * know and re-apply any of theirs missing from it. So those versions, and every contraction, are
 * recorded there, and later expansions in schema_expansions, which those builds never read: the
 * previous release (and a rollback to it) opens a store that only grew.
 */
const LAST_VERSION_READ_BY_EVERY_BUILD = 4;

function ledgerOf(migration: Migration): 'schema_migrations' | 'schema_expansions' {
  return migration.change === 'expand' && migration.version > LAST_VERSION_READ_BY_EVERY_BUILD ? 'schema_expansions' : 'schema_migrations';
}

/** The database was migrated by a newer build than this one: refusing beats misreading its tables. */
export class SchemaTooNewError extends Error {
  readonly found: number;
  readonly known: number;

  constructor(found: number, known: number) {
    super(`the store's schema is at version ${found}, newer than this build knows (${known})`);
    this.found = found;
    this.known = known;
    this.name = 'SchemaTooNewError';
  }
}

/**
 * Applies every migration not yet recorded, in one transaction that excludes other migration runs
 * (an advisory lock on PostgreSQL, the write lock on SQLite), so instances starting together apply
 * each migration exactly once and none of them sees a half-migrated schema. Returns the versions
 * applied now. Expansions by a newer build are left as they are; a contraction this build does not
 * know throws SchemaTooNewError.
 */
export async function migrate(dialect: Dialect, transaction: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>): Promise<number[]> {
  return transaction(async (tx) => {
    if (dialect.migrationLock) await tx.query(dialect.migrationLock);
    for (const ledger of ['schema_migrations', 'schema_expansions']) {
      await tx.query(`CREATE TABLE IF NOT EXISTS ${ledger} (
        version    integer                    PRIMARY KEY,
        name       text                       NOT NULL,
        applied_at ${dialect.types.timestamp} NOT NULL DEFAULT ${dialect.now}
      )${dialect.tableOptions}`);
    }
    const versions = async (ledger: string) => (await tx.query<{ version: number }>(`SELECT version FROM ${ledger}`)).map((row) => Number(row.version));
    const required = await versions('schema_migrations');
    const expansions = await versions('schema_expansions');
    const known = new Set(MIGRATIONS.map((migration) => migration.version));
    const unknownRequired = required.filter((version) => !known.has(version));
    if (unknownRequired.length > 0) throw new SchemaTooNewError(Math.max(...unknownRequired), Math.max(...known));
    const applied = new Set([...required, ...expansions]);
    const pending = MIGRATIONS.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await tx.exec(migration.sql(dialect));
      await migration.backfill?.(tx, dialect);
      await tx.query(`INSERT INTO ${ledgerOf(migration)} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    }
    return pending.map((migration) => migration.version);
  });
}
