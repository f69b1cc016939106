/**
 * A built server over a store of a few thousand receipts made through the store's API (more than a
 * request may fold itself): the reputation is answered once its background fold is done, and
 * meanwhile only with the documented 503; the store-derived answers stay within 1 MiB; a full entry
 * bundle (256 receipts, 1.3 MB) is sent gzipped to a client that accepts it, is kept between
 * reads, and still shows a receipt rewritten in the store on the next read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reputationGraphSchema } from '../../schemas/reputation.ts';
import { decodeEntryBundle } from '../../src/domain/tlog/tiles.ts';
import { INLINE_BACKLOG } from '../../src/services/reputation.ts';
import { createStore } from '../../src/services/store/index.ts';
import { SQLITE_FILE_NAME } from '../../src/services/store/sqlite-database.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { sandboxServerEnv } from '../helpers/paid-turn.ts';
import { seedReceipts } from '../helpers/receipt-seed.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const RECEIPTS = INLINE_BACKLOG + 500;
const MIB = 1024 * 1024;
const LOG = '/api/transparency/receipts';
const dataDir = mkdtempSync(join(tmpdir(), 'scale-'));
let server: RunningServer;

beforeAll(async () => {
  const store = createStore({ driver: 'sqlite', dataDir, statementTimeoutMs: 5_000, connectTimeoutMs: 5_000 });
  await store.ready();
  await seedReceipts(store, RECEIPTS);
  await store.close();
  // No chain is read: the seeded receipts are testnet receipts and this server reads the sandbox at a closed port.
  server = await startBuiltServer(sandboxServerEnv('http://127.0.0.1:9', dataDir, { LOG_CHECKPOINT_INTERVAL_SECONDS: '1' }));
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function checkpointSize(): Promise<number> {
  const response = await fetch(`${server.url}${LOG}/checkpoint`);
  return response.status === 200 ? Number((await response.text()).split('\n')[1]) : 0;
}

describe('a store of a few thousand receipts', () => {
  it('answers the reputation once folded, and before that only 503 reputation_catching_up with Retry-After; every page within 1 MiB', async () => {
    const deadline = Date.now() + 60_000;
    while ((await checkpointSize()) < RECEIPTS) {
      if (Date.now() > deadline) throw new Error('no checkpoint of the seeded log within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (;;) {
      const response = await fetch(`${server.url}/api/agents/reputation?limit=200`);
      const text = await response.text();
      if (response.status === 200) {
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MIB);
        const graph = reputationGraphSchema.parse(JSON.parse(text));
        expect(graph.checkpoint?.size).toBe(RECEIPTS);
        // Fewer subjects than a page: all of them, and no next page.
        expect(graph.subjects.length).toBeLessThanOrEqual(200);
        expect(graph.subjects).toHaveLength(graph.summary.receipt_backed_subjects);
        expect(graph.summary.receipts_counted).toBe(RECEIPTS);
        expect(graph.page.next_url).toBeNull();
        break;
      }
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(text)).toMatchObject({ code: 'reputation_catching_up', log_size: RECEIPTS });
      if (Date.now() > deadline) throw new Error('the reputation did not catch up within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const path of ['/api/agent-economy/proofs', '/api/assistant/activity', '/api/agent-economy/proofs/timeline.svg']) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(200);
      expect((await response.arrayBuffer()).byteLength, path).toBeLessThanOrEqual(MIB);
    }
  });

  it('sends a full entry bundle gzipped to every client, under 1 MiB, keeps it, and shows a receipt rewritten in the store on the next read', async () => {
    const url = `${server.url}${LOG}/tile/entries/000`;
    // undici's fetch would decode the body itself; read the bytes as sent.
    const { request } = await import('undici');
    const sentAs = async (acceptEncoding: string | undefined) => {
      const answer = await request(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers.vary).toBeUndefined();
      const sent = Buffer.from(await answer.body.arrayBuffer());
      expect(sent.length).toBeLessThanOrEqual(MIB);
      return sent;
    };
    // c2sp.org/tlog-tiles: "Logs MAY use Content-Encoding: gzip with no negotiation".
    const sent = await sentAs('gzip');
    expect((await sentAs('identity')).equals(sent)).toBe(true);
    expect((await sentAs(undefined)).equals(sent)).toBe(true);
    const identity = gunzipSync(sent);
    expect(identity.length).toBeGreaterThan(MIB);
    // fetch decodes it, as a reader's does.
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(identity)).toBe(true);

    const bundle = decodeEntryBundle(identity, 256);
    if (!bundle.ok) throw new Error(bundle.reason);
    const victim = JSON.parse(new TextDecoder().decode(bundle.entries[7]!)) as { receiptId: string; issued_at: string };
    const database = new DatabaseSync(join(dataDir, SQLITE_FILE_NAME));
    try {
      const row = database.prepare('SELECT CAST(bundle AS TEXT) AS bundle FROM receipts WHERE receipt_id = ?').get(victim.receiptId) as { bundle: string };
      database.prepare('UPDATE receipts SET bundle = ? WHERE receipt_id = ?').run(row.bundle.replace(`"issued_at":"${victim.issued_at}"`, '"issued_at":"2020-01-01T00:00:00.000Z"'), victim.receiptId);
    } finally {
      database.close();
    }
    const after = gunzipSync(await sentAs('gzip'));
    const again = decodeEntryBundle(after, 256);
    if (!again.ok) throw new Error(again.reason);
    const rewritten = JSON.parse(new TextDecoder().decode(again.entries[7]!)) as { issued_at: string };
    expect(rewritten.issued_at).toBe('2020-01-01T00:00:00.000Z');
    expect(after.equals(identity)).toBe(false);
    // The gzip kept in the store (migration 12) was made before the rewrite: it was made again, with the rewrite in it.
    expect(gunzipSync(await sentAs(undefined)).equals(after)).toBe(true);
  });
});
