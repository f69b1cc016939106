/**
 * The receipt transparency log as a service (docs/transparency-log.md): it signs checkpoints over
 * the tree the store keeps (at most one every LOG_CHECKPOINT_INTERVAL_SECONDS, when the log grew),
 * and answers the read path: the newest checkpoint, tiles, and a receipt's tlog-proof. Every
 * instance signs with the same key and stores what it signs, so all of them serve one history.
 */
import type { KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { hex } from '@fleet-sdk/crypto';
import type { ReceiptLogConfig } from '../config/receipt-log.ts';
import type { KeptBundle, LogEntry, ReceiptLogStore, StoredCheckpoint } from '../domain/ports.ts';
import { formatCheckpoint, formatVerifierKey, rawPublicKey, signCheckpoint } from '../domain/tlog/note.ts';
import { inclusionProof, inclusionProofIndexes } from '../domain/tlog/proofs.ts';
import { checkTileResource, encodeEntryBundle, formatEntryBundlePath, parseTilePath, tileBody, tileHashIndexes, TILE_WIDTH, type TileResource } from '../domain/tlog/tiles.ts';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import { receiptLogEntry } from '../domain/receipt-log-entry.ts';
import { inclusionCheck, judgeLogHealth, type LogHealth } from '../domain/tlog/audit.ts';
import { formatTlogProof } from '../domain/tlog/tlog-proof.ts';
import { rootFromSubtrees, storedHashIndex, treeHashIndexes } from '../domain/tlog/tree.ts';
import { sharedWhileRunning } from '../lib/in-flight.ts';
import { everyInterval } from '../lib/rounds.ts';
import { logger } from './logger.ts';

export type TileAnswer =
  /** `encoding` gzip when the bytes are gzipped (an entry bundle of 64 KB or more, whatever the client asked). */
  | { ok: true; bytes: Uint8Array; full: boolean; encoding?: 'gzip' }
  | { ok: false; status: 400 | 404; reason: string }
  /** Entries the log holds whose receipts the store lost: the bundle is withheld, never served with a gap. */
  | { ok: false; status: 503; reason: string; missingIndexes: number[] };

export type ProofAnswer = { status: 'proved'; index: number; proof: string } | { status: 'pending'; index: number; retryAfterSeconds: number } | { status: 'unlogged' };

export interface ReceiptLog {
  readonly origin: string;
  /** The signed-note verifier key (`<name>+<key id>+<base64 key>`) the checkpoints verify with. */
  readonly verifierKey: string;
  /** The newest stored checkpoint. */
  checkpoint(): Promise<StoredCheckpoint | undefined>;
  /** Signs and stores a checkpoint of the log as it is now, unless the newest already covers it. */
  checkpointNow(now?: Date): Promise<StoredCheckpoint | undefined>;
  /** A tile or an entry bundle; an entry bundle of COMPRESS_FROM_BYTES or more comes gzipped. */
  tile(path: string): Promise<TileAnswer>;
  proofOf(receiptId: string): Promise<ProofAnswer>;
  /**
   * Makes and keeps in the store the gzip of up to `limit` full entry bundles not kept at the
   * store's log revision, newest first; how many it made. The checkpointer runs it each round, so a
   * reader walking the log finds every full bundle made already.
   */
  keepBundles(limit: number): Promise<number>;
  /** Whether `bundle`, as given (read from the store now), is included in the newest checkpoint. */
  inclusionOf(bundle: ReceiptBundle): Promise<ReturnType<typeof inclusionCheck>>;
  /** Whether the log and the receipt store agree now, and the checkpoint verifies (the live probe). */
  health(now?: Date): Promise<LogHealth>;
  /**
   * A receipt was just stored: when the newest checkpoint is older than the checkpoint interval,
   * one is signed at once (in the background), so its proof is there within moments, not at the next
   * tick. Never throws; a failure is logged and the checkpointer tries again.
   */
  receiptStored(): void;
}

/** How many of the newest entries the health check reads back and hashes. */
export const HEALTH_NEWEST_ENTRIES = 16;

/** How long the newest checkpoint is answered from memory: readers are told it is fresh for five seconds anyway. */
const CHECKPOINT_MEMORY_MS = 1_000;
/** Hash tile bytes kept in memory; a tile's bytes never change once it exists, so any kept copy is right. */
const TILE_MEMORY_BYTES = 8 * 1024 * 1024;
/** Entry bundles under COMPRESS_FROM_BYTES kept as they are, and the others gzipped (a full one about 90 KB: about 180). */
const BUNDLE_MEMORY_BYTES = 2 * 1024 * 1024;
const GZIPPED_BUNDLE_MEMORY_BYTES = 16 * 1024 * 1024;
/**
 * A full entry bundle is 256 receipts of about 5 KB, 1.3 MB of JSON, and compresses to a fifteenth.
 * A bundle this large or larger is sent gzipped to every client, as c2sp.org/tlog-tiles allows ("Logs
 * MAY use Content-Encoding: gzip with no negotiation"), so no answer of the log passes 1 MiB;
 * compressed off the event loop once per bundle kept. Smaller bundles and the hash tiles (random
 * bytes, 8 KB at most) are sent as they are.
 */
const COMPRESS_FROM_BYTES = 64 * 1024;
/**
 * zlib's level 3: a full bundle in about 5 ms to 101 KB, where the default level 6 takes 11.5 ms to
 * 93 KB (measured on a seeded bundle): a bundle is compressed on its first read, which a monitor
 * walking the log waits for, and kept compressed after.
 */
const BUNDLE_GZIP_LEVEL = 3;
const gzipAsync = promisify(gzip);

/**
 * Stored hashes kept in memory for inclusion proofs (32 bytes each, about 100 with the map's own):
 * a stored hash never changes once written, and the proofs build asks for the same few hundred (the
 * newest 200 receipts' paths) every few seconds, which at a million receipts were synchronous reads
 * of pages not in memory. A receipt rewritten in the store still fails its proof: its leaf is hashed
 * from the receipt, not kept.
 */
const PROOF_HASHES_KEPT = 16_384;

/** `read` with a memory of at most `limit` hashes by stored index (a keptBytes of 32 bytes each); only the ones not kept are read. */
function keptHashes(read: (indexes: number[]) => Promise<Uint8Array[]>, limit = PROOF_HASHES_KEPT): (indexes: number[]) => Promise<Uint8Array[]> {
  const kept = keptBytes<Uint8Array>((hash) => hash.length, limit * 32);
  return async (indexes) => {
    const missing = [...new Set(indexes.filter((index) => kept.get(String(index)) === undefined))];
    const hashes = missing.length > 0 ? await read(missing) : [];
    // Answered from what was read as well as from memory: a batch larger than the limit drops its own first.
    const fresh = new Map(missing.map((index, i) => [index, hashes[i]!]));
    const answer = indexes.map((index) => fresh.get(index) ?? kept.get(String(index))!);
    for (const [index, hash] of fresh) kept.set(String(index), hash);
    return answer;
  };
}

/** A map by path of at most `limit` bytes (as `size` counts them), oldest dropped first. */
function keptBytes<T>(size: (value: T) => number, limit = TILE_MEMORY_BYTES): { get: (path: string) => T | undefined; set: (path: string, value: T) => void } {
  const kept = new Map<string, T>();
  let bytes = 0;
  return {
    get: (path) => kept.get(path),
    set(path, value) {
      const previous = kept.get(path);
      if (previous !== undefined) {
        kept.delete(path);
        bytes -= size(previous);
      }
      kept.set(path, value);
      bytes += size(value);
      for (const [oldest, value] of kept) {
        if (bytes <= limit) break;
        kept.delete(oldest);
        bytes -= size(value);
      }
    },
  };
}

/** Whether the store still has the entry's receipt, asked without making its bytes. */
const hasReceipt = (entry: LogEntry): boolean => entry.stored !== undefined || entry.bytes !== undefined;

/**
 * Entries whose bytes are made at a time, then the event loop turns: a receipt stored as its entry's
 * text costs a hash, one stored otherwise (an earlier build's, PostgreSQL's jsonb) its canonical JSON,
 * about 5 ms of a full bundle's 40.
 */
const CANONICAL_ENTRIES_PER_TURN = 32;

/** The entries' bytes, made a few at a time so a bundle never holds the event loop for long. */
async function entryBytes(entries: readonly LogEntry[]): Promise<Uint8Array[]> {
  const bytes: Uint8Array[] = [];
  for (const [i, entry] of entries.entries()) {
    if (i > 0 && i % CANONICAL_ENTRIES_PER_TURN === 0) await nextTurn();
    bytes.push(entry.bytes!);
  }
  return bytes;
}

export function createReceiptLog(store: ReceiptLogStore, signingKey: KeyObject, config: Pick<ReceiptLogConfig, 'origin' | 'checkpointIntervalSeconds'>): ReceiptLog {
  const verifierKey = formatVerifierKey(config.origin, rawPublicKey(signingKey));
  // The checkpoint and the hash tiles change only when the log grows, so they are served from memory
  // like the static descriptors: the checkpoint as read at most a second ago (one read shared by the
  // requests that find it older), hash tiles by path, oldest dropped first past TILE_MEMORY_BYTES.
  let known: { checkpoint: StoredCheckpoint | undefined; at: number } | undefined;
  let reading: Promise<StoredCheckpoint | undefined> | undefined;
  const remember = (checkpoint: StoredCheckpoint | undefined) => {
    if (!known?.checkpoint || (checkpoint && checkpoint.size >= known.checkpoint.size)) known = { checkpoint, at: Date.now() };
    else known = { ...known, at: Date.now() };
    return known.checkpoint;
  };
  function latest(): Promise<StoredCheckpoint | undefined> {
    if (known && Date.now() - known.at < CHECKPOINT_MEMORY_MS) return Promise.resolve(known.checkpoint);
    reading ??= store
      .latestCheckpoint()
      .then(remember)
      .finally(() => (reading = undefined));
    return reading;
  }
  const tiles = keptBytes<Uint8Array>((bytes) => bytes.length);
  const proofHashes = keptHashes((indexes) => store.readLogHashes(indexes));
  // Entry bundles are the receipts as the store holds them. One served before is kept with the store's
  // log revision it was read at, and served again while that revision holds: a receipt or entry
  // rewritten or removed since moves it, and the next request reads the store again.
  const bundles = keptBytes<{ revision: string; bytes: Uint8Array }>((kept) => kept.bytes.length, BUNDLE_MEMORY_BYTES);
  const gzippedBundles = keptBytes<{ revision: string; bytes: Uint8Array }>((kept) => kept.bytes.length, GZIPPED_BUNDLE_MEMORY_BYTES);
  // One read of a bundle not kept, and one compression of a bundle, at a time, however many requests
  // ask for it at once (monitors meeting a new full tile together): a read costs the canonical JSON of
  // 256 receipts. Keyed by bundle and revision.
  const readOnce = sharedWhileRunning<TileAnswer>();
  const gzipOnce = sharedWhileRunning<Uint8Array>();

  async function checkpointNow(now = new Date()): Promise<StoredCheckpoint | undefined> {
    const [size, latest] = await Promise.all([store.logSize(), store.latestCheckpoint()]);
    if (latest && latest.size >= size) return latest;
    const root = rootFromSubtrees(await store.readLogHashes(treeHashIndexes(size)));
    const note = signCheckpoint(formatCheckpoint({ origin: config.origin, size, root }), signingKey, config.origin);
    const checkpoint = { size, rootHex: hex.encode(root), note, issuedAt: now };
    await store.saveCheckpoint(checkpoint);
    return remember((await store.latestCheckpoint()) ?? checkpoint);
  }

  async function tile(path: string): Promise<TileAnswer> {
    const checkpoint = await latest();
    // Tiles are served for the tree the newest checkpoint commits to, so a client reads one consistent tree.
    const parsed = parseTilePath(`tile/${path}`);
    if (!parsed.ok) return { ok: false, status: 400, reason: parsed.reason };
    const { resource } = parsed;
    const present = checkTileResource(resource, checkpoint?.size ?? 0);
    if (!present.ok) return { ok: false, status: 404, reason: present.reason };
    const full = resource.width === TILE_WIDTH;
    // Entry bundles are the receipts themselves, so a receipt the store lost or rewrote shows at once;
    // hash tiles are the log's own and are kept.
    if (resource.kind === 'entries') return entryBundle(resource, full);
    const kept = tiles.get(path);
    if (kept) return { ok: true, bytes: kept, full };
    const answer = await readTile(resource, full);
    if (answer.ok) tiles.set(path, answer.bytes);
    return answer;
  }

  async function entryBundle(resource: TileResource, full: boolean): Promise<TileAnswer> {
    const key = `entries/${resource.n}/${resource.width}`;
    // Read before the entries: a rewrite after this read moves the revision past what is kept.
    const revision = await store.logRevision();
    let zipped = gzippedBundles.get(key);
    if (full && zipped?.revision !== revision) {
      // A full bundle made before, by this instance or another, at this revision: one row, not 256 receipts.
      const stored = await store.keptBundle(resource.n);
      if (stored?.revision === revision) gzippedBundles.set(key, (zipped = { revision, bytes: stored.gzipped }));
    }
    if (zipped?.revision === revision) return { ok: true, bytes: zipped.bytes, full, encoding: 'gzip' };
    const kept = bundles.get(key);
    let bytes = kept?.revision === revision ? kept.bytes : undefined;
    if (!bytes) {
      const answer = await readOnce(`${key}@${revision}`, () => readTile(resource, full));
      if (!answer.ok) return answer;
      bytes = answer.bytes;
      // A large one is only ever sent gzipped: its gzip is what is kept.
      if (bytes.length < COMPRESS_FROM_BYTES) bundles.set(key, { revision, bytes });
    }
    if (bytes.length < COMPRESS_FROM_BYTES) return { ok: true, bytes, full };
    const compressed = await gzipOnce(`${key}@${revision}`, async () => {
      const made = await gzipAsync(bytes, { level: BUNDLE_GZIP_LEVEL });
      gzippedBundles.set(key, { revision, bytes: made });
      if (full) await keep(resource.n, { revision, gzipped: made });
      return made;
    });
    return { ok: true, bytes: compressed, full, encoding: 'gzip' };
  }

  /** Keeps a full bundle's gzip in the store; one not kept is made again by the next reader, so a failure is only logged. */
  async function keep(n: number, bundle: KeptBundle): Promise<void> {
    try {
      await store.keepBundle(n, bundle);
    } catch (error) {
      logger.warn({ err: error, bundle: n }, 'receipt log: an entry bundle was not kept in the store; it is made again when asked');
    }
  }

  async function keepBundles(limit: number): Promise<number> {
    const [checkpoint, revision] = await Promise.all([latest(), store.logRevision()]);
    const kept = new Set(await store.keptBundleIndexes(revision));
    let made = 0;
    for (let n = Math.floor((checkpoint?.size ?? 0) / TILE_WIDTH) - 1; n >= 0 && made < limit; n--) {
      if (kept.has(n)) continue;
      // Through the read path, as a reader's request would: a bundle with a lost receipt is withheld, not kept.
      await tile(formatEntryBundlePath({ n, width: TILE_WIDTH }).slice('tile/'.length));
      made++;
    }
    return made;
  }

  async function readTile(resource: TileResource, full: boolean): Promise<TileAnswer> {
    if (resource.kind === 'entries') {
      const start = resource.n * TILE_WIDTH;
      const entries = await store.readLogEntries(start, start + resource.width);
      const missing = entries.filter((entry) => !hasReceipt(entry));
      if (entries.length !== resource.width || missing.length) {
        // The log has an entry whose receipt the store lost: serving a gap would hide it, so the bundle is withheld and the entries named.
        const read = new Set(entries.filter(hasReceipt).map((entry) => entry.index));
        const missingIndexes = Array.from({ length: resource.width }, (_, i) => start + i).filter((index) => !read.has(index));
        logger.error({ missingIndexes }, 'receipt log: entries have no receipt in the store');
        return { ok: false, status: 503, reason: `entries ${missingIndexes.join(', ')} of the log have no receipt in the store`, missingIndexes };
      }
      return { ok: true, bytes: encodeEntryBundle(await entryBytes(entries)), full };
    }
    return { ok: true, bytes: tileBody(await store.readLogHashes(tileHashIndexes(resource))), full };
  }

  async function proofOf(receiptId: string): Promise<ProofAnswer> {
    const index = await store.logIndexOf(receiptId);
    if (index === undefined) return { status: 'unlogged' };
    const checkpoint = await latest();
    if (!checkpoint || checkpoint.size <= index) return { status: 'pending', index, retryAfterSeconds: config.checkpointIntervalSeconds };
    const hashes = await proofHashes(inclusionProofIndexes(index, checkpoint.size));
    return { status: 'proved', index, proof: formatTlogProof({ index, proof: inclusionProof(index, checkpoint.size, hashes), checkpoint: checkpoint.note }) };
  }

  async function inclusionOf(bundle: ReceiptBundle) {
    const index = await store.logIndexOf(bundle.receiptId);
    const checkpoint = await latest();
    const covered = index !== undefined && checkpoint !== undefined && index < checkpoint.size;
    const proof = covered ? await proofHashes(inclusionProofIndexes(index, checkpoint.size)) : undefined;
    const signed = checkpoint && { size: checkpoint.size, root: hex.decode(checkpoint.rootHex) };
    return inclusionCheck(receiptLogEntry(bundle), index, signed, proof && inclusionProof(index!, checkpoint!.size, proof));
  }

  async function health(now = new Date()): Promise<LogHealth> {
    // Read from the store, not memory: the probe says what every instance would serve now.
    const [checkpoint, logSize, receiptCount] = await Promise.all([store.latestCheckpoint(), store.logSize(), store.countReceipts()]);
    const start = Math.max(0, logSize - HEALTH_NEWEST_ENTRIES);
    const entries = logSize > start ? await store.readLogEntries(start, logSize) : [];
    const leaves = entries.length ? await store.readLogHashes(entries.map((entry) => storedHashIndex(0, entry.index))) : [];
    return judgeLogHealth({
      checkpoint,
      verifierKey,
      origin: config.origin,
      logSize,
      receiptCount,
      newest: entries.map((entry, i) => ({ ...entry, leaf: leaves[i]! })),
      now,
      freshSeconds: Math.max(15, 3 * config.checkpointIntervalSeconds),
    });
  }

  let signing: Promise<unknown> | undefined;
  function receiptStored(): void {
    const newest = known?.checkpoint;
    if (signing || (newest && Date.now() - newest.issuedAt.getTime() < config.checkpointIntervalSeconds * 1000)) return;
    signing = checkpointNow()
      .catch((error: unknown) => logger.warn({ err: error }, 'receipt log: no checkpoint after a stored receipt; the checkpointer tries again'))
      .finally(() => (signing = undefined));
  }

  return { origin: config.origin, verifierKey, checkpoint: latest, checkpointNow, tile, keepBundles, proofOf, inclusionOf, health, receiptStored };
}

/**
 * Full entry bundles made and kept each checkpointer round: about half a second of work (15 ms a
 * bundle, in turns of 32 entries), so the bundles of a million receipts stored before migration 12
 * are all kept within ten minutes of the first start, and after that each as it fills.
 */
const BUNDLES_KEPT_PER_ROUND = 32;

/**
 * Signs a checkpoint every `intervalSeconds` when the log grew (a no-op read otherwise), then runs
 * `afterRound` (the reputation's fold) and keeps the full entry bundles not kept yet, and appends,
 * now and then, receipts a build without the log stored beside this one. The timer does not keep
 * the process alive; a failed round is logged and tried again.
 */
export function startCheckpointer(log: () => ReceiptLog, store: ReceiptLogStore, intervalSeconds: number, afterRound?: () => Promise<void>): { stop: () => Promise<void> } {
  let rounds = 0;
  let keeping: Promise<unknown> | undefined;
  const round = async () => {
    try {
      // Every 60 rounds (5 minutes by default): a rolling deploy's older instances store receipts without entries.
      if (rounds % 60 === 0) {
        const appended = await store.appendUnloggedReceipts();
        if (appended) logger.warn({ appended }, 'receipt log: appended receipts stored without an entry (a build without the log is running beside this one)');
      }
      await log().checkpointNow();
      rounds++;
      // Not awaited: a long fold (minutes after a migration) must not hold up the next checkpoints.
      void afterRound?.();
      keeping ??= log()
        .keepBundles(BUNDLES_KEPT_PER_ROUND)
        .catch((error: unknown) => logger.warn({ err: error }, 'receipt log: no entry bundles kept this round; trying again'))
        .finally(() => (keeping = undefined));
    } catch (error) {
      logger.warn({ err: error }, 'receipt log: no checkpoint this round; trying again');
    }
  };
  return everyInterval(intervalSeconds, round);
}
