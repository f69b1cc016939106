/**
 * The built server opens and migrates its embedded store at start, before it listens, and closes it
 * on SIGTERM (the WAL checkpointed into the file). A store this build cannot use stops the start with
 * a message that says what to do; a DATA_DIR that cannot be used yet lets the server start and the
 * store-backed routes answer 503 within a bounded time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createStore, MIGRATIONS } from '../../src/services/store/index.ts';
import { SQLITE_FILE_NAME } from '../../src/services/store/sqlite-database.ts';
import { DIST_DIR, ROOT, startBuiltServer } from '../helpers/built-server.ts';
import { POSTGRES_URL } from '../helpers/services.ts';
import { routePath } from '../../src/catalogue/lookup.ts';
import { NEWEST_RECORDED_VERSION, storeFromNewerBuild } from '../helpers/store-fixtures.ts';

const parent = mkdtempSync(join(tmpdir(), 'server-runtime-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** Runs the built server (of `distDir`) to its exit (it must fail to start) and returns what it printed. */
function failedStart(dataDir: string, env: Record<string, string> = {}, distDir = DIST_DIR): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [`${distDir}/server/fast-entry.mjs`], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe('server runtime lifecycle', () => {
  it('opens and migrates the embedded store before it listens and closes it on SIGTERM', { timeout: 60_000 }, async () => {
    const dataDir = join(parent, 'lifecycle');
    const server = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    try {
      // Listening means migrated: the tables are there before any request.
      const file = new DatabaseSync(join(dataDir, SQLITE_FILE_NAME), { readOnly: true });
      expect(file.prepare(NEWEST_RECORDED_VERSION).get()).toEqual({ version: MIGRATIONS.at(-1)!.version });
      file.close();
      const response = await fetch(`${server.url}/api/assistant/activity`);
      expect(response.status).toBe(200);
    } finally {
      await server.stop();
    }
    expect(server.process.exitCode).toBe(0);
    expect(existsSync(join(dataDir, `${SQLITE_FILE_NAME}-wal`))).toBe(false);

    const store = createStore({ driver: 'sqlite', dataDir, statementTimeoutMs: 2_000, connectTimeoutMs: 2_000 });
    expect(await store.getQuote('q_none')).toBeUndefined();
    await store.close();
  });

  it('logs one JSON line per answered request: level, time, service, request id, method, path without its query, status, duration', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [`${DIST_DIR}/server/fast-entry.mjs`], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(parent, 'logs-')), DATABASE_URL: '', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      const url = await new Promise<string>((resolve) => {
        const look = () => {
          const listening = out.split('\n').find((line) => line.includes('"msg":"listening"'));
          if (listening) resolve((JSON.parse(listening) as { url: string }).url);
          else setTimeout(look, 20);
        };
        look();
      });
      const response = await fetch(`${url}/api/dev/tools?secret=1`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'trace-42' }, body: JSON.stringify({ action: 'hash', input: 'a' }) });
      expect(response.headers.get('x-request-id')).toBe('trace-42');
      // Request lines are batched for a moment, not held until a buffer fills: the line shows while the server runs.
      await vi.waitFor(() => expect(out).toContain('"reqId":"trace-42"'), { timeout: 5_000, interval: 20 });
    } finally {
      await new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')));
    }
    const lines = out.split('\n').filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([{ level: 'info', time: expect.any(Number), service: 'agent-economy', reqId: 'trace-42', method: 'POST', path: '/api/dev/tools', status: 200, ms: expect.any(Number), msg: 'request' }]);
  });

  it('refuses to start on malformed variables that are read only on first use, naming each', () => {
    const result = failedStart(mkdtempSync(join(parent, 'config-')), { RATE_LIMIT_QUOTE_PER_MINUTE: '10000000', CHAIN_TIMEOUT_MS: '5s', STORE_CONNECT_TIMEOUT_MS: '0' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('RATE_LIMIT_QUOTE_PER_MINUTE must be a whole number of requests from 1 to 1000000');
    expect(result.stderr).toContain('CHAIN_TIMEOUT_MS must be a whole number of milliseconds');
    expect(result.stderr).toContain('STORE_CONNECT_TIMEOUT_MS must be a whole number of milliseconds');
  });

  describe('the x402 signing key (offers and receipts)', () => {
    const keyFile = (name: string, mode: number) => {
      const file = join(mkdtempSync(join(parent, 'x402-key-')), name);
      writeFileSync(file, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode });
      return file;
    };

    it('refuses to start on a key file others may read, or on the receipt log\'s own key', () => {
      const loose = failedStart(mkdtempSync(join(parent, 'x402-loose-')), { X402_SIGNING_KEY_FILE: keyFile('loose.pem', 0o644) });
      expect(loose.status).toBe(1);
      expect(loose.stderr).toMatch(/x402 signing: .*loose\.pem is readable or writable by group or others \(mode 0644\)/);
      const logKey = keyFile('log.pem', 0o600);
      const shared = failedStart(mkdtempSync(join(parent, 'x402-shared-')), { LOG_SIGNING_KEY_FILE: logKey, X402_SIGNING_KEY_FILE: logKey });
      expect(shared.status).toBe(1);
      expect(shared.stderr).toContain('X402_SIGNING_KEY_FILE holds the receipt log\'s checkpoint key');
    });

    it('refuses to start on PostgreSQL without X402_SIGNING_KEY_FILE: every instance signs with one key', () => {
      const result = failedStart(mkdtempSync(join(parent, 'x402-postgres-')), { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: `x402_key_${process.pid}`, LOG_SIGNING_KEY_FILE: keyFile('log.pem', 0o600), X402_SIGNING_KEY_FILE: '' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('X402_SIGNING_KEY_FILE must be set with DATABASE_URL');
    });

    it('refuses to start with another key than the one its build publishes in the discovery descriptor', { timeout: 60_000 }, () => {
      // A copy of the build whose descriptor publishes another key, as a build made with another
      // DATA_DIR would; its modules resolve this checkout's node_modules.
      const copy = mkdtempSync(join(parent, 'x402-build-'));
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      cpSync(DIST_DIR, join(copy, 'dist'), { recursive: true });
      const descriptorFile = join(copy, 'dist', 'client', routePath('discovery-well-known'));
      const descriptor = JSON.parse(readFileSync(descriptorFile, 'utf8')) as { verification: { x402_signing: { public_key_jwk: unknown } } };
      const published = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
      descriptor.verification.x402_signing.public_key_jwk = published;
      writeFileSync(descriptorFile, JSON.stringify(descriptor));
      const result = failedStart(mkdtempSync(join(parent, 'x402-mismatch-')), { X402_SIGNING_KEY_FILE: keyFile('other.pem', 0o600) }, join(copy, 'dist'));
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`the build publishes the x402 signing key ${published.x} in its discovery descriptor, but`);
      expect(result.stderr).toContain('clients resolving the published key would refuse every offer');
    });
  });

  it('refuses to start on a corrupt store file, saying what to do', () => {
    const corruptDir = mkdtempSync(join(parent, 'corrupt-'));
    writeFileSync(join(corruptDir, SQLITE_FILE_NAME), 'overwritten by something else '.repeat(300));
    const result = failedStart(corruptDir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(join(corruptDir, SQLITE_FILE_NAME));
    expect(result.stderr).toMatch(/not a sound SQLite database.*move the file .*aside.*backup/s);
  });

  it('refuses to start on a store a newer build contracted, naming DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(parent, 'newer-'));
    const known = MIGRATIONS.at(-1)!.version;
    await storeFromNewerBuild(dataDir, known + 1);
    const result = failedStart(dataDir);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`schema version ${known + 1}; this build knows up to ${known}\\).*DATA_DIR`, 's'));
  });

  // Skipped only where the file cannot be made immutable: chattr +i needs CAP_LINUX_IMMUTABLE (root,
  // as CI runs here) and a file system with the flag, and root ignores plain permissions, so there is
  // no other way to make SQLite meet a file it may not write. With CI=true it is required: it runs,
  // and fails at its own chattr step if the machine cannot do it.
  const probe = join(parent, 'chattr-probe');
  writeFileSync(probe, '');
  const immutable = spawnSync('chattr', ['+i', probe]).status === 0 && spawnSync('chattr', ['-i', probe]).status === 0;
  if (!immutable && process.env.CI !== 'true') console.warn('server-runtime: skipping the read-only store test: chattr +i is not permitted here (needs root and a file system with the immutable flag)');
  (immutable || process.env.CI === 'true' ? it : it.skip)('on a store file it may not write, still serves reads and answers a write 503 at once', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(parent, 'read-only-'));
    const store = createStore({ driver: 'sqlite', dataDir, statementTimeoutMs: 2_000, connectTimeoutMs: 2_000 });
    await store.ready();
    await store.close();
    const file = join(dataDir, SQLITE_FILE_NAME);
    expect(spawnSync('chattr', ['+i', file]).status).toBe(0);
    try {
      const server = await startBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      try {
        expect((await fetch(`${server.url}/api/assistant/activity`)).status).toBe(200);
        // A free chat turn is counted in the store once answered: that write cannot happen.
        const started = performance.now();
        const response = await fetch(`${server.url}/api/assistant/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'What is a Note?' }] }),
          signal: AbortSignal.timeout(10_000),
        });
        expect(response.status).toBe(503);
        expect(((await response.json()) as { code: string }).code).toBe('receipt_storage_unavailable');
        expect(performance.now() - started).toBeLessThan(5_000);
      } finally {
        await server.stop();
      }
    } finally {
      spawnSync('chattr', ['-i', file]);
    }
  });

  it('starts on a DATA_DIR it cannot use yet and answers 503 from the store-backed routes, at once', { timeout: 60_000 }, async () => {
    const blocker = join(parent, 'a-file');
    writeFileSync(blocker, 'DATA_DIR cannot be created below a file');
    const server = await startBuiltServer({ DATA_DIR: join(blocker, 'data'), LOG_LEVEL: 'silent' });
    try {
      const response = await fetch(`${server.url}/api/assistant/activity`, { signal: AbortSignal.timeout(10_000) });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { code: string }).code).toBe('receipt_storage_unavailable');
      // The static surface does not depend on the store.
      expect((await fetch(`${server.url}/.well-known/agent-economy.json`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
