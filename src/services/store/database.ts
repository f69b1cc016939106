/**
 * The small surface the store needs from a SQL engine, implemented once for embedded PGlite and once
 * for PostgreSQL through `pg`. Above it, one set of queries; below it, each driver turns "cannot
 * reach or use the database" into StoreUnavailableError and lets every other database error (a
 * constraint, a bug in a query) through unchanged, so the store can tell the two apart.
 */
import { StoreUnavailableError } from '../ports.ts';

export interface Queryable {
  /** One parameterised statement; returns its rows. */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** An error the database server itself reported, with its SQLSTATE. */
export interface SqlError extends Error {
  code: string;
  severity?: string;
  constraint?: string;
  table?: string;
}

/** Reported by the database (has a SQLSTATE and a severity) rather than by the transport. */
export function isSqlError(error: unknown): error is SqlError {
  return (
    error instanceof Error &&
    typeof (error as Partial<SqlError>).code === 'string' &&
    /^[0-9A-Z]{5}$/.test((error as SqlError).code) &&
    typeof (error as Partial<SqlError>).severity === 'string'
  );
}

/**
 * SQLSTATEs that mean "the database cannot serve us right now" rather than "this query is wrong":
 * connection exceptions (08), insufficient resources (53), operator intervention including
 * statement timeouts and shutdowns (57), system errors (58), internal errors (XX), a missing database
 * (3D000), failed authentication (28), lock and idle-transaction timeouts, and serialization
 * failures or deadlocks (40), which a caller may retry later.
 */
const UNAVAILABLE_CLASSES = new Set(['08', '28', '40', '53', '57', '58', 'XX']);
const UNAVAILABLE_STATES = new Set(['3D000', '55P03', '25P03']);

export function isUnavailableSqlState(code: string): boolean {
  return UNAVAILABLE_CLASSES.has(code.slice(0, 2)) || UNAVAILABLE_STATES.has(code);
}

/**
 * What a driver throws for `error`: a StoreUnavailableError for transport failures and availability
 * SQLSTATEs, the original error for everything the database reported about the query itself.
 */
export function classifyDriverError(error: unknown, what: string): unknown {
  if (error instanceof StoreUnavailableError) return error;
  if (isSqlError(error) && !isUnavailableSqlState(error.code)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(`${what}: ${reason}`, { cause: error });
}

/** True when `error` is the unique violation of `constraint` (or of any unique index on `table`). */
export function isUniqueViolation(error: unknown, constraint: string, table: string): boolean {
  if (!isSqlError(error) || error.code !== '23505') return false;
  if (error.constraint) return error.constraint === constraint;
  return error.table === table;
}

/**
 * Resolves with `promise`, or rejects with StoreUnavailableError after `ms` when `onTimeout`
 * agrees to give up (returns true). Returning false keeps waiting: used once work has reached a
 * point where giving up would leave its outcome unknown to the caller.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, message: string, onTimeout: () => boolean = () => true): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      if (!settled && onTimeout()) {
        settled = true;
        reject(new StoreUnavailableError(message));
      }
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (!settled) {
          settled = true;
          resolve(value);
        }
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!settled) {
          settled = true;
          reject(error);
        }
      },
    );
  });
}
