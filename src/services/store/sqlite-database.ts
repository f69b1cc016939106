/**
 * Embedded SQLite through `node:sqlite` (built into Node 24: nothing to build or download): the
 * default store, one file in DATA_DIR.
 *
 * - WAL journal. Every commit is in the WAL file before its caller is answered, so a process crash
 *   never takes back an acknowledged write (`synchronous=NORMAL`). A commit that carries money
 *   (`durable`: a settled payment, a spent token) is also fsynced before it is answered
 *   (`synchronous=FULL` for that commit), so a power loss cannot take it back either; since the WAL
 *   is written in order, that fsync makes every earlier commit durable too.
 * - Group commit: write transactions that arrive in the same event-loop turn run one after another
 *   inside ONE database transaction, each in its own savepoint (so each is still all or nothing),
 *   and share one COMMIT and one fsync; every caller is answered after that COMMIT.
 * - Reads run on a second connection, which in WAL mode sees the newest committed state and never
 *   the work of a batch in progress, held by a thread of their own (`sqlite-read-thread.ts`): a read
 *   of pages not in memory, or of a long list, never holds the event loop. That thread also folds
 *   the WAL into the database file shortly after each commit; the writer never checkpoints.
 * - Several processes may open the same file: SQLite's own locks order their writes (BEGIN
 *   IMMEDIATE waits up to the busy timeout for the one write lock), so a Note raced across two
 *   processes is settled once, and the other process reads the unique violation.
 *
 * `node:sqlite` is synchronous; the writer's statements run on the event loop. They are single-row
 * writes on indexed keys (microseconds); the fsync of each batch is the one wait.
 */
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { StoreUnavailableError, StoreUnusableError } from '../../domain/ports.ts';
import { afterChanges } from '../../lib/rounds.ts';
import { UniqueViolationError, type Database, type Queryable } from './database.ts';
import { SQLITE } from './dialect.ts';
import { openReadConnection, type ReadConnection } from './sqlite-read-thread.ts';

export interface SqliteOptions {
  /** DATA_DIR; the database is `<dataDir>/agent-economy.sqlite` (with its `-wal` and `-shm` files). */
  dataDir: string;
  /** How long a statement waits for another process's write lock before the store answers unavailable. */
  busyTimeoutMs: number;
  /** Bytes the WAL file may reach before the next batch waits for a fold (WAL_BYTES_BEFORE_WAITING; smaller in tests). */
  walBytesBeforeWaiting?: number;
}

export const SQLITE_FILE_NAME = 'agent-economy.sqlite';

/** Most transactions one COMMIT carries: bounds how long the first caller of a busy turn waits. */
const MAX_BATCH = 256;
/**
 * How long after a commit the read thread folds the WAL into the database file: the writer never
 * checkpoints (wal_autocheckpoint 0), so the WAL holds at most this long's commits beyond the last fold.
 */
const CHECKPOINT_AFTER_MS = 250;
/**
 * How large the WAL file may grow before the writer's next batch waits for a fold: 64 MiB, past the
 * 16 MiB it is cut back to once it starts again (journal_size_limit). A PASSIVE
 * fold copies what was committed when it began, and the WAL starts again from its beginning only
 * when a write finds every page folded; under writes one after another (the reputation's fold of a
 * seeded or migrated history) that never happened. The WAL grew to 2.4 GB during the fold of
 * 100,000 receipts, and the commit that finally started it again cut the file back to
 * journal_size_limit on the event loop: 2.2 s in which nothing was answered.
 */
const WAL_BYTES_BEFORE_WAITING = 64 * 1024 * 1024;
/** Prepared statements kept per connection; the store's own SQL is a few dozen strings. */
const MAX_CACHED_STATEMENTS = 256;

/**
 * SQLite primary result codes (`errcode & 0xff`) that mean "the database cannot serve us right now"
 * rather than "this statement is wrong": PERM, BUSY, LOCKED, NOMEM, READONLY, INTERRUPT, IOERR,
 * CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB.
 */
const UNAVAILABLE_CODES = new Set([3, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 26]);
/** The file is not (or no longer) a sound SQLite database: CORRUPT, NOTADB. */
const CORRUPT_CODES = new Set([11, 26]);
/** SQLITE_CONSTRAINT_PRIMARYKEY and SQLITE_CONSTRAINT_UNIQUE. */
const UNIQUE_CODES = new Set([1555, 2067]);

interface SqliteError extends Error {
  errcode?: number;
  errstr?: string;
}

/** What the driver throws for `error`: unique violations and availability failures classified, the rest as SQLite reported it. */
function classify(error: unknown, file: string): unknown {
  if (error instanceof StoreUnavailableError) return error;
  // A value SQLite cannot bind (ERR_INVALID_ARG_TYPE) or hand back as a number (ERR_OUT_OF_RANGE)
  // is a bug in the caller's query, not an outage: it must surface, not hide behind a 503.
  if (error instanceof TypeError || error instanceof RangeError) return error;
  const errcode = (error as SqliteError | undefined)?.errcode;
  if (typeof errcode === 'number') {
    if (UNIQUE_CODES.has(errcode)) {
      // "UNIQUE constraint failed: used_notes.note_box_id"
      const table = /failed: (\w+)\./.exec((error as Error).message)?.[1] ?? 'unknown';
      return new UniqueViolationError(table, { cause: error });
    }
    if (CORRUPT_CODES.has(errcode & 0xff)) return corrupt(file, error);
    if (!UNAVAILABLE_CODES.has(errcode & 0xff)) return error;
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(`embedded store ${file}: ${reason}`, { cause: error });
}

function corrupt(file: string, cause: unknown): StoreUnusableError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StoreUnusableError(
    `the embedded store ${file} is not a sound SQLite database (${reason}). Stop the server, move the file (and its -wal and -shm files) aside, and either restore it from a backup or start again with an empty store; see docs/deployment.md`,
    { cause },
  );
}

/** One connection with its prepared statements; `$1`-style parameters become SQLite's `?1`. */
class Connection {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Whether a transaction is open on this connection. */
  get isTransaction(): boolean {
    return this.#db.isTransaction;
  }

  all<R>(sql: string, params: unknown[]): R[] {
    return this.#statement(sql).all(...(params as never[])) as R[];
  }

  /** A statement without parameters or rows, prepared once (transaction control on the hot path). */
  run(sql: string): void {
    this.#statement(sql).run();
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }

  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      statement = this.#db.prepare(sql.replace(/\$(\d+)/g, '?$1'));
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

interface QueuedWork {
  /**
   * A work of several statements, or one statement run as it is. A lone statement needs no
   * savepoint of its own: under the default conflict resolution (ABORT) SQLite undoes a failed
   * statement whole and keeps the transaction; a failure that ends the transaction (an availability
   * failure, or `OR ROLLBACK`) aborts the batch. It runs without a turn of the promise machinery.
   */
  work: ((tx: Queryable) => Promise<unknown>) | { sql: string; params: unknown[] };
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Opens (creating when needed) the database file and checks it: a file that is not a sound SQLite
 * database throws StoreUnusableError; a folder that cannot be created or written, StoreUnavailableError.
 */
export function openSqlite(options: SqliteOptions): Database {
  const file = join(options.dataDir, SQLITE_FILE_NAME);
  try {
    mkdirSync(options.dataDir, { recursive: true });
  } catch (error) {
    throw new StoreUnavailableError(`cannot create DATA_DIR ${options.dataDir}: ${(error as Error).message}`, { cause: error });
  }

  let writer: Connection;
  let reader: ReadConnection;
  try {
    const writerDb = new DatabaseSync(file, { timeout: options.busyTimeoutMs });
    writer = new Connection(writerDb);
    try {
      // Before WAL is set: a file that is not a database fails here rather than half-way through.
      const [journal] = writer.all<{ journal_mode: string }>('PRAGMA journal_mode = WAL', []);
      if (journal?.journal_mode !== 'wal') throw new StoreUnavailableError(`the embedded store ${file} cannot use a WAL journal here (journal_mode ${journal?.journal_mode ?? 'unknown'}); put DATA_DIR on a local file system`);
      writer.exec('PRAGMA synchronous = NORMAL');
      // The WAL file is reused after each checkpoint; this keeps it from staying at its largest size.
      writer.exec('PRAGMA journal_size_limit = 16777216');
      // A commit that reached the automatic checkpoint copied the WAL into the file on the event loop
      // (tens of milliseconds at a million receipts): the read thread runs the checkpoints instead.
      writer.exec('PRAGMA wal_autocheckpoint = 0');
      // The header and the schema are read here: a file that is not a database fails now. A full
      // integrity check reads every page (seconds for a large store) and would hold up every restart;
      // damage deeper in the file is reported by the statement that meets it, as a 503.
      writer.all('SELECT count(*) AS tables FROM sqlite_schema', []);
      reader = openReadConnection(file, options.busyTimeoutMs);
    } catch (error) {
      writer.close();
      throw error;
    }
  } catch (error) {
    throw classify(error, file);
  }

  let closed = false;
  // After commits the read thread folds the WAL (one fold for the commits until it starts).
  const fold = afterChanges(CHECKPOINT_AFTER_MS, () => reader.checkpoint());
  const walFile = `${file}-wal`;
  const walBytesBeforeWaiting = options.walBytesBeforeWaiting ?? WAL_BYTES_BEFORE_WAITING;
  let queue: QueuedWork[] = [];
  let scheduled = false;
  let flushing: Promise<void> | undefined;

  /** One statement on the writer, its failure classified. */
  function statement<R>(sql: string, params: unknown[]): R[] {
    try {
      return writer.all<R>(sql, params);
    } catch (error) {
      throw classify(error, file);
    }
  }

  const inTransaction: Queryable = {
    query: async <R>(sql: string, params: unknown[] = []) => statement<R>(sql, params),
    exec: async (sql: string) => {
      try {
        writer.exec(sql);
      } catch (error) {
        throw classify(error, file);
      }
    },
  };

  /** Runs the queued works as one batch (at most MAX_BATCH), at the safety level the batch needs. */
  async function flush(): Promise<void> {
    scheduled = false;
    // A long WAL is folded whole before the batch, with no write beside the fold, so the batch starts
    // it again from its beginning (a fold that fails leaves it to the next batch).
    if ((statSync(walFile, { throwIfNoEntry: false })?.size ?? 0) > walBytesBeforeWaiting) await reader.checkpoint().catch(() => {});
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    // The safety level cannot change inside a transaction: a batch carrying money is fsynced whole.
    const durable = batch.some((item) => item.durable);
    try {
      if (durable) writer.run('PRAGMA synchronous = FULL');
      writer.run('BEGIN IMMEDIATE');
    } catch (error) {
      const failure = classify(error, file);
      for (const item of batch) item.reject(failure);
      if (durable) restoreNormal();
      return;
    }
    try {
      await runBatch(batch);
    } finally {
      if (durable) restoreNormal();
    }
  }

  function restoreNormal(): void {
    try {
      writer.run('PRAGMA synchronous = NORMAL');
    } catch {
      // Left at FULL: slower commits, never fewer guarantees.
    }
  }

  /**
   * Inside BEGIN IMMEDIATE: each work of several statements in its own savepoint (a work alone in
   * its batch needs none: its failure rolls the transaction back), then one COMMIT, and only then
   * is every caller answered.
   */
  async function runBatch(batch: QueuedWork[]): Promise<void> {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    const savepoints = batch.length > 1;
    let aborted: unknown;
    for (const item of batch) {
      const { work } = item;
      const savepoint = savepoints && typeof work === 'function';
      try {
        if (savepoint) writer.run('SAVEPOINT work');
      } catch (error) {
        aborted = classify(error, file);
        break;
      }
      try {
        const value = typeof work === 'function' ? await work(inTransaction) : statement(work.sql, work.params);
        if (savepoint) writer.run('RELEASE work');
        outcomes.push({ ok: true, value });
      } catch (error) {
        outcomes.push({ ok: false, error });
        if (error instanceof StoreUnavailableError) {
          aborted = error;
          break;
        }
        try {
          // A statement may end the whole transaction as it fails (`OR ROLLBACK`, `RAISE(ROLLBACK)`);
          // the works after it would then run on their own, outside the batch.
          if (!writer.isTransaction) throw new Error('no transaction is active after the failed work');
          if (savepoint) {
            writer.run('ROLLBACK TO work');
            writer.run('RELEASE work');
          }
        } catch (rollbackError) {
          // The engine already ended the transaction: nothing of the batch stands.
          aborted = new StoreUnavailableError(`embedded store ${file}: the engine ended the transaction (${(rollbackError as Error).message})`, { cause: rollbackError });
          break;
        }
      }
    }
    if (aborted === undefined) {
      try {
        // Nothing to keep (a lone work that failed): roll back instead of committing an empty transaction.
        const keep = outcomes.some((outcome) => outcome.ok);
        writer.run(keep ? 'COMMIT' : 'ROLLBACK');
        if (keep) fold.changed();
      } catch (error) {
        aborted = classify(error, file);
      }
    }
    if (aborted !== undefined) {
      try {
        writer.run('ROLLBACK');
      } catch {
        // Already rolled back by the engine.
      }
      for (const item of batch) item.reject(aborted);
      return;
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  function schedule(): void {
    if (scheduled || flushing) return;
    scheduled = true;
    // setImmediate: after the I/O callbacks of this loop turn, so every request read in it joins the batch.
    setImmediate(() => {
      flushing = flush().finally(() => {
        flushing = undefined;
        if (queue.length > 0) schedule();
      });
    });
  }

  const enqueue = <T>(work: QueuedWork['work'], durable: boolean): Promise<T> => {
    if (closed) return Promise.reject(new StoreUnavailableError('the embedded store is closed'));
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, durable, resolve: resolve as (value: unknown) => void, reject });
      schedule();
    });
  };
  const transaction = <T>(work: (tx: Queryable) => Promise<T>, options: { durable?: boolean } = {}): Promise<T> => enqueue(work, options.durable === true);

  return {
    dialect: SQLITE,
    async read<R>(sql: string, params: unknown[] = []): Promise<R[]> {
      if (closed) throw new StoreUnavailableError('the embedded store is closed');
      try {
        return await reader.all<R>(sql, params);
      } catch (error) {
        throw classify(error, file);
      }
    },
    query: <R>(sql: string, params: unknown[] = []) => enqueue<R[]>({ sql, params }, false),
    exec: (sql) => transaction((tx) => tx.exec(sql)),
    transaction,
    async close() {
      if (closed) return;
      closed = true;
      while (flushing || scheduled) await (flushing ?? new Promise((resolve) => setImmediate(resolve)));
      for (const item of queue.splice(0)) item.reject(new StoreUnavailableError('the embedded store is closed'));
      fold.stop();
      // The writer closes last: the last connection to close folds the WAL into the database file.
      await reader.close().catch(() => {});
      writer.close();
    },
  };
}
