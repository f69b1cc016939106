/**
 * The receipt log's read path serves the checkpoint and hash tiles from memory, as the static
 * descriptors are: a tile is read from the store once (its bytes never change), the checkpoint at
 * most once a second however many requests ask, and a checkpoint this instance signs is served at
 * once. Entry bundles are the receipts themselves: one read before is served again while the store's
 * log revision holds, and a receipt the store lost (which moves the revision, as the store's triggers
 * do) shows on the next read. A store that counts its reads stands in for the real one.
 */
import { generateKeyPairSync } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { hex } from '@fleet-sdk/crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry, ReceiptLogStore, StoredCheckpoint } from '../../src/domain/ports.ts';
import { appendHashes, appendReadIndexes, leafHash, storedHashIndex } from '../../src/domain/tlog/tree.ts';
import { createReceiptLog } from '../../src/services/receipt-log.ts';
import { encodeEntryBundle } from '../../src/domain/tlog/tiles.ts';
import { memoryKeptBundles } from '../helpers/memory-kept-bundles.ts';

function memoryLog(entries: string[]) {
  const hashes = new Map<number, Uint8Array>();
  const bytes = entries.map((text) => new TextEncoder().encode(text));
  bytes.forEach((entry, index) => {
    const stored = appendHashes(index, leafHash(entry), appendReadIndexes(index).map((at) => hashes.get(at)!));
    stored.forEach((hash, i) => hashes.set(storedHashIndex(0, index) + i, hash));
  });
  const checkpoints: StoredCheckpoint[] = [];
  const reads = { checkpoint: 0, hashes: 0, entries: 0, revision: 0 };
  const lost = new Set<number>();
  let revision = 0;
  const lose = (index: number) => {
    lost.add(index);
    revision++;
  };
  const kept = memoryKeptBundles();
  const store: ReceiptLogStore = {
    ...kept,
    logSize: async () => bytes.length,
    readLogHashes: async (indexes) => {
      reads.hashes++;
      return indexes.map((index) => hashes.get(index)!);
    },
    readLogEntries: async (start, end): Promise<LogEntry[]> => {
      reads.entries++;
      return bytes.slice(start, end).map((entry, i) => ({ index: start + i, receiptId: `r${start + i}`, bytes: lost.has(start + i) ? undefined : entry }));
    },
    logIndexOf: async (receiptId) => (/^r\d+$/.test(receiptId) && Number(receiptId.slice(1)) < bytes.length ? Number(receiptId.slice(1)) : undefined),
    latestCheckpoint: async () => {
      reads.checkpoint++;
      return checkpoints.at(-1);
    },
    saveCheckpoint: async (checkpoint) => void checkpoints.push(checkpoint),
    appendUnloggedReceipts: async () => 0,
    countReceipts: async () => bytes.length - lost.size,
    logRevision: async () => {
      reads.revision++;
      return String(revision);
    },
  };
  const { privateKey } = generateKeyPairSync('ed25519');
  const open = () => createReceiptLog(store, privateKey, { origin: 'example.test/receipts', checkpointIntervalSeconds: 5 });
  // `open` is another instance on the same store (or this one after a restart): nothing in its memory.
  return { log: open(), open, reads, lose, kept: kept.kept };
}

afterEach(() => vi.useRealTimers());

describe('the receipt log read path, from memory', () => {
  it('reads a hash tile from the store once, and the checkpoint at most once a second', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { log, reads } = memoryLog(['a', 'b', 'c']);
    const signed = await log.checkpointNow();
    expect(signed?.size).toBe(3);
    const before = { ...reads };
    const answers = await Promise.all(Array.from({ length: 20 }, () => log.tile('0/000.p/3')));
    await log.checkpoint();
    expect(answers.every((answer) => answer.ok && hex.encode(answer.bytes) === hex.encode((answers[0] as { bytes: Uint8Array }).bytes))).toBe(true);
    expect(reads.checkpoint - before.checkpoint).toBe(0);
    expect(reads.hashes - before.hashes).toBeLessThanOrEqual(20);
    const afterFirst = reads.hashes;
    await log.tile('0/000.p/3');
    expect(reads.hashes).toBe(afterFirst);

    vi.advanceTimersByTime(1_500);
    await Promise.all([log.checkpoint(), log.checkpoint(), log.tile('0/000.p/2')]);
    expect(reads.checkpoint - before.checkpoint).toBe(1);
  });

  it('reads an entry bundle again only when the log revision moved, so a receipt the store lost is named on the next read', async () => {
    const { log, reads, lose } = memoryLog(['a', 'b', 'c']);
    await log.checkpointNow();
    // Signing read the new entries once, to hash their leaves from the receipts.
    expect(reads.entries).toBe(1);
    const answers = await Promise.all(Array.from({ length: 5 }, () => log.tile('entries/000.p/3')));
    expect(answers.every((answer) => answer.ok)).toBe(true);
    // Five requests at once for a bundle not kept: one read of the store.
    expect(reads.entries).toBe(2);
    const readsWhileKept = reads.entries;
    await log.tile('entries/000.p/3');
    expect(reads.entries).toBe(readsWhileKept);
    expect(reads.revision).toBe(6);
    lose(1);
    const answer = await log.tile('entries/000.p/3');
    expect(answer).toMatchObject({ ok: false, status: 503, missingIndexes: [1] });
    expect(reads.entries).toBe(readsWhileKept + 1);
  });

  it('sends a large bundle gzipped to every client (no answer of the log passes 1 MiB), gzipped once, kept while the revision holds, and withholds it once a receipt is lost', async () => {
    const entries = ['a', 'b', 'c'].map((letter) => `{"r":"${letter.repeat(40_000)}"}`);
    const { log, reads, lose } = memoryLog(entries);
    await log.checkpointNow();
    const signing = reads.entries;
    const zipped = await Promise.all(Array.from({ length: 4 }, () => log.tile('entries/000.p/3')));
    const plain = encodeEntryBundle(entries.map((entry) => new TextEncoder().encode(entry)));
    for (const answer of zipped) {
      expect(answer).toMatchObject({ ok: true, encoding: 'gzip' });
      expect(hex.encode(gunzipSync((answer as { bytes: Uint8Array }).bytes))).toBe(hex.encode(plain));
      expect((answer as { bytes: Uint8Array }).bytes.length).toBeLessThan(plain.length / 10);
    }
    expect(reads.entries).toBe(signing + 1);
    // A small bundle is sent as it is.
    const small = memoryLog(['a', 'b']);
    await small.log.checkpointNow();
    expect(await small.log.tile('entries/000.p/2')).not.toHaveProperty('encoding');
    lose(2);
    expect(await log.tile('entries/000.p/3')).toMatchObject({ ok: false, status: 503, missingIndexes: [2] });
  });

  /** 600 entries of 300 bytes: two full bundles of about 77 KB, gzipped when asked, and a partial one. */
  const longLog = () => memoryLog(Array.from({ length: 600 }, (_, i) => `{"r":${i},"text":"${'x'.repeat(280)}"}`));

  it('keeps a full bundle\'s gzip in the store once made: another instance, or a restart, serves it without reading the receipts', async () => {
    const { log, open, reads, kept } = longLog();
    await log.checkpointNow();
    const first = await log.tile('entries/001');
    expect(first).toMatchObject({ ok: true, encoding: 'gzip', full: true });
    expect([...kept.keys()]).toEqual([1]);
    const readsBefore = reads.entries;
    const other = open();
    await other.checkpointNow();
    const again = await other.tile('entries/001');
    expect(hex.encode((again as { bytes: Uint8Array }).bytes)).toBe(hex.encode((first as { bytes: Uint8Array }).bytes));
    expect(reads.entries).toBe(readsBefore);
    // The partial bundle is never kept: it grows.
    await other.tile('entries/002.p/88');
    expect([...kept.keys()]).toEqual([1]);
  });

  it('makes a kept bundle again once the log revision moved, so a receipt lost since shows', async () => {
    const { log, open, lose, kept } = longLog();
    await log.checkpointNow();
    await log.tile('entries/000');
    lose(7);
    const other = open();
    await other.checkpointNow();
    expect(await other.tile('entries/000')).toMatchObject({ ok: false, status: 503, missingIndexes: [7] });
    expect(kept.get(0)?.revision).toBe('0');
  });

  it('keeps every full bundle not kept, newest first and within its limit, as the checkpointer asks each round', async () => {
    const { log, open, reads, kept } = longLog();
    await log.checkpointNow();
    expect(await log.keepBundles(1)).toBe(1);
    expect([...kept.keys()]).toEqual([1]);
    expect(await log.keepBundles(5)).toBe(1);
    expect([...kept.keys()].sort()).toEqual([0, 1]);
    expect(await log.keepBundles(5)).toBe(0);
    const readsBefore = reads.entries;
    const other = open();
    await other.checkpointNow();
    for (const n of ['000', '001']) expect(gunzipSync(((await other.tile(`entries/${n}`)) as { bytes: Uint8Array }).bytes).length).toBeGreaterThan(256 * 290);
    expect(reads.entries).toBe(readsBefore);
  });

  it('does not answer a tile beyond the checkpoint from memory', async () => {
    const { log } = memoryLog(['a', 'b', 'c']);
    expect(await log.tile('0/000.p/3')).toMatchObject({ ok: false, status: 404 });
    await log.checkpointNow();
    expect((await log.tile('0/000.p/3')).ok).toBe(true);
    expect(await log.tile('0/000.p/4')).toMatchObject({ ok: false, status: 404 });
  });
});

describe('a stored receipt and the next checkpoint', () => {
  it('signs one at once when the newest is older than the interval, and leaves a fresh one to the checkpointer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { log } = memoryLog(['a', 'b']);
    log.receiptStored();
    await vi.waitFor(async () => expect((await log.checkpoint())?.size).toBe(2));
    const first = await log.checkpoint();
    // A receipt right after: the checkpoint is fresh, so none is signed now.
    log.receiptStored();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await log.checkpoint()).toBe(first);
  });
});
