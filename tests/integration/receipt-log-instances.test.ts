/**
 * Two server processes on one PostgreSQL settling Notes at once make one receipt log: read from the
 * tiles alone, it holds every receipt exactly once, no index twice and no gap, its leaves hash the
 * receipts as served, its root is the signed one, and both instances serve the same checkpoint.
 * Required when CI=true (like every PostgreSQL test); skipped with a printed reason otherwise.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { canonicalJson } from '../../src/domain/canonical-hash.ts';
import { openCheckpoint } from '../../src/domain/tlog/note.ts';
import { decodeEntryBundle, parseTileBody, publishedEntryBundles, publishedTiles, formatTilePath, formatEntryBundlePath } from '../../src/domain/tlog/tiles.ts';
import { leafHash, nodeHash } from '../../src/domain/tlog/tree.ts';
import { payQuote } from '../../src/sandbox/pay.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { RECEIVER, RESERVE, uniquePremiumQuestion } from '../helpers/paid-turn.ts';
import { POSTGRES_URL, postgresAvailable } from '../helpers/services.ts';

const withPostgres = await postgresAvailable();
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const LOG = '/api/transparency/receipts';
const RECEIPTS = 200;
const schema = `log_instances_${randomBytes(4).toString('hex')}`;
let sandbox: RunningSandbox;
const servers: RunningServer[] = [];

beforeAll(async () => {
  if (!withPostgres) return;
  sandbox = await startSandbox({ port: 0, startHeight: 2_000 });
  const env = {
    DATABASE_URL: POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    CHAIN_SOURCE: 'sandbox',
    ERGO_EXPLORER_URL: sandbox.url,
    ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
    ASSISTANT_RESERVE_BOX_ID: RESERVE,
    LOG_CHECKPOINT_INTERVAL_SECONDS: '1',
    RATE_LIMIT_QUOTE_PER_MINUTE: '100000',
    RATE_LIMIT_VERIFY_PER_MINUTE: '100000',
    LOG_LEVEL: 'warn',
  };
  // The first migrates the schema; the second starts on it, as in a deployment.
  servers.push(await startBuiltServer(env));
  await fetch(`${servers[0]!.url}/api/assistant/activity`);
  servers.push(await startBuiltServer(env));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await sandbox?.close();
  if (!withPostgres) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

const post = async (url: string, body: unknown) => {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

const naiveRoot = (hashes: Uint8Array[]): Uint8Array => {
  if (hashes.length === 1) return hashes[0]!;
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return nodeHash(naiveRoot(hashes.slice(0, k)), naiveRoot(hashes.slice(k)));
};

describe('the receipt log on two instances sharing PostgreSQL', () => {
  (withPostgres ? it : it.skip)(`${RECEIPTS} receipts settled at once through both: one log, read from the tiles alone`, async () => {
    // Quotes and Notes first, then every verification at once, alternating instances.
    const paid = [];
    for (let i = 0; i < RECEIPTS; i++) {
      const question = uniquePremiumQuestion();
      const quote = await post(`${servers[i % 2]!.url}/api/assistant/quote`, { question });
      expect(quote.status).toBe(200);
      paid.push({ quote: quote.body, question, noteBoxId: (await payQuote(quote.body as never, { sandboxUrl: sandbox.url })).noteBoxId });
    }
    const verified = await Promise.all(paid.map((turn, i) => post(`${servers[(i + 1) % 2]!.url}/api/assistant/verify-payment`, turn)));
    expect(verified.map((answer) => answer.status)).toEqual(Array(RECEIPTS).fill(200));
    const receiptIds = new Set(verified.map((answer) => answer.body.receiptId as string));
    expect(receiptIds.size).toBe(RECEIPTS);

    const [first, second] = servers as [RunningServer, RunningServer];
    const key = (await (await fetch(`${first.url}${LOG}/key`)).text()).trim();
    expect((await (await fetch(`${second.url}${LOG}/key`)).text()).trim()).toBe(key);
    const origin = key.slice(0, key.indexOf('+'));
    let note = '';
    const deadline = Date.now() + 20_000;
    for (;;) {
      note = await (await fetch(`${first.url}${LOG}/checkpoint`)).text();
      const opened = openCheckpoint(note, key, origin);
      if (opened.ok && opened.checkpoint.size >= RECEIPTS) break;
      if (Date.now() > deadline) throw new Error(`no checkpoint of ${RECEIPTS} entries: ${note}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const opened = openCheckpoint(note, key, origin);
    if (!opened.ok) throw new Error(opened.reason);
    const { size, root } = opened.checkpoint;
    expect(size).toBe(RECEIPTS);
    // Each instance answers the newest stored checkpoint as read at most a second ago: the second one serves the same within moments.
    const served = async () => (await fetch(`${second.url}${LOG}/checkpoint`)).text();
    const agreeBy = Date.now() + 5_000;
    while ((await served()) !== note && Date.now() < agreeBy) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await served()).toBe(note);

    // The level-0 hashes and the entries, from the tiles of the checkpoint's tree only.
    const leaves: Uint8Array[] = [];
    for (const tile of publishedTiles(size).filter((candidate) => candidate.level === 0)) {
      const body = parseTileBody(new Uint8Array(await (await fetch(`${second.url}${LOG}/${formatTilePath(tile)}`)).arrayBuffer()), tile.width);
      if (!body.ok) throw new Error(body.reason);
      leaves.push(...body.hashes);
    }
    const entries: Uint8Array[] = [];
    for (const bundle of publishedEntryBundles(size)) {
      const decoded = decodeEntryBundle(new Uint8Array(await (await fetch(`${first.url}${LOG}/${formatEntryBundlePath(bundle)}`)).arrayBuffer()), bundle.width);
      if (!decoded.ok) throw new Error(decoded.reason);
      entries.push(...decoded.entries);
    }
    expect(entries).toHaveLength(RECEIPTS);
    const logged = entries.map((entry) => JSON.parse(new TextDecoder().decode(entry)) as { receiptId: string });
    // Every receipt exactly once: no index used twice, no gap.
    expect(new Set(logged.map((receipt) => receipt.receiptId))).toEqual(receiptIds);
    for (const [index, entry] of entries.entries()) {
      expect(new TextDecoder().decode(entry)).toBe(canonicalJson(logged[index]));
      expect(Buffer.from(leafHash(entry)).equals(Buffer.from(leaves[index]!))).toBe(true);
    }
    expect(Buffer.from(naiveRoot(leaves)).equals(Buffer.from(root))).toBe(true);
  });
});
