/**
 * Reading the receipt log's tiles as a reader does (c2sp.org/tlog-tiles), for `agent-economy
 * monitor` and `agent-economy reputation --from-log`: the level-0 hash tiles of a tree, and its entry
 * bundles with every entry checked against its leaf and as a receipt bundle whose id is its own.
 */
import { canonicalJson } from '../domain/canonical-hash.ts';
import { receiptOfflineChecks } from '../domain/receipt-proof.ts';
import { encodeBase64 } from '../domain/tlog/base64.ts';
import { decodeEntryBundle, formatEntryBundlePath, formatTilePath, parseTileBody, tileAt, TILE_WIDTH } from '../domain/tlog/tiles.ts';
import { leafHash, sameBytes, type Hash } from '../domain/tlog/tree.ts';
import { CliError, EXIT_FAILED, fetchBytes } from './output.ts';

/** A refusal of the log: exit 1, the message naming what disagreed. */
export const logFailure = (message: string) => new CliError(message, EXIT_FAILED);

const b64 = encodeBase64;

/** The level-0 leaves of the tree of `size` entries from tile `firstTile` on; `start` is the index of the first. */
export async function readLeaves(logUrl: string, firstTile: number, size: number): Promise<{ start: number; leaves: Hash[]; tiles: Array<{ n: number; width: number }> }> {
  const leaves: Hash[] = [];
  const tiles: Array<{ n: number; width: number }> = [];
  for (let n = firstTile; ; n++) {
    const tile = tileAt(0, n, size);
    if (!tile) break;
    tiles.push(tile);
    const url = `${logUrl}/${formatTilePath(tile)}`;
    const answer = await fetchBytes(url);
    if (answer.status !== 200) throw logFailure(`level-0 tile ${n} (leaves ${n * TILE_WIDTH} to ${n * TILE_WIDTH + tile.width - 1}) cannot be read: ${url} answered HTTP ${answer.status}${answer.problemDetail ? `: ${answer.problemDetail}` : ''}`);
    const body = parseTileBody(answer.bytes, tile.width);
    if (!body.ok) throw logFailure(`level-0 tile ${n} from ${url}: ${body.reason}`);
    leaves.push(...body.hashes);
  }
  return { start: firstTile * TILE_WIDTH, leaves, tiles };
}

/** The entries of `tiles`, each checked against `leafOf(index)`; what is wrong, entry by entry. */
export async function readEntries(logUrl: string, tiles: ReadonlyArray<{ n: number; width: number }>, leafOf: (index: number) => Hash): Promise<{ entries: Map<number, Uint8Array>; problems: string[] }> {
  const problems: string[] = [];
  const entries = new Map<number, Uint8Array>();
  for (const tile of tiles) {
    const url = `${logUrl}/${formatEntryBundlePath(tile)}`;
    const first = tile.n * TILE_WIDTH;
    const last = first + tile.width - 1;
    const answer = await fetchBytes(url);
    if (answer.status !== 200) {
      problems.push(`entries ${first} to ${last} cannot be read: ${url} answered HTTP ${answer.status}${answer.problemDetail ? `: ${answer.problemDetail}` : ''}`);
      continue;
    }
    const bundle = decodeEntryBundle(answer.bytes, tile.width);
    if (!bundle.ok) {
      problems.push(`entries ${first} to ${last}: the entry bundle ${url} is malformed: ${bundle.reason}`);
      continue;
    }
    bundle.entries.forEach((entry, k) => {
      entries.set(first + k, entry);
      problems.push(...entryProblems(first + k, entry, leafOf(first + k)));
    });
  }
  return { entries, problems };
}

/** What is wrong with entry `index`: its bytes are not its leaf, not canonical JSON, or not a receipt bundle whose id is its own. */
export function entryProblems(index: number, entry: Uint8Array, leaf: Hash): string[] {
  const text = new TextDecoder().decode(entry);
  let receiptId = '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
    const id = (parsed as { receiptId?: unknown }).receiptId;
    if (typeof id === 'string') receiptId = ` (receipt ${id.slice(0, 64)})`;
  } catch {
    return [`entry ${index} is not JSON`];
  }
  const hashed = leafHash(entry);
  if (!sameBytes(hashed, leaf)) {
    return [`entry ${index}${receiptId} does not hash to its leaf: SHA-256(0x00 || entry) is ${b64(hashed)}, level-0 tile ${Math.floor(index / TILE_WIDTH)} holds ${b64(leaf)}`];
  }
  const problems: string[] = [];
  if (canonicalJson(parsed) !== text) problems.push(`entry ${index}${receiptId} is not RFC 8785 canonical JSON`);
  for (const check of receiptOfflineChecks(text)) {
    if (!check.ok) problems.push(`entry ${index}${receiptId} is not a valid receipt bundle: ${check.id}: ${check.detail}`);
  }
  return problems;
}
