/**
 * The proof the service hands out with each receipt: c2sp.org/tlog-proof@v1, the entry's index,
 * its inclusion proof and the signed checkpoint it leads to, in one text anyone can check offline
 * with the log's verifier key and origin (transparency-dev/merkle's proof package reads the same
 * text). It is the receipt's claim that the log recorded it, so verifying it says exactly which
 * part failed: the format, the checkpoint's signature, or the inclusion of those entry bytes.
 */
import { openCheckpoint, type Refusal } from './note.ts';
import { verifyInclusion } from './proofs.ts';
import { parseTlogProof } from './tlog-proof-text.ts';
import { leafHash, type Hash } from './tree.ts';

export { formatTlogProof, MAX_PROOF_HASHES, parseTlogProof, TLOG_PROOF_HEADER, type TlogProof } from './tlog-proof-text.ts';

const refuse = (reason: string): Refusal => ({ ok: false, reason });

export type TlogProofVerdict = { ok: true; index: number; size: number; root: Hash; extra?: Uint8Array } | Refusal;

/**
 * Whether `proofText` proves that the log with `origin`, whose checkpoints `verifierKey` signs,
 * holds `entry` at the index it states; then that index and the checkpoint's tree size and root.
 * Extra data is returned as it came, unauthenticated.
 */
export function verifyTlogProof(entry: Uint8Array, proofText: string, verifierKey: string, origin: string): TlogProofVerdict {
  const parsed = parseTlogProof(proofText);
  if (!parsed.ok) return refuse(`the proof text: ${parsed.reason}`);
  const opened = openCheckpoint(parsed.checkpoint, verifierKey, origin);
  if (!opened.ok) return refuse(`the checkpoint: ${opened.reason}`);
  const { size, root } = opened.checkpoint;
  const included = verifyInclusion(leafHash(entry), parsed.index, size, parsed.proof, root);
  if (!included.ok) return refuse(`the inclusion of the entry at index ${parsed.index}: ${included.reason}`);
  return { ok: true, index: parsed.index, size, root, ...(parsed.extra ? { extra: parsed.extra } : {}) };
}
