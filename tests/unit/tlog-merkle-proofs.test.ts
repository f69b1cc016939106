/**
 * The receipt log's Merkle tree and its proofs (src/domain/tlog/tree.ts, proofs.ts): RFC 6962's
 * hashes and the known answers transparency-dev/merkle checks (the trees over the eight standard
 * leaves, their inclusion and consistency proofs), then every inclusion proof of every tree of 1 to
 * 300 records and every consistency proof between trees of up to 100 records, each made from the
 * stored hashes and checked against a naive RFC 6962 tree written in tests/unit/tlog-reference.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  consistencyProofIndexes,
  consistencyProofLength,
  inclusionProof,
  inclusionProofIndexes,
  verifyConsistency,
  verifyInclusion,
} from '../../src/domain/tlog/proofs.ts';
import { appendToRange, EMPTY_TREE_HASH, leafHash, nodeHash, rootFromSubtrees, storedHashCount, treeHashIndexes, type Hash } from '../../src/domain/tlog/tree.ts';
import { entry, hex, naiveConsistency, naiveLeafHash, naivePath, naiveRoot, reader, storedHashes, unhex } from './tlog-reference.ts';

// transparency-dev/merkle proof/verify_test.go: the leaves, the roots of the trees of 1 to 8 of them,
// and proofs in those trees (inclusion vectors give the record 1-based, as there).
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(unhex);
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const INCLUSION = [
  { leaf: 1, size: 1, proof: [] },
  {
    leaf: 1,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    leaf: 6,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { leaf: 3, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    leaf: 2,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];
const CONSISTENCY = [
  { size1: 1, size2: 1, proof: [] },
  {
    size1: 1,
    size2: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    size1: 6,
    size2: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    size1: 2,
    size2: 5,
    proof: ['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b'],
  },
  {
    size1: 6,
    size2: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

const KNOWN_LEAF_HASHES = LEAVES.map(leafHash);
const KNOWN_STORED = storedHashes(KNOWN_LEAF_HASHES);
const knownRoot = (size: number) => rootFromSubtrees(reader(KNOWN_STORED, storedHashCount(size))(treeHashIndexes(size)));

const LEAF_HASHES = Array.from({ length: 5000 }, (_, i) => naiveLeafHash(entry(i)));
const STORED = storedHashes(LEAF_HASHES);
const NAIVE_ROOTS = new Map<number, Uint8Array>();
const rootOf = (size: number) => {
  let root = NAIVE_ROOTS.get(size);
  if (!root) NAIVE_ROOTS.set(size, (root = naiveRoot(LEAF_HASHES.slice(0, size))));
  return root;
};

const proveInclusion = (index: number, size: number) => inclusionProof(index, size, reader(STORED, storedHashCount(size))(inclusionProofIndexes(index, size)));
const proveConsistency = (m: number, n: number) => consistencyProof(m, n, reader(STORED, storedHashCount(n))(consistencyProofIndexes(m, n)));
const flipped = (hash: Uint8Array, byte: number, bit: number) => {
  const copy = hash.slice();
  copy[byte % copy.length]! ^= 1 << bit;
  return copy;
};

describe('RFC 6962 hashing', () => {
  it('hashes the empty tree, a leaf and a node as the known answers say', () => {
    expect(hex(EMPTY_TREE_HASH)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(leafHash(new Uint8Array()))).toBe(ROOTS[0]);
    expect(hex(nodeHash(leafHash(LEAVES[0]!), leafHash(LEAVES[1]!)))).toBe(ROOTS[1]);
  });

  it('gives the known roots of the trees over the eight standard leaves, from the stored hashes', () => {
    expect(hex(knownRoot(0))).toBe(hex(EMPTY_TREE_HASH));
    for (let size = 1; size <= 8; size++) {
      expect(hex(knownRoot(size)), `size ${size}`).toBe(ROOTS[size - 1]);
      expect(hex(naiveRoot(KNOWN_LEAF_HASHES.slice(0, size))), `naive, size ${size}`).toBe(ROOTS[size - 1]);
    }
  });

  it('stores the hashes that make the root of every tree of 1 to 1000 records', () => {
    for (let size = 1; size <= 1000; size++) {
      const root = rootFromSubtrees(reader(STORED, storedHashCount(size))(treeHashIndexes(size)));
      expect(hex(root), `size ${size}`).toBe(hex(rootOf(size)));
    }
  });

  it('keeps a compact range whose root is every tree of 1 to 1000 records, and whose hashes are the stored subtrees', () => {
    let range: Hash[] = [];
    for (let size = 1; size <= 1000; size++) {
      range = appendToRange(size - 1, range, STORED[storedHashCount(size - 1)]!);
      expect(hex(rootFromSubtrees(range)), `size ${size}`).toBe(hex(rootOf(size)));
      expect(range.map(hex), `size ${size}`).toEqual(reader(STORED, storedHashCount(size))(treeHashIndexes(size)).map(hex));
    }
  });
});

describe('inclusion proofs', () => {
  it('makes and accepts the known inclusion proofs', () => {
    for (const { leaf, size, proof } of INCLUSION) {
      const index = leaf - 1;
      const made = inclusionProof(index, size, reader(KNOWN_STORED, storedHashCount(size))(inclusionProofIndexes(index, size)));
      expect(made.map(hex), `record ${index} of ${size}`).toEqual(proof);
      expect(verifyInclusion(KNOWN_LEAF_HASHES[index]!, index, size, proof.map(unhex), unhex(ROOTS[size - 1]!))).toEqual({ ok: true });
    }
  });

  it('proves every record of every tree of 1 to 300 records, as RFC 6962 PATH, reading only hashes stored by then', () => {
    for (let size = 1; size <= 300; size++) {
      const root = rootOf(size);
      for (let index = 0; index < size; index++) {
        const proof = proveInclusion(index, size);
        const verdict = verifyInclusion(LEAF_HASHES[index]!, index, size, proof, root);
        if (!verdict.ok) expect.fail(`record ${index} of ${size}: ${verdict.reason}`);
      }
    }
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 }))),
        ([size, index]) => {
          expect(proveInclusion(index, size).map(hex)).toEqual(naivePath(index, LEAF_HASHES.slice(0, size)).map(hex));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('proves records of larger trees too', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: LEAF_HASHES.length }).chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 }))),
        ([size, index]) => {
          expect(verifyInclusion(LEAF_HASHES[index]!, index, size, proveInclusion(index, size), rootOf(size))).toEqual({ ok: true });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a proof with a changed hash, another leaf, another index, size or root, or a hash added or taken away', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 300 }).chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 }))),
        fc.nat(),
        fc.nat(31),
        fc.nat(7),
        ([size, index], which, byte, bit) => {
          const proof = proveInclusion(index, size);
          const root = rootOf(size);
          const leaf = LEAF_HASHES[index]!;
          const changed = proof.map((hash, i) => (i === which % proof.length ? flipped(hash, byte, bit) : hash));
          expect(verifyInclusion(leaf, index, size, changed, root).ok).toBe(false);
          expect(verifyInclusion(flipped(leaf, byte, bit), index, size, proof, root).ok).toBe(false);
          expect(verifyInclusion(LEAF_HASHES[(index + 1) % size]!, index, size, proof, root).ok).toBe(false);
          expect(verifyInclusion(leaf, (index + 1) % size, size, proof, root).ok).toBe(false);
          expect(verifyInclusion(leaf, index, size, proof, flipped(root, byte, bit)).ok).toBe(false);
          expect(verifyInclusion(leaf, index, size + 1, proof, rootOf(size + 1)).ok).toBe(false);
          expect(verifyInclusion(leaf, index, size, proof.slice(0, -1), root).ok).toBe(false);
          expect(verifyInclusion(leaf, index, size, [...proof, root], root).ok).toBe(false);
          expect(verifyInclusion(leaf, index, size, [root, ...proof], root).ok).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('says why it refuses', () => {
    const proof = proveInclusion(5, 8);
    expect(verifyInclusion(LEAF_HASHES[5]!, 8, 8, proof, rootOf(8))).toEqual({ ok: false, reason: 'index 8 is not below the tree size 8' });
    expect(verifyInclusion(LEAF_HASHES[5]!, 5, 8, proof.slice(1), rootOf(8))).toEqual({ ok: false, reason: 'the proof has 2 hashes; record 5 in a tree of size 8 needs 3' });
    expect(verifyInclusion(LEAF_HASHES[5]!, 5, 8, [proof[0]!, proof[1]!.slice(1), proof[2]!], rootOf(8))).toEqual({ ok: false, reason: 'proof hash 1 is 31 bytes, not 32' });
    const wrong = verifyInclusion(LEAF_HASHES[4]!, 5, 8, proof, rootOf(8));
    expect(wrong.ok === false && wrong.reason).toMatch(new RegExp(`^the proof of record 5 leads to root [0-9a-f]{64}, not to ${hex(rootOf(8))} of the tree of size 8$`));
    expect(verifyInclusion(LEAF_HASHES[0]!, 0, 1, [], LEAF_HASHES[0]!)).toEqual({ ok: true });
    expect(verifyInclusion(LEAF_HASHES[0]!, 0, 0, [], EMPTY_TREE_HASH).ok).toBe(false);
    expect(verifyInclusion(LEAF_HASHES[0]!, -1, 1, [], LEAF_HASHES[0]!).ok).toBe(false);
    expect(verifyInclusion(LEAF_HASHES[0]!, 0.5, 1, [], LEAF_HASHES[0]!).ok).toBe(false);
  });

  it('will not make a proof for a record outside the tree, or from the wrong hashes', () => {
    expect(() => inclusionProofIndexes(3, 3)).toThrow(RangeError);
    expect(() => inclusionProofIndexes(-1, 3)).toThrow(RangeError);
    expect(() => inclusionProofIndexes(0, 0)).toThrow(RangeError);
    const hashes = reader(STORED, storedHashCount(8))(inclusionProofIndexes(5, 8));
    expect(() => inclusionProof(5, 8, hashes.slice(1))).toThrow('tlog: fewer stored hashes than the proof needs');
    expect(() => inclusionProof(5, 8, [...hashes, hashes[0]!])).toThrow(`tlog: ${hashes.length + 1} stored hashes given, the proof used ${hashes.length}`);
    expect(() => inclusionProof(5, 8, [hashes[0]!.slice(1), ...hashes.slice(1)])).toThrow('tlog: a stored hash is 31 bytes, not 32');
    // The record boundary from both sides: the last record of a tree has a proof, the size itself none.
    expect(inclusionProof(7, 8, reader(STORED, storedHashCount(8))(inclusionProofIndexes(7, 8)))).toHaveLength(3);
    for (const [index, size] of [[8, 8], [0.5, 8], [0, 8.5], [-1, 8]] as const) {
      expect(() => inclusionProof(index, size, []), `${index} of ${size}`).toThrow(`tlog: record ${index} is not in a tree of size ${size}`);
    }
  });
});

describe('consistency proofs', () => {
  it('makes and accepts the known consistency proofs', () => {
    for (const { size1, size2, proof } of CONSISTENCY) {
      const made = consistencyProof(size1, size2, reader(KNOWN_STORED, storedHashCount(size2))(consistencyProofIndexes(size1, size2)));
      expect(made.map(hex), `${size1} to ${size2}`).toEqual(proof);
      expect(verifyConsistency(size1, size2, proof.map(unhex), unhex(ROOTS[size1 - 1]!), unhex(ROOTS[size2 - 1]!))).toEqual({ ok: true });
    }
  });

  it('proves every tree of up to 100 records a prefix of every larger one, as RFC 6962 PROOF, and no other root', () => {
    for (let n = 0; n <= 100; n++) {
      for (let m = 0; m <= n; m++) {
        const proof = proveConsistency(m, n);
        expect(proof.map(hex), `${m} to ${n}`).toEqual(naiveConsistency(m, LEAF_HASHES.slice(0, n)).map(hex));
        const verdict = verifyConsistency(m, n, proof, rootOf(m), rootOf(n));
        if (!verdict.ok) expect.fail(`${m} to ${n}: ${verdict.reason}`);
        if (m > 0) expect(verifyConsistency(m, n, proof, rootOf(m - 1), rootOf(n)).ok, `${m} to ${n} from another old root`).toBe(false);
        if (m > 0 && m < n) expect(verifyConsistency(m, n, proof, rootOf(m), rootOf(n - 1)).ok, `${m} to ${n} to another new root`).toBe(false);
      }
    }
  });

  it('proves larger trees too, and refuses changed proofs, roots and sizes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: LEAF_HASHES.length }).chain((n) => fc.tuple(fc.integer({ min: 1, max: n - 1 }), fc.constant(n))),
        fc.nat(),
        fc.nat(31),
        fc.nat(7),
        ([m, n], which, byte, bit) => {
          const proof = proveConsistency(m, n);
          const [oldRoot, newRoot] = [rootOf(m), rootOf(n)];
          expect(verifyConsistency(m, n, proof, oldRoot, newRoot)).toEqual({ ok: true });
          const changed = proof.map((hash, i) => (i === which % proof.length ? flipped(hash, byte, bit) : hash));
          expect(verifyConsistency(m, n, changed, oldRoot, newRoot).ok).toBe(false);
          expect(verifyConsistency(m, n, proof, flipped(oldRoot, byte, bit), newRoot).ok).toBe(false);
          expect(verifyConsistency(m, n, proof, oldRoot, flipped(newRoot, byte, bit)).ok).toBe(false);
          expect(verifyConsistency(m, n, proof, newRoot, oldRoot).ok).toBe(false);
          expect(verifyConsistency(m, n, proof.slice(0, -1), oldRoot, newRoot).ok).toBe(false);
          expect(verifyConsistency(m, n, [...proof, newRoot], oldRoot, newRoot).ok).toBe(false);
          expect(verifyConsistency(m, n, [proof[0]!, ...proof], oldRoot, newRoot).ok).toBe(false);
          expect(verifyConsistency(m + 1, n, proof, rootOf(m + 1), newRoot).ok).toBe(false);
          if (m > 1) expect(verifyConsistency(m - 1, n, proof, rootOf(m - 1), newRoot).ok).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('says why it refuses', () => {
    const proof = proveConsistency(6, 8);
    expect(verifyConsistency(8, 6, proof, rootOf(8), rootOf(6))).toEqual({ ok: false, reason: 'the old tree size 8 is larger than the new tree size 6' });
    expect(verifyConsistency(6, 8, [], rootOf(6), rootOf(8))).toEqual({ ok: false, reason: 'the proof has 0 hashes; from size 6 to size 8 needs 3' });
    expect(verifyConsistency(5, 5, [], rootOf(5), rootOf(4))).toEqual({ ok: false, reason: `two different roots for the tree of size 5: ${hex(rootOf(5))} and ${hex(rootOf(4))}` });
    expect(verifyConsistency(5, 5, [rootOf(5)], rootOf(5), rootOf(5))).toEqual({ ok: false, reason: 'the proof has 1 hashes; from size 5 to size 5 it must be empty' });
    expect(verifyConsistency(0, 5, [], rootOf(1), rootOf(5))).toEqual({ ok: false, reason: `the old root ${hex(rootOf(1))} is not the root of the empty tree` });
    expect(verifyConsistency(0, 5, [], EMPTY_TREE_HASH, rootOf(5))).toEqual({ ok: true });
    expect(verifyConsistency(0, 0, [], EMPTY_TREE_HASH, EMPTY_TREE_HASH)).toEqual({ ok: true });
    const old = verifyConsistency(6, 8, proof, rootOf(5), rootOf(8));
    expect(old.ok === false && old.reason).toMatch(/^the proof leads to old root [0-9a-f]{64}, not to [0-9a-f]{64} of the tree of size 6$/);
    const fresh = verifyConsistency(6, 8, proof, rootOf(6), rootOf(7));
    expect(fresh.ok === false && fresh.reason).toMatch(/^the proof leads to new root [0-9a-f]{64}, not to [0-9a-f]{64} of the tree of size 8$/);
    expect(verifyConsistency(6, 8, proof, rootOf(6).slice(1), rootOf(8))).toEqual({ ok: false, reason: 'the old root hash is 31 bytes, not 32' });
  });

  it('will not make a proof from a larger tree to a smaller one, or from the wrong hashes', () => {
    expect(() => consistencyProofIndexes(3, 2)).toThrow('tlog: no consistency proof from size 3 to size 2');
    expect(() => consistencyProof(3, 2, [])).toThrow('tlog: no consistency proof from size 3 to size 2');
    for (const [from, to] of [[-1, 2], [1.5, 2], [1, 2.5]] as const) expect(() => consistencyProof(from, to, []), `${from} to ${to}`).toThrow(`tlog: no consistency proof from size ${from} to size ${to}`);
    const hashes = reader(STORED, storedHashCount(8))(consistencyProofIndexes(6, 8));
    expect(consistencyProof(6, 8, hashes)).toHaveLength(consistencyProofLength(6, 8));
    expect(() => consistencyProof(6, 8, hashes.slice(1))).toThrow('tlog: fewer stored hashes than the proof needs');
    expect(() => consistencyProof(6, 8, [...hashes, hashes[0]!])).toThrow(`stored hashes given, the proof used ${hashes.length}`);
    expect(() => consistencyProof(6, 8, hashes.map((hash, at) => (at === 0 ? hash.slice(1) : hash)))).toThrow('tlog: a stored hash is 31 bytes, not 32');
    // From the empty tree, or to the same size, the proof is empty and takes no hash.
    expect(consistencyProof(0, 8, [])).toEqual([]);
    expect(consistencyProof(8, 8, [])).toEqual([]);
    expect(() => consistencyProof(8, 8, [hashes[0]!])).toThrow(RangeError);
    expect(consistencyProofIndexes(0, 7)).toEqual([]);
    expect(consistencyProofIndexes(7, 7)).toEqual([]);
  });
});
