/**
 * Builds the configured AssistantStore: PostgreSQL when DATABASE_URL is set, embedded PGlite in
 * DATA_DIR otherwise. Nothing is opened here; the store connects and migrates on first use.
 */
import type { StoreConfig } from '../../config/store.ts';
import type { AssistantStore } from '../ports.ts';
import { openPglite } from './pglite-database.ts';
import { openPostgres } from './postgres-database.ts';
import { SqlAssistantStore } from './sql-store.ts';

export { SqlAssistantStore } from './sql-store.ts';
export { MIGRATIONS } from './migrations.ts';

export function createStore(config: StoreConfig): SqlAssistantStore & AssistantStore {
  if (config.driver === 'postgres') {
    return new SqlAssistantStore('postgres', async () =>
      openPostgres({
        connectionString: config.connectionString,
        schema: config.schema,
        poolSize: config.poolSize,
        statementTimeoutMs: config.statementTimeoutMs,
        connectTimeoutMs: config.connectTimeoutMs,
      }),
    );
  }
  return new SqlAssistantStore('pglite', () =>
    openPglite({ dataDir: config.dataDir, statementTimeoutMs: config.statementTimeoutMs, connectTimeoutMs: config.connectTimeoutMs }),
  );
}
