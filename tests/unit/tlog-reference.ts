/**
 * What the receipt log's tests compare src/domain/tlog/ with: RFC 6962's definitions written out
 * as plainly as the RFC gives them (its own SHA-256 calls, recursion on slices, no stored-hash
 * index anywhere), and a store that holds what tree.ts's append functions store, as the real store
 * will. Slow on purpose; only the tests use it.
 */
import { createHash } from 'node:crypto';
import { appendHashes, appendReadIndexes, storedHashIndex, type Hash } from '../../src/domain/tlog/tree.ts';

const sha256 = (...parts: Uint8Array[]): Uint8Array => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};

export const naiveLeafHash = (entry: Uint8Array): Uint8Array => sha256(Uint8Array.of(0), entry);
export const naiveNodeHash = (left: Uint8Array, right: Uint8Array): Uint8Array => sha256(Uint8Array.of(1), left, right);

/** RFC 6962 2.1: k is the largest power of two smaller than n. */
export function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** RFC 6962 2.1: MTH(D[lo:hi]), over the entries' leaf hashes. */
export function naiveRoot(leaves: readonly Uint8Array[], lo = 0, hi = leaves.length): Uint8Array {
  const n = hi - lo;
  if (n === 0) return sha256();
  if (n === 1) return leaves[lo]!;
  const k = split(n);
  return naiveNodeHash(naiveRoot(leaves, lo, lo + k), naiveRoot(leaves, lo + k, hi));
}

/** RFC 6962 2.1.1: PATH(m, D[lo:hi]). */
export function naivePath(m: number, leaves: readonly Uint8Array[], lo = 0, hi = leaves.length): Uint8Array[] {
  const n = hi - lo;
  if (n === 1) return [];
  const k = split(n);
  if (m < k) return [...naivePath(m, leaves, lo, lo + k), naiveRoot(leaves, lo + k, hi)];
  return [...naivePath(m - k, leaves, lo + k, hi), naiveRoot(leaves, lo, lo + k)];
}

/** RFC 6962 2.1.2: PROOF(m, D[0:n]) = SUBPROOF(m, D[0:n], true). */
export function naiveConsistency(m: number, leaves: readonly Uint8Array[], n = leaves.length): Uint8Array[] {
  const subproof = (m: number, lo: number, hi: number, b: boolean): Uint8Array[] => {
    if (m === hi - lo) return b ? [] : [naiveRoot(leaves, lo, hi)];
    const k = split(hi - lo);
    if (m <= k) return [...subproof(m, lo, lo + k, b), naiveRoot(leaves, lo + k, hi)];
    return [...subproof(m - k, lo + k, hi, false), naiveRoot(leaves, lo, lo + k)];
  };
  return m === 0 || m === n ? [] : subproof(m, 0, n, true);
}

/**
 * The tree level by level: levels[0] are the leaf hashes, levels[h][i] the hash of the complete
 * subtree of 2^h leaves starting at leaf i * 2^h. Incomplete subtrees are left out.
 */
export function naiveLevels(leaves: readonly Uint8Array[]): Uint8Array[][] {
  const levels = [leaves.slice()];
  for (;;) {
    const below = levels[levels.length - 1]!;
    if (below.length < 2) return levels;
    const level: Uint8Array[] = [];
    for (let i = 0; i + 1 < below.length; i += 2) level.push(naiveNodeHash(below[i]!, below[i + 1]!));
    levels.push(level);
  }
}

export const entry = (i: number): Uint8Array => new TextEncoder().encode(`receipt ${i}`);

/** The stored hashes after appending `leaves`, by stored hash index, appended as the store will. */
export function storedHashes(leaves: readonly Hash[]): Hash[] {
  const stored: Hash[] = [];
  leaves.forEach((leaf, n) => {
    const read = appendReadIndexes(n).map((index) => stored[index]!);
    const made = appendHashes(n, leaf, read);
    if (stored.length !== storedHashIndex(0, n)) throw new Error(`record ${n} would be stored at ${stored.length}, not ${storedHashIndex(0, n)}`);
    stored.push(...made);
  });
  return stored;
}

/** Reads stored hashes as the store does, failing on an index that was never stored by `size`. */
export function reader(stored: readonly Hash[], count: number): (indexes: readonly number[]) => Hash[] {
  return (indexes) =>
    indexes.map((index) => {
      if (!Number.isInteger(index) || index < 0 || index >= count) throw new Error(`stored hash ${index} does not exist yet (${count} stored)`);
      return stored[index]!;
    });
}

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
export const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
