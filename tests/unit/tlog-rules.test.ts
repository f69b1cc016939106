/**
 * The rules of the receipt log's domain code (src/domain/tlog/) that the broader tests reach only on
 * their way to something else, pinned where they live: each bound from both sides, each refusal
 * with an input that breaks it and nothing else, each answer against known values. Each test fails
 * with its rule removed or its boundary moved (the mutation run, stryker.config.mjs, checks that).
 * The stored hash layout is golang.org/x/mod/sumdb/tlog's: StoredHashIndex and its inverse.
 */
import { describe, expect, it } from 'vitest';
import { consistencyProof, consistencyProofIndexes, consistencyProofLength, inclusionProofLength, verifyConsistency } from '../../src/domain/tlog/proofs.ts';
import {
  checkTileResource,
  formatEntryBundlePath,
  formatTileIndex,
  formatTilePath,
  parseTilePath,
  publishedTiles,
  tileAt,
  tileBody,
  tileHashIndexes,
  type Tile,
} from '../../src/domain/tlog/tiles.ts';
import { formatTlogProof, parseTlogProof, TLOG_PROOF_HEADER } from '../../src/domain/tlog/tlog-proof-text.ts';
import {
  appendHashes,
  appendReadIndexes,
  EMPTY_TREE_HASH,
  leafHash,
  nodeHash,
  storedHashIndex,
  subtreeIndexes,
  trailingZeros,
} from '../../src/domain/tlog/tree.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const bytes = (length: number, fill = 7) => new Uint8Array(length).fill(fill);
const HASH = bytes(32, 1);
const OTHER = bytes(32, 2);

// ---------------------------------------------------------------------------------------------
// tiles.ts

describe('tile indexes: whole numbers from 0 to 2^53 - 1', () => {
  it('writes the bounds', () => {
    expect(formatTileIndex(0)).toBe('000');
    expect(formatTileIndex(MAX_SAFE)).toBe('x009/x007/x199/x254/x740/991');
  });

  it.each([-1, 0.5, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY])('refuses to write %s', (n) => {
    expect(() => formatTileIndex(n)).toThrow(RangeError);
  });
});

describe('which tiles exist: level 0 to 63, index a count, width 1 to 256', () => {
  const cases: Array<[string, Tile]> = [
    ['level -1', { level: -1, n: 0, width: 256 }],
    ['level 0.5', { level: 0.5, n: 0, width: 256 }],
    ['level 64', { level: 64, n: 0, width: 256 }],
    ['index -1', { level: 0, n: -1, width: 256 }],
    ['index 0.5', { level: 0, n: 0.5, width: 256 }],
    ['width 0', { level: 0, n: 0, width: 0 }],
    ['width 0.5', { level: 0, n: 0, width: 0.5 }],
    ['width 1.5', { level: 0, n: 0, width: 1.5 }],
    ['width 257', { level: 0, n: 0, width: 257 }],
  ];

  it('accepts each bound', () => {
    expect(formatTilePath({ level: 0, n: 0, width: 256 })).toBe('tile/0/000');
    expect(formatTilePath({ level: 63, n: 0, width: 1 })).toBe('tile/63/000.p/1');
    expect(formatTilePath({ level: 0, n: MAX_SAFE, width: 255 })).toBe('tile/0/x009/x007/x199/x254/x740/991.p/255');
    expect(tileHashIndexes({ level: 0, n: 0, width: 1 })).toEqual([0]);
    expect(tileHashIndexes({ level: 0, n: 0, width: 256 })).toHaveLength(256);
    expect(tileHashIndexes({ level: 63, n: 0, width: 1 })).toHaveLength(1);
    expect(formatEntryBundlePath({ n: 0, width: 1 })).toBe('tile/entries/000.p/1');
    expect(formatEntryBundlePath({ n: 0, width: 256 })).toBe('tile/entries/000');
  });

  it.each(cases)('will not write the path of a tile with %s', (_, tile) => {
    expect(() => formatTilePath(tile)).toThrow(RangeError);
  });

  it.each(cases)('will not name the stored hashes of a tile with %s', (_, tile) => {
    expect(() => tileHashIndexes(tile)).toThrow(RangeError);
  });

  it.each(cases.filter(([, tile]) => tile.level === 0))('will not write the path of an entry bundle with %s', (_, { n, width }) => {
    expect(() => formatEntryBundlePath({ n, width })).toThrow(RangeError);
  });
});

describe('reading a tile path: one spelling per tile', () => {
  const parsesTo = (path: string) => {
    const parsed = parseTilePath(path);
    return parsed.ok ? parsed.resource : null;
  };
  const refusal = (path: string) => {
    const parsed = parseTilePath(path);
    return parsed.ok ? 'accepted' : parsed.reason;
  };

  it('reads partial widths 1 to 255', () => {
    expect(parsesTo('tile/0/000.p/1')).toEqual({ kind: 'tile', level: 0, n: 0, width: 1 });
    expect(parsesTo('tile/0/000.p/255')).toEqual({ kind: 'tile', level: 0, n: 0, width: 255 });
    expect(refusal('tile/0/000.p/256')).toMatch(/^partial tile width 256 is not below 256/);
  });

  it.each(['5a', 'a5', '5 ', '1e2', '0x5'])("refuses the partial width '%s', not all digits", (width) => {
    expect(refusal(`tile/0/000.p/${width}`)).toMatch(/^partial tile width .* is not a decimal number$/);
  });

  it('reads x-prefixed index elements', () => {
    expect(parsesTo('tile/0/x001/000')).toEqual({ kind: 'tile', level: 0, n: 1000, width: 256 });
    expect(parsesTo('tile/0/x999/x999/999')).toEqual({ kind: 'tile', level: 0, n: 999_999_999, width: 256 });
  });

  // '00x001' reads as a number ('0x001' is hex 1), as does 'x0012' ('0012'): only the whole-element match refuses them.
  it.each(['00x001', 'ax001', 'x0012', 'x001a', 'x01', 'y001'])("refuses the index element '%s' before the last", (group) => {
    expect(refusal(`tile/0/${group}/000`)).toMatch(new RegExp(`^tile index element '${group}' is not 'x' and three digits`));
  });

  it.each(['0001', 'a000', '000a', '00', 'x001'])("refuses the last index element '%s'", (group) => {
    expect(refusal(`tile/0/${group}`)).toMatch(new RegExp(`^tile index element '${group}' is not three digits`));
  });

  it('reads levels 0 to 63', () => {
    expect(parsesTo('tile/0/000')).toEqual({ kind: 'tile', level: 0, n: 0, width: 256 });
    expect(parsesTo('tile/63/000')).toEqual({ kind: 'tile', level: 63, n: 0, width: 256 });
    expect(refusal('tile/64/000')).toMatch(/^tile level 64 is above 63$/);
  });

  it.each(['1a', 'a1', '1 ', '1e1', '0x1'])("refuses the level '%s', not all digits", (level) => {
    expect(refusal(`tile/${level}/000`)).toMatch(/^tile level .* is not a decimal number or 'entries'$/);
  });
});

describe('the tile a tree has at a level and index', () => {
  it('has tiles from the first record on, up to the highest level the size reaches', () => {
    expect(tileAt(0, 0, 0)).toBeNull();
    expect(tileAt(0, 0, 1)).toEqual({ level: 0, n: 0, width: 1 });
    expect(tileAt(0, 0, MAX_SAFE)).toEqual({ level: 0, n: 0, width: 256 });
    expect(tileAt(6, 0, 2 ** 48 - 1)).toBeNull();
    expect(tileAt(6, 0, 2 ** 48)).toEqual({ level: 6, n: 0, width: 1 });
    expect(tileAt(6, 0, MAX_SAFE)).toEqual({ level: 6, n: 0, width: 31 });
    expect(tileAt(7, 0, MAX_SAFE)).toBeNull();
    expect(tileAt(63, 0, MAX_SAFE)).toBeNull();
    expect(tileAt(64, 0, MAX_SAFE)).toBeNull();
    expect(tileAt(1000, 0, MAX_SAFE)).toBeNull();
  });

  // Each of these would read as a tile by the arithmetic alone (a level of -1 divides by 256^-1).
  it.each([
    ['level -1', -1, 0, 1],
    ['level 0.5', 0.5, 0, 1000],
    ['index -1', 0, -1, 1],
    ['index 0.5', 0, 0.5, 1000],
    ['size 1.5', 0, 0, 1.5],
    ['size 2^53', 0, 0, 2 ** 53],
    ['size Infinity', 0, 0, Number.POSITIVE_INFINITY],
  ])('has none at %s', (_, level, n, size) => {
    expect(tileAt(level, n, size)).toBeNull();
  });
});

describe('tree sizes are whole numbers from 0 to 2^53 - 1', () => {
  const tile = { kind: 'tile', level: 0, n: 0, width: 256 } as const;

  it('checks a resource against any such size', () => {
    expect(checkTileResource(tile, 0)).toEqual({ ok: false, reason: 'the tree of size 0 has no level-0 tiles yet' });
    expect(checkTileResource(tile, MAX_SAFE)).toEqual({ ok: true });
  });

  it.each([-1, 0.5, 1.5, 2 ** 53, Number.NaN])('throws on checking a resource against the size %s', (size) => {
    expect(() => checkTileResource(tile, size)).toThrow(RangeError);
  });

  // The empty tree last: a loop that does not stop at a level with no hashes never ends there.
  it('lists the tiles of the smallest trees, stopping at the first level with none', () => {
    expect(publishedTiles(1)).toEqual([{ level: 0, n: 0, width: 1 }]);
    expect(publishedTiles(256)).toEqual([
      { level: 0, n: 0, width: 256 },
      { level: 1, n: 0, width: 1 },
    ]);
    expect(publishedTiles(0)).toEqual([]);
  });

  // Not 2^53 or Infinity: a tree that size would list 2^45 tiles.
  it.each([-1, 0.5, 1.5, Number.NaN])('throws on listing the tiles of the size %s', (size) => {
    expect(() => publishedTiles(size)).toThrow(RangeError);
  });
});

describe('a tile body: 1 to 256 hashes of 32 bytes', () => {
  it('joins 1 and 256 hashes', () => {
    expect(tileBody([HASH])).toEqual(HASH);
    expect(tileBody(Array.from({ length: 256 }, () => HASH))).toHaveLength(256 * 32);
  });

  it('refuses no hashes, and 257', () => {
    expect(() => tileBody([])).toThrow(RangeError);
    expect(() => tileBody(Array.from({ length: 257 }, () => HASH))).toThrow(RangeError);
  });

  // A 33-byte hash first still fits the body when a shorter one follows: only the length check refuses it.
  it.each([
    ['31', [bytes(31)]],
    ['33', [bytes(33), bytes(31)]],
    ['0', [HASH, new Uint8Array()]],
  ])('refuses a stored hash of %s bytes', (_, hashes) => {
    expect(() => tileBody(hashes)).toThrow(/a stored hash is/);
  });
});

// ---------------------------------------------------------------------------------------------
// tree.ts

describe('stored hash indexes (golang.org/x/mod/sumdb/tlog)', () => {
  // Appending records 0 to 8 stores, in order: leaf 0, leaf 1, their parent, leaf 2, leaf 3, ...
  const LAYOUT: Array<[number, number, number]> = [
    [0, 0, 0],
    [1, 0, 1],
    [2, 1, 0],
    [3, 0, 2],
    [4, 0, 3],
    [5, 1, 1],
    [6, 2, 0],
    [7, 0, 4],
    [8, 0, 5],
    [9, 1, 2],
    [10, 0, 6],
    [11, 0, 7],
    [12, 1, 3],
    [13, 2, 1],
    [14, 3, 0],
    [15, 0, 8],
  ];

  it.each(LAYOUT)('stores hash %i as level %i, subtree %i', (index, level, n) => {
    expect(storedHashIndex(level, n)).toBe(index);
  });
});

describe('trailing zeros', () => {
  it('counts the factors of 2', () => {
    expect([1, 2, 3, 4, 6, 8, 12, 96, 2 ** 52, 3 * 2 ** 50].map(trailingZeros)).toEqual([0, 1, 0, 2, 1, 3, 2, 5, 52, 50]);
  });

  // Below 1 the loop does not run: for 0, halving would never end.
  it('counts none below 0', () => {
    expect(trailingZeros(-2)).toBe(0);
    expect(trailingZeros(-8)).toBe(0);
  });

  it('counts none in 0, and stops', () => {
    expect(trailingZeros(0)).toBe(0);
  });
});

describe('appending a record', () => {
  it('reads the left siblings of the subtrees the record completes, in index order, and nothing else', () => {
    // Record 7 completes [6, 8), [4, 8) and [0, 8): it reads leaf 6 (10), [4, 6) (9) and [0, 4) (6).
    expect(appendReadIndexes(0)).toStrictEqual([]);
    expect(appendReadIndexes(1)).toStrictEqual([0]);
    expect(appendReadIndexes(2)).toStrictEqual([]);
    expect(appendReadIndexes(3)).toStrictEqual([2, 3]);
    expect(appendReadIndexes(5)).toStrictEqual([7]);
    expect(appendReadIndexes(7)).toStrictEqual([6, 9, 10]);
    for (const n of [0, 1, 3, 7, 15, 1023]) expect(Object.keys(appendReadIndexes(n))).toEqual(Array.from({ length: trailingZeros(n + 1) }, (_, i) => String(i)));
  });

  it('needs exactly the hashes it reads', () => {
    const [leaf0, leaf1, leaf2, leaf3] = [0, 1, 2, 3].map((i) => leafHash(Uint8Array.of(i))) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    expect(appendHashes(0, leaf0, [])).toEqual([leaf0]);
    expect(appendHashes(1, leaf1, [leaf0])).toEqual([leaf1, nodeHash(leaf0, leaf1)]);
    const left = nodeHash(leaf0, leaf1);
    expect(appendHashes(3, leaf3, [left, leaf2])).toEqual([leaf3, nodeHash(leaf2, leaf3), nodeHash(left, nodeHash(leaf2, leaf3))]);
    expect(() => appendHashes(0, leaf0, [leaf1])).toThrow(RangeError);
    expect(() => appendHashes(2, leaf2, [leaf0])).toThrow(RangeError);
    expect(() => appendHashes(1, leaf1, [])).toThrow(RangeError);
    expect(() => appendHashes(3, leaf3, [leaf2])).toThrow(RangeError);
    expect(() => appendHashes(3, leaf3, [left, leaf2, leaf0])).toThrow(RangeError);
  });
});

describe('the complete subtrees of a range of records', () => {
  it('names them, left to right, for a range that starts on a subtree boundary', () => {
    expect(subtreeIndexes(0, 0)).toEqual([]);
    expect(subtreeIndexes(0, 3)).toEqual([2, 3]);
    expect(subtreeIndexes(1, 2)).toEqual([1]);
    expect(subtreeIndexes(2, 4)).toEqual([5]);
    expect(subtreeIndexes(3, 4)).toEqual([4]);
    expect(subtreeIndexes(4, 7)).toEqual([9, 10]);
    expect(subtreeIndexes(6, 8)).toEqual([12]);
    expect(subtreeIndexes(8, 16)).toEqual([storedHashIndex(3, 1)]);
  });

  it.each([
    [1, 3],
    [2, 6],
    [1, 5],
    [4, 12],
    [6, 10],
  ])('refuses [%i, %i), which does not start on a subtree boundary', (lo, hi) => {
    expect(() => subtreeIndexes(lo, hi)).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// proofs.ts

describe('a consistency proof between trees of one size', () => {
  it('is empty, made from no stored hashes', () => {
    for (let size = 0; size <= 20; size++) {
      expect(consistencyProofIndexes(size, size)).toEqual([]);
      expect(consistencyProof(size, size, [])).toEqual([]);
      expect(() => consistencyProof(size, size, [HASH])).toThrow(RangeError);
    }
  });
});

describe('verifying a consistency proof: its sizes and roots', () => {
  const sizesRefused = /^tree sizes .* must be whole numbers/;
  const reasonOf = (verdict: { ok: true } | { ok: false; reason: string }) => (verdict.ok ? 'accepted' : verdict.reason);

  it('accepts the largest size, and the empty tree under any 32-byte new root', () => {
    expect(verifyConsistency(0, MAX_SAFE, [], EMPTY_TREE_HASH, HASH)).toEqual({ ok: true });
    expect(verifyConsistency(MAX_SAFE, MAX_SAFE, [], HASH, HASH)).toEqual({ ok: true });
  });

  // Each pair would verify without the sizes rule: one size is checked, the other not a count.
  it.each([
    ['the new size 1.5', 0, 1.5, [], EMPTY_TREE_HASH, HASH],
    ['the new size 2^53', 0, 2 ** 53, [], EMPTY_TREE_HASH, HASH],
    ['the old size 1.5', 1.5, 2, [HASH, OTHER], HASH, nodeHash(HASH, OTHER)],
    ['both sizes 1.5', 1.5, 1.5, [], HASH, HASH],
    ['both sizes -1', -1, -1, [], HASH, HASH],
    ['both sizes 2^53', 2 ** 53, 2 ** 53, [], HASH, HASH],
  ])('refuses %s', (_, oldSize, newSize, proof, oldRoot, newRoot) => {
    expect(reasonOf(verifyConsistency(oldSize, newSize, proof, oldRoot, newRoot))).toMatch(sizesRefused);
  });

  it('refuses a new root that is not 32 bytes, even from the empty tree', () => {
    expect(reasonOf(verifyConsistency(0, 5, [], EMPTY_TREE_HASH, bytes(31)))).toMatch(/^the new root hash is 31 bytes/);
    expect(reasonOf(verifyConsistency(0, 5, [], EMPTY_TREE_HASH, bytes(33)))).toMatch(/^the new root hash is 33 bytes/);
  });

  it('refuses an old root that is not 32 bytes, even where the proof starts from it unchanged', () => {
    // From 1 record to 2, the old root is the path's first hash and the proof never hashes it into fr.
    const old = bytes(31);
    expect(reasonOf(verifyConsistency(1, 2, [OTHER], old, nodeHash(old, OTHER)))).toMatch(/^the old root hash is 31 bytes/);
    expect(verifyConsistency(1, 2, [OTHER], HASH, nodeHash(HASH, OTHER))).toEqual({ ok: true });
  });
});

// ---------------------------------------------------------------------------------------------
// tlog-proof-text.ts

describe('writing a tlog-proof text', () => {
  const valid = { index: 0, proof: [HASH, OTHER], checkpoint: 'checkpoint\n' };

  it('writes an index from 0 to 2^53 - 1 with 32-byte hashes and a checkpoint ending in a newline', () => {
    expect(formatTlogProof(valid)).toBe(`${TLOG_PROOF_HEADER}\nindex 0\n${Buffer.from(HASH).toString('base64')}\n${Buffer.from(OTHER).toString('base64')}\n\ncheckpoint\n`);
    expect(formatTlogProof({ ...valid, index: MAX_SAFE, proof: [] })).toBe(`${TLOG_PROOF_HEADER}\nindex ${MAX_SAFE}\n\ncheckpoint\n`);
    expect(formatTlogProof({ ...valid, checkpoint: '\n' })).toMatch(/\n\n\n$/);
  });

  it.each([-1, 0.5, 1.5, 2 ** 53, Number.NaN])('refuses the index %s', (index) => {
    expect(() => formatTlogProof({ ...valid, index })).toThrow(/is not an entry index/);
  });

  it.each([
    ['a 31-byte hash', [bytes(31)]],
    ['a 33-byte hash after a 32-byte one', [HASH, bytes(33)]],
    ['an empty hash first', [new Uint8Array(), HASH]],
  ])('refuses %s', (_, proof) => {
    expect(() => formatTlogProof({ ...valid, proof })).toThrow(/inclusion proof hashes are 32 bytes/);
  });

  it.each(['checkpoint', 'checkpoint\n ', ''])('refuses the checkpoint %j, which does not end with a newline', (checkpoint) => {
    expect(() => formatTlogProof({ ...valid, checkpoint })).toThrow(/ends with a newline/);
  });
});

describe('reading a tlog-proof text that stops short', () => {
  const reasonOf = (text: string) => {
    const parsed = parseTlogProof(text);
    return parsed.ok ? 'accepted' : parsed.reason;
  };

  it('reads a text written by formatTlogProof', () => {
    expect(parseTlogProof(formatTlogProof({ index: 3, proof: [HASH], checkpoint: 'c\n' }))).toEqual({ ok: true, index: 3, proof: [HASH], checkpoint: 'c\n' });
  });

  it.each([
    ['nothing', '', /^the first line is not/],
    ['an empty first line', `\n${TLOG_PROOF_HEADER}\nindex 0\n\nc\n`, /^the first line is not/],
    ['the header without a newline', TLOG_PROOF_HEADER, /^the first line is not/],
    ['the header alone', `${TLOG_PROOF_HEADER}\n`, /^the line after the header is not 'index <decimal>'$/],
    ['an index line without a newline', `${TLOG_PROOF_HEADER}\nindex 0`, /^the line after the header is not 'index <decimal>'$/],
    ['the extra line alone', `${TLOG_PROOF_HEADER}\nextra AAAA\n`, /^the line after the header and extra data is not 'index <decimal>'$/],
    ['no empty line after the index', `${TLOG_PROOF_HEADER}\nindex 0\n`, /^the proof has no empty line before its checkpoint$/],
    ['no empty line after a hash', `${TLOG_PROOF_HEADER}\nindex 0\n${Buffer.from(HASH).toString('base64')}\n`, /^the proof has no empty line before its checkpoint$/],
    ['no checkpoint', `${TLOG_PROOF_HEADER}\nindex 0\n\n`, /^the proof has no checkpoint after its empty line$/],
  ])('refuses %s, without throwing', (_, text, reason) => {
    expect(reasonOf(text)).toMatch(reason);
  });
});

describe('proof lengths', () => {
  it('gives the length of an inclusion proof only for a record the tree holds', () => {
    expect(inclusionProofLength(0, 1)).toBe(0);
    expect(inclusionProofLength(4, 5)).toBe(1);
    expect(inclusionProofLength(0, 8)).toBe(3);
    expect(inclusionProofLength(0, Number.MAX_SAFE_INTEGER)).toBe(53);
    for (const [index, size] of [[-1, 5], [5, 5], [0, 0], [0.5, 2], [1, 2.5], [0, 2 ** 53], [NaN, 3]] as const) {
      expect(() => inclusionProofLength(index, size), `${index} in ${size}`).toThrow(RangeError);
    }
  });

  it('gives the length of a consistency proof only from a non-empty smaller tree', () => {
    expect(consistencyProofLength(1, 2)).toBe(1);
    expect(consistencyProofLength(6, 8)).toBe(3);
    expect(consistencyProofLength(4, 8)).toBe(1);
    for (const [oldSize, newSize] of [[0, 5], [5, 5], [6, 5], [1.5, 3], [-1, 3], [1, NaN]] as const) {
      expect(() => consistencyProofLength(oldSize, newSize), `${oldSize} to ${newSize}`).toThrow(new RangeError(`tlog: no consistency proof from size ${oldSize} to size ${newSize} has a length`));
    }
  });
});
