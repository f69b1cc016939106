/**
 * The small surface the store needs from a SQL engine, implemented once for embedded SQLite
 * (`node:sqlite`) and once for PostgreSQL through `pg`. Above it, one set of queries; below it, each
 * driver turns "cannot reach or use the database" into StoreUnavailableError, a unique violation
 * into UniqueViolationError, and lets every other database error (a check constraint, a bug in a
 * query) through unchanged, so the store can tell the three apart.
 */
import type { Dialect } from './dialect.ts';

export interface Queryable {
  /** One parameterised statement (`$1`, `$2`, ... in both dialects); returns its rows. */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly dialect: Dialect;
  /**
   * One statement that only reads, answered from the newest committed state. It may run beside
   * writes in progress (SQLite: on its own connection), so it never sees uncommitted work.
   */
  read<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /**
   * Runs `work` in one transaction: committed if it resolves, rolled back if it throws. The promise
   * resolves once the commit survives a crash of this process; with `durable`, once it also survives
   * a power loss (PostgreSQL: always, at its configured `synchronous_commit`).
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: { durable?: boolean }): Promise<T>;
  close(): Promise<void>;
}

/** A write that broke a unique constraint (primary key or UNIQUE) of `table`; the store decides what it means. */
export class UniqueViolationError extends Error {
  readonly table: string;

  constructor(table: string, options?: { cause?: unknown }) {
    super(`unique constraint of ${table} violated`, options);
    this.table = table;
    this.name = 'UniqueViolationError';
  }
}
