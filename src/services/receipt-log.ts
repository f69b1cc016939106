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
import { formatCheckpoint, formatVerifierKey, openOwnCheckpoint, rawPublicKey, signCheckpoint } from '../domain/tlog/note.ts';
import { consistencyProof, consistencyProofIndexes, inclusionProof, inclusionProofIndexes } from '../domain/tlog/proofs.ts';
import { extendsSigned, keptHistory, nextTree, storeBehind, type LogFork, type SignedTree } from '../domain/tlog/signing-rule.ts';
import { checkTileResource, encodeEntryBundle, formatEntryBundlePath, parseTilePath, tileBody, tileHashIndexes, TILE_WIDTH, type TileResource } from '../domain/tlog/tiles.ts';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import { receiptLogEntry } from '../domain/receipt-log-entry.ts';
import { inclusionCheck, judgeLogHealth, type LogHealth } from '../domain/tlog/audit.ts';
import { formatTlogProof } from '../domain/tlog/tlog-proof.ts';
import { EMPTY_TREE_HASH, leafHash, rootFromSubtrees, sameBytes, storedHashIndex, treeHashIndexes } from '../domain/tlog/tree.ts';
import { sharedWhileRunning } from '../lib/in-flight.ts';
import { everyInterval } from '../lib/rounds.ts';
import { logger } from './logger.ts';
import { signedCheckpointInMemory, type SignedCheckpointKeeper } from './signed-checkpoint-file.ts';
import type { WitnessClient } from './witness-client.ts';

export type TileAnswer =
  /** `encoding` gzip when the bytes are gzipped (an entry bundle of 64 KB or more, whatever the client asked). */
  | { ok: true; bytes: Uint8Array; full: boolean; encoding?: 'gzip' }
  | { ok: false; status: 400 | 404; reason: string }
  /** Entries the log holds whose receipts the store lost: the bundle is withheld, never served with a gap. */
  | { ok: false; status: 503; reason: string; missingIndexes: number[] };

export type ProofAnswer =
  | { status: 'proved'; index: number; proof: string }
  | { status: 'pending'; index: number; retryAfterSeconds: number }
  | { status: 'unlogged' }
  /** The log has its entry, but the store no longer holds the receipt. */
  | { status: 'gone'; index: number };

export interface ReceiptLog {
  readonly origin: string;
  /** The signed-note verifier key (`<name>+<key id>+<base64 key>`) the checkpoints verify with. */
  readonly verifierKey: string;
  /** The witnesses whose cosignatures each published checkpoint carries (at least `quorum` of them). */
  readonly witnesses: ReadonlyArray<{ verifierKey: string; url: string }>;
  readonly witnessQuorum: number;
  /** The newest stored checkpoint. */
  checkpoint(): Promise<StoredCheckpoint | undefined>;
  /** Signs and stores a checkpoint of the log as it is now, unless the newest already covers it. */
  checkpointNow(now?: Date): Promise<StoredCheckpoint | undefined>;
  /** A tile or an entry bundle; an entry bundle of COMPRESS_FROM_BYTES or more comes gzipped. */
  tile(path: string): Promise<TileAnswer>;
  proofOf(receiptId: string): Promise<ProofAnswer>;
  /** Whether the receipt `receiptId` is an entry of the newest checkpoint: from then on it can never change unnoticed. */
  inCheckpoint(receiptId: string): Promise<boolean>;
  /**
   * Makes and keeps in the store the gzip of up to `limit` full entry bundles not kept at the
   * store's log revision, newest first; how many it made. The checkpointer runs it each round, so a
   * reader walking the log finds every full bundle made already.
   */
  keepBundles(limit: number): Promise<number>;
  /**
   * Reads back the next slice of older entries (at least SAMPLE_MIN, enough that the whole log is
   * read within a day at one slice per checkpoint interval): each must still have its receipt, hashing
   * to its stored leaf. What it finds is in `health` until read back right. The checkpointer runs it.
   */
  audit(): Promise<void>;
  /** Whether `bundle`, as given (read from the store now), is included in the newest checkpoint. */
  inclusionOf(bundle: ReceiptBundle): Promise<ReturnType<typeof inclusionCheck>>;
  /**
   * Why the log refuses to sign now (the store does not extend what it signed), or undefined: while
   * it refuses, no Note is settled (a receipt no one can prove is not sold). Answered from the last
   * round; a process whose log ran none lately (an MCP host of its own) runs one first.
   */
  signingRefused(): Promise<LogFork | undefined>;
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
/** Older entries each audit round reads back at least, and at most: 512 receipts of about 5 KB hash in about 2 ms, the longest a round holds the loop for them. */
const SAMPLE_MIN = 64;
const SAMPLE_MAX = 512;
/** The rolling audit reads the whole log within this time (while the log is at most SAMPLE_MAX * 86400 / interval entries: 8.8 million at 5 s). */
const SAMPLE_WHOLE_LOG_MS = 24 * 3600 * 1000;

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

/** Thrown by checkpointNow when it refuses to sign: the store does not extend the last signed tree. */
export class LogForkError extends Error {
  readonly fork: LogFork;
  constructor(fork: LogFork) {
    super(`receipt log: not signing: ${fork.reason}`);
    this.name = 'LogForkError';
    this.fork = fork;
  }
}

/** A checkpoint as opened with the log's key: its tree and its note. */
/** A tree this log's key signed, the note that says so, and the origin it was signed under. */
type SignedNote = SignedTree & { note: string; origin: string };

/**
 * Entries whose leaves are recomputed from their receipts before one checkpoint: a log far ahead of
 * its last checkpoint (receipts appended by an older build) is signed in steps of this many.
 */
const ENTRIES_SIGNED_PER_ROUND = 4_096;

export function createReceiptLog(
  store: ReceiptLogStore,
  signingKey: KeyObject,
  config: Pick<ReceiptLogConfig, 'origin' | 'checkpointIntervalSeconds'>,
  keeper: SignedCheckpointKeeper = signedCheckpointInMemory(),
  witnesses?: WitnessClient,
): ReceiptLog {
  const publicKey = rawPublicKey(signingKey);
  const verifierKey = formatVerifierKey(config.origin, publicKey);
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

  // The last tree this log signed, as kept outside the store, and why it refuses to sign now, if it does.
  let fork: LogFork | undefined;
  const opened = new Map<string, SignedNote>();
  /**
   * `note` opened with this log's key (the last two kept: every round opens the same ones). The origin
   * follows SITE_BASE_URL, so a site that moved finds its history signed by the same key under the
   * origin it had: that is this log's history, and the next checkpoint carries the new origin.
   */
  function openSigned(note: string, what: string): SignedNote {
    const known = opened.get(note);
    if (known) return known;
    const checked = openOwnCheckpoint(note, publicKey, config.origin);
    if (checked.ok && checked.otherOrigin !== undefined) {
      logger.info({ from: checked.otherOrigin, to: config.origin, size: checked.checkpoint.size }, `receipt log: moved from ${checked.otherOrigin} to ${config.origin} (SITE_BASE_URL): the same key signed ${what}; the next checkpoint extends it under the new origin`);
    }
    if (!checked.ok) refuse({ code: 'foreign_key', reason: `${what} does not verify with this log's key ${verifierKey}: ${checked.reason}` });
    const tree = { size: checked.checkpoint.size, root: checked.checkpoint.root, note, origin: checked.checkpoint.origin };
    if (opened.size >= 2) opened.delete(opened.keys().next().value!);
    opened.set(note, tree);
    return tree;
  }
  function refuse(found: LogFork): never {
    if (fork?.reason !== found.reason) logger.error({ code: found.code, stateFile: keeper.where }, `receipt log: not signing: ${found.reason}`);
    fork = found;
    throw new LogForkError(found);
  }
  const check = (found: LogFork | null) => found && refuse(found);

  /**
   * The tree the next checkpoint must extend: the last one this log signed (the keeper's), or a
   * newer one the store holds that another instance signed with this key, once it is shown to extend
   * it. A store holding fewer entries, or other ones, than that tree is refused.
   */
  async function signedBase(stored: StoredCheckpoint | undefined, size: number): Promise<SignedNote | undefined> {
    const keptNote = keeper.read();
    const kept = keptNote === undefined ? undefined : openSigned(keptNote, `the last signed checkpoint in ${keeper.where}`);
    const newest = stored && openSigned(stored.note, `the newest checkpoint in the store (size ${stored.size})`);
    let base = newest;
    if (kept && (!newest || newest.size <= kept.size)) {
      if (newest?.size === kept.size && !sameBytes(newest.root, kept.root)) {
        refuse({ code: 'not_consistent', reason: `the store's checkpoint of size ${kept.size} has another root than the one ${keeper.where} holds: two trees were signed at one size` });
      }
      base = kept;
    } else if (kept && newest) {
      check(storeBehind(newest, size));
      check(extendsSigned(kept, newest, consistencyProof(kept.size, newest.size, await store.readLogHashes(consistencyProofIndexes(kept.size, newest.size)))));
    }
    if (!base) return undefined;
    check(storeBehind(base, size));
    check(keptHistory(base, await store.readLogHashes(treeHashIndexes(base.size))));
    if (base !== kept) {
      if (!kept) logger.info({ size: base.size, stateFile: keeper.where }, 'receipt log: no last signed checkpoint kept yet; the store\'s newest is kept from now on');
      keeper.write(base.note);
    }
    return base;
  }

  // One round at a time: two signing at once could keep an older checkpoint after a newer one.
  let round: Promise<StoredCheckpoint | undefined> | undefined;
  let roundEndedAt = 0;
  const checkpointNow = (now = new Date()) =>
    (round ??= signNext(now).finally(() => {
      round = undefined;
      roundEndedAt = Date.now();
    }));
  async function signingRefused(): Promise<LogFork | undefined> {
    if (Date.now() - roundEndedAt > 2 * config.checkpointIntervalSeconds * 1000) {
      // A store that cannot be read now fails the settlement on its own.
      await checkpointNow().catch(() => undefined);
    }
    return fork;
  }

  /** Stores `tree`'s checkpoint, cosigned by at least the witnesses' quorum, for every instance to serve. */
  async function publish(tree: SignedNote, now: Date): Promise<StoredCheckpoint> {
    const note = witnesses ? await witnesses.cosign(tree.note, tree.size) : tree.note;
    const checkpoint = { size: tree.size, rootHex: hex.encode(tree.root), note, issuedAt: now };
    await store.saveCheckpoint(checkpoint);
    return checkpoint;
  }

  async function signNext(now: Date): Promise<StoredCheckpoint | undefined> {
    const [size, stored] = await Promise.all([store.logSize(), store.latestCheckpoint()]);
    const found = await signedBase(stored, size);
    // Kept but not in the store: the process stopped between keeping a checkpoint and storing it, or its witnesses did not cosign it.
    if (found && found.size > (stored?.size ?? -1)) await publish(found, now);
    const base: SignedNote = found ?? { size: 0, root: EMPTY_TREE_HASH, note: '', origin: config.origin };
    let signed: StoredCheckpoint | undefined;
    // An empty log gets its signed size-0 checkpoint too: a log always serves one; a log that moved
    // signs its tree again under the new origin, so what it serves verifies with the key it publishes.
    if (size > base.size || base.note === '' || base.origin !== config.origin) {
      const end = Math.min(size, base.size + ENTRIES_SIGNED_PER_ROUND);
      const entries = end > base.size ? await store.readLogEntries(base.size, end) : [];
      const lost = entries.length !== end - base.size || entries.some((entry, i) => entry.index !== base.size + i);
      if (lost) refuse({ code: 'entry_missing', reason: `the store returned ${entries.length} of the entries ${base.size}-${end - 1}` });
      const next = nextTree({
        signed: base,
        signedSubtrees: base.size > 0 ? await store.readLogHashes(treeHashIndexes(base.size)) : [],
        entries: await entryBytes(entries),
        storedLeaves: await store.readLogHashes(entries.map((entry) => storedHashIndex(0, entry.index))),
        storedRoot: rootFromSubtrees(await store.readLogHashes(treeHashIndexes(end))),
      });
      if (!next.ok) refuse(next.fork);
      const note = signCheckpoint(formatCheckpoint({ origin: config.origin, size: end, root: next.tree.root }), signingKey, config.origin);
      // Kept before it is published: a checkpoint anyone has seen (a witness included) is one this log must extend.
      keeper.write(note);
      signed = await publish({ size: end, root: next.tree.root, note, origin: config.origin }, now);
    }
    fork = undefined;
    return remember((await store.latestCheckpoint()) ?? signed);
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
    // An entry whose receipt the store no longer holds proves nothing anyone can be shown.
    const [entry] = await store.readLogEntries(index, index + 1);
    if (!entry || !hasReceipt(entry)) return { status: 'gone', index };
    const checkpoint = await latest();
    if (!checkpoint || checkpoint.size <= index) return { status: 'pending', index, retryAfterSeconds: config.checkpointIntervalSeconds };
    const hashes = await proofHashes(inclusionProofIndexes(index, checkpoint.size));
    return { status: 'proved', index, proof: formatTlogProof({ index, proof: inclusionProof(index, checkpoint.size, hashes), checkpoint: checkpoint.note }) };
  }

  async function inCheckpoint(receiptId: string): Promise<boolean> {
    const [index, checkpoint] = await Promise.all([store.logIndexOf(receiptId), latest()]);
    return index !== undefined && checkpoint !== undefined && index < checkpoint.size;
  }

  async function inclusionOf(bundle: ReceiptBundle) {
    const index = await store.logIndexOf(bundle.receiptId);
    const checkpoint = await latest();
    const covered = index !== undefined && checkpoint !== undefined && index < checkpoint.size;
    const proof = covered ? await proofHashes(inclusionProofIndexes(index, checkpoint.size)) : undefined;
    const signed = checkpoint && { size: checkpoint.size, root: hex.decode(checkpoint.rootHex) };
    return inclusionCheck(receiptLogEntry(bundle), index, signed, proof && inclusionProof(index!, checkpoint!.size, proof));
  }

  // The rolling audit: each checkpointer round reads back the next slice of older entries, so the
  // whole log is read within SAMPLE_WHOLE_LOG_MS; what it found wrong stays until read back right.
  let auditFrom = 0;
  let audited: { from: number; to: number } | undefined;
  const auditMissing = new Set<number>();
  const auditChanged = new Set<number>();
  async function audit(): Promise<void> {
    const size = (await latest())?.size ?? 0;
    if (size === 0) return;
    if (auditFrom >= size) auditFrom = 0;
    const share = Math.ceil((size * config.checkpointIntervalSeconds * 1000) / SAMPLE_WHOLE_LOG_MS);
    const from = auditFrom;
    const to = Math.min(size, from + Math.min(SAMPLE_MAX, Math.max(SAMPLE_MIN, share)));
    const entries = await withLeaves(await store.readLogEntries(from, to));
    for (let index = from; index < to; index++) {
      auditMissing.delete(index);
      auditChanged.delete(index);
    }
    for (const entry of entries) {
      if (entry.bytes === undefined) auditMissing.add(entry.index);
      else if (!sameBytes(leafHash(entry.bytes), entry.leaf)) auditChanged.add(entry.index);
    }
    if (auditMissing.size || auditChanged.size) logger.error({ missing: [...auditMissing].slice(0, 20), changed: [...auditChanged].slice(0, 20) }, 'receipt log: the rolling audit found entries whose receipts are gone or changed');
    audited = { from, to };
    auditFrom = to;
  }

  /** Entries with their stored leaves, their bytes made a few at a time. */
  async function withLeaves(entries: readonly LogEntry[]) {
    const leaves = entries.length ? await store.readLogHashes(entries.map((entry) => storedHashIndex(0, entry.index))) : [];
    const bytes = await entryBytes(entries);
    return entries.map((entry, i) => ({ index: entry.index, receiptId: entry.receiptId, bytes: bytes[i], leaf: leaves[i]! }));
  }

  async function health(now = new Date()): Promise<LogHealth> {
    // Read from the store, not memory: the probe says what every instance would serve now.
    const [checkpoint, logSize, receiptCount] = await Promise.all([store.latestCheckpoint(), store.logSize(), store.countReceipts()]);
    if (fork) {
      return { ok: false, status: 'not_signing', detail: `The log refuses to sign and new payments are refused: ${fork.reason}.`, checkpoint: null, entries: logSize };
    }
    const start = Math.max(0, logSize - HEALTH_NEWEST_ENTRIES);
    const entries = logSize > start ? await store.readLogEntries(start, logSize) : [];
    return judgeLogHealth({
      checkpoint,
      verifierKey,
      origin: config.origin,
      logSize,
      receiptCount,
      newest: await withLeaves(entries),
      ...(audited ? { audit: { ...audited, missing: [...auditMissing], changed: [...auditChanged] } } : {}),
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

  return {
    origin: config.origin,
    verifierKey,
    witnesses: (witnesses?.witnesses ?? []).map(({ verifierKey, url }) => ({ verifierKey, url })),
    witnessQuorum: witnesses?.quorum ?? 0,
    checkpoint: latest,
    checkpointNow,
    tile,
    keepBundles,
    proofOf,
    inCheckpoint,
    inclusionOf,
    signingRefused,
    audit,
    health,
    receiptStored,
  };
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
      await log().audit();
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
