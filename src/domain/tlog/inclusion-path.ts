/**
 * Checking an inclusion proof (RFC 9162 2.1.3.2) apart from hashing it. Which side of the running
 * hash each proof hash joins depends only on the entry's index and the tree's size, so this module
 * works that out (and refuses a proof of the wrong shape, naming the index and size) without
 * computing a hash. The server folds the path with node:crypto (proofs.ts `verifyInclusion`), the
 * receipt page with WebCrypto (webcrypto-tlog-proof.ts): one walk of the tree, two hashers.
 */
import { HASH_SIZE, sameBytes, toHex, type Hash } from './hash.ts';

export type Verdict = { ok: true } | { ok: false; reason: string };

/** Where a proof hash joins the running hash: on its `left` (SHA-256(0x01 || proof hash || running)) or its `right`. */
export type ProofSide = 'left' | 'right';

const isCount = (n: number) => Number.isSafeInteger(n) && n >= 0;
const half = (n: number) => Math.floor(n / 2);

/** How many hashes the inclusion proof of `index` in a tree of `size` has (RFC 9162's path length). */
export function inclusionProofLength(index: number, size: number): number {
  if (!isCount(index) || !isCount(size) || index >= size) throw new RangeError(`tlog: no record ${index} in a tree of size ${size}`);
  // Below the level where the paths to `index` and to the last record meet, every level has a
  // sibling; above it, only the levels where `index` is a right child do.
  let fn = index;
  let sn = size - 1;
  let length = 0;
  while (fn !== sn) {
    fn = half(fn);
    sn = half(sn);
    length++;
  }
  for (; fn > 0; fn = half(fn)) if (fn % 2 === 1) length++;
  return length;
}

/** Why `proof` is not a proof of `expected` hashes of the log's size (`what` names the proof), or null. */
export function proofShapeRefusal(proof: readonly Hash[], expected: number, what: string): string | null {
  if (proof.length !== expected) return `the proof has ${proof.length} hashes; ${what} needs ${expected}`;
  const bad = proof.findIndex((hash) => hash.length !== HASH_SIZE);
  if (bad >= 0) return `proof hash ${bad} is ${proof[bad]!.length} bytes, not ${HASH_SIZE}`;
  return null;
}

/**
 * The side each hash of `proof` joins on, folding from `leafHash` up to the root of the tree of
 * `size` records, if `proof` can be the inclusion proof of record `index` there; otherwise why not.
 */
export function inclusionPath(leafHash: Hash, index: number, size: number, proof: readonly Hash[], root: Hash): { ok: true; sides: ProofSide[] } | { ok: false; reason: string } {
  if (!isCount(index) || !isCount(size)) return { ok: false, reason: `index ${index} and tree size ${size} must be whole numbers from 0 to 2^53 - 1` };
  if (index >= size) return { ok: false, reason: `index ${index} is not below the tree size ${size}` };
  if (leafHash.length !== HASH_SIZE) return { ok: false, reason: `the leaf hash is ${leafHash.length} bytes, not ${HASH_SIZE}` };
  if (root.length !== HASH_SIZE) return { ok: false, reason: `the root hash is ${root.length} bytes, not ${HASH_SIZE}` };
  const shape = proofShapeRefusal(proof, inclusionProofLength(index, size), `record ${index} in a tree of size ${size}`);
  if (shape) return { ok: false, reason: shape };

  const sides: ProofSide[] = [];
  let fn = index;
  let sn = size - 1;
  for (let i = 0; i < proof.length; i++) {
    if (sn === 0) return { ok: false, reason: `the proof is longer than the path of record ${index} in a tree of size ${size}` };
    if (fn % 2 === 1 || fn === sn) {
      sides.push('left');
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sides.push('right');
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return { ok: false, reason: `the proof is shorter than the path of record ${index} in a tree of size ${size}` };
  return { ok: true, sides };
}

/** Whether the root the proof of record `index` folded to is the tree's `root`. */
export function inclusionRootVerdict(folded: Hash, index: number, size: number, root: Hash): Verdict {
  if (sameBytes(folded, root)) return { ok: true };
  return { ok: false, reason: `the proof of record ${index} leads to root ${toHex(folded)}, not to ${toHex(root)} of the tree of size ${size}` };
}
