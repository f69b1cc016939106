/**
 * The Merkle tree of the receipt log, hashed exactly as RFC 6962 section 2.1 says (SHA-256, a 0x00
 * prefix for a leaf, 0x01 for an interior node), kept the way golang.org/x/mod/sumdb/tlog keeps it:
 * every hash of a complete subtree is stored once, at a "stored hash index", when the record that
 * completes it is appended, and never changes after. The tree's root and every tile are then
 * read from stored hashes, never recomputed from the records. Pure: no I/O.
 *
 * Indexes are JavaScript numbers: exact up to 2^53, far beyond any log this service will keep; the
 * arithmetic avoids 32-bit bitwise operators for that reason.
 */
import { createHash } from 'node:crypto';
import { LEAF_PREFIX, NODE_PREFIX, type Hash } from './hash.ts';

export { HASH_SIZE, sameBytes, type Hash } from './hash.ts';

const sha256 = (...parts: Uint8Array[]): Hash => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};

/** RFC 6962: the hash of a leaf, SHA-256(0x00 || entry). */
export const leafHash = (entry: Uint8Array): Hash => sha256(LEAF_PREFIX, entry);

/** RFC 6962: the hash of an interior node, SHA-256(0x01 || left || right). */
export const nodeHash = (left: Hash, right: Hash): Hash => sha256(NODE_PREFIX, left, right);

/** RFC 6962: the root of the empty tree, SHA-256 of nothing. */
export const EMPTY_TREE_HASH: Hash = sha256();

const half = (n: number) => Math.floor(n / 2);

/** How many times 2 divides n (n > 0). */
export function trailingZeros(n: number): number {
  let zeros = 0;
  while (n > 0 && n % 2 === 0) {
    n /= 2;
    zeros++;
  }
  return zeros;
}

/** The largest power of two below n (n > 1), with its exponent: where RFC 6962 splits a tree of n records. */
export function maxPow2Below(n: number): { k: number; level: number } {
  let level = 0;
  while (2 ** (level + 1) < n) level++;
  return { k: 2 ** level, level };
}

/**
 * Where the hash of the n-th complete subtree of 2^level records is stored: hashes are stored in
 * the order appending creates them (record 0's leaf, record 1's leaf, their parent, record 2's
 * leaf, ...).
 */
export function storedHashIndex(level: number, n: number): number {
  for (let l = level; l > 0; l--) n = 2 * n + 1;
  let index = 0;
  for (; n > 0; n = half(n)) index += n;
  return index + level;
}

/** How many hashes a tree of `size` records has stored. */
export function storedHashCount(size: number): number {
  if (size === 0) return 0;
  let count = storedHashIndex(0, size - 1) + 1;
  for (let i = size - 1; i % 2 === 1; i = half(i)) count++;
  return count;
}

/**
 * The stored hashes appending record `n` reads: the left siblings of the subtrees it completes,
 * in increasing order of index. Record n completes one subtree per trailing one bit of n.
 */
export function appendReadIndexes(n: number): number[] {
  const completed = trailingZeros(n + 1);
  // Stryker disable next-line ArrayDeclaration: a preallocation only; the array is filled to the same length either way
  const indexes: number[] = new Array(completed);
  for (let i = 0; i < completed; i++) indexes[completed - 1 - i] = storedHashIndex(i, Math.floor(n / 2 ** i) - 1);
  return indexes;
}

/**
 * The hashes appending record `n` stores, at storedHashIndex(0, n) and the indexes after it: its
 * leaf hash, then the hash of each subtree it completes. `read` holds the hashes at
 * appendReadIndexes(n), in that order.
 */
export function appendHashes(n: number, leaf: Hash, read: readonly Hash[]): Hash[] {
  const completed = trailingZeros(n + 1);
  if (read.length !== completed) throw new RangeError(`tlog: appending record ${n} needs ${completed} stored hashes, got ${read.length}`);
  const hashes = [leaf];
  let hash = leaf;
  for (let i = 0; i < completed; i++) {
    hash = nodeHash(read[completed - 1 - i]!, hash);
    hashes.push(hash);
  }
  return hashes;
}

/** The stored hashes the root of the tree over records [lo, hi) is made of: its complete subtrees, left to right. */
export function subtreeIndexes(lo: number, hi: number): number[] {
  const need: number[] = [];
  while (lo < hi) {
    const { k, level } = maxPow2Below(hi - lo + 1);
    if (lo % k !== 0) throw new RangeError(`tlog: [${lo}, ${hi}) does not start on a subtree boundary`);
    need.push(storedHashIndex(level, lo / k));
    lo += k;
  }
  return need;
}

/** The root of a tree from the hashes of its complete subtrees, left to right (subtreeIndexes). */
export function rootFromSubtrees(hashes: readonly Hash[]): Hash {
  if (hashes.length === 0) return EMPTY_TREE_HASH;
  let root = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) root = nodeHash(hashes[i]!, root);
  return root;
}

/** The stored hashes the root of a tree of `size` records is made of. */
export const treeHashIndexes = (size: number): number[] => subtreeIndexes(0, size);

/**
 * The complete subtrees of the tree of `size + 1` records (subtreeIndexes order), from those of the
 * tree of `size` records and the leaf hash of record `size`: a compact range. A monitor keeps these
 * few hashes, not every leaf, and still recomputes each later root from the new leaves alone, so
 * any rewrite of a record it has seen changes a root it can compare.
 */
export function appendToRange(size: number, subtrees: readonly Hash[], leaf: Hash): Hash[] {
  const next = [...subtrees, leaf];
  for (let merges = trailingZeros(size + 1); merges > 0; merges--) {
    const right = next.pop()!;
    const left = next.pop()!;
    next.push(nodeHash(left, right));
  }
  return next;
}
