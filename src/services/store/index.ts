/**
 * Builds the configured AssistantStore: PostgreSQL when DATABASE_URL is set, embedded SQLite in
 * DATA_DIR otherwise. Nothing is opened here; the store connects and migrates on first use.
 */
import { join } from 'node:path';
import type { StoreConfig } from '../../config/store.ts';
import type { AssistantStore } from '../../domain/ports.ts';
import { openPostgres } from './postgres-database.ts';
import { openSqlite, SQLITE_FILE_NAME } from './sqlite-database.ts';
import { SqlAssistantStore } from './sql-store.ts';

export { SqlAssistantStore } from './sql-store.ts';
export { MIGRATIONS } from './migrations.ts';

export function createStore(config: StoreConfig): SqlAssistantStore & AssistantStore {
  if (config.driver === 'postgres') {
    const schema = config.schema ? ` (schema ${config.schema})` : '';
    return new SqlAssistantStore('postgres', `the PostgreSQL database at DATABASE_URL${schema}`, () =>
      openPostgres({
        connectionString: config.connectionString,
        schema: config.schema,
        poolSize: config.poolSize,
        statementTimeoutMs: config.statementTimeoutMs,
        connectTimeoutMs: config.connectTimeoutMs,
      }),
    );
  }
  return new SqlAssistantStore('sqlite', `the embedded store ${join(config.dataDir, SQLITE_FILE_NAME)} (DATA_DIR)`, () =>
    openSqlite({ dataDir: config.dataDir, busyTimeoutMs: config.statementTimeoutMs }),
  );
}
