/**
 * Issue 53, receipts as static files: on the built server, a receipt in a checkpoint is answered
 * with a strong ETag and a year's immutable caching, the same bytes by receipt id and by settlement
 * transaction id, 304 to a request that names its ETag, brotli or gzip to a client that takes them
 * (the same bytes once decoded), and HEAD with the same head. A receipt rewritten in the store after
 * that is not what the route serves: the bytes the log signed are.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { payForTurn, startStack, type PaidTurn, type Stack } from '../helpers/paid-turn.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let stack: Stack;
let turn: PaidTurn;

/** Until a checkpoint includes the receipt (every second here). */
async function inCheckpoint(receiptId: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await fetch(`${stack.server.url}/api/assistant/receipt/${receiptId}/proof`)).status !== 200) {
    if (Date.now() > deadline) throw new Error('no checkpoint includes the receipt within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const get = async (path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => {
  const response = await request(`${stack.server.url}${path}`, { method, headers });
  return { status: response.statusCode, headers: response.headers as Record<string, string>, body: Buffer.from(await response.body.arrayBuffer()) };
};

beforeAll(async () => {
  stack = await startStack({ env: { LOG_CHECKPOINT_INTERVAL_SECONDS: '1' } });
  turn = await payForTurn(stack);
  await inCheckpoint(turn.receiptId);
});
afterAll(async () => stack?.stop());

describe('a receipt in a checkpoint is served like a static file', () => {
  it('answers by either id with the same bytes, a strong ETag and immutable caching, then 304, compressed variants and HEAD', async () => {
    const first = await get(`/api/assistant/receipt/${turn.receiptId}`);
    expect(first.status).toBe(200);
    const body = first.body.toString('utf8');
    expect(JSON.parse(body)).toMatchObject({ receiptId: turn.receiptId });
    expect(first.headers).toMatchObject({ 'cache-control': 'public, max-age=31536000, immutable', etag: expect.stringMatching(/^"[\w-]{27}"$/), vary: 'accept-encoding', 'content-type': 'application/json; charset=utf-8' });
    const etag = first.headers.etag!;

    // From memory now: the same bytes and head, by either id.
    for (const id of [turn.receiptId, turn.settlementTxId]) {
      const again = await get(`/api/assistant/receipt/${id}`);
      expect({ status: again.status, body: again.body.toString('utf8'), etag: again.headers.etag, cache: again.headers['cache-control'] }).toEqual({ status: 200, body, etag, cache: 'public, max-age=31536000, immutable' });
      expect(again.headers['access-control-allow-origin']).toBe('*');
      expect(again.headers['x-request-id']).toBeTruthy();
    }

    const notModified = await get(`/api/assistant/receipt/${turn.receiptId}`, { 'if-none-match': etag });
    expect({ status: notModified.status, length: notModified.body.length, etag: notModified.headers.etag }).toEqual({ status: 304, length: 0, etag });
    const other = await get(`/api/assistant/receipt/${turn.receiptId}`, { 'if-none-match': '"another"' });
    expect(other.status).toBe(200);

    // The variants are made off the event loop after the first answer: asked until they are there.
    let br = await get(`/api/assistant/receipt/${turn.receiptId}`, { 'accept-encoding': 'br, gzip' });
    for (let i = 0; i < 50 && br.headers['content-encoding'] !== 'br'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      br = await get(`/api/assistant/receipt/${turn.receiptId}`, { 'accept-encoding': 'br, gzip' });
    }
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(body);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    const gz = await get(`/api/assistant/receipt/${turn.receiptId}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(body);

    const head = await get(`/api/assistant/receipt/${turn.receiptId}`, {}, 'HEAD');
    expect({ status: head.status, length: head.body.length, etag: head.headers.etag, contentLength: head.headers['content-length'] }).toEqual({ status: 200, length: 0, etag, contentLength: String(Buffer.byteLength(body)) });
  });

  it('serves the bytes the log signed, not a copy rewritten in the store afterwards', async () => {
    const signed = (await get(`/api/assistant/receipt/${turn.receiptId}`)).body.toString('utf8');
    const database = new DatabaseSync(join(stack.dataDir, 'agent-economy.sqlite'));
    try {
      database.exec('PRAGMA busy_timeout = 5000;');
      const changed = database.prepare("UPDATE receipts SET bundle = replace(bundle, 'sandbox', 'testnet') WHERE receipt_id = ?").run(turn.receiptId);
      expect(changed.changes).toBe(1);
    } finally {
      database.close();
    }
    expect((await get(`/api/assistant/receipt/${turn.receiptId}`)).body.toString('utf8')).toBe(signed);
  });

  it('answers the receipt page with a strong ETag and 304, revalidated after five minutes: the page is the release\'s, not the receipt\'s', async () => {
    const page = await get(`/receipt/${turn.receiptId}`);
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({ 'cache-control': 'public, max-age=300, must-revalidate', etag: expect.stringMatching(/^"[\w-]{27}"$/) });
    const again = await get(`/receipt/${turn.receiptId}`, { 'if-none-match': page.headers.etag! });
    expect({ status: again.status, length: again.body.length, etag: again.headers.etag }).toEqual({ status: 304, length: 0, etag: page.headers.etag });
    // Another receipt's page is another body.
    expect((await get(`/receipt/${turn.settlementTxId}`)).headers.etag).not.toBe(page.headers.etag);
  });

  it('leaves an unknown id to the route: 404, not cached', async () => {
    const missing = await get(`/api/assistant/receipt/${'0'.repeat(64)}`);
    expect({ status: missing.status, cache: missing.headers['cache-control'] }).toEqual({ status: 404, cache: 'no-store' });
  });
});
