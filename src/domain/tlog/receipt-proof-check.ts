/**
 * The offline check of one receipt's c2sp.org/tlog-proof@v1 (docs/transparency-log.md, "Verifying
 * one receipt"): the proof's checkpoint signed by the verifier key for the log the key names, and the
 * receipt's own canonical JSON at the proof's index of that tree. Shared by `agent-economy
 * verify-receipt` and the MCP tool check_receipt_inclusion; it reads nothing.
 */
import type { ProofCheck } from '../receipt-proof.ts';
import { receiptLogEntry } from '../receipt-log-entry.ts';
import { LOG_INCLUSION_CHECK } from './audit.ts';
import { encodeBase64 } from './base64.ts';
import { checkCosignatures } from './cosignature.ts';
import { openCheckpoint } from './note.ts';
import type { NoteVerifier } from './note-text.ts';
import { verifyInclusion } from './proofs.ts';
import { parseTlogProof } from './tlog-proof.ts';
import { leafHash } from './tree.ts';

export const LOG_CHECKPOINT_CHECK = 'log_checkpoint';
export const LOG_WITNESS_CHECK = 'log_witnesses';

/** Witnesses a reader trusts, and how many of them must have cosigned a checkpoint. */
export interface WitnessPolicy {
  /** Their verifier keys as given (type 0x04). */
  keys: string[];
  verifiers: NoteVerifier[];
  quorum: number;
}

/** Whether the signed note `checkpoint` carries at least the policy's quorum of valid cosignatures (`now` in POSIX seconds refuses ones dated later). */
export function witnessCheck(checkpoint: string, policy: WitnessPolicy, now?: number): ProofCheck {
  const verdict = checkCosignatures(checkpoint, policy.verifiers, policy.quorum, now);
  if (!verdict.ok) return { id: LOG_WITNESS_CHECK, ok: false, detail: `${verdict.reason}.` };
  const count = verdict.cosignatures.length;
  return {
    id: LOG_WITNESS_CHECK,
    ok: true,
    detail: `The checkpoint carries ${count} valid witness cosignature${count === 1 ? '' : 's'} (${verdict.cosignatures.map((cosignature) => cosignature.cosigner).join(', ')}), ${policy.quorum} required: the log showed them this tree as extending what they saw before.`,
  };
}

export interface ReceiptProofCheck {
  status: 'included' | 'failed';
  checks: ProofCheck[];
  index?: number;
  treeSize?: number;
  /** Base64, as the checkpoint writes it. */
  rootHash?: string;
}

/** `bundle` as the reader holds it, `proofText` its tlog-proof, `verifierKey` the key the reader trusts. */
export function checkReceiptProof(bundle: unknown, proofText: string, verifierKey: string, witnesses?: WitnessPolicy, now?: number): ReceiptProofCheck {
  const proof = parseTlogProof(proofText);
  if (!proof.ok) return { status: 'failed', checks: [{ id: LOG_CHECKPOINT_CHECK, ok: false, detail: `The proof is not a c2sp.org/tlog-proof@v1 text: ${proof.reason}.` }] };
  // The key's name is the log's origin (c2sp.org/tlog-checkpoint): a checkpoint of another log signed by the same key is refused.
  const origin = verifierKey.slice(0, verifierKey.indexOf('+'));
  const opened = openCheckpoint(proof.checkpoint, verifierKey, origin);
  if (!opened.ok) return { status: 'failed', checks: [{ id: LOG_CHECKPOINT_CHECK, ok: false, detail: `The proof's checkpoint is refused: ${opened.reason}.` }] };
  const { size, root } = opened.checkpoint;
  const tree = { index: proof.index, treeSize: size, rootHash: encodeBase64(root) };
  const checks: ProofCheck[] = [{ id: LOG_CHECKPOINT_CHECK, ok: true, detail: `The proof's checkpoint of log ${origin}, tree size ${size}, root ${tree.rootHash}, is signed by the verifier key.` }];
  const witnessed = witnesses && witnessCheck(proof.checkpoint, witnesses, now);
  if (witnessed) checks.push(witnessed);
  const included = verifyInclusion(leafHash(receiptLogEntry(bundle)), proof.index, size, proof.proof, root);
  checks.push(
    included.ok
      ? { id: LOG_INCLUSION_CHECK, ok: true, detail: `This receipt's canonical JSON is entry ${proof.index} of the ${size}-entry tree the checkpoint signs.` }
      : { id: LOG_INCLUSION_CHECK, ok: false, detail: `This receipt's canonical JSON is not entry ${proof.index} of that tree: ${included.reason}.` },
  );
  return { status: included.ok && witnessed?.ok !== false ? 'included' : 'failed', checks, ...tree };
}
