/**
 * What this site checks of its own receipt log (docs/transparency-log.md, "What the site checks of
 * itself"), pure: whether one receipt, as the store holds it now, is included in the signed
 * checkpoint (the proof explorer shows it per receipt), and whether the log and the receipt store
 * agree (the live status's `transparency_log` probe). The caller reads the store; nothing here does.
 */
import type { ProofCheck } from '../receipt-proof.ts';
import { encodeBase64 } from './base64.ts';
import { openCheckpoint } from './note.ts';
import { verifyInclusion } from './proofs.ts';
import { leafHash, sameBytes, type Hash } from './tree.ts';

export const LOG_INCLUSION_CHECK = 'log_inclusion';

export type InclusionState = 'included' | 'pending' | 'not_logged' | 'mismatch';

export interface SignedTree {
  size: number;
  root: Hash;
}

/**
 * A receipt's inclusion: `entry` is its log entry (the canonical JSON of the bundle as stored now),
 * `index` its entry's index (undefined: it has none), `proof` the audit path to `checkpoint`.
 */
export function inclusionCheck(entry: Uint8Array, index: number | undefined, checkpoint: SignedTree | undefined, proof: readonly Hash[] | undefined): { state: InclusionState; index: number | null; check: ProofCheck } {
  const check = (ok: boolean, detail: string): ProofCheck => ({ id: LOG_INCLUSION_CHECK, ok, detail });
  if (index === undefined) return { state: 'not_logged', index: null, check: check(false, 'This receipt has no entry in the receipt log.') };
  if (!checkpoint || checkpoint.size <= index || !proof) {
    return { state: 'pending', index, check: check(false, `Entry ${index} of the receipt log; no signed checkpoint includes it yet (one is signed within seconds).`) };
  }
  const verdict = verifyInclusion(leafHash(entry), index, checkpoint.size, proof, checkpoint.root);
  return verdict.ok
    ? { state: 'included', index, check: check(true, `Entry ${index} of the receipt log: the receipt as stored hashes to it, and its inclusion proof checks against the signed checkpoint of size ${checkpoint.size}.`) }
    : { state: 'mismatch', index, check: check(false, `Entry ${index} of the receipt log: the receipt as stored now is not what was logged there (${verdict.reason}); it was changed after it was recorded.`) };
}

/** What the probe reads: the newest checkpoint, the sizes, and the newest entries with their stored leaf hashes. */
export interface LogHealthInput {
  checkpoint: { note: string; size: number; issuedAt: Date } | undefined;
  verifierKey: string;
  origin: string;
  logSize: number;
  receiptCount: number;
  /** The newest entries: `bytes` undefined when the store no longer has the receipt. */
  newest: ReadonlyArray<{ index: number; receiptId: string; bytes: Uint8Array | undefined; leaf: Hash }>;
  /**
   * The rolling audit of older entries (ReceiptLog.audit): the slice it read last, and every entry it
   * found without its receipt or changed and has not read back right since.
   */
  audit?: { from: number; to: number; missing: readonly number[]; changed: readonly number[] };
  now: Date;
  /** A checkpoint that leaves entries out may be at most this old. */
  freshSeconds: number;
}

export interface LogHealth {
  ok: boolean;
  status: 'consistent' | 'unsigned' | 'bad_signature' | 'stale' | 'count_mismatch' | 'receipt_missing' | 'entry_mismatch' | 'not_signing';
  detail: string;
  /** The checkpoint as verified, when it was. */
  checkpoint: { size: number; rootHash: string; issuedAt: string } | null;
  /** Entries in the log now. */
  entries: number;
}

const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const listed = (indexes: readonly number[]) => (indexes.length === 1 ? `entry ${indexes[0]}` : `entries ${indexes.join(', ')}`);

export function judgeLogHealth(input: LogHealthInput): LogHealth {
  const { checkpoint } = input;
  const entries = input.logSize;
  if (!checkpoint) return { ok: false, status: 'unsigned', detail: 'The receipt log has no signed checkpoint.', checkpoint: null, entries };
  const opened = openCheckpoint(checkpoint.note, input.verifierKey, input.origin);
  if (!opened.ok) return { ok: false, status: 'bad_signature', detail: `The newest checkpoint does not verify with the published key ${input.verifierKey}: ${opened.reason}.`, checkpoint: null, entries };
  const signed = { size: opened.checkpoint.size, rootHash: encodeBase64(opened.checkpoint.root), issuedAt: checkpoint.issuedAt.toISOString() };
  const fail = (status: LogHealth['status'], detail: string): LogHealth => ({ ok: false, status, detail, checkpoint: signed, entries });
  const ageSeconds = Math.max(0, Math.round((input.now.getTime() - checkpoint.issuedAt.getTime()) / 1000));
  if (signed.size < input.logSize && ageSeconds > input.freshSeconds) {
    return fail('stale', `The newest checkpoint (size ${signed.size}) is ${ageSeconds} s old and leaves out ${input.logSize - signed.size} entries; one is due every few seconds.`);
  }
  if (input.receiptCount !== input.logSize) {
    return fail('count_mismatch', `The receipt store holds ${counted(input.receiptCount, 'receipt')} and the log ${counted(input.logSize, 'entry', 'entries')}: ${input.receiptCount < input.logSize ? 'receipts were removed after they were logged' : 'receipts were stored without an entry'}.`);
  }
  const { audit } = input;
  const missing = [...new Set([...(audit?.missing ?? []), ...input.newest.filter((entry) => entry.bytes === undefined).map((entry) => entry.index)])].sort((a, b) => a - b);
  if (missing.length) return fail('receipt_missing', `The receipt store has no receipt for ${listed(missing)} of the log.`);
  const changed = [...new Set([...(audit?.changed ?? []), ...input.newest.filter((entry) => !sameBytes(leafHash(entry.bytes!), entry.leaf)).map((entry) => entry.index)])].sort((a, b) => a - b);
  if (changed.length) return fail('entry_mismatch', `The receipts of ${listed(changed)} no longer hash to their logged leaves: they were changed after they were recorded.`);
  return {
    ok: true,
    status: 'consistent',
    detail: `The checkpoint of size ${signed.size}, root ${signed.rootHash}, verifies with the published key and is ${ageSeconds} s old; the store holds one receipt per entry (${input.logSize}), and the newest ${input.newest.length} hash to their leaves${audit ? `, as did entries ${audit.from}-${audit.to - 1} in the rolling audit that reads the whole log daily` : ''}.`,
    checkpoint: signed,
    entries,
  };
}
