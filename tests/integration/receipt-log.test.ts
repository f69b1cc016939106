/**
 * The receipt log served by the built server, read as a client of c2sp.org/tlog-tiles would read
 * it: the verifier key, the signed checkpoint, the hash and entry tiles (whose entries are the
 * receipts as served and hash to the level-0 tile), and each receipt's tlog-proof, verified offline
 * with nothing but the receipt, the proof and the key. Bad tile paths are 400 or 404 problems.
 */
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { canonicalJson } from '../../src/domain/canonical-hash.ts';
import { openCheckpoint } from '../../src/domain/tlog/note.ts';
import { decodeEntryBundle, formatTilePath, formatEntryBundlePath, parseTileBody, publishedTiles } from '../../src/domain/tlog/tiles.ts';
import { verifyTlogProof } from '../../src/domain/tlog/tlog-proof.ts';
import { leafHash, nodeHash } from '../../src/domain/tlog/tree.ts';
import { payQuote } from '../../src/sandbox/pay.ts';
import pg from 'pg';
import { SQLITE_FILE_NAME } from '../../src/services/store/sqlite-database.ts';
import { POSTGRES_URL, postgresAvailable } from '../helpers/services.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { payForTurn, type Stack, startStack, uniquePremiumQuestion } from '../helpers/paid-turn.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const LOG = '/api/transparency/receipts';
const withPostgres = await postgresAvailable();
let stack: Stack;
const servers: RunningServer[] = [];

beforeAll(async () => {
  stack = await startStack({ env: { LOG_CHECKPOINT_INTERVAL_SECONDS: '1', RATE_LIMIT_VERIFY_PER_MINUTE: '1000', RATE_LIMIT_QUOTE_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await stack?.stop();
});

const get = (path: string, base = stack.server.url) => fetch(`${base}${path}`);
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

/** The origin the log names: the site's base URL without its scheme, then the log's prefix. */
async function keyAndOrigin(base = stack.server.url) {
  const key = (await (await get(`${LOG}/key`, base)).text()).trim();
  return { key, origin: key.slice(0, key.indexOf('+')) };
}

/** The newest checkpoint once it covers at least `size` entries (checkpoints come every second here). */
async function checkpointOf(size: number, base = stack.server.url) {
  const { key, origin } = await keyAndOrigin(base);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const response = await get(`${LOG}/checkpoint`, base);
    if (response.status === 200) {
      const note = await response.text();
      const opened = openCheckpoint(note, key, origin);
      expect(opened.ok, JSON.stringify(opened)).toBe(true);
      if (opened.ok && opened.checkpoint.size >= size) return { note, checkpoint: opened.checkpoint, key, origin, response };
    }
    if (Date.now() > deadline) throw new Error(`no checkpoint of ${size} entries within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the receipt log', () => {
  it('logs every receipt: the tiles hold the receipts as served, their hashes make the signed root, and each proof verifies offline', async () => {
    const turns = [];
    for (let i = 0; i < 3; i++) turns.push(await payForTurn(stack, uniquePremiumQuestion()));
    const { checkpoint, key, origin, response } = await checkpointOf(3);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=5');
    expect(origin.endsWith(LOG)).toBe(true);

    const size = checkpoint.size;
    const tiles = publishedTiles(size);
    expect(tiles).toEqual([{ level: 0, n: 0, width: size }]);
    const tile = await get(`${LOG}/${formatTilePath(tiles[0]!)}`);
    expect(tile.headers.get('content-type')).toBe('application/octet-stream');
    expect(tile.headers.get('cache-control')).toBe('public, max-age=5');
    const leaves = parseTileBody(await bytesOf(tile), size);
    if (!leaves.ok) throw new Error(leaves.reason);
    const bundle = decodeEntryBundle(await bytesOf(await get(`${LOG}/${formatEntryBundlePath({ n: 0, width: size })}`)), size);
    if (!bundle.ok) throw new Error(bundle.reason);
    // Each entry is the canonical JSON of its receipt as served, and hashes to its leaf.
    for (const [index, entry] of bundle.entries.entries()) {
      const receipt = JSON.parse(new TextDecoder().decode(entry)) as { receiptId: string };
      const served = await (await get(`/api/assistant/receipt/${receipt.receiptId}`)).json();
      expect(new TextDecoder().decode(entry)).toBe(canonicalJson(served));
      expect(Buffer.from(leafHash(entry)).equals(Buffer.from(leaves.hashes[index]!))).toBe(true);
    }
    const naive = (hashes: Uint8Array[]): Uint8Array => {
      if (hashes.length === 1) return hashes[0]!;
      let k = 1;
      while (k * 2 < hashes.length) k *= 2;
      return nodeHash(naive(hashes.slice(0, k)), naive(hashes.slice(k)));
    };
    expect(Buffer.from(naive(leaves.hashes)).equals(Buffer.from(checkpoint.root))).toBe(true);

    for (const turn of turns) {
      const receipt = await (await get(`/api/assistant/receipt/${turn.receiptId}`)).json();
      const proofResponse = await get(`/api/assistant/receipt/${turn.receiptId}/proof`);
      expect(proofResponse.status).toBe(200);
      const proof = await proofResponse.text();
      expect(proof.startsWith('c2sp.org/tlog-proof@v1\n')).toBe(true);
      const entry = new TextEncoder().encode(canonicalJson(receipt));
      const verdict = verifyTlogProof(entry, proof, key, origin);
      expect(verdict.ok, JSON.stringify(verdict)).toBe(true);
      // Another receipt's bytes do not verify with this proof.
      const other = new TextEncoder().encode(canonicalJson({ ...receipt, receiptId: '00'.repeat(32) }));
      expect(verifyTlogProof(other, proof, key, origin).ok).toBe(false);
    }
  });

  it('names the proof URL in verify-payment\'s answer, and the proof is there within seconds', async () => {
    const question = uniquePremiumQuestion();
    const quote = await (await fetch(`${stack.server.url}/api/assistant/quote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question }) })).json();
    const payment = await payQuote(quote, { sandboxUrl: stack.sandbox.url });
    const verified = await (
      await fetch(`${stack.server.url}/api/assistant/verify-payment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ quote, question, noteBoxId: payment.noteBoxId }) })
    ).json();
    expect(verified.receiptProofUrl).toBe(`${new URL(verified.receiptUrl).origin}/api/assistant/receipt/${verified.receiptId}/proof`);
    // Pending (409) until the next checkpoint, a second away here; bounded.
    const deadline = Date.now() + 15_000;
    let status = (await get(new URL(verified.receiptProofUrl).pathname)).status;
    while (status === 409 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await get(new URL(verified.receiptProofUrl).pathname)).status;
    }
    expect(status).toBe(200);
  });

  it('answers bad tile paths 400 and tiles beyond the tree 404, as problems', async () => {
    await checkpointOf(1);
    for (const path of ['tile/0/x01/000', 'tile/0/000.p/0', 'tile/0/000.p/256', 'tile/x/000', 'tile/entries/0000', 'tile/0/000.p/abc']) {
      const response = await get(`${LOG}/${path}`);
      expect(response.status, path).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
    for (const path of ['tile/0/001', 'tile/0/999', 'tile/1/000', 'tile/0/000', 'tile/entries/x001/000', 'tile/0/000.p/255']) {
      const response = await get(`${LOG}/${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('serves a tile under its one spelling only: percent-escapes and dot segments are 400, never the tile', async () => {
    await checkpointOf(1);
    expect((await get(`${LOG}/tile/0/000.p/1`)).status).toBe(200);
    // Sent as written: fetch would resolve the dot segments before sending.
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const { hostname, port } = new URL(stack.server.url);
        request({ hostname, port, path, method: 'GET' }, (response) => {
          response.resume();
          resolve(response.statusCode!);
        })
          .on('error', reject)
          .end();
      });
    for (const path of ['tile/0/%30%30%30.p/1', 'tile/0/./000.p/1', 'tile/0/x/../000.p/1', 'tile/entries/%30%30%30.p/1', 'tile/./0/000.p/1']) {
      expect(await raw(`${LOG}/${path}`), path).toBe(400);
    }
  });

  it('answers a proof not yet in a checkpoint 409 with Retry-After, and an unknown receipt 404', async () => {
    const slow = await startBuiltServer({ ...sandboxEnv(), LOG_CHECKPOINT_INTERVAL_SECONDS: '3600' });
    servers.push(slow);
    const turn = await payForTurn({ server: slow, sandbox: stack.sandbox }, uniquePremiumQuestion());
    const pending = await get(`/api/assistant/receipt/${turn.receiptId}/proof`, slow.url);
    expect(pending.status).toBe(409);
    expect(pending.headers.get('retry-after')).toBe('3600');
    expect(await pending.json()).toMatchObject({ code: 'receipt_log_pending', index: 0 });
    expect((await get(`/api/assistant/receipt/${'ab'.repeat(32)}/proof`, slow.url)).status).toBe(404);
  });
});

describe('a log its operator cannot fork (issue 51)', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  /** The start's failure, as the test harness reports a process that exited before listening. */
  const refusedStart = async (env: Record<string, string>) => {
    const error = await startBuiltServer(env).then(
      async (server) => {
        await server.stop();
        return new Error('the server started');
      },
      (caught: unknown) => caught as Error,
    );
    expect(error.message).toMatch(/exited with 1/);
    return error.message;
  };
  const copyStore = (from: string, to: string) => {
    for (const name of readdirSync(to)) if (name.startsWith(SQLITE_FILE_NAME)) rmSync(join(to, name));
    for (const name of readdirSync(from)) if (name.startsWith(SQLITE_FILE_NAME)) copyFileSync(join(from, name), join(to, name));
  };

  it('serves a signed size-0 checkpoint from the first request, and refuses to start on a restored older store', async () => {
    const dataDir = tempDir('log-restore-');
    const backup = tempDir('log-backup-');
    const env = { ...sandboxEnv(), DATA_DIR: dataDir, LOG_CHECKPOINT_INTERVAL_SECONDS: '1' };
    const first = await startBuiltServer(env);
    const empty = await get(`${LOG}/checkpoint`, first.url);
    expect(empty.status).toBe(200);
    const { key, origin } = await keyAndOrigin(first.url);
    expect(openCheckpoint(await empty.text(), key, origin)).toMatchObject({ ok: true, checkpoint: { size: 0 } });
    await first.stop();
    copyStore(dataDir, backup);

    const second = await startBuiltServer(env);
    await payForTurn({ server: second, sandbox: stack.sandbox }, uniquePremiumQuestion());
    await checkpointOf(1, second.url);
    await second.stop();

    // The operator restores the copy made before that payment: the Note would be unspent again.
    copyStore(backup, dataDir);
    const refusal = await refusedStart(env);
    expect(refusal).toContain('the start is refused: the store holds 0 entries, but the log already signed size 1');
    expect(refusal).toContain('restore the newest copy of the store');
  });

  it.skipIf(!withPostgres)('stops a server on PostgreSQL whose store is behind what the log signed, as soon as it listens', async () => {
    const schema = `log_restore_${process.pid}_${Date.now().toString(36)}`;
    const dataDir = tempDir('log-restore-pg-');
    const env = { ...sandboxEnv(), DATA_DIR: dataDir, DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, LOG_CHECKPOINT_INTERVAL_SECONDS: '1' };
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      const first = await startBuiltServer(env);
      await payForTurn({ server: first, sandbox: stack.sandbox }, uniquePremiumQuestion());
      await checkpointOf(1, first.url);
      await first.stop();
      // The operator restores a copy of the database from before that payment: here, an empty one.
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      const restarted = await startBuiltServer(env);
      const code = await new Promise<number | null>((resolve) => {
        if (restarted.process.exitCode !== null) return resolve(restarted.process.exitCode);
        restarted.process.once('exit', (exitCode) => resolve(exitCode));
      });
      expect(code).toBe(1);
      expect(restarted.stderr!()).toContain('receipt log refused');
      expect(restarted.stderr!()).toContain('the store holds 0 entries, but the log already signed size 1');
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('refuses to start with another key than the one that signed the log, and with a key file others can read or no key in it', async () => {
    const dataDir = tempDir('log-keys-');
    const env = { ...sandboxEnv(), DATA_DIR: dataDir };
    await (await startBuiltServer(env)).stop();
    const keys = tempDir('log-other-key-');
    const write = (name: string, text: string, mode: number) => {
      writeFileSync(join(keys, name), text, { mode });
      return join(keys, name);
    };
    const pem = (generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    const other = write('other.pem', pem, 0o600);
    expect(await refusedStart({ ...env, LOG_SIGNING_KEY_FILE: other })).toMatch(/does not verify with this log's key .*To go on, this server's key is not the key that signed this log/s);
    expect(await refusedStart({ ...env, LOG_SIGNING_KEY_FILE: write('shared.pem', pem, 0o644) })).toContain('is readable or writable by group or others (mode 0644)');
    expect(await refusedStart({ ...env, LOG_SIGNING_KEY_FILE: write('garbage.pem', 'not a key\n', 0o600) })).toContain('is not a readable private key');
  });
});

function sandboxEnv(): Record<string, string> {
  return {
    CHAIN_SOURCE: 'sandbox',
    ERGO_EXPLORER_URL: stack.sandbox.url,
    ASSISTANT_RECEIVER_ADDRESS: '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt',
    ASSISTANT_RESERVE_BOX_ID: '5a'.repeat(32),
    LOG_LEVEL: 'warn',
  };
}
