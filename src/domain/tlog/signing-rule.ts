/**
 * The log's signing rule (docs/transparency-log.md, "What the log signs"): it signs only a tree that
 * extends the last tree it signed, and never trusts its database for that. Given the last signed
 * tree (kept outside the database) and what the store says now, these judge whether the store still
 * holds that history, and compute the next root from the receipts of the entries added since (a
 * stored hash is never trusted for a new entry). Pure: the caller reads the store and the file.
 */
import { verifyConsistency } from './proofs.ts';
import { toHex } from './hash.ts';
import { appendToRange, leafHash, rootFromSubtrees, sameBytes, type Hash } from './tree.ts';

export interface SignedTree {
  size: number;
  root: Hash;
}

/** Why the log refuses to sign: the store and what was signed disagree. */
export interface LogFork {
  code: 'foreign_key' | 'store_behind' | 'history_rewritten' | 'not_consistent' | 'entry_missing' | 'entry_rewritten' | 'stored_hashes_wrong';
  /** A sentence naming the sizes, for the operator's log line and the live probe. */
  reason: string;
}

/** A store that holds fewer entries than the last signed tree lost part of its history (a restored backup). */
export function storeBehind(signed: SignedTree, storeSize: number): LogFork | null {
  if (storeSize >= signed.size) return null;
  return {
    code: 'store_behind',
    reason: `the store holds ${storeSize} entries, but the log already signed size ${signed.size}: the store is behind what was signed (an older copy restored?)`,
  };
}

/**
 * Whether the store's hashes of the complete subtrees of `signed.size` (treeHashIndexes order) still
 * make the signed root: a receipt rewritten with its stored hashes recomputed changes that root.
 */
export function keptHistory(signed: SignedTree, storedSubtrees: readonly Hash[]): LogFork | null {
  const root = rootFromSubtrees(storedSubtrees);
  if (sameBytes(root, signed.root)) return null;
  return {
    code: 'history_rewritten',
    reason: `the store's first ${signed.size} entries hash to root ${toHex(root)}, but size ${signed.size} was signed with root ${toHex(signed.root)}: the store's history was rewritten`,
  };
}

/**
 * Whether `newer` (a checkpoint another instance signed with this log's key) extends `older` (the
 * last this instance knows it signed), by the consistency proof made from the store's hashes.
 */
export function extendsSigned(older: SignedTree, newer: SignedTree, proof: readonly Hash[]): LogFork | null {
  const verdict = verifyConsistency(older.size, newer.size, proof, older.root, newer.root);
  if (verdict.ok) return null;
  return { code: 'not_consistent', reason: `the stored checkpoint of size ${newer.size} does not extend the signed size ${older.size}: ${verdict.reason}` };
}

export interface NextTreeInput {
  /** The last signed tree, whose stored subtrees keptHistory has accepted. */
  signed: SignedTree;
  /** The store's hashes of the complete subtrees of `signed.size`, left to right. */
  signedSubtrees: readonly Hash[];
  /** The entries [signed.size, signed.size + entries.length) as the store's receipts make them now; undefined where the receipt is gone. */
  entries: ReadonlyArray<Uint8Array | undefined>;
  /** The store's leaf hashes of those entries, in order. */
  storedLeaves: readonly Hash[];
  /** The root the store's hashes make at the new size. */
  storedRoot: Hash;
}

/**
 * The tree to sign next: the signed tree with the new entries' leaves appended, each leaf hashed from
 * its receipt; refused when a receipt is gone, when a stored leaf is not its receipt's hash, or when
 * the store's hashes make another root (tiles and proofs are served from them).
 */
export function nextTree(input: NextTreeInput): { ok: true; tree: SignedTree } | { ok: false; fork: LogFork } {
  const { signed, entries } = input;
  const size = signed.size + entries.length;
  if (input.storedLeaves.length !== entries.length) throw new RangeError(`tlog: ${entries.length} new entries, ${input.storedLeaves.length} stored leaves`);
  let range: readonly Hash[] = input.signedSubtrees;
  for (const [i, entry] of entries.entries()) {
    const index = signed.size + i;
    if (entry === undefined) {
      return { ok: false, fork: { code: 'entry_missing', reason: `entry ${index} has no receipt in the store, so size ${size} cannot be signed over it` } };
    }
    const leaf = leafHash(entry);
    if (!sameBytes(leaf, input.storedLeaves[i]!)) {
      return { ok: false, fork: { code: 'entry_rewritten', reason: `the receipt of entry ${index} hashes to leaf ${toHex(leaf)}, but the store keeps leaf ${toHex(input.storedLeaves[i]!)}: it was changed after it was logged` } };
    }
    range = appendToRange(index, range, leaf);
  }
  const root = rootFromSubtrees(range);
  if (!sameBytes(root, input.storedRoot)) {
    return {
      ok: false,
      fork: { code: 'stored_hashes_wrong', reason: `the receipts of entries 0-${size - 1} make root ${toHex(root)} over the signed size ${signed.size}, but the store's hashes make ${toHex(input.storedRoot)}` },
    };
  }
  return { ok: true, tree: { size, root } };
}
