/**
 * The proof explorer over fake ports: testnet receipts become proofs with every check recomputed
 * (a tampered bundle or a chain that disagrees fails its check), sandbox receipts are listed apart
 * and never counted, chain reads share a bounded budget, and the conformance proofs report what
 * the policy engine and the build's schema report really say.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proofExplorerSchema } from '../../schemas/live.ts';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import type { SchemaConformanceReport } from '../../schemas/schema-conformance-report.ts';
import { judgePolicyCase, policyConformanceCases, policyConformanceChecks } from '../../src/domain/policy-conformance.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';
import { settlementCheck } from '../../src/domain/receipt-proof.ts';
import { ChainUnavailableError, StoreUnavailableError, type ChainBox } from '../../src/domain/ports.ts';
import { logger } from '../../src/services/logger.ts';
import { createProofExplorer } from '../../src/services/proof-explorer.ts';
import { PROOFS_CACHE_SECONDS } from '../../src/config/limits.ts';
import { FakeChain, FakeStore, noteBox } from '../helpers/fakes.ts';
import { loopIterations } from '../helpers/loop-iterations.ts';
import { memoryReceiptLog } from '../helpers/memory-receipt-log.ts';
import { hex32, makeQuote, makeReceipt } from '../helpers/store-fixtures.ts';

/** A bundle as the service stores it: its receiptId is the hash of the rest. */
function storedReceipt(chain: 'testnet' | 'sandbox'): ReceiptBundle {
  const { receiptId: _ignored, ...rest } = makeReceipt(makeQuote(), hex32(), { chain });
  return { receiptId: computeReceiptId(rest), ...rest } as ReceiptBundle;
}

/** The Note box exactly as the bundle recorded it. */
function boxOf(bundle: ReceiptBundle, change: Partial<ChainBox> = {}): ChainBox {
  const settlement = bundle.settlement_receipt;
  return {
    ...noteBox({
      boxId: bundle.noteBoxId,
      transactionId: bundle.settlementTxId,
      value: BigInt(settlement.valueNanoErg),
      reserveBoxId: settlement.registers.R4.value,
      expiryHeight: settlement.registers.R5.value,
      taskHash: settlement.registers.R6.value,
      creationHeight: settlement.creationHeight,
      inclusionHeight: settlement.inclusionHeight,
    }),
    ...change,
  };
}

const passingReport: SchemaConformanceReport = {
  generated_at: '2026-11-23T10:00:00.000Z',
  validator: 'ajv',
  checks: [{ id: 'jobs', ok: true, detail: '/api/jobs validates.', document: '/api/jobs', schema: '/agent-economy/agent-jobs.schema.v0.json' }],
};

/**
 * The sources over `store` and `chain`, with a receipt log that records the receipts the store holds
 * when first read (as settling them would have) and signs a checkpoint; a receipt changed, added or
 * removed in the store afterwards meets the log as it would on a real store.
 */
function sourcesOf(store: FakeStore, chain: FakeChain) {
  const memory = memoryReceiptLog(() => store.receipts);
  let first = true;
  return async () => {
    if (first) for (const receipt of store.receipts) memory.append(receipt);
    first = false;
    await memory.log.checkpointNow();
    return { store, chain, receiptLog: memory.log };
  };
}

function explorer(store: FakeStore, chain: FakeChain, options: { report?: SchemaConformanceReport | undefined; chainBudgetMs?: number } = {}) {
  return createProofExplorer(sourcesOf(store, chain), { report: () => ('report' in options ? options.report : passingReport), chainBudgetMs: options.chainBudgetMs ?? 1000 });
}

describe('proof explorer', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists a stored testnet receipt as a proof whose every recomputed check passes, and counts it', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'testnet');
    const bundle = storedReceipt('testnet');
    store.receipts.push(bundle);
    chain.boxes.set(bundle.noteBoxId, boxOf(bundle));
    const board = proofExplorerSchema.parse(await explorer(store, chain).proofs());
    expect(board.summary).toMatchObject({ proof_count: 3, receipt_proofs: 1, conformance_proofs: 2, sandbox_receipts_excluded: 0, mainnet_gate_status: 'closed' });
    const proof = board.proofs.find((candidate) => candidate.id === bundle.receiptId)!;
    expect(proof.kind).toBe('testnet_receipt');
    expect(proof.checks.map((check) => check.id)).toEqual(expect.arrayContaining(['receipt_id', 'note_binding', 'task_hash_agrees', 'settlement_tx']));
    expect(proof.checks.filter((check) => !check.ok)).toEqual([]);
    expect(board.posture.mainnet_ready).toBe(false);
  });

  it('lists sandbox receipts apart and never counts them', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'sandbox');
    const bundle = storedReceipt('sandbox');
    store.receipts.push(bundle);
    chain.boxes.set(bundle.noteBoxId, boxOf(bundle));
    const board = proofExplorerSchema.parse(await explorer(store, chain).proofs());
    expect(board.summary.proof_count).toBe(2);
    expect(board.summary.receipt_proofs).toBe(0);
    expect(board.summary.sandbox_receipts_excluded).toBe(1);
    expect(board.proofs.map((proof) => proof.kind)).toEqual(['conformance', 'conformance']);
    expect(board.sandbox_receipts).toHaveLength(1);
    expect(board.sandbox_receipts[0]!.kind).toBe('sandbox_receipt');
    expect(board.sandbox_receipts[0]!.checks.every((check) => check.ok)).toBe(true);
  });

  it('fails the receipt id check of a bundle altered after its id was computed', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'testnet');
    const bundle = storedReceipt('testnet');
    chain.boxes.set(bundle.noteBoxId, boxOf(bundle));
    store.receipts.push({ ...bundle, issued_at: '2027-01-01T00:00:00.000Z' });
    const board = await explorer(store, chain).proofs();
    const failing = board.proofs[0]!.checks.filter((check) => !check.ok).map((check) => check.id);
    expect(failing).toEqual(['receipt_id']);
  });

  it('fails the settlement check when the chain disagrees with the bundle or does not know the Note', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'testnet');
    const moved = storedReceipt('testnet');
    const missing = storedReceipt('testnet');
    store.receipts.push(moved, missing);
    chain.boxes.set(moved.noteBoxId, boxOf(moved, { transactionId: hex32() }));
    const board = await explorer(store, chain).proofs();
    const settlement = (id: string) => board.proofs.find((proof) => proof.id === id)!.checks.find((check) => check.id === 'settlement_tx')!;
    expect(settlement(moved.receiptId)).toMatchObject({ ok: false });
    expect(settlement(moved.receiptId).detail).toContain(`not ${moved.settlementTxId}`);
    expect(settlement(missing.receiptId)).toMatchObject({ ok: false });
    expect(settlement(missing.receiptId).detail).toContain('does not know');
  });

  it('answers within the chain budget when the chain hangs, and asks the chain again next time', async () => {
    const store = new FakeStore();
    const bundle = storedReceipt('testnet');
    store.receipts.push(bundle);
    let reads = 0;
    const hanging = Object.assign(new FakeChain(1_100, 'testnet'), {
      getBox: () => {
        reads++;
        return new Promise<never>(() => undefined);
      },
    });
    const service = createProofExplorer(sourcesOf(store, hanging), { report: () => passingReport, chainBudgetMs: 200 });
    const started = performance.now();
    const board = await service.proofs();
    expect(performance.now() - started).toBeLessThan(1_000);
    const check = board.proofs[0]!.checks.find((item) => item.id === 'settlement_tx')!;
    expect(check.ok).toBe(false);
    expect(check.detail).toContain('200 ms');
    expect(reads).toBe(1);
  });

  it('names a failing chain source without what it said, and logs that once per reading with the request id', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const store = new FakeStore();
    store.receipts.push(storedReceipt('testnet'), storedReceipt('testnet'));
    const failure = new ChainUnavailableError('could not read box 00 from the explorer: connect ECONNREFUSED 10.0.0.7:8080');
    const down = Object.assign(new FakeChain(1_100, 'testnet'), { getBox: () => Promise.reject(failure) });
    const board = await createProofExplorer(sourcesOf(store, down), { report: () => passingReport }).proofs('req-9');
    const details = board.proofs.flatMap((proof) => proof.checks.filter((check) => check.id === 'settlement_tx').map((check) => check.detail));
    expect(details).toHaveLength(2);
    for (const detail of details) {
      expect(detail).toMatch(/testnet chain source could not be read/);
      expect(detail).not.toMatch(/ECONNREFUSED|10\.0\.0\.7|8080/);
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatchObject({ reqId: 'req-9', receipts: 2, err: failure });
  });

  it('checks each listed receipt, as stored now, for inclusion in the signed checkpoint, and the log against the store', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'testnet');
    const [first, second] = [storedReceipt('testnet'), storedReceipt('sandbox')];
    store.receipts.push(first, second);
    chain.boxes.set(first.noteBoxId, boxOf(first));
    const sources = sourcesOf(store, chain);
    const build = () => createProofExplorer(sources, { report: () => passingReport }).proofs();

    const board = proofExplorerSchema.parse(await build());
    const proof = board.proofs.find((candidate) => candidate.id === first.receiptId)!;
    expect(proof.log_index).toBe(0);
    expect(proof.checks.find((check) => check.id === 'log_inclusion')).toMatchObject({ ok: true, detail: expect.stringContaining('checks against the signed checkpoint of size 2') });
    expect(proof.checks.every((check) => check.ok)).toBe(true);
    expect(board.sandbox_receipts[0]!.log_index).toBe(1);
    expect(board.summary).toMatchObject({ receipts_in_checkpoint: 2, receipts_not_proven_in_log: 0 });
    expect(board.receipt_log).toMatchObject({ entries: 2, agrees: true, checkpoint: { size: 2 }, verifier_key: expect.stringMatching(/^example\.test\/api\/transparency\/receipts\+[0-9a-f]{8}\+/) });

    // Rewritten in the store after it was logged: the bundle still agrees with itself (resealed), not with its entry.
    const { receiptId: _old, ...rest } = { ...first, agreement: { ...first.agreement, priceNanoErg: '1' } };
    store.receipts[0] = { receiptId: computeReceiptId(rest), ...rest } as ReceiptBundle;
    const rewritten = proofExplorerSchema.parse(await build());
    expect(rewritten.receipt_log).toMatchObject({ agrees: false, detail: `The receipt store has no receipt for entry 0 of the log. Also, a listed receipt is not proven in the log: ${store.receipts[0]!.receiptId}.` });
    const resealed = rewritten.proofs.find((candidate) => candidate.kind === 'testnet_receipt')!;
    expect(resealed.log_index).toBeNull();
    expect(resealed.checks.find((check) => check.id === 'log_inclusion')).toEqual({ id: 'log_inclusion', ok: false, detail: 'This receipt has no entry in the receipt log.' });

    // The original back, the other receipt gone from the store.
    store.receipts.splice(0, 2, first);
    const deleted = proofExplorerSchema.parse(await build());
    expect(deleted.receipt_log).toMatchObject({ agrees: false, detail: 'The receipt store holds 1 receipt and the log 2 entries: receipts were removed after they were logged.' });
    expect(deleted.proofs.find((candidate) => candidate.id === first.receiptId)!.checks.find((check) => check.id === 'log_inclusion')!.ok).toBe(true);
  });

  it('does not say the log agrees when a listed receipt is not proven, though the counts are equal (one deleted, one unlogged stored)', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'sandbox');
    store.receipts.push(...Array.from({ length: 100 }, () => storedReceipt('sandbox')));
    const sources = sourcesOf(store, chain);
    const build = () => createProofExplorer(sources, { report: () => passingReport }).proofs();
    expect(proofExplorerSchema.parse(await build()).receipt_log.agrees).toBe(true);
    // Past the newest 16 entries, and read back by the rolling sample before it was deleted (0-63 first, 64-83 now): the count kept equal.
    const unlogged = storedReceipt('sandbox');
    store.receipts.splice(40, 1);
    store.receipts.push(unlogged);
    const board = proofExplorerSchema.parse(await build());
    expect(board.summary.receipts_not_proven_in_log).toBe(1);
    expect(board.receipt_log).toMatchObject({ agrees: false, detail: expect.stringContaining(`But a listed receipt is not proven in the log: ${unlogged.receiptId}.`) });
    expect(board.receipt_log.detail).toMatch(/^The checkpoint of size 100/);
  });

  it('says a receipt whose stored bytes changed under the same id no longer matches its entry', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'testnet');
    const bundle = storedReceipt('testnet');
    store.receipts.push(bundle);
    chain.boxes.set(bundle.noteBoxId, boxOf(bundle));
    const sources = sourcesOf(store, chain);
    await createProofExplorer(sources, { report: () => passingReport }).proofs();
    store.receipts[0] = { ...bundle, issued_at: '2020-01-01T00:00:00.000Z' };
    const board = proofExplorerSchema.parse(await createProofExplorer(sources, { report: () => passingReport }).proofs());
    const checks = board.proofs.find((candidate) => candidate.id === bundle.receiptId)!.checks;
    expect(checks.find((check) => check.id === 'log_inclusion')).toMatchObject({ ok: false, detail: expect.stringContaining('changed after it was recorded') });
    expect(board.summary.receipts_not_proven_in_log).toBe(1);
    expect(board.receipt_log).toMatchObject({ agrees: false, detail: expect.stringContaining('no longer hash to their logged leaves') });
  });

  it('lets the event loop turn while it builds, so a store that answers at once does not hold every other request for the whole build', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'testnet');
    for (let i = 0; i < 20; i++) {
      const bundle = storedReceipt('testnet');
      store.receipts.push(bundle);
      chain.boxes.set(bundle.noteBoxId, boxOf(bundle));
    }
    // Everything the build awaits answers at once here, as the embedded store does: the whole build once ran as microtasks.
    // How much runs between turns is loop-turns' (tests/unit/loop-turns.test.ts).
    const loop = loopIterations();
    const board = await explorer(store, chain).proofs();
    loop.stop();
    expect(board.summary.receipt_proofs).toBe(20);
    expect(loop.now()).toBeGreaterThanOrEqual(1);
  });

  it('remembers a fully verified receipt instead of reading the chain for it again', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'testnet');
    const bundle = storedReceipt('testnet');
    store.receipts.push(bundle);
    chain.boxes.set(bundle.noteBoxId, boxOf(bundle));
    const service = createProofExplorer(sourcesOf(store, chain), { report: () => passingReport });
    await service.proofs();
    const readsAfterFirst = chain.reads;
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    await service.proofs();
    expect(chain.reads).toBe(readsAfterFirst);
  }, 10_000);

  it('reads back and checks only the receipts whose stored text it has not checked, and still fails one changed in the store since', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = new FakeStore();
      const chain = new FakeChain(1_100, 'testnet');
      for (let i = 0; i < 5; i++) {
        const bundle = storedReceipt('testnet');
        store.receipts.push(bundle);
        chain.boxes.set(bundle.noteBoxId, boxOf(bundle));
      }
      let readBack = 0;
      const texts = store.listReceiptTexts.bind(store);
      vi.spyOn(store, 'listReceiptTexts').mockImplementation(async (limit) =>
        (await texts(limit)).map((stored) => ({ text: stored.text, bundle: () => (readBack++, stored.bundle()) })),
      );
      const service = explorer(store, chain);
      /** The next build's answer, once the shared one has aged out. */
      const rebuilt = async (before: { generated_at: string }) => {
        vi.setSystemTime(Date.now() + PROOFS_CACHE_SECONDS * 1000);
        await service.proofs();
        return vi.waitFor(async () => {
          const board = await service.proofs();
          expect(board.generated_at).not.toBe(before.generated_at);
          return proofExplorerSchema.parse(board);
        });
      };
      const first = proofExplorerSchema.parse(await service.proofs());
      expect(readBack).toBe(5);
      expect(first.proofs.filter((proof) => proof.kind === 'testnet_receipt').every((proof) => proof.checks.every((check) => check.ok))).toBe(true);

      const same = await rebuilt(first);
      expect(readBack).toBe(5);
      expect(same.proofs.map((proof) => proof.checks)).toEqual(first.proofs.map((proof) => proof.checks));

      // One byte of one stored receipt changed under the server: that text is new, read back and failed.
      const victim = store.receipts[2]!;
      store.receipts[2] = { ...victim, issued_at: victim.issued_at.replace(/.$/, (last) => (last === 'Z' ? 'Z ' : 'Z')) };
      const changed = await rebuilt(same);
      expect(readBack).toBe(6);
      const failing = changed.proofs.find((proof) => proof.id === victim.receiptId)!.checks.filter((check) => !check.ok).map((check) => check.id);
      expect(failing).toEqual(expect.arrayContaining(['receipt_id', 'log_inclusion']));
      expect(changed.proofs.filter((proof) => proof.id !== victim.receiptId && proof.kind === 'testnet_receipt').every((proof) => proof.checks.every((check) => check.ok))).toBe(true);

      // Put back as it was: the original text passes again.
      store.receipts[2] = victim;
      const restored = await rebuilt(changed);
      expect(restored.proofs.find((proof) => proof.id === victim.receiptId)!.checks.every((check) => check.ok)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a missing build report as a failing conformance check, and the report as given otherwise', async () => {
    const store = new FakeStore();
    const chain = new FakeChain(1_100, 'testnet');
    const missing = await explorer(store, chain, { report: undefined }).proofs();
    const schemas = missing.proofs.find((proof) => proof.id === 'published-schemas-validate-descriptors')!;
    expect(schemas.checks).toEqual([expect.objectContaining({ id: 'build_report', ok: false })]);
    const failing = await explorer(store, chain, { report: { ...passingReport, checks: [{ ...passingReport.checks[0]!, ok: false, detail: 'broken' }] } }).proofs();
    expect(failing.proofs.find((proof) => proof.id === 'published-schemas-validate-descriptors')!.checks).toEqual([{ id: 'jobs', ok: false, detail: 'broken' }]);
  });

  it('rejects while the store is down and tries again on the next call', async () => {
    const store = new FakeStore();
    store.unavailable = true;
    const service = explorer(store, new FakeChain(1_100, 'testnet'));
    await expect(service.proofs()).rejects.toBeInstanceOf(StoreUnavailableError);
    store.unavailable = false;
    await expect(service.proofs()).resolves.toMatchObject({ ok: true });
  });
  it('answers the previous proofs while the next are built, and once a build failed, its failure rather than an older answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = new FakeStore();
      const service = explorer(store, new FakeChain(1_100, 'testnet'));
      const first = await service.proofs();
      vi.setSystemTime(Date.now() + PROOFS_CACHE_SECONDS * 1000);
      let release: (() => void) | undefined;
      const list = store.listReceiptTexts.bind(store);
      vi.spyOn(store, 'listReceiptTexts').mockImplementationOnce(async (limit) => {
        await new Promise<void>((resolve) => (release = resolve));
        return list(limit);
      });
      // The build is held: the answer before it comes back at once, the same one.
      expect(await service.proofs()).toBe(first);
      await vi.waitFor(() => expect(release).toBeTypeOf('function'));
      release!();
      await new Promise((resolve) => setImmediate(resolve));
      await vi.waitFor(async () => expect((await service.proofs()).generated_at).not.toBe(first.generated_at));

      vi.setSystemTime(Date.now() + PROOFS_CACHE_SECONDS * 1000);
      store.unavailable = true;
      // The request that starts the build still gets the answer before it; once the build has failed, the failure is the answer.
      const stale = await service.proofs();
      await vi.waitFor(() => expect(service.proofs()).rejects.toBeInstanceOf(StoreUnavailableError));
      expect(stale.generated_at).not.toBe(first.generated_at);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('settlement check', () => {
  it('names every difference between the recorded Note and the chain', () => {
    const bundle = storedReceipt('testnet');
    const box = boxOf(bundle, { value: 1n, inclusionHeight: undefined, address: '3WxSomeoneElse' });
    const check = settlementCheck(bundle, box, { name: 'testnet', explorerUrl: 'http://explorer.test' });
    expect(check.ok).toBe(false);
    expect(check.detail).toContain('holds 1 nanoERG');
    expect(check.detail).toContain('unconfirmed');
    expect(check.detail).toContain('pays 3WxSomeoneElse');
  });
});

describe('policy engine conformance', () => {
  it('passes on this engine: the example allowed and each unsafe variant denied with its own reason', () => {
    const checks = policyConformanceChecks(new Date('2026-11-23T12:00:00Z'));
    expect(checks.map((check) => check.id)).toEqual(['example_allowed', 'over_cap_amount_denied', 'wrong_recipient_denied', 'stale_expiry_denied', 'missing_receipt_denied']);
    expect(checks.filter((check) => !check.ok)).toEqual([]);
  });

  it('fails a case when an engine allows an unsafe variant or denies for another reason', () => {
    const [example, overCap] = policyConformanceCases();
    expect(judgePolicyCase(overCap!, { allowed: true, summary: 'policy_allows_exact_testnet_action', reasons: [] }).ok).toBe(false);
    expect(judgePolicyCase(overCap!, { allowed: false, summary: 'policy_denies_action', reasons: [{ code: 'fee_over_max_fee' }] }).ok).toBe(false);
    expect(judgePolicyCase(example!, { allowed: false, summary: 'policy_denies_action', reasons: [{ code: 'recipient_not_allowed' }] }).ok).toBe(false);
  });
});
