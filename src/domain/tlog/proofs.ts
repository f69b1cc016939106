/**
 * Inclusion proofs (RFC 6962 2.1.1, the "audit path") and consistency proofs (RFC 6962 2.1.2) of
 * the receipt log, made from stored hashes and checked the way RFC 9162 2.1.3.2 and 2.1.4.2 say.
 * A proof needs the hash of subtrees the store never kept (the right edge of a tree whose size is
 * not a power of two); like golang.org/x/mod/sumdb/tlog's ProveRecord and ProveTree, those are
 * rebuilt from the complete subtrees they are made of. Each proof comes in two steps so the store
 * can read every stored hash it needs in one round trip: `...Indexes` names them, the function of
 * the same name without the suffix takes them in that order. The verifiers never throw on what a
 * client sent them: they return a refusal that names the size, the index or the hash at fault.
 */
import { sameBytes as sameHash, toHex as hex } from './hash.ts';
import { inclusionPath, inclusionProofLength, inclusionRootVerdict, proofShapeRefusal, type Verdict } from './inclusion-path.ts';
import { EMPTY_TREE_HASH, HASH_SIZE, maxPow2Below, nodeHash, rootFromSubtrees, subtreeIndexes, trailingZeros, type Hash } from './tree.ts';

export { inclusionProofLength, type Verdict } from './inclusion-path.ts';

const isCount = (n: number) => Number.isSafeInteger(n) && n >= 0;
const half = (n: number) => Math.floor(n / 2);

/** Hands out the hashes a store read, in the order the `...Indexes` function named them. */
class HashCursor {
  private next = 0;
  private readonly hashes: readonly Hash[];
  constructor(hashes: readonly Hash[]) {
    this.hashes = hashes;
  }

  /** The root of the tree over records [lo, hi) from its complete subtrees (golang tlog's subTreeHash). */
  subtree(lo: number, hi: number): Hash {
    const count = subtreeIndexes(lo, hi).length;
    if (this.next + count > this.hashes.length) throw new RangeError('tlog: fewer stored hashes than the proof needs');
    const hash = rootFromSubtrees(this.hashes.slice(this.next, this.next + count));
    this.next += count;
    return hash;
  }

  done(): void {
    if (this.next !== this.hashes.length) throw new RangeError(`tlog: ${this.hashes.length} stored hashes given, the proof used ${this.next}`);
  }
}

function checkHashes(hashes: readonly Hash[]): void {
  for (const hash of hashes) if (hash.length !== HASH_SIZE) throw new RangeError(`tlog: a stored hash is ${hash.length} bytes, not ${HASH_SIZE}`);
}

// ---------------------------------------------------------------------------------------------
// Inclusion

function checkRecord(index: number, size: number): void {
  if (!isCount(index) || !isCount(size) || index >= size) throw new RangeError(`tlog: record ${index} is not in a tree of size ${size}`);
}

function leafProofIndexes(lo: number, hi: number, index: number, need: number[]): void {
  if (lo + 1 === hi) return;
  const { k } = maxPow2Below(hi - lo);
  if (index < lo + k) {
    leafProofIndexes(lo, lo + k, index, need);
    need.push(...subtreeIndexes(lo + k, hi));
  } else {
    need.push(...subtreeIndexes(lo, lo + k));
    leafProofIndexes(lo + k, hi, index, need);
  }
}

function leafProof(lo: number, hi: number, index: number, hashes: HashCursor, proof: Hash[]): void {
  // The verifier has the leaf hash itself; only the hashes of the paths not taken are sent.
  if (lo + 1 === hi) return;
  const { k } = maxPow2Below(hi - lo);
  if (index < lo + k) {
    leafProof(lo, lo + k, index, hashes, proof);
    proof.push(hashes.subtree(lo + k, hi));
  } else {
    const left = hashes.subtree(lo, lo + k);
    leafProof(lo + k, hi, index, hashes, proof);
    proof.push(left);
  }
}

/** The stored hashes the inclusion proof of record `index` in the tree of `size` records is made from. */
export function inclusionProofIndexes(index: number, size: number): number[] {
  checkRecord(index, size);
  const need: number[] = [];
  leafProofIndexes(0, size, index, need);
  return need;
}

/**
 * The inclusion proof (audit path) of record `index` in the tree of `size` records, leaf's sibling
 * first, from the hashes at inclusionProofIndexes(index, size), in that order.
 */
export function inclusionProof(index: number, size: number, hashes: readonly Hash[]): Hash[] {
  checkRecord(index, size);
  checkHashes(hashes);
  const cursor = new HashCursor(hashes);
  const proof: Hash[] = [];
  leafProof(0, size, index, cursor, proof);
  cursor.done();
  return proof;
}

/**
 * Whether `proof` shows that the record with `leafHash` is record `index` of the tree of `size`
 * records whose root is `root` (RFC 9162 2.1.3.2).
 */
export function verifyInclusion(leafHash: Hash, index: number, size: number, proof: readonly Hash[], root: Hash): Verdict {
  const path = inclusionPath(leafHash, index, size, proof, root);
  if (!path.ok) return path;
  let r = leafHash;
  path.sides.forEach((side, i) => (r = side === 'left' ? nodeHash(proof[i]!, r) : nodeHash(r, proof[i]!)));
  return inclusionRootVerdict(r, index, size, root);
}

// ---------------------------------------------------------------------------------------------
// Consistency

function checkSizes(oldSize: number, newSize: number): void {
  if (!isCount(oldSize) || !isCount(newSize) || oldSize > newSize) throw new RangeError(`tlog: no consistency proof from size ${oldSize} to size ${newSize}`);
}

// The sub-proof for records [lo, hi) of the new tree, where the old tree has `m` records and lo < m <= hi.
function treeProofIndexes(lo: number, hi: number, m: number, need: number[]): void {
  if (m === hi) {
    // The old tree's own root (lo === 0) is known to the verifier; any other subtree is sent.
    if (lo !== 0) need.push(...subtreeIndexes(lo, hi));
    return;
  }
  const { k } = maxPow2Below(hi - lo);
  if (m <= lo + k) {
    treeProofIndexes(lo, lo + k, m, need);
    need.push(...subtreeIndexes(lo + k, hi));
  } else {
    need.push(...subtreeIndexes(lo, lo + k));
    treeProofIndexes(lo + k, hi, m, need);
  }
}

function treeProof(lo: number, hi: number, m: number, hashes: HashCursor, proof: Hash[]): void {
  if (m === hi) {
    if (lo !== 0) proof.push(hashes.subtree(lo, hi));
    return;
  }
  const { k } = maxPow2Below(hi - lo);
  if (m <= lo + k) {
    treeProof(lo, lo + k, m, hashes, proof);
    proof.push(hashes.subtree(lo + k, hi));
  } else {
    const left = hashes.subtree(lo, lo + k);
    treeProof(lo + k, hi, m, hashes, proof);
    proof.push(left);
  }
}

/**
 * The stored hashes the consistency proof from the tree of `oldSize` records to the tree of
 * `newSize` records is made from (none when the old tree is empty or the same size).
 */
export function consistencyProofIndexes(oldSize: number, newSize: number): number[] {
  checkSizes(oldSize, newSize);
  const need: number[] = [];
  // From a tree to itself, treeProofIndexes names nothing: the verifier has the old root, which is the new one.
  if (oldSize > 0) treeProofIndexes(0, newSize, oldSize, need);
  return need;
}

/** The consistency proof from `oldSize` to `newSize`, from the hashes at consistencyProofIndexes, in that order. */
export function consistencyProof(oldSize: number, newSize: number, hashes: readonly Hash[]): Hash[] {
  checkSizes(oldSize, newSize);
  checkHashes(hashes);
  const cursor = new HashCursor(hashes);
  const proof: Hash[] = [];
  if (oldSize > 0) treeProof(0, newSize, oldSize, cursor, proof);
  cursor.done();
  return proof;
}

/** How many hashes the consistency proof from `oldSize` to `newSize` has (0 < oldSize < newSize). */
export function consistencyProofLength(oldSize: number, newSize: number): number {
  if (!isCount(oldSize) || !isCount(newSize) || oldSize === 0 || oldSize >= newSize) throw new RangeError(`tlog: no consistency proof from size ${oldSize} to size ${newSize} has a length`);
  // The path of the old tree's last record, less the levels inside the old tree's largest
  // complete right subtree, plus that subtree's hash unless it is the whole old tree.
  const shift = trailingZeros(oldSize);
  const pathLength = inclusionProofLength(oldSize - 1, newSize) - shift;
  return oldSize === 2 ** shift ? pathLength : pathLength + 1;
}

/**
 * Whether `proof` shows that the tree of `oldSize` records with root `oldRoot` is a prefix of the
 * tree of `newSize` records with root `newRoot` (RFC 9162 2.1.4.2). The empty tree is a prefix of
 * every tree, but only under its own root (SHA-256 of nothing), and a tree is consistent with itself
 * only under one root; both with an empty proof.
 */
export function verifyConsistency(oldSize: number, newSize: number, proof: readonly Hash[], oldRoot: Hash, newRoot: Hash): Verdict {
  if (!isCount(oldSize) || !isCount(newSize)) return { ok: false, reason: `tree sizes ${oldSize} and ${newSize} must be whole numbers from 0 to 2^53 - 1` };
  if (oldSize > newSize) return { ok: false, reason: `the old tree size ${oldSize} is larger than the new tree size ${newSize}` };
  if (oldRoot.length !== HASH_SIZE) return { ok: false, reason: `the old root hash is ${oldRoot.length} bytes, not ${HASH_SIZE}` };
  if (newRoot.length !== HASH_SIZE) return { ok: false, reason: `the new root hash is ${newRoot.length} bytes, not ${HASH_SIZE}` };
  if (oldSize === 0 || oldSize === newSize) {
    if (proof.length !== 0) return { ok: false, reason: `the proof has ${proof.length} hashes; from size ${oldSize} to size ${newSize} it must be empty` };
    if (oldSize === 0 && !sameHash(oldRoot, EMPTY_TREE_HASH)) return { ok: false, reason: `the old root ${hex(oldRoot)} is not the root of the empty tree` };
    if (oldSize === newSize && !sameHash(oldRoot, newRoot)) return { ok: false, reason: `two different roots for the tree of size ${oldSize}: ${hex(oldRoot)} and ${hex(newRoot)}` };
    return { ok: true };
  }
  const shape = proofShapeRefusal(proof, consistencyProofLength(oldSize, newSize), `from size ${oldSize} to size ${newSize}`);
  if (shape) return { ok: false, reason: shape };

  const path = oldSize === 2 ** trailingZeros(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (fn % 2 === 1) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  // The proof has exactly consistencyProofLength(oldSize, newSize) hashes (proofShapeRefusal), the
  // number of steps that take sn to 0: RFC 9162's two checks of sn below never refuse, and are kept
  // as it writes them.
  for (const c of path.slice(1)) {
    // Stryker disable next-line ConditionalExpression,ObjectLiteral,BooleanLiteral,StringLiteral: unreachable, as said above
    if (sn === 0) return { ok: false, reason: `the proof is longer than a proof from size ${oldSize} to size ${newSize}` };
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (
        fn % 2 === 0 &&
        // Stryker disable next-line ConditionalExpression: fn is odd here, or equals sn, which is not 0: halving an even fn > 0 stops at an odd number, never at 0
        fn !== 0
      ) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  // Stryker disable next-line ConditionalExpression,ObjectLiteral,BooleanLiteral,StringLiteral: unreachable, as said above the loop
  if (sn !== 0) return { ok: false, reason: `the proof is shorter than a proof from size ${oldSize} to size ${newSize}` };
  if (!sameHash(fr, oldRoot)) return { ok: false, reason: `the proof leads to old root ${hex(fr)}, not to ${hex(oldRoot)} of the tree of size ${oldSize}` };
  if (!sameHash(sr, newRoot)) return { ok: false, reason: `the proof leads to new root ${hex(sr)}, not to ${hex(newRoot)} of the tree of size ${newSize}` };
  return { ok: true };
}
