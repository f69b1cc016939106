/**
 * The receipt log as c2sp.org/tlog-tiles publishes it: the tree's hashes cut into tiles of height
 * 8 (256 hashes), served at `tile/<L>/<N>[.p/<W>]`, and the entries in entry bundles at
 * `tile/entries/<N>[.p/<W>]`. A full tile never changes, so the HTTP layer serves it like a static
 * file; this module decides, from a path and a tree size alone, whether the path is well formed
 * (else 400) and whether the tree has that tile (else 404), and which stored hashes make its body,
 * so no tile is ever recomputed. The path grammar is checked strictly: one spelling per tile, so a
 * cache never holds two copies of one.
 */
import { storedHashIndex, HASH_SIZE, type Hash } from './tree.ts';

/** Tile height: a tile spans 8 levels of the tree, so a full tile holds 2^8 hashes. */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;
/** The spec's bound on L. */
export const MAX_TILE_LEVEL = 63;
/** An entry in a bundle is prefixed with a big-endian uint16 length. */
export const MAX_ENTRY_SIZE = 0xffff;

/** Level-`level` tile `n`, `width` hashes wide (TILE_WIDTH for a full tile). */
export interface Tile {
  readonly level: number;
  readonly n: number;
  readonly width: number;
}

/** Entry bundle `n`: the entries whose leaf hashes are level-0 tile `n`, `width` of them. */
export interface EntryBundle {
  readonly n: number;
  readonly width: number;
}

/** What a tile path names. */
export type TileResource = ({ readonly kind: 'tile' } & Tile) | ({ readonly kind: 'entries' } & EntryBundle);

export type Verdict = { ok: true } | { ok: false; reason: string };

const isCount = (n: number) => Number.isSafeInteger(n) && n >= 0;

/** How many hashes the tree of `size` records has at tile level `level`: its complete subtrees of 256^level records. */
const hashesAtLevel = (level: number, size: number) => Math.floor(size / TILE_WIDTH ** level);

function checkTile(tile: Tile): void {
  if (!Number.isInteger(tile.level) || tile.level < 0 || tile.level > MAX_TILE_LEVEL || !isCount(tile.n) || !Number.isInteger(tile.width) || tile.width < 1 || tile.width > TILE_WIDTH) {
    throw new RangeError(`tlog: no tile at level ${tile.level}, index ${tile.n}, width ${tile.width}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Paths

/** N as the spec writes it: 3-digit groups, every group but the last prefixed with `x` (1234067 is x001/x234/067). */
export function formatTileIndex(n: number): string {
  if (!isCount(n)) throw new RangeError(`tlog: no tile index ${n}`);
  let digits = String(n);
  digits = digits.padStart(Math.ceil(digits.length / 3) * 3, '0');
  const groups: string[] = [];
  for (let i = 0; i < digits.length; i += 3) groups.push(digits.slice(i, i + 3));
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

const widthSuffix = (width: number) => (width === TILE_WIDTH ? '' : `.p/${width}`);

/** `tile/<L>/<N>[.p/<W>]`. */
export function formatTilePath(tile: Tile): string {
  checkTile(tile);
  return `tile/${tile.level}/${formatTileIndex(tile.n)}${widthSuffix(tile.width)}`;
}

/** `tile/entries/<N>[.p/<W>]`. */
export function formatEntryBundlePath(bundle: EntryBundle): string {
  checkTile({ level: 0, ...bundle });
  return `tile/entries/${formatTileIndex(bundle.n)}${widthSuffix(bundle.width)}`;
}

export type ParsedTilePath = { ok: true; resource: TileResource } | { ok: false; reason: string };

const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/**
 * The tile or entry bundle a path (relative to the log's prefix, no leading slash) names, or why
 * it is not a path the spec allows. Says nothing of whether the tree has it: see checkTileResource.
 */
export function parseTilePath(path: string): ParsedTilePath {
  const parts = path.split('/');
  if (parts[0] !== 'tile' || parts.length < 3) return refuse(`'${path}' is not tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>]`);
  const levelPart = parts[1]!;
  let rest = parts.slice(2);

  let width = TILE_WIDTH;
  // Stryker disable next-line StringLiteral: with one element there is no width suffix, and any string that does not end in '.p' says so
  const beforeLast = rest.length >= 2 ? rest[rest.length - 2]! : '';
  if (beforeLast.endsWith('.p')) {
    const widthPart = rest[rest.length - 1]!;
    if (!/^[0-9]+$/.test(widthPart)) return refuse(`partial tile width '${widthPart}' is not a decimal number`);
    if (widthPart.length > 1 && widthPart.startsWith('0')) return refuse(`partial tile width '${widthPart}' has a leading zero`);
    width = Number(widthPart);
    if (width === 0) return refuse('partial tile width 0: empty tiles are not served');
    if (width >= TILE_WIDTH) return refuse(`partial tile width ${widthPart} is not below ${TILE_WIDTH} (a full tile has no .p/ suffix)`);
    rest = [...rest.slice(0, -2), beforeLast.slice(0, -'.p'.length)];
  }

  let n = 0;
  for (const [i, group] of rest.entries()) {
    const last = i === rest.length - 1;
    if (!(last ? /^[0-9]{3}$/ : /^x[0-9]{3}$/).test(group)) {
      return refuse(`tile index element '${group}' is not ${last ? 'three digits (the last element)' : "'x' and three digits (every element but the last)"}`);
    }
    if (i === 0 && !last && group === 'x000') return refuse(`tile index ${rest.join('/')} starts with x000: the index has a shorter spelling`);
    n = n * 1000 + Number(last ? group : group.slice(1));
  }
  if (!Number.isSafeInteger(n)) return refuse(`tile index ${rest.join('/')} is beyond 2^53`);

  if (levelPart === 'entries') return { ok: true, resource: { kind: 'entries', n, width } };
  if (!/^[0-9]+$/.test(levelPart)) return refuse(`tile level '${levelPart}' is not a decimal number or 'entries'`);
  if (levelPart.length > 1 && levelPart.startsWith('0')) return refuse(`tile level '${levelPart}' has a leading zero`);
  const level = Number(levelPart);
  if (level > MAX_TILE_LEVEL) return refuse(`tile level ${levelPart} is above ${MAX_TILE_LEVEL}`);
  return { ok: true, resource: { kind: 'tile', level, n, width } };
}

// ---------------------------------------------------------------------------------------------
// Which tiles a tree has

/**
 * The tile the tree of `size` records has at level `level`, index `n`: full, or partial with the
 * hashes it has so far; null where it has none.
 */
export function tileAt(level: number, n: number, size: number): Tile | null {
  // No bound on the level: above level 6 no tree of at most 2^53 records has a hash (256^7 = 2^56), so the width is 0 there.
  if (!Number.isInteger(level) || level < 0 || !isCount(n) || !isCount(size)) return null;
  const width = Math.min(TILE_WIDTH, hashesAtLevel(level, size) - n * TILE_WIDTH);
  return width > 0 ? { level, n, width } : null;
}

/**
 * Whether the tree of `size` records serves what a tile path names, and if not why (the HTTP layer
 * answers 404). A partial tile is a prefix of hashes that never change, so any width up to what the
 * tree has is served, also where the tile is full by now: a client holding an older checkpoint
 * asks for the width that checkpoint had.
 */
export function checkTileResource(resource: TileResource, size: number): Verdict {
  if (!isCount(size)) throw new RangeError(`tlog: no tree of size ${size}`);
  const level = resource.kind === 'tile' ? resource.level : 0;
  const name = resource.kind === 'tile' ? `level-${level} tile ${resource.n}` : `entry bundle ${resource.n}`;
  const path = resource.kind === 'tile' ? formatTilePath(resource) : formatEntryBundlePath(resource);
  const count = hashesAtLevel(level, size);
  if (count === 0) {
    return refuse(resource.kind === 'tile' ? `the tree of size ${size} has no level-${level} tiles yet` : 'the log has no entries yet');
  }
  const has = tileAt(level, resource.n, size);
  if (!has) return refuse(`${name} is beyond the tree of size ${size}`);
  if (resource.width === TILE_WIDTH && has.width < TILE_WIDTH) return refuse(`${name} is partial in the tree of size ${size}: ${has.width} wide, at ${path}.p/${has.width}`);
  if (resource.width > has.width) return refuse(`${path} is wider than the ${has.width} the tree of size ${size} has there`);
  return { ok: true };
}

/** Every tile the tree of `size` records publishes, at its current width, level by level. */
export function publishedTiles(size: number): Tile[] {
  if (!isCount(size)) throw new RangeError(`tlog: no tree of size ${size}`);
  const tiles: Tile[] = [];
  // Up to the first level with no hashes: at most 7 levels, as 256^7 = 2^56 records is beyond any size.
  for (let level = 0; hashesAtLevel(level, size) > 0; level++) {
    const count = hashesAtLevel(level, size);
    for (let n = 0; n * TILE_WIDTH < count; n++) tiles.push({ level, n, width: Math.min(TILE_WIDTH, count - n * TILE_WIDTH) });
  }
  return tiles;
}

/** Every entry bundle the tree of `size` records publishes: one per level-0 tile, as wide. */
export const publishedEntryBundles = (size: number): EntryBundle[] =>
  publishedTiles(size)
    .filter((tile) => tile.level === 0)
    .map(({ n, width }) => ({ n, width }));

// ---------------------------------------------------------------------------------------------
// Tile bodies

/**
 * The stored hashes whose concatenation is the tile's body: level-L tile N holds the hashes of the
 * complete subtrees of 256^L records at tree level 8L, nodes 256N to 256N + W - 1.
 */
export function tileHashIndexes(tile: Tile): number[] {
  checkTile(tile);
  // Stryker disable next-line ArrayDeclaration: a preallocation only; the array is filled to the same length either way
  const indexes: number[] = new Array(tile.width);
  for (let i = 0; i < tile.width; i++) indexes[i] = storedHashIndex(TILE_HEIGHT * tile.level, tile.n * TILE_WIDTH + i);
  return indexes;
}

/** The body of a tile from the hashes at tileHashIndexes, in that order. */
export function tileBody(hashes: readonly Hash[]): Uint8Array {
  if (hashes.length < 1 || hashes.length > TILE_WIDTH) throw new RangeError(`tlog: a tile holds 1 to ${TILE_WIDTH} hashes, not ${hashes.length}`);
  const body = new Uint8Array(hashes.length * HASH_SIZE);
  hashes.forEach((hash, i) => {
    if (hash.length !== HASH_SIZE) throw new RangeError(`tlog: a stored hash is ${hash.length} bytes, not ${HASH_SIZE}`);
    body.set(hash, i * HASH_SIZE);
  });
  return body;
}

/** The hashes of a tile body a client fetched, `width` of them (what its path says). */
export function parseTileBody(body: Uint8Array, width: number): { ok: true; hashes: Hash[] } | { ok: false; reason: string } {
  if (body.length !== width * HASH_SIZE) return refuse(`the tile body is ${body.length} bytes; ${width} hashes are ${width * HASH_SIZE}`);
  const hashes: Hash[] = [];
  for (let i = 0; i < width; i++) hashes.push(body.slice(i * HASH_SIZE, (i + 1) * HASH_SIZE));
  return { ok: true, hashes };
}

// ---------------------------------------------------------------------------------------------
// Entry bundles

/** An entry bundle's body: each entry prefixed with its length as a big-endian uint16. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  if (entries.length < 1 || entries.length > TILE_WIDTH) throw new RangeError(`tlog: an entry bundle holds 1 to ${TILE_WIDTH} entries, not ${entries.length}`);
  let length = 0;
  for (const [i, entry] of entries.entries()) {
    if (entry.length > MAX_ENTRY_SIZE) throw new RangeError(`tlog: entry ${i} is ${entry.length} bytes; an entry bundle holds entries of at most ${MAX_ENTRY_SIZE}`);
    length += 2 + entry.length;
  }
  const body = new Uint8Array(length);
  let at = 0;
  for (const entry of entries) {
    body[at] = entry.length >> 8;
    body[at + 1] = entry.length & 0xff;
    body.set(entry, at + 2);
    at += 2 + entry.length;
  }
  return body;
}

/**
 * The entries of an entry bundle, refusing a body that is cut short, has bytes after its last
 * entry, or holds a number of entries other than `width` (what its path says) when given.
 */
export function decodeEntryBundle(body: Uint8Array, width?: number): { ok: true; entries: Uint8Array[] } | { ok: false; reason: string } {
  const entries: Uint8Array[] = [];
  let at = 0;
  while (at < body.length) {
    if (entries.length === TILE_WIDTH) return refuse(`the entry bundle has bytes after its ${TILE_WIDTH}th entry, at byte ${at}`);
    if (at + 2 > body.length) return refuse(`entry ${entries.length}'s length prefix is cut short at byte ${at}`);
    const length = (body[at]! << 8) | body[at + 1]!;
    if (at + 2 + length > body.length) return refuse(`entry ${entries.length} is ${length} bytes but only ${body.length - at - 2} follow its length prefix`);
    entries.push(body.slice(at + 2, at + 2 + length));
    at += 2 + length;
  }
  if (entries.length === 0) return refuse('the entry bundle is empty');
  if (width !== undefined && entries.length !== width) return refuse(`the entry bundle holds ${entries.length} entries, its path says ${width}`);
  return { ok: true, entries };
}
