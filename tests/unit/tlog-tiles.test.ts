/**
 * c2sp.org/tlog-tiles for the receipt log (src/domain/tlog/tiles.ts): the tiles a tree publishes and
 * their bodies, read from the hashes tree.ts's append functions store, against the tree computed
 * level by level and sliced (tests/unit/tlog-reference.ts), for the sizes where tiles begin, fill
 * and spill over, and the spec's worked example of 70,000 records; the path grammar both ways and
 * each spelling it refuses; entry bundles both ways and each malformed one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkTileResource,
  decodeEntryBundle,
  encodeEntryBundle,
  formatEntryBundlePath,
  formatTileIndex,
  formatTilePath,
  parseTileBody,
  parseTilePath,
  publishedEntryBundles,
  publishedTiles,
  tileAt,
  tileBody,
  tileHashIndexes,
  type Tile,
  type TileResource,
} from '../../src/domain/tlog/tiles.ts';
import { storedHashCount } from '../../src/domain/tlog/tree.ts';
import { entry, hex, naiveLeafHash, naiveLevels, reader, storedHashes } from './tlog-reference.ts';

const LEAVES = Array.from({ length: 70000 }, (_, i) => naiveLeafHash(entry(i)));
const STORED = storedHashes(LEAVES);

const concat = (hashes: readonly Uint8Array[]) => hex(Buffer.concat(hashes));

describe('tiles a tree publishes, and their bodies', () => {
  for (const size of [1, 255, 256, 257, 65536, 70000]) {
    it(`matches the tree computed level by level, for ${size} records`, () => {
      // Level-L tile hashes are the complete subtrees of 256^L records: tree level 8L, cut in 256s.
      const levels = naiveLevels(LEAVES.slice(0, size));
      const expected: Array<Tile & { body: string }> = [];
      for (let level = 0; 8 * level < levels.length && levels[8 * level]!.length > 0; level++) {
        const hashes = levels[8 * level]!;
        for (let n = 0; n * 256 < hashes.length; n++) {
          const slice = hashes.slice(n * 256, (n + 1) * 256);
          expected.push({ level, n, width: slice.length, body: concat(slice) });
        }
      }
      const read = reader(STORED, storedHashCount(size));
      const published = publishedTiles(size).map((tile) => ({ ...tile, body: hex(tileBody(read(tileHashIndexes(tile)))) }));
      expect(published.map(({ level, n, width }) => ({ level, n, width }))).toEqual(expected.map(({ level, n, width }) => ({ level, n, width })));
      for (const [i, tile] of published.entries()) expect(tile.body, `tile ${tile.level}/${tile.n}`).toBe(expected[i]!.body);
    });
  }

  it('publishes for 70,000 records what the spec says', () => {
    const full = (level: number, n: number) => ({ level, n, width: 256 });
    expect(publishedTiles(70000)).toEqual([
      ...Array.from({ length: 273 }, (_, n) => full(0, n)),
      { level: 0, n: 273, width: 112 },
      full(1, 0),
      { level: 1, n: 1, width: 17 },
      { level: 2, n: 0, width: 1 },
    ]);
    expect(publishedTiles(256)).toEqual([full(0, 0), { level: 1, n: 0, width: 1 }]);
    expect(publishedTiles(0)).toEqual([]);
    expect(publishedEntryBundles(70000)).toEqual([...Array.from({ length: 273 }, (_, n) => ({ n, width: 256 })), { n: 273, width: 112 }]);
  });

  it('reads a tile body back as its hashes', () => {
    const tile = { level: 0, n: 1, width: 3 };
    const body = tileBody(reader(STORED, STORED.length)(tileHashIndexes(tile)));
    expect(parseTileBody(body, 3)).toEqual({ ok: true, hashes: LEAVES.slice(256, 259) });
    expect(parseTileBody(body.slice(1), 3)).toEqual({ ok: false, reason: 'the tile body is 95 bytes; 3 hashes are 96' });
    expect(() => tileBody([])).toThrow(RangeError);
    expect(() => tileHashIndexes({ level: 0, n: 0, width: 0 })).toThrow(RangeError);
    expect(() => tileHashIndexes({ level: 64, n: 0, width: 1 })).toThrow(RangeError);
  });
});

describe('which tile a tree has', () => {
  it('gives the tile at a level and index, full or as wide as it is', () => {
    expect(tileAt(0, 0, 70000)).toEqual({ level: 0, n: 0, width: 256 });
    expect(tileAt(0, 273, 70000)).toEqual({ level: 0, n: 273, width: 112 });
    expect(tileAt(0, 274, 70000)).toBeNull();
    expect(tileAt(1, 1, 70000)).toEqual({ level: 1, n: 1, width: 17 });
    expect(tileAt(2, 0, 70000)).toEqual({ level: 2, n: 0, width: 1 });
    expect(tileAt(3, 0, 70000)).toBeNull();
    expect(tileAt(0, 0, 0)).toBeNull();
  });

  it('serves what the tree has, and says why it does not serve the rest', () => {
    const check = (path: string, size: number) => {
      const parsed = parseTilePath(path);
      if (!parsed.ok) throw new Error(parsed.reason);
      return checkTileResource(parsed.resource, size);
    };
    expect(check('tile/0/000', 256)).toEqual({ ok: true });
    expect(check('tile/0/273.p/112', 70000)).toEqual({ ok: true });
    expect(check('tile/0/273.p/5', 70000)).toEqual({ ok: true });
    expect(check('tile/0/000.p/5', 70000)).toEqual({ ok: true });
    expect(check('tile/entries/273.p/112', 70000)).toEqual({ ok: true });
    expect(check('tile/2/000.p/1', 70000)).toEqual({ ok: true });
    expect(check('tile/0/273', 70000)).toEqual({ ok: false, reason: 'level-0 tile 273 is partial in the tree of size 70000: 112 wide, at tile/0/273.p/112' });
    expect(check('tile/0/273.p/113', 70000)).toEqual({ ok: false, reason: 'tile/0/273.p/113 is wider than the 112 the tree of size 70000 has there' });
    expect(check('tile/0/274.p/1', 70000)).toEqual({ ok: false, reason: 'level-0 tile 274 is beyond the tree of size 70000' });
    expect(check('tile/3/000.p/1', 70000)).toEqual({ ok: false, reason: 'the tree of size 70000 has no level-3 tiles yet' });
    expect(check('tile/63/000.p/1', 70000).ok).toBe(false);
    expect(check('tile/entries/000.p/1', 0)).toEqual({ ok: false, reason: 'the log has no entries yet' });
    expect(check('tile/entries/001', 300)).toEqual({ ok: false, reason: 'entry bundle 1 is partial in the tree of size 300: 44 wide, at tile/entries/001.p/44' });
    expect(check('tile/1/000', 65535)).toEqual({ ok: false, reason: 'level-1 tile 0 is partial in the tree of size 65535: 255 wide, at tile/1/000.p/255' });
    expect(check('tile/1/000', 65536)).toEqual({ ok: true });
  });
});

describe('tile paths', () => {
  it('writes N in x-prefixed groups of three digits', () => {
    expect(formatTileIndex(0)).toBe('000');
    expect(formatTileIndex(7)).toBe('007');
    expect(formatTileIndex(999)).toBe('999');
    expect(formatTileIndex(1000)).toBe('x001/000');
    expect(formatTileIndex(1234067)).toBe('x001/x234/067');
    expect(formatTilePath({ level: 0, n: 1234067, width: 256 })).toBe('tile/0/x001/x234/067');
    expect(formatTilePath({ level: 2, n: 1234067, width: 8 })).toBe('tile/2/x001/x234/067.p/8');
    expect(formatEntryBundlePath({ n: 1234067, width: 256 })).toBe('tile/entries/x001/x234/067');
    expect(formatEntryBundlePath({ n: 5, width: 1 })).toBe('tile/entries/005.p/1');
    expect(parseTilePath('tile/1/x001/x234/067.p/8')).toEqual({ ok: true, resource: { kind: 'tile', level: 1, n: 1234067, width: 8 } });
  });

  it('reads back every path it writes, and writes back every path it reads', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 0, max: 63 }),
        fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.maxSafeNat()),
        fc.oneof(fc.constant(256), fc.integer({ min: 1, max: 255 })),
        (entries, level, n, width) => {
          const resource: TileResource = entries ? { kind: 'entries', n, width } : { kind: 'tile', level, n, width };
          const path = entries ? formatEntryBundlePath(resource) : formatTilePath(resource as Tile);
          const parsed = parseTilePath(path);
          expect(parsed).toEqual({ ok: true, resource });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['tile/0', /^'tile\/0' is not tile/],
    ['tiles/0/000', /is not tile/],
    ['/tile/0/000', /is not tile/],
    ['tile/00/000', /^tile level '00' has a leading zero$/],
    ['tile/64/000', /^tile level 64 is above 63$/],
    ['tile/-1/000', /^tile level '-1' is not a decimal number or 'entries'$/],
    ['tile/data/000', /^tile level 'data' is not a decimal number or 'entries'$/],
    ['tile/0/00', /^tile index element '00' is not three digits/],
    ['tile/0/0000', /^tile index element '0000' is not three digits/],
    ['tile/0/x000', /^tile index element 'x000' is not three digits/],
    ['tile/0/001/002', /^tile index element '001' is not 'x' and three digits/],
    ['tile/0/x1/002', /^tile index element 'x1' is not 'x' and three digits/],
    ['tile/0/x000/002', /^tile index x000\/002 starts with x000: the index has a shorter spelling$/],
    ['tile/0/x000/x001/002', /starts with x000/],
    ['tile/0/000/', /^tile index element '000' is not 'x' and three digits/],
    ['tile/0//000', /^tile index element '' is not 'x' and three digits/],
    ['tile/0/000.p/0', /^partial tile width 0: empty tiles are not served$/],
    ['tile/0/000.p/256', /^partial tile width 256 is not below 256/],
    ['tile/0/000.p/300', /^partial tile width 300 is not below 256/],
    ['tile/0/000.p/07', /^partial tile width '07' has a leading zero$/],
    ['tile/0/000.p/+7', /^partial tile width '\+7' is not a decimal number$/],
    ['tile/0/000.p/', /^partial tile width '' is not a decimal number$/],
    ['tile/0/000.p', /^tile index element '000.p' is not three digits/],
    ['tile/0/000.q/5', /^tile index element '000.q' is not 'x' and three digits/],
    ['tile/entries/000.p/0', /^partial tile width 0/],
    ['tile/entries/x000/000', /starts with x000/],
    ['tile/0/x009/x007/x199/x254/x740/x993/000', /^tile index .* is beyond 2\^53$/],
  ])('refuses %s', (path, reason) => {
    const parsed = parseTilePath(path);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });
});

describe('entry bundles', () => {
  it('prefixes each entry with its big-endian uint16 length', () => {
    expect(hex(encodeEntryBundle([Uint8Array.of(0x61), new Uint8Array(), new Uint8Array(0x0102).fill(7)]))).toBe('000161' + '0000' + '0102' + '07'.repeat(0x0102));
  });

  it('reads back every bundle it writes', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 256 }), (entries) => {
        expect(decodeEntryBundle(encodeEntryBundle(entries), entries.length)).toEqual({ ok: true, entries });
      }),
      { numRuns: 200 },
    );
    const largest = [new Uint8Array(0xffff).fill(1), new Uint8Array()];
    expect(decodeEntryBundle(encodeEntryBundle(largest))).toEqual({ ok: true, entries: largest });
  });

  it('refuses malformed bundles, saying where', () => {
    const bundle = encodeEntryBundle([Uint8Array.of(1, 2, 3), Uint8Array.of(4)]);
    expect(decodeEntryBundle(new Uint8Array())).toEqual({ ok: false, reason: 'the entry bundle is empty' });
    expect(decodeEntryBundle(bundle.slice(0, -1))).toEqual({ ok: false, reason: 'entry 1 is 1 bytes but only 0 follow its length prefix' });
    expect(decodeEntryBundle(bundle.slice(0, 6))).toEqual({ ok: false, reason: "entry 1's length prefix is cut short at byte 5" });
    expect(decodeEntryBundle(Uint8Array.of(...bundle, 0))).toEqual({ ok: false, reason: "entry 2's length prefix is cut short at byte 8" });
    expect(decodeEntryBundle(Uint8Array.of(...bundle, 0, 5))).toEqual({ ok: false, reason: 'entry 2 is 5 bytes but only 0 follow its length prefix' });
    expect(decodeEntryBundle(bundle, 3)).toEqual({ ok: false, reason: 'the entry bundle holds 2 entries, its path says 3' });
    expect(decodeEntryBundle(new Uint8Array(2 * 257))).toEqual({ ok: false, reason: 'the entry bundle has bytes after its 256th entry, at byte 512' });
    expect(decodeEntryBundle(bundle, 2).ok).toBe(true);
  });

  it('will not write a bundle it could not read back', () => {
    expect(() => encodeEntryBundle([])).toThrow(RangeError);
    expect(() => encodeEntryBundle(Array.from({ length: 257 }, () => new Uint8Array()))).toThrow(RangeError);
    expect(() => encodeEntryBundle([new Uint8Array(0x10000)])).toThrow(/entry 0 is 65536 bytes/);
  });
});
