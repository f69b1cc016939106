/**
 * The witness protocol's `add-checkpoint` (c2sp.org/tlog-witness), both sides, pure: the request
 * body (`old <size>`, the consistency proof's hashes one per line, an empty line, the signed
 * checkpoint) and the witness's judgement of it against the last checkpoint it cosigned for that log.
 * The witness never cosigns two checkpoints of one log that are not consistent; the caller keeps its
 * state durably and atomically with the judgement (server side), or sends what the log can prove.
 */
import { decodeBase64, encodeBase64 } from './base64.ts';
import { HASH_SIZE, sameBytes, type Hash } from './hash.ts';
import { openCheckpoint } from './note.ts';
import { verifyConsistency } from './proofs.ts';
import type { Refusal } from './note-text.ts';

/** tlog-witness: a client sends at most 63 proof lines. */
export const MAX_PROOF_LINES = 63;

export interface AddCheckpoint {
  oldSize: number;
  proof: Hash[];
  /** The signed checkpoint as sent, signature lines included. */
  checkpoint: string;
}

/** The body of an add-checkpoint request. */
export function formatAddCheckpoint({ oldSize, proof, checkpoint }: AddCheckpoint): string {
  return `old ${oldSize}\n${proof.map((hash) => `${encodeBase64(hash)}\n`).join('')}\n${checkpoint}`;
}

/** An add-checkpoint body read by the spec's rules, or why it is not one (a 400). */
export function parseAddCheckpoint(body: string): ({ ok: true } & AddCheckpoint) | Refusal {
  const blank = body.indexOf('\n\n');
  if (blank < 0) return { ok: false, reason: 'the body has no empty line between the old size and proof lines and the checkpoint' };
  const lines = body.slice(0, blank).split('\n');
  const old = /^old (0|[1-9][0-9]{0,15})$/.exec(lines[0]!);
  if (!old) return { ok: false, reason: `the first line is not 'old <size>' in decimal without leading zeros` };
  const oldSize = Number(old[1]);
  if (!Number.isSafeInteger(oldSize)) return { ok: false, reason: `the old size ${old[1]} is beyond what this witness counts` };
  const proofLines = lines.slice(1);
  if (proofLines.length > MAX_PROOF_LINES) return { ok: false, reason: `the body has ${proofLines.length} consistency proof lines, more than ${MAX_PROOF_LINES}` };
  const proof: Hash[] = [];
  for (const [i, line] of proofLines.entries()) {
    const hash = decodeBase64(line);
    if (!hash || hash.length !== HASH_SIZE) return { ok: false, reason: `proof line ${i + 1} is not the standard base64 of a ${HASH_SIZE}-byte hash` };
    proof.push(hash);
  }
  return { ok: true, oldSize, proof, checkpoint: body.slice(blank + 2) };
}

/** What a witness holds of one log: the last checkpoint it cosigned. */
export interface WitnessedTree {
  size: number;
  root: Hash;
}

export type AddCheckpointVerdict =
  | { status: 200; origin: string; tree: WitnessedTree; text: string }
  | { status: 400 | 403 | 404 | 422; reason: string }
  /** The old size is not the size the witness holds (`size`), or the same size has another root. */
  | { status: 409; reason: string; size: number };

/**
 * The witness's judgement of `request`: `logs` maps each log's origin to its verifier key, `kept` the
 * last tree cosigned per origin. 200 carries the tree to keep (before answering) and the checkpoint
 * text to cosign.
 */
export function judgeAddCheckpoint(request: AddCheckpoint, logs: ReadonlyMap<string, string>, kept: (origin: string) => WitnessedTree | undefined): AddCheckpointVerdict {
  const origin = request.checkpoint.slice(0, Math.max(0, request.checkpoint.indexOf('\n')));
  const verifierKey = logs.get(origin);
  if (verifierKey === undefined) return { status: 404, reason: `this witness does not witness the log '${origin.slice(0, 120)}'` };
  const opened = openCheckpoint(request.checkpoint, verifierKey, origin);
  if (!opened.ok) return { status: 403, reason: `the checkpoint does not verify with the log's key: ${opened.reason}` };
  const { size, root } = opened.checkpoint;
  if (request.oldSize > size) return { status: 400, reason: `the old size ${request.oldSize} is larger than the checkpoint's size ${size}` };
  const last = kept(origin) ?? { size: 0, root: new Uint8Array(0) };
  if (request.oldSize !== last.size) return { status: 409, reason: `the last checkpoint this witness cosigned for this log has size ${last.size}, not ${request.oldSize}`, size: last.size };
  if (last.size === size) {
    if (!sameBytes(last.root, root)) return { status: 409, reason: `this witness cosigned size ${size} with another root: the log forked`, size: last.size };
    if (request.proof.length !== 0) return { status: 422, reason: 'a proof from a tree to itself is empty' };
  } else if (last.size > 0) {
    const consistent = verifyConsistency(last.size, size, request.proof, last.root, root);
    if (!consistent.ok) return { status: 422, reason: `the consistency proof from size ${last.size} does not verify: ${consistent.reason}` };
  } else if (request.proof.length !== 0) {
    return { status: 422, reason: 'a proof from size 0 is empty' };
  }
  return { status: 200, origin, tree: { size, root }, text: opened.text };
}
