/**
 * What the site checks of its own receipt log, pure (src/domain/tlog/audit.ts): a receipt's
 * inclusion in the signed checkpoint as it is stored now, and the log's health as the live probe
 * reports it. Each failure the probe can report is produced here from a real signed checkpoint.
 */
import { describe, expect, it } from 'vitest';
import { inclusionCheck, judgeLogHealth, type LogHealthInput } from '../../src/domain/tlog/audit.ts';
import { formatCheckpoint, formatVerifierKey, generateNoteKey, signCheckpoint } from '../../src/domain/tlog/note.ts';
import { inclusionProof, inclusionProofIndexes } from '../../src/domain/tlog/proofs.ts';
import { appendHashes, appendReadIndexes, leafHash, rootFromSubtrees, storedHashIndex, treeHashIndexes, type Hash } from '../../src/domain/tlog/tree.ts';

const ORIGIN = 'example.test/api/transparency/receipts';
const entries = ['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}', '{"e":5}'].map((text) => new TextEncoder().encode(text));
const hashes = new Map<number, Hash>();
entries.forEach((entry, index) => appendHashes(index, leafHash(entry), appendReadIndexes(index).map((at) => hashes.get(at)!)).forEach((hash, i) => hashes.set(storedHashIndex(0, index) + i, hash)));
const read = (indexes: number[]) => indexes.map((index) => hashes.get(index)!);
const root = rootFromSubtrees(read(treeHashIndexes(entries.length)));
const key = generateNoteKey();
const verifierKey = formatVerifierKey(ORIGIN, key.publicKey);
const note = signCheckpoint(formatCheckpoint({ origin: ORIGIN, size: entries.length, root }), key.privateKey, ORIGIN);
const now = new Date('2026-11-28T12:00:00.000Z');

function healthy(): LogHealthInput {
  return {
    checkpoint: { note, size: entries.length, issuedAt: new Date(now.getTime() - 3_000) },
    verifierKey,
    origin: ORIGIN,
    logSize: entries.length,
    receiptCount: entries.length,
    newest: entries.map((bytes, index) => ({ index, receiptId: `r${index}`, bytes, leaf: hashes.get(storedHashIndex(0, index))! })),
    now,
    freshSeconds: 15,
  };
}

describe('inclusionCheck', () => {
  const proofOf = (index: number) => inclusionProof(index, entries.length, read(inclusionProofIndexes(index, entries.length)));
  it('passes for each entry as logged, against the signed tree', () => {
    entries.forEach((entry, index) => expect(inclusionCheck(entry, index, { size: entries.length, root }, proofOf(index))).toMatchObject({ state: 'included', index, check: { id: 'log_inclusion', ok: true } }));
  });
  it('fails for bytes other than the logged ones, for a receipt without an entry, and waits for a checkpoint that covers the entry', () => {
    expect(inclusionCheck(entries[1]!, 2, { size: entries.length, root }, proofOf(2))).toMatchObject({ state: 'mismatch', check: { ok: false, detail: expect.stringContaining('changed after it was recorded') } });
    expect(inclusionCheck(entries[0]!, undefined, { size: entries.length, root }, undefined)).toMatchObject({ state: 'not_logged', index: null, check: { ok: false } });
    expect(inclusionCheck(entries[4]!, 4, { size: 4, root }, undefined)).toMatchObject({ state: 'pending', index: 4, check: { ok: false, detail: expect.stringContaining('no signed checkpoint includes it yet') } });
    expect(inclusionCheck(entries[0]!, 0, undefined, undefined).state).toBe('pending');
  });
});

describe('judgeLogHealth', () => {
  it('is consistent when the checkpoint verifies, is fresh, and the store holds exactly the logged receipts', () => {
    expect(judgeLogHealth(healthy())).toMatchObject({ ok: true, status: 'consistent', entries: 5, checkpoint: { size: 5, issuedAt: '2026-11-28T11:59:57.000Z' } });
  });

  it('reports what the rolling audit found among older entries, with the counts equal, and names the slice it read when all is well', () => {
    const audit = { from: 0, to: 3, missing: [] as number[], changed: [] as number[] };
    expect(judgeLogHealth({ ...healthy(), audit })).toMatchObject({ ok: true, detail: expect.stringContaining('as did entries 0-2 in the rolling audit') });
    expect(judgeLogHealth({ ...healthy(), audit: { ...audit, missing: [1] } })).toMatchObject({ ok: false, status: 'receipt_missing', detail: 'The receipt store has no receipt for entry 1 of the log.' });
    expect(judgeLogHealth({ ...healthy(), audit: { ...audit, changed: [2, 0] } })).toMatchObject({ ok: false, status: 'entry_mismatch', detail: expect.stringContaining('entries 0, 2') });
  });

  it('names each way the log and the store can disagree', () => {
    const other = formatVerifierKey(ORIGIN, generateNoteKey().publicKey);
    const cases: Array<[Partial<LogHealthInput>, string, RegExp]> = [
      [{ checkpoint: undefined }, 'unsigned', /no signed checkpoint/],
      [{ verifierKey: other }, 'bad_signature', /does not verify with the published key/],
      [{ logSize: 7, receiptCount: 7, checkpoint: { note, size: 5, issuedAt: new Date(now.getTime() - 60_000) } }, 'stale', /is 60 s old and leaves out 2 entries/],
      [{ receiptCount: 4 }, 'count_mismatch', /holds 4 receipts and the log 5 entries: receipts were removed/],
      [{ receiptCount: 6 }, 'count_mismatch', /stored without an entry/],
      [{ newest: healthy().newest.map((entry) => (entry.index === 3 ? { ...entry, bytes: undefined } : entry)) }, 'receipt_missing', /no receipt for entry 3 of the log/],
      [{ newest: healthy().newest.map((entry) => (entry.index >= 3 ? { ...entry, bytes: entries[0]! } : entry)) }, 'entry_mismatch', /entries 3, 4 no longer hash to their logged leaves/],
    ];
    for (const [change, status, detail] of cases) {
      const health = judgeLogHealth({ ...healthy(), ...change });
      expect(health, status).toMatchObject({ ok: false, status });
      expect(health.detail).toMatch(detail);
    }
  });

  it('lets a checkpoint that leaves entries out be young: it is signed within seconds', () => {
    expect(judgeLogHealth({ ...healthy(), logSize: 6, receiptCount: 6, newest: [] }).status).toBe('consistent');
  });
});
