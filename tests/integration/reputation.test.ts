/**
 * The reputation graph derived from the receipt store, end to end over HTTP: two built servers share
 * one DATA_DIR, one settling on a testnet stand-in (the sandbox with its marker dropped), the other
 * on the sandbox. Testnet turns appear, credited to the receiver and to the payer (the first input of
 * the settlement transaction); sandbox turns are excluded and counted as such; the graph moves with
 * every paid turn and re-reads as the published schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Network } from '@fleet-sdk/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reputationGraphSchema, type ReputationGraph } from '../../schemas/reputation.ts';
import { FUNDING_ADDRESS } from '../../src/sandbox/chain.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
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
    startBuiltServer(sandboxServerEnv(standIn.url, dataDir, { CHAIN_SOURCE: 'testnet' })),
    startBuiltServer(sandboxServerEnv(sandbox.url, dataDir)),
  ]);
});

afterAll(async () => {
  await Promise.all([testnet?.stop(), local?.stop()]);
  await standIn?.close();
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function graph(server: RunningServer): Promise<ReputationGraph> {
  const response = await fetch(`${server.url}/api/agents/reputation`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toMatch(/no-store|max-age=0/);
  return reputationGraphSchema.parse(await response.json());
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
      const after = await graph(server);
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
});
