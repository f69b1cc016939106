/**
 * Where SQLite and PostgreSQL really differ, and nothing else: column types and defaults in the
 * migrations, how the migration runner keeps two processes from migrating at once, and whether one
 * statement can insert into two tables. Every query is otherwise written once, in the SQL both
 * engines speak (`$1` parameters, `CAST(x AS TEXT)`, `INSERT ... ON CONFLICT ... RETURNING`).
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Column types by role; SQLite tables are STRICT, so these are its five storage classes. */
  readonly types: {
    /** An exact signed 64-bit integer (nanoERG amounts). */
    readonly bigint: string;
    /** An instant, written and compared as ISO-8601 UTC text on SQLite (`Date#toISOString`, always the same width). */
    readonly timestamp: string;
    /** A calendar day (`YYYY-MM-DD`). */
    readonly date: string;
    /** A JSON document, read back with `CAST(column AS TEXT)` and parsed by the store. */
    readonly json: string;
    /** A generated, ever-increasing row id. */
    readonly identity: string;
    /** Text compared and sorted by code unit, whatever the database's collation (ids a cursor pages by). */
    readonly binaryText: string;
    /** Bytes as they are (a gzipped entry bundle). */
    readonly bytes: string;
  };
  /** Default of an insertion timestamp: the clock at the time of the write, to the finest unit the engine has. */
  readonly now: string;
  /** `CREATE TABLE` suffix: SQLite's STRICT typing, so a value of the wrong type is refused as PostgreSQL refuses it. */
  readonly tableOptions: string;
  /**
   * A statement that makes concurrent migration runs wait for one another inside the migration's
   * transaction; undefined where the transaction itself already excludes other writers.
   */
  readonly migrationLock: string | undefined;
  /** Second sort key after an insertion timestamp, so rows written within one clock tick keep their order. */
  readonly insertionOrder: string;
  /**
   * The quotes in the order they were stored, which the activity feed lists them by (newest first,
   * and within one millisecond), and what migration 4 adds for it. SQLite's rowid already grows with
   * each insert: nothing more to write per quote. PostgreSQL gets an identity column and its index.
   */
  readonly quoteSequence: { column: string; migration: string };
  /** A JSON column gives back the text it was given (SQLite); jsonb keeps a parsed form, its keys reordered. */
  readonly jsonKeepsText: boolean;
  /** An expression reading the string at `path` (object keys, fixed by the caller) inside a JSON column, as text. */
  jsonText(column: string, path: readonly string[]): string;
}

/** Arbitrary constant naming "schema migration in progress" for pg_advisory_xact_lock. */
const MIGRATION_LOCK_KEY = 7_314_902_216;

export const POSTGRES: Dialect = {
  name: 'postgres',
  types: { bigint: 'bigint', timestamp: 'timestamptz', date: 'date', json: 'jsonb', identity: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY', binaryText: 'text COLLATE "C"', bytes: 'bytea' },
  now: 'clock_timestamp()',
  tableOptions: '',
  migrationLock: `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`,
  insertionOrder: 'receipt_id',
  quoteSequence: {
    column: 'seq',
    migration: 'ALTER TABLE quotes ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY; CREATE INDEX quotes_newest_first ON quotes (seq DESC);',
  },
  jsonKeepsText: false,
  jsonText: (column, path) => `(${column} #>> '{${path.join(',')}}')`,
};

export const SQLITE: Dialect = {
  name: 'sqlite',
  types: { bigint: 'INTEGER', timestamp: 'TEXT', date: 'TEXT', json: 'TEXT', identity: 'INTEGER PRIMARY KEY', binaryText: 'TEXT', bytes: 'BLOB' },
  // Millisecond ISO text, the same form Date#toISOString writes, so the two compare as text.
  now: `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
  tableOptions: ' STRICT',
  // Every write transaction starts with BEGIN IMMEDIATE, which takes the database's one write lock.
  migrationLock: undefined,
  insertionOrder: 'rowid DESC',
  quoteSequence: { column: 'rowid', migration: '' },
  jsonKeepsText: true,
  jsonText: (column, path) => `json_extract(${column}, '$.${path.join('.')}')`,
};
