/**
 * The receipt log over memory, for unit tests of what reads it (the proof explorer, live status):
 * `append` logs a receipt as settlePayment does (its leaf from its entry bytes then, the tree's
 * stored hashes kept), and entries are read back from `receipts()`, the receipts as a store holds
 * them now, so a receipt removed or rewritten there shows as it would on a real store.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import type { LogEntry, ReceiptLogStore, StoredCheckpoint } from '../../src/domain/ports.ts';
import { receiptLogEntry } from '../../src/domain/receipt-log-entry.ts';
import { appendHashes, appendReadIndexes, leafHash, storedHashIndex, type Hash } from '../../src/domain/tlog/tree.ts';
import { createReceiptLog, type ReceiptLog } from '../../src/services/receipt-log.ts';
import { memoryKeptBundles } from './memory-kept-bundles.ts';

export interface MemoryReceiptLog {
  log: ReceiptLog;
  store: ReceiptLogStore;
  append(bundle: ReceiptBundle): number;
}

export function memoryReceiptLog(receipts: () => readonly ReceiptBundle[], origin = 'example.test/api/transparency/receipts'): MemoryReceiptLog {
  const hashes = new Map<number, Hash>();
  const ids: string[] = [];
  const checkpoints: StoredCheckpoint[] = [];
  const bytesOf = (receiptId: string) => {
    const found = receipts().find((receipt) => receipt.receiptId === receiptId);
    return found ? receiptLogEntry(found) : undefined;
  };
  const store: ReceiptLogStore = {
    logSize: async () => ids.length,
    readLogHashes: async (indexes) =>
      indexes.map((index) => {
        const hash = hashes.get(index);
        if (!hash) throw new Error(`stored hash ${index} is missing`);
        return hash;
      }),
    readLogEntries: async (start, end): Promise<LogEntry[]> => ids.slice(start, end).map((receiptId, i) => ({ index: start + i, receiptId, bytes: bytesOf(receiptId) })),
    logIndexOf: async (receiptId) => {
      const index = ids.indexOf(receiptId);
      return index < 0 ? undefined : index;
    },
    latestCheckpoint: async () => checkpoints.at(-1),
    saveCheckpoint: async (checkpoint) => {
      const same = checkpoints.findIndex((kept) => kept.size === checkpoint.size);
      if (same < 0) checkpoints.push(checkpoint);
      else if (checkpoints[same]!.rootHex === checkpoint.rootHex) checkpoints[same] = checkpoint;
    },
    appendUnloggedReceipts: async () => 0,
    countReceipts: async () => receipts().length,
    // The receipts as they are now: any rewrite or removal changes it, as the store's triggers do.
    logRevision: async () => createHash('sha256').update(JSON.stringify(receipts())).digest('hex'),
    ...memoryKeptBundles(),
  };
  const append = (bundle: ReceiptBundle) => {
    const index = ids.length;
    const stored = appendHashes(index, leafHash(receiptLogEntry(bundle)), appendReadIndexes(index).map((at) => hashes.get(at)!));
    stored.forEach((hash, i) => hashes.set(storedHashIndex(0, index) + i, hash));
    ids.push(bundle.receiptId);
    return index;
  };
  const { privateKey } = generateKeyPairSync('ed25519');
  return { log: createReceiptLog(store, privateKey, { origin, checkpointIntervalSeconds: 5 }), store, append };
}
