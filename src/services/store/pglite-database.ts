/**
 * Embedded PostgreSQL (PGlite) in `DATA_DIR`: the default store, nothing to install. PGlite runs in
 * this process and serializes all work, so it suits one instance; several instances share
 * PostgreSQL instead (DATABASE_URL).
 *
 * Two guards the engine does not give by itself:
 * - a lock file, because two processes opening one data directory corrupt it; the second one gets
 *   StoreUnavailableError naming the holder instead;
 * - a bound on waiting: work queued behind a slow operation is abandoned after the statement
 *   timeout, but only while it has not started. Once a transaction has begun it runs to its end in
 *   this process, so its caller never hears "unavailable" about something that then commits.
 */
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StoreUnavailableError } from '../ports.ts';
import { classifyDriverError, withDeadline, type Database, type Queryable } from './database.ts';

export interface PgliteOptions {
  /** DATA_DIR; the engine's files go to `<dataDir>/pglite`, the lock to `<dataDir>/pglite.lock`. */
  dataDir: string;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

class WorkAbandoned extends Error {}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Locks this process holds. A lock file naming our own pid that is not in here was left by an
 * earlier process that had the same pid (a container's PID 1 restarting after a crash): stale.
 */
const heldByThisProcess = new Set<string>();

function releaseDataDirLock(lockPath: string): void {
  heldByThisProcess.delete(lockPath);
  rmSync(lockPath, { force: true });
}

/** Takes `<dataDir>/pglite.lock` for this process, replacing a lock left by a process that died. */
function acquireDataDirLock(lockPath: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldByThisProcess.add(lockPath);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      const live = holder === process.pid ? heldByThisProcess.has(lockPath) : processIsAlive(holder);
      if (Number.isInteger(holder) && holder > 0 && live) {
        throw new StoreUnavailableError(
          `the embedded store in ${lockPath.replace(/\.lock$/, '')} is in use by process ${holder}; PGlite serves one process: give each instance its own DATA_DIR, or share a PostgreSQL through DATABASE_URL`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new StoreUnavailableError(`could not take the lock ${lockPath}`);
}

const reported = <T>(promise: Promise<T>): Promise<T> =>
  promise.catch((error: unknown) => {
    throw classifyDriverError(error, 'embedded store');
  });

function queryable(tx: Transaction): Queryable {
  return {
    query: async <R>(sql: string, params: unknown[] = []) => (await reported(tx.query<R>(sql, params))).rows,
    exec: async (sql: string) => void (await reported(tx.exec(sql))),
  };
}

/** Opens (creating when needed) the embedded database; resolves once it answers. */
export async function openPglite(options: PgliteOptions): Promise<Database> {
  const lockPath = join(options.dataDir, 'pglite.lock');
  try {
    mkdirSync(options.dataDir, { recursive: true });
  } catch (error) {
    throw classifyDriverError(error, `cannot create DATA_DIR ${options.dataDir}`);
  }
  try {
    acquireDataDirLock(lockPath);
  } catch (error) {
    throw classifyDriverError(error, `cannot lock DATA_DIR ${options.dataDir}`);
  }

  let db: PGlite;
  const opening = PGlite.create({ dataDir: join(options.dataDir, 'pglite') });
  try {
    // A first start compiles the engine and initialises the cluster: allow more than one connect timeout.
    db = await withDeadline(opening, Math.max(options.connectTimeoutMs, 30_000), `the embedded store in ${options.dataDir} did not open in time`);
  } catch (error) {
    // An engine that comes up after we gave up is closed before the lock is freed, never left running.
    void opening
      .then((late) => late.close())
      .catch(() => undefined)
      .finally(() => releaseDataDirLock(lockPath));
    throw classifyDriverError(error, `cannot open the embedded store in ${options.dataDir}`);
  }

  let closed = false;
  const run = <T>(work: (tx: Queryable) => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new StoreUnavailableError('the embedded store is closed'));
    let started = false;
    let abandoned = false;
    let workError: unknown;
    const operation = db.transaction(async (tx) => {
      if (abandoned) throw new WorkAbandoned();
      started = true;
      try {
        return await work(queryable(tx));
      } catch (error) {
        workError = error;
        throw error;
      }
    });
    operation.catch(() => undefined);
    return withDeadline(operation, options.statementTimeoutMs, `the embedded store did not start the operation within ${options.statementTimeoutMs} ms`, () => {
      if (started) return false;
      abandoned = true;
      return true;
    }).catch((error: unknown) => {
      // The work's own errors are already classified (or are ours); BEGIN/COMMIT failures are the engine's.
      throw error === workError ? error : classifyDriverError(error, 'embedded store');
    });
  };

  return {
    kind: 'pglite',
    query: (sql, params) => run((tx) => tx.query(sql, params)),
    exec: (sql) => run((tx) => tx.exec(sql)),
    transaction: run,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.close();
      } finally {
        releaseDataDirLock(lockPath);
      }
    },
  };
}
