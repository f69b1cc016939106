/**
 * PostgreSQL through a `pg` pool, for several instances sharing one database (DATABASE_URL).
 *
 * Every wait is bounded: `connectionTimeoutMillis` covers getting a connection (pool queue and TCP
 * connect), the server's `statement_timeout` cancels a slow statement (rolling its transaction
 * back), and the client's `query_timeout` gives up on a server that stopped answering altogether.
 * An open transaction whose client vanished is ended by `idle_in_transaction_session_timeout`, so
 * it cannot hold the Note's row lock and block the next instance forever.
 */
import type pg from 'pg';
import { pg as loadPg } from '../../lib/lazy-modules.ts';
import { logger } from '../logger.ts';
import { StoreUnavailableError } from '../../domain/ports.ts';
import { UniqueViolationError, type Database, type Queryable } from './database.ts';
import { POSTGRES } from './dialect.ts';

export interface PostgresOptions {
  connectionString: string;
  /** Schema the tables live in (created when missing); the server's default search_path when undefined. */
  schema: string | undefined;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

/** An error the database server itself reported, with its SQLSTATE. */
interface SqlError extends Error {
  code: string;
  severity?: string;
  table?: string;
}

/** Reported by the database (has a SQLSTATE and a severity) rather than by the transport. */
function isSqlError(error: unknown): error is SqlError {
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

/**
 * What the driver throws for `error`: UniqueViolationError for 23505, StoreUnavailableError for
 * transport failures and availability SQLSTATEs, the original error for everything else the
 * database reported about the query itself.
 */
function classify(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  if (isSqlError(error)) {
    if (error.code === '23505') return new UniqueViolationError(error.table ?? 'unknown', { cause: error });
    if (!UNAVAILABLE_CLASSES.has(error.code.slice(0, 2)) && !UNAVAILABLE_STATES.has(error.code)) return error;
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(`PostgreSQL: ${reason}`, { cause: error });
}

/** Slack past the server-side statement timeout before the client stops waiting for the answer. */
const CLIENT_SLACK_MS = 1_000;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const guard = <T>(promise: Promise<T>): Promise<T> =>
  promise.catch((error: unknown) => {
    throw classify(error);
  });

function clientQueryable(client: pg.PoolClient | pg.Pool): Queryable {
  return {
    query: async <R>(sql: string, params: unknown[] = []) => (await guard(client.query(sql, params))).rows as R[],
    exec: async (sql: string) => void (await guard(client.query(sql))),
  };
}

/** Tolerates losing a race to create the schema: another instance made it first. */
const SCHEMA_EXISTS_STATES = new Set(['42P06', '23505']);

/**
 * The connection string with the schema's search_path added to its libpq `options`. `pg` lets the
 * connection string's parameters win over the pool's, so a DATABASE_URL that carried `options` (a
 * timezone, say) once dropped the search_path silently and put every table in `public`.
 */
export function withSearchPath(connectionString: string, schema: string): { connectionString: string; options?: string } {
  const searchPath = `-c search_path=${schema}`;
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return { connectionString, options: searchPath };
  }
  const given = url.searchParams.get('options');
  if (given === null) return { connectionString, options: searchPath };
  url.searchParams.set('options', `${given} ${searchPath}`);
  return { connectionString: url.toString() };
}

/** A pool over `connectionString`; connections are opened on first use. */
export function openPostgres(options: PostgresOptions): Database {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new Error(`store: schema "${options.schema}" is not a plain lower-case SQL identifier`);
  }
  const pool = new (loadPg().Pool)({
    ...(options.schema ? withSearchPath(options.connectionString, options.schema) : { connectionString: options.connectionString }),
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + CLIENT_SLACK_MS,
    lock_timeout: options.statementTimeoutMs,
    idle_in_transaction_session_timeout: options.statementTimeoutMs * 2 + CLIENT_SLACK_MS,
    keepAlive: true,
    application_name: 'agent-economy',
  });
  // An idle connection dropped by the server emits here; unhandled it would end the process.
  pool.on('error', (error) => logger.warn({ err: error }, 'store: idle PostgreSQL connection failed; the pool replaces it'));

  let closed = false;
  const pooled = clientQueryable(pool);
  const database: Database = {
    dialect: POSTGRES,
    read: (sql, params) => (closed ? Promise.reject(new StoreUnavailableError('the store is closed')) : pooled.query(sql, params)),
    query: (sql, params) => (closed ? Promise.reject(new StoreUnavailableError('the store is closed')) : pooled.query(sql, params)),
    exec: (sql) => (closed ? Promise.reject(new StoreUnavailableError('the store is closed')) : pooled.exec(sql)),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      if (closed) throw new StoreUnavailableError('the store is closed');
      const client = await guard(pool.connect());
      const tx = clientQueryable(client);
      let destroy = false;
      // A checked-out connection has no pool listener: the server ending it between two statements
      // (a restart, an admin's terminate) emits 'error' on the client, which unheard ends the process.
      // Heard, it only marks the connection for destruction; the next statement fails and rolls back.
      const onConnectionError = (error: Error) => {
        destroy = true;
        logger.warn({ err: error }, 'store: PostgreSQL ended a connection in use; its transaction is rolled back');
      };
      client.on('error', onConnectionError);
      try {
        await tx.exec('BEGIN');
        const result = await work(tx);
        await tx.exec('COMMIT');
        return result;
      } catch (error) {
        if (error instanceof StoreUnavailableError) destroy = true;
        else {
          try {
            await client.query('ROLLBACK');
          } catch {
            destroy = true;
          }
        }
        throw error;
      } finally {
        client.off('error', onConnectionError);
        // Destroying a connection whose state is unknown makes the server roll its transaction back.
        client.release(destroy);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };

  if (!options.schema) return database;
  const schema = options.schema;
  // The schema must exist before the first query resolves names against search_path.
  let schemaReady: Promise<void> | undefined;
  const ensureSchema = () => {
    schemaReady ??= pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).then(
      () => undefined,
      (error: unknown) => {
        if (isSqlError(error) && SCHEMA_EXISTS_STATES.has(error.code)) return;
        schemaReady = undefined;
        throw classify(error);
      },
    );
    return schemaReady;
  };
  return {
    ...database,
    read: async (sql, params) => (await ensureSchema(), database.read(sql, params)),
    query: async (sql, params) => (await ensureSchema(), database.query(sql, params)),
    exec: async (sql) => (await ensureSchema(), database.exec(sql)),
    transaction: async (work) => (await ensureSchema(), database.transaction(work)),
  };
}
