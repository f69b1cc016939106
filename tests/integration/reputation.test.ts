/**
 * The reputation graph derived from the receipt store, end to end over HTTP: two built servers share
 * one DATA_DIR, one settling on a testnet stand-in (the sandbox with its marker dropped), the other
 * on the sandbox. Testnet turns appear, credited to the receiver and to the payer (the first input of
 * the settlement transaction); sandbox turns are excluded and counted as such; the graph moves with
 * every paid turn and re-reads as the published schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Network } from '@fleet-sdk/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reputationEvidencePageSchema, reputationGraphSchema, type ReputationGraph } from '../../schemas/reputation.ts';
import { REPUTATION_CACHE_SECONDS } from '../../src/config/limits.ts';
import { FUNDING_ADDRESS } from '../../src/sandbox/chain.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { runCli } from '../helpers/cli.ts';
import { payForTurn, RECEIVER, sandboxServerEnv } from '../helpers/paid-turn.ts';
import { startTestnetStandIn, type TestnetStandIn } from '../helpers/testnet-stand-in.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let sandbox: RunningSandbox;
let standIn: TestnetStandIn;
let testnet: RunningServer;
let local: RunningServer;
let dataDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, startHeight: 4_000 });
  standIn = await startTestnetStandIn(sandbox.url);
  dataDir = mkdtempSync(join(tmpdir(), 'reputation-'));
  [testnet, local] = await Promise.all([
    startBuiltServer(sandboxServerEnv(standIn.url, dataDir, { CHAIN_SOURCE: 'testnet', LOG_CHECKPOINT_INTERVAL_SECONDS: '1' })),
    startBuiltServer(sandboxServerEnv(sandbox.url, dataDir, { LOG_CHECKPOINT_INTERVAL_SECONDS: '1' })),
  ]);
});

afterAll(async () => {
  await Promise.all([testnet?.stop(), local?.stop()]);
  await standIn?.close();
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The graph once the checkpoint it names covers `entries` receipts (one is signed every second here). */
async function graph(server: RunningServer, entries = 0): Promise<ReputationGraph> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${server.url}/api/agents/reputation`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/no-store|max-age=0/);
    const body = reputationGraphSchema.parse(await response.json());
    if ((body.checkpoint?.size ?? 0) >= entries) return body;
    if (Date.now() > deadline) throw new Error(`no checkpoint of ${entries} entries within 20 s: ${JSON.stringify(body.checkpoint)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}


describe('GET /api/agents/reputation', () => {
  it('moves with paid turns: testnet receipts credit the receiver and the payer, sandbox receipts never count', async () => {
    const before = await graph(testnet);
    expect(before.subjects).toEqual([]);
    expect(before.summary.receipts_counted).toBe(0);

    const first = await payForTurn({ server: testnet, sandbox });
    const second = await payForTurn({ server: testnet, sandbox }, `${'Which registers must a Note carry, and why is each one checked? '.repeat(4)}`);
    const sandboxTurn = await payForTurn({ server: local, sandbox });

    const quotes = [first, second].map((turn) => BigInt(turn.quote.priceNanoErg as string));
    const total = (quotes[0]! + quotes[1]!).toString();
    // Both servers read the same store, so they derive the same graph.
    for (const server of [testnet, local]) {
      const after = await graph(server, 3);
      expect(after.checkpoint).toMatchObject({ size: 3, checkpoint_api: expect.stringMatching(/\/api\/transparency\/receipts\/checkpoint$/) });
      expect(after.summary).toMatchObject({
        receipt_backed_subjects: 2,
        receipts_counted: 2,
        sandbox_receipts_excluded: 1,
        duplicate_receipts_ignored: 0,
        receipts_without_payer: 0,
        total_settled_nanoerg: total,
      });
      const subjects = after.subjects.map((subject) => ({ kind: subject.kind, id: subject.subject_id, count: subject.receipt_count, nanoerg: subject.settled_nanoerg }));
      expect(subjects).toEqual(
        expect.arrayContaining([
          { kind: 'service_provider', id: RECEIVER, count: 2, nanoerg: total },
          { kind: 'agent', id: FUNDING_ADDRESS.encode(Network.Testnet), count: 2, nanoerg: total },
        ]),
      );
      for (const subject of after.subjects) {
        expect(subject.evidence.map((item) => item.receipt_id).toSorted()).toEqual([first.receiptId, second.receiptId].toSorted());
        expect(subject.evidence.map((item) => item.settlement_tx_id)).toContain(first.settlementTxId);
        expect(subject.evidence.map((item) => item.receipt_id)).not.toContain(sandboxTurn.receiptId);
      }
      // Every evidence link resolves to the stored receipt.
      const receipt = await fetch(after.subjects[0]!.evidence.at(-1)!.receipt_url.replace(/^https?:\/\/[^/]+/, server.url));
      expect(receipt.status).toBe(200);
      expect(((await receipt.json()) as { chain: string }).chain).toBe('testnet');
    }
  });

  it('pages the subjects and each subject\'s receipts by cursor, and refuses a cursor or a query it did not give', async () => {
    const whole = await graph(testnet, 3);
    const onServer = (url: string) => url.replace(/^https?:\/\/[^/]+/, testnet.url);
    // One subject a page: each once, in the same order, the last page without a next one.
    const paged = [];
    let url: string | null = `${testnet.url}/api/agents/reputation?limit=1`;
    while (url) {
      const page = reputationGraphSchema.parse(await (await fetch(onServer(url))).json());
      expect(page.subjects.length).toBeLessThanOrEqual(1);
      expect(page.summary).toEqual(whole.summary);
      paged.push(...page.subjects);
      url = page.page.next_url;
    }
    expect(paged).toEqual(whole.subjects);
    // A subject's receipts, one a page, are its evidence.
    const subject = whole.subjects[0]!;
    const receipts = [];
    let next: string | null = `${onServer(subject.evidence_url)}&limit=1`;
    while (next) {
      const page = reputationEvidencePageSchema.parse(await (await fetch(onServer(next))).json());
      expect(page).toMatchObject({ kind: subject.kind, subject_id: subject.subject_id, receipt_count: subject.receipt_count, checkpoint: whole.checkpoint });
      receipts.push(...page.evidence);
      next = page.page.next_url;
    }
    expect(receipts).toEqual(subject.evidence);
    // Refusals name the parameter.
    for (const [query, pointer] of [
      ['?cursor=bm90LWEtY3Vyc29y', '/query/cursor'],
      ['?limit=0', '/query/limit'],
      ['?limit=201', '/query/limit'],
      ['?page=2', '/query/page'],
    ] as const) {
      const refused = await fetch(`${testnet.url}/api/agents/reputation${query}`);
      expect(refused.status, query).toBe(400);
      expect(((await refused.json()) as { errors: Array<{ path: string }> }).errors.map((error) => error.path)).toContain(pointer);
    }
    const missing = await fetch(`${testnet.url}/api/agents/reputation/evidence?kind=agent`);
    expect(missing.status).toBe(400);
    const unknown = await fetch(`${testnet.url}/api/agents/reputation/evidence?kind=agent&subject_id=nobody`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('reputation_subject_not_found');
  });

  it('is recomputed from the receipt log alone by agent-economy reputation --from-log, and a store that credits another payer is caught', async () => {
    const before = await graph(testnet, 3);
    const equal = await runCli(['reputation', '--from-log', '--base', testnet.url, '--explorer', standIn.url]);
    expect(equal.code, equal.stdout + equal.stderr).toBe(0);
    expect(equal.stdout).toMatch(new RegExp(`^OK {2}the reputation graph of .* equals the one recomputed from the first ${before.checkpoint!.size} entries of log \\S+ \\(root ${before.checkpoint!.root_hash.replace(/[+/]/g, '\\$&')}`));
    expect(equal.stderr).toContain("trusting the site's verifier key on first use");

    // The store credits a receipt to another payer than its settlement transaction names: the graph moves, the log does not.
    const turn = before.subjects.find((subject) => subject.kind === 'agent')!.evidence[0]!;
    const database = new DatabaseSync(join(dataDir, 'agent-economy.sqlite'));
    const payer = FUNDING_ADDRESS.encode(Network.Testnet);
    try {
      database.exec('PRAGMA busy_timeout = 5000;');
      // Its kept aggregates, which the graph is read from: one receipt moved from its payer to another.
      database.prepare("UPDATE reputation_subjects SET receipt_count = receipt_count - 1, rank_count = rank_count + 1 WHERE kind = 'agent' AND subject_id = ?").run(payer);
      database
        .prepare("INSERT INTO reputation_subjects (kind, subject_id, receipt_count, settled_nano_erg, first_settled_at, last_settled_at, latest, rank_count, rank_time) VALUES ('agent', ?, 1, '10000000', ?, ?, ?, -1, ?)")
        .run(RECEIVER, turn.settled_at, turn.settled_at, JSON.stringify([{ receiptId: turn.receipt_id, settlementTxId: turn.settlement_tx_id, settledAt: turn.settled_at }]), -Date.parse(turn.settled_at));
    } finally {
      database.close();
    }
    // A page is shared for REPUTATION_CACHE_SECONDS: the next one is read from the changed aggregates.
    await new Promise((resolve) => setTimeout(resolve, REPUTATION_CACHE_SECONDS * 1000 + 100));
    const differ = await runCli(['reputation', '--from-log', '--base', testnet.url, '--explorer', standIn.url, '--json']);
    expect(differ.code, differ.stdout + differ.stderr).toBe(1);
    const result = JSON.parse(differ.stdout) as { ok: boolean; differences: string[] };
    expect(result.ok).toBe(false);
    expect(result.differences).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^agent ${FUNDING_ADDRESS.encode(Network.Testnet)}: receipt_count is 1 on the site, 2 from the log`))]));
    expect(result.differences.some((line) => line.startsWith(`agent ${RECEIVER}: on the site's graph`))).toBe(true);
  });
});
