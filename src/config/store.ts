/**
 * Where the assistant keeps its state (quotes, used Notes, receipts, payment tokens, activity,
 * free-tier counts). Embedded SQLite (`node:sqlite`) in one file under `DATA_DIR` needs nothing
 * installed and suits one host (several processes on it may share the file); `DATABASE_URL` switches
 * to a PostgreSQL that instances on several hosts share. Both run the same migrations and queries. The timeouts bound every store call, so an unreachable database becomes a
 * 503 within a known time instead of a hung request.
 */
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { integerVariable, readEnvironment } from './env.ts';

export const DATA_DIR_DEFAULT = '.data';
export const STORE_STATEMENT_TIMEOUT_MS_DEFAULT = 5_000;
export const STORE_CONNECT_TIMEOUT_MS_DEFAULT = 3_000;
export const DATABASE_POOL_SIZE_DEFAULT = 10;

const storeEnvironmentSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// connection URL, e.g. postgres://user@127.0.0.1:5432/db')
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier (letters, digits, _; at most 63 characters), e.g. agent_economy')
    .optional(),
  DATA_DIR: z.string().min(1).default(DATA_DIR_DEFAULT),
  STORE_STATEMENT_TIMEOUT_MS: integerVariable(100, 120_000, 'milliseconds').default(STORE_STATEMENT_TIMEOUT_MS_DEFAULT),
  STORE_CONNECT_TIMEOUT_MS: integerVariable(100, 120_000, 'milliseconds').default(STORE_CONNECT_TIMEOUT_MS_DEFAULT),
  DATABASE_POOL_SIZE: integerVariable(1, 200, 'connections').default(DATABASE_POOL_SIZE_DEFAULT),
});

interface StoreTimeouts {
  /** Upper bound of one statement (PostgreSQL `statement_timeout`) and, for SQLite, of waiting for another process's write lock. */
  statementTimeoutMs: number;
  /** Upper bound of opening a connection (PostgreSQL). */
  connectTimeoutMs: number;
}

export type StoreConfig =
  | ({ driver: 'sqlite'; dataDir: string } & StoreTimeouts)
  | ({ driver: 'postgres'; connectionString: string; schema: string | undefined; poolSize: number } & StoreTimeouts);

/** Reads the store variables; throws naming the variable. The connection URL is never echoed. */
export function loadStoreConfig(env: Record<string, string | undefined> = process.env): StoreConfig {
  const values = readEnvironment('store configuration', storeEnvironmentSchema, env);
  const timeouts = { statementTimeoutMs: values.STORE_STATEMENT_TIMEOUT_MS, connectTimeoutMs: values.STORE_CONNECT_TIMEOUT_MS };
  if (values.DATABASE_URL) {
    return { driver: 'postgres', connectionString: values.DATABASE_URL, schema: values.DATABASE_SCHEMA, poolSize: values.DATABASE_POOL_SIZE, ...timeouts };
  }
  return { driver: 'sqlite', dataDir: resolve(values.DATA_DIR), ...timeouts };
}

export const QUOTE_RETENTION_GRACE_SECONDS_DEFAULT = 86_400;
export const RETENTION_SWEEP_INTERVAL_SECONDS_DEFAULT = 600;

const retentionEnvironmentSchema = z.object({
  QUOTE_RETENTION_GRACE_SECONDS: integerVariable(0, 31_536_000, 'seconds').default(QUOTE_RETENTION_GRACE_SECONDS_DEFAULT),
  RETENTION_SWEEP_INTERVAL_SECONDS: integerVariable(1, 86_400, 'seconds').default(RETENTION_SWEEP_INTERVAL_SECONDS_DEFAULT),
});

export interface RetentionConfig {
  /** An unpaid quote is deleted this long after it expired (it can no longer be paid from its expiry on). */
  quoteGraceSeconds: number;
  /** How often each instance sweeps. */
  sweepIntervalSeconds: number;
}

/** Reads the retention variables; throws naming the variable. */
export function loadRetentionConfig(env: Record<string, string | undefined> = process.env): RetentionConfig {
  const values = readEnvironment('retention configuration', retentionEnvironmentSchema, env);
  return { quoteGraceSeconds: values.QUOTE_RETENTION_GRACE_SECONDS, sweepIntervalSeconds: values.RETENTION_SWEEP_INTERVAL_SECONDS };
}

/**
 * Where a signing key is held: the file its variable names, or `fileName` in DATA_DIR, made on first
 * start. Instances on one PostgreSQL must sign with one key, so there the variable is required and
 * its absence throws `refusal`.
 */
export function signingKeyFile(store: StoreConfig, given: string | undefined, fileName: string, refusal: string): { keyFile: string; createIfMissing: boolean } {
  if (!given && store.driver === 'postgres') throw new Error(refusal);
  const keyFile = given ? resolve(given) : join(store.driver === 'sqlite' ? store.dataDir : '.', fileName);
  return { keyFile, createIfMissing: !given };
}
