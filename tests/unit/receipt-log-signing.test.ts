/**
 * The log signs only a tree that extends the last one it signed, kept outside the store (issue 51):
 * each attack an operator's database allows is tried on a store held in memory, as the adversarial
 * review tried it on a real one. A receipt rewritten with its stored hashes recomputed, a restored
 * older copy of the store, a store signed by another key, a new entry's receipt changed or lost, a
 * stored hash that is not its receipts': each refuses the next signature, with a reason naming the
 * sizes, turns the health probe down and names the refusal to whoever settles payments, and clears
 * once the store again extends what was signed.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hex } from '@fleet-sdk/crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { LogEntry, ReceiptLogStore, StoredCheckpoint } from '../../src/domain/ports.ts';
import { formatVerifierKey, openCheckpoint, rawPublicKey } from '../../src/domain/tlog/note.ts';
import { extendsSigned, keptHistory, nextTree, storeBehind } from '../../src/domain/tlog/signing-rule.ts';
import { appendHashes, appendReadIndexes, EMPTY_TREE_HASH, leafHash, rootFromSubtrees, storedHashIndex, treeHashIndexes } from '../../src/domain/tlog/tree.ts';
import { createReceiptLog, LogForkError, type ReceiptLog } from '../../src/services/receipt-log.ts';
import { signedCheckpointFile, signedCheckpointInMemory, type SignedCheckpointKeeper } from '../../src/services/signed-checkpoint-file.ts';
import { memoryKeptBundles } from '../helpers/memory-kept-bundles.ts';

const ORIGIN = 'example.test/api/transparency/receipts';
const encode = (text: string) => new TextEncoder().encode(text);

/** A receipt store in memory: receipts by entry, the tree's stored hashes, the signed checkpoints; `copy` and `restore` as a backup would. */
function memoryStore(receipts: string[] = []) {
  const state = { receipts: [...receipts] as Array<string | undefined>, hashes: new Map<number, Uint8Array>(), checkpoints: [] as StoredCheckpoint[] };
  const hashEntry = (index: number, text: string) => {
    const stored = appendHashes(index, leafHash(encode(text)), appendReadIndexes(index).map((at) => state.hashes.get(at)!));
    stored.forEach((hash, i) => state.hashes.set(storedHashIndex(0, index) + i, hash));
  };
  state.receipts.forEach((text, index) => hashEntry(index, text!));
  const store: ReceiptLogStore = {
    ...memoryKeptBundles(),
    logSize: async () => state.receipts.length,
    readLogHashes: async (indexes) =>
      indexes.map((index) => {
        const hash = state.hashes.get(index);
        if (!hash) throw new Error(`stored hash ${index} is missing`);
        return hash;
      }),
    readLogEntries: async (start, end): Promise<LogEntry[]> =>
      state.receipts.slice(start, end).map((text, i) => ({ index: start + i, receiptId: `r${start + i}`, bytes: text === undefined ? undefined : encode(text) })),
    logIndexOf: async (receiptId) => {
      const index = Number(/^r(\d+)$/.exec(receiptId)?.[1] ?? NaN);
      return index < state.receipts.length ? index : undefined;
    },
    latestCheckpoint: async () => state.checkpoints.at(-1),
    saveCheckpoint: async (checkpoint) => {
      const same = state.checkpoints.findIndex((kept) => kept.size === checkpoint.size);
      if (same < 0) state.checkpoints.push(checkpoint);
      else if (state.checkpoints[same]!.rootHex === checkpoint.rootHex) state.checkpoints[same] = checkpoint;
      state.checkpoints.sort((a, b) => a.size - b.size);
    },
    appendUnloggedReceipts: async () => 0,
    countReceipts: async () => state.receipts.filter((text) => text !== undefined).length,
    logRevision: async () => String(state.receipts.join('|').length),
  };
  return {
    store,
    state,
    /** A receipt settled: its entry appended with its hashes, as settlePayment does. */
    append(text: string) {
      hashEntry(state.receipts.length, text);
      state.receipts.push(text);
    },
    /** The attack: a receipt rewritten, every stored hash recomputed from the receipts as they are now. */
    rewrite(index: number, text: string) {
      state.receipts[index] = text;
      state.hashes.clear();
      state.receipts.forEach((receipt, at) => hashEntry(at, receipt!));
    },
    copy: () => ({ receipts: [...state.receipts], hashes: new Map(state.hashes), checkpoints: [...state.checkpoints] }),
    restore(copy: { receipts: Array<string | undefined>; hashes: Map<number, Uint8Array>; checkpoints: StoredCheckpoint[] }) {
      state.receipts = [...copy.receipts];
      state.hashes = new Map(copy.hashes);
      state.checkpoints = [...copy.checkpoints];
    },
  };
}

type MemoryStore = ReturnType<typeof memoryStore>;

function logOver(memory: MemoryStore, key: KeyObject = generateKeyPairSync('ed25519').privateKey, keeper: SignedCheckpointKeeper = signedCheckpointInMemory()): ReceiptLog {
  return createReceiptLog(memory.store, key, { origin: ORIGIN, checkpointIntervalSeconds: 5 }, keeper);
}

/** The refusal checkpointNow throws, or a failure of the test when it signs. */
async function refusal(log: ReceiptLog) {
  const error = await log.checkpointNow().then(
    (signed) => new Error(`signed size ${signed?.size}`),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LogForkError);
  return (error as LogForkError).fork;
}

const receipts = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `{"receipt":${from + i}}`);

describe('the log signs only what extends what it signed', () => {
  it('signs a size-0 checkpoint for an empty log, then each size as the log grows', async () => {
    const memory = memoryStore();
    const log = logOver(memory);
    const empty = await log.checkpointNow();
    expect({ size: empty?.size, root: empty?.rootHex }).toEqual({ size: 0, root: hex.encode(EMPTY_TREE_HASH) });
    expect(openCheckpoint(empty!.note, log.verifierKey, ORIGIN).ok).toBe(true);
    for (const text of receipts(3)) memory.append(text);
    expect((await log.checkpointNow())?.size).toBe(3);
    expect(await log.signingRefused()).toBeUndefined();
  });

  it('refuses to sign over a receipt rewritten with its stored hashes recomputed, names both roots, and turns the probe down', async () => {
    const memory = memoryStore(receipts(26));
    const log = logOver(memory);
    const signed = await log.checkpointNow();
    memory.rewrite(3, '{"receipt":"rewritten"}');
    memory.append('{"receipt":26}');
    const fork = await refusal(log);
    expect(fork.code).toBe('history_rewritten');
    expect(fork.reason).toContain(`size 26 was signed with root ${signed!.rootHex}`);
    expect(memory.state.checkpoints.map((checkpoint) => checkpoint.size)).toEqual([26]);
    expect((await log.signingRefused())?.code).toBe('history_rewritten');
    const health = await log.health();
    expect({ ok: health.ok, status: health.status }).toEqual({ ok: false, status: 'not_signing' });
    expect(health.detail).toContain('size 26 was signed');
  });

  it('refuses a restored older copy of the store, and never signs its size twice with another root', async () => {
    const memory = memoryStore(receipts(26));
    const keeper = signedCheckpointInMemory();
    const log = logOver(memory, undefined, keeper);
    await log.checkpointNow();
    const backup = memory.copy();
    memory.append('{"receipt":26}');
    memory.append('{"receipt":27}');
    const signed = await log.checkpointNow();
    expect(signed?.size).toBe(28);
    memory.restore(backup);
    expect(await refusal(log)).toMatchObject({ code: 'store_behind' });
    expect((await refusal(log)).reason).toContain('the store holds 26 entries, but the log already signed size 28');
    // The restored store settles two other payments: size 28 again, with other receipts.
    memory.append('{"receipt":"second sale"}');
    memory.append('{"receipt":"another"}');
    expect(await refusal(log)).toMatchObject({ code: 'history_rewritten' });
    expect(memory.state.checkpoints.map((checkpoint) => checkpoint.size)).toEqual([26]);
    expect(openCheckpoint(keeper.read()!, log.verifierKey, ORIGIN)).toMatchObject({ ok: true, checkpoint: { size: 28 } });
  });

  it('refuses at once in a new process: the last signed checkpoint is read from its file, not the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-state-'));
    try {
      const file = join(dir, 'log-signed-checkpoint');
      const key = generateKeyPairSync('ed25519').privateKey;
      const memory = memoryStore(receipts(4));
      const backup = memory.copy();
      memory.append('{"receipt":4}');
      await logOver(memory, key, signedCheckpointFile(file)).checkpointNow();
      expect(openCheckpoint(readFileSync(file, 'utf8'), formatVerifierKey(ORIGIN, rawPublicKey(key)), ORIGIN)).toMatchObject({ ok: true, checkpoint: { size: 5 } });
      memory.restore(backup);
      const restarted = logOver(memory, key, signedCheckpointFile(file));
      expect(await refusal(restarted)).toMatchObject({ code: 'store_behind' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a store whose checkpoints another key signed, naming both keys', async () => {
    const memory = memoryStore(receipts(2));
    const theirs = logOver(memory);
    await theirs.checkpointNow();
    const ours = logOver(memory);
    const fork = await refusal(ours);
    expect(fork.code).toBe('foreign_key');
    expect(fork.reason).toContain(ours.verifierKey);
    expect(fork.reason).toContain(theirs.verifierKey.split('+').slice(0, 2).join('+'));
  });

  it('takes a newer checkpoint another instance signed with the same key once it extends its own, and refuses one that does not', async () => {
    const memory = memoryStore(receipts(5));
    const key = generateKeyPairSync('ed25519').privateKey;
    const [keeperA, keeperB] = [signedCheckpointInMemory(), signedCheckpointInMemory()];
    const a = logOver(memory, key, keeperA);
    const b = logOver(memory, key, keeperB);
    await a.checkpointNow();
    memory.append('{"receipt":5}');
    expect((await b.checkpointNow())?.size).toBe(6);
    memory.append('{"receipt":6}');
    expect((await a.checkpointNow())?.size).toBe(7);
    expect(openCheckpoint(keeperA.read()!, a.verifierKey, ORIGIN)).toMatchObject({ checkpoint: { size: 7 } });
    // B's last is 6; the store's 7 is A's. A store rewritten under both still fails B's consistency check.
    memory.rewrite(5, '{"receipt":"rewritten"}');
    expect(await refusal(b)).toMatchObject({ code: 'not_consistent' });
  });

  it('stores a checkpoint it kept but did not store (a stop between the two), without a refusal', async () => {
    const memory = memoryStore(receipts(3));
    const keeper = signedCheckpointInMemory();
    const log = logOver(memory, undefined, keeper);
    await log.checkpointNow();
    const before = memory.copy();
    memory.append('{"receipt":3}');
    await log.checkpointNow();
    // The store lost only the checkpoint row: its entries are all there.
    memory.state.checkpoints = before.checkpoints;
    expect((await log.checkpointNow())?.size).toBe(4);
    expect(memory.state.checkpoints.map((checkpoint) => checkpoint.size)).toEqual([3, 4]);
  });

  it('keeps a checkpoint before it publishes it: one it could not keep is never stored', async () => {
    const memory = memoryStore(receipts(2));
    const keeper = { where: 'a full disk', read: () => undefined, write: () => { throw new Error('ENOSPC'); } };
    await expect(logOver(memory, undefined, keeper).checkpointNow()).rejects.toThrow('ENOSPC');
    expect(memory.state.checkpoints).toEqual([]);
  });

  it('recomputes each new leaf from its receipt: a new entry\'s receipt changed, or lost, is not signed over', async () => {
    const memory = memoryStore(receipts(4));
    const log = logOver(memory);
    await log.checkpointNow();
    memory.append('{"receipt":4}');
    memory.append('{"receipt":5}');
    memory.state.receipts[5] = '{"receipt":"changed after it was logged"}';
    const changed = await refusal(log);
    expect(changed).toMatchObject({ code: 'entry_rewritten' });
    expect(changed.reason).toContain('entry 5');
    memory.state.receipts[5] = undefined;
    expect(await refusal(log)).toMatchObject({ code: 'entry_missing', reason: expect.stringContaining('entry 5 has no receipt') });
    // Put back as it was logged: the log signs again, and settlements are no longer refused.
    memory.state.receipts[5] = '{"receipt":5}';
    expect((await log.checkpointNow())?.size).toBe(6);
    expect(await log.signingRefused()).toBeUndefined();
    expect((await log.health()).status).not.toBe('not_signing');
  });

  it('refuses to sign when the stored hashes tiles and proofs are served from are not the receipts\'', async () => {
    const memory = memoryStore(receipts(4));
    const log = logOver(memory);
    await log.checkpointNow();
    memory.append('{"receipt":4}');
    memory.append('{"receipt":5}');
    // The subtree of entries 4 and 5, stored at level 1.
    memory.state.hashes.set(storedHashIndex(1, 2), new Uint8Array(32).fill(7));
    expect(await refusal(log)).toMatchObject({ code: 'stored_hashes_wrong' });
  });

  it('answers a settlement\'s question from the last round, and runs one when none ran lately', async () => {
    const memory = memoryStore(receipts(3));
    const log = logOver(memory);
    await log.checkpointNow();
    const backup = memory.copy();
    memory.append('{"receipt":3}');
    await log.checkpointNow();
    memory.restore(backup);
    // The last round signed; a round two intervals ago would be run again, and this one is recent.
    expect(await log.signingRefused()).toBeUndefined();
    const fresh = logOver(memory, undefined, signedCheckpointInMemory());
    expect(await fresh.signingRefused()).toMatchObject({ code: 'foreign_key' });
  });
});

describe('the live probe reads leaves, not counts', () => {
  it('reads back a slice of older entries each round, so a rewritten or lost old receipt shows within a day, until it is read back right', async () => {
    const memory = memoryStore(receipts(200));
    const log = logOver(memory);
    await log.checkpointNow();
    expect((await log.health()).detail).toMatch(/the newest 16 hash to their leaves\.$/);
    await log.audit();
    expect(await log.health()).toMatchObject({ ok: true, detail: expect.stringContaining('as did entries 0-63 in the rolling audit that reads the whole log daily') });
    await log.audit();
    expect((await log.health()).detail).toContain('entries 64-127');
    // Entries 20 and 30, older than the newest 16, rewritten in place and removed: the counts stay equal.
    memory.state.receipts[20] = '{"receipt":"rewritten"}';
    await log.audit();
    expect((await log.health()).detail).toContain('entries 128-191');
    await log.audit();
    // The audit starts over from entry 0.
    await log.audit();
    expect(await log.health()).toMatchObject({ ok: false, status: 'entry_mismatch', detail: expect.stringContaining('entry 20') });
    memory.state.receipts[30] = undefined;
    await log.audit();
    await log.audit();
    await log.audit();
    await log.audit();
    // A removal changes the counts first; the audit names the entry too, once the counts agree.
    expect(await log.health()).toMatchObject({ ok: false, status: 'count_mismatch' });
    // Put back as logged: the next pass over them clears the finding.
    memory.state.receipts[20] = '{"receipt":20}';
    memory.state.receipts[30] = '{"receipt":30}';
    for (let round = 0; round < 4; round++) await log.audit();
    expect(await log.health()).toMatchObject({ ok: true });
  });

  it('reads a larger slice of a larger log, so a day of rounds covers all of it', async () => {
    const memory = memoryStore(receipts(20_000));
    const log = createReceiptLog(memory.store, generateKeyPairSync('ed25519').privateKey, { origin: ORIGIN, checkpointIntervalSeconds: 3_600 });
    // Signed in steps of 4,096 new entries, each leaf recomputed from its receipt.
    while ((await log.checkpointNow())!.size < 20_000);
    await log.audit();
    // One round an hour: 24 rounds a day, 20,000 / 24 = 834, capped at 512.
    expect((await log.health()).detail).toContain('entries 0-511');
  });
});

describe('a receipt\'s proof', () => {
  it('is not served for a receipt the store no longer holds, though its entry is logged', async () => {
    const memory = memoryStore(receipts(3));
    const log = logOver(memory);
    await log.checkpointNow();
    expect(await log.proofOf('r1')).toMatchObject({ status: 'proved', index: 1 });
    memory.state.receipts[1] = undefined;
    expect(await log.proofOf('r1')).toEqual({ status: 'gone', index: 1 });
    expect(await log.proofOf('r7')).toEqual({ status: 'unlogged' });
  });
});

describe('the signing rule, pure', () => {
  const tree = (texts: string[]) => {
    const memory = memoryStore(texts);
    return { memory, root: rootFromSubtrees(treeHashIndexes(texts.length).map((index) => memory.state.hashes.get(index)!)) };
  };

  it('says a store is behind only below the signed size', () => {
    const signed = { size: 5, root: EMPTY_TREE_HASH };
    expect(storeBehind(signed, 5)).toBeNull();
    expect(storeBehind(signed, 6)).toBeNull();
    expect(storeBehind(signed, 4)).toMatchObject({ code: 'store_behind', reason: expect.stringContaining('holds 4 entries') });
  });

  it('keeps a history only under the signed root', () => {
    const { memory, root } = tree(receipts(5));
    const subtrees = treeHashIndexes(5).map((index) => memory.state.hashes.get(index)!);
    expect(keptHistory({ size: 5, root }, subtrees)).toBeNull();
    expect(keptHistory({ size: 5, root: EMPTY_TREE_HASH }, subtrees)).toMatchObject({ code: 'history_rewritten' });
  });

  it('accepts a newer tree only with a consistency proof from the older', () => {
    const older = tree(receipts(3));
    const newer = tree(receipts(7));
    expect(extendsSigned({ size: 3, root: older.root }, { size: 7, root: newer.root }, [])).toMatchObject({ code: 'not_consistent', reason: expect.stringContaining('size 7 does not extend the signed size 3') });
    expect(extendsSigned({ size: 7, root: newer.root }, { size: 7, root: newer.root }, [])).toBeNull();
  });

  it('appends each new leaf to the signed tree and compares the root the store\'s hashes make', () => {
    const texts = receipts(6);
    const { memory, root } = tree(texts.slice(0, 3));
    const whole = tree(texts);
    const input = {
      signed: { size: 3, root },
      signedSubtrees: treeHashIndexes(3).map((index) => memory.state.hashes.get(index)!),
      entries: texts.slice(3).map(encode),
      storedLeaves: texts.slice(3).map((text) => leafHash(encode(text))),
      storedRoot: whole.root,
    };
    expect(nextTree(input)).toEqual({ ok: true, tree: { size: 6, root: whole.root } });
    expect(nextTree({ ...input, storedRoot: root })).toMatchObject({ ok: false, fork: { code: 'stored_hashes_wrong' } });
    expect(() => nextTree({ ...input, storedLeaves: [] })).toThrow(RangeError);
  });
});
