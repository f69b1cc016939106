/**
 * The built server opens its store on first use, applying the migrations before anything is read or
 * written, and releases it on SIGTERM: the embedded store's lock is gone after a graceful stop, so
 * the next process opens the same DATA_DIR without a stale lock to step over.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/services/store/index.ts';
import { startBuiltServer } from '../helpers/built-server.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'server-runtime-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('server runtime lifecycle', () => {
  it('opens and migrates the embedded store on first use and releases it on SIGTERM', { timeout: 90_000 }, async () => {
    const server = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const lock = join(dataDir, 'pglite.lock');
    try {
      expect(existsSync(lock)).toBe(false);
      // The activity feed reads the store.
      const response = await fetch(`${server.url}/api/assistant/activity`, { signal: AbortSignal.timeout(60_000) });
      expect(response.status).toBe(200);
      expect(existsSync(lock)).toBe(true);
    } finally {
      await server.stop();
    }
    expect(server.process.exitCode).toBe(0);
    expect(existsSync(lock)).toBe(false);

    const store = createStore({ driver: 'pglite', dataDir, statementTimeoutMs: 2_000, connectTimeoutMs: 2_000 });
    // Opened by the server, not by this test: the tables are already there.
    expect(await store.getQuote('q_none')).toBeUndefined();
    await store.close();
  });
});
