/**
 * The process's outside connections, built once from configuration: the assistant store, the chain
 * client and the rate limiter. Importing this module starts nothing; each part is built on first
 * use (reading its configuration then, so a malformed variable fails loudly at that point), and
 * `closeRuntime()` releases whatever was built, for a graceful shutdown.
 *
 * Handlers depend on the ports (ports.ts), never on node:sqlite, pg, ioredis or undici; this module is
 * the one place that knows which implementation the configuration picks.
 */
import { loadChainConfig } from '../config/chain.ts';
import { loadRateLimitConfig } from '../config/rate-limit.ts';
import { loadStoreConfig } from '../config/store.ts';
import { createChainClient } from './chain/explorer-client.ts';
import { logger } from './logger.ts';
import { createReputationReader, type ReputationReader } from './reputation.ts';
import { StoreUnavailableError, StoreUnusableError, type AssistantStore, type ChainClient, type RateLimiter, type ReceiptLogStore, type ReputationStore } from '../domain/ports.ts';
import { existsSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { loadReceiptLogConfig } from '../config/receipt-log.ts';
import { loadLogSigningKey } from './log-signing-key.ts';
import { createReceiptLog, LogForkError, type ReceiptLog } from './receipt-log.ts';
import { signedCheckpointFile } from './signed-checkpoint-file.ts';
import { createWitnessClient, witnessesOf } from './witness-client.ts';
import { loadX402SigningConfig } from '../config/x402-signing.ts';
import { createOfferReceiptSigner, loadX402SigningKey, x402KeyRefusal, type OfferReceiptSigner } from './x402-signing-key.ts';
import { consistencyProof, consistencyProofIndexes } from '../domain/tlog/proofs.ts';
import { createRateLimiter } from './rate-limit/limiter.ts';
import { createStore } from './store/index.ts';

interface Closable {
  close(): Promise<void>;
}

let store: (AssistantStore & { ready?: () => Promise<unknown> }) | undefined;
let chain: (ChainClient & Partial<Closable>) | undefined;
let limiter: (RateLimiter & Partial<Closable>) | undefined;

/** The assistant store (SQLite in DATA_DIR, or PostgreSQL with DATABASE_URL); connects on first call. */
export function getStore(): AssistantStore {
  store ??= createStore(loadStoreConfig());
  return store;
}

let reputationReader: ReputationReader | undefined;

/** The reputation graph's reader over the store and the receipt log, one per process so concurrent requests share one fold. */
export function getReputationReader(): ReputationReader {
  reputationReader ??= createReputationReader(getStore() as AssistantStore & ReputationStore, () => getReceiptLog().checkpoint());
  return reputationReader;
}

/** The chain client (Explorer API v1 at ERGO_EXPLORER_URL, node fallback at ERGO_NODE_URL). */
export function getChainClient(): ChainClient {
  chain ??= createChainClient(loadChainConfig());
  return chain;
}

let receiptLog: ReceiptLog | undefined;

/** The receipt transparency log over the store, signing with the configured key (made on first use in DATA_DIR when allowed). */
export function getReceiptLog(): ReceiptLog {
  if (!receiptLog) {
    const config = loadReceiptLogConfig();
    let key;
    try {
      key = loadLogSigningKey(config);
    } catch (error) {
      // Like a store that cannot be opened yet (an unwritable DATA_DIR): the log's routes answer 503 and the next call tries again.
      throw new StoreUnavailableError('the receipt log\'s signing key cannot be read or made', { cause: error });
    }
    const logStore = getStore() as AssistantStore & ReceiptLogStore;
    const witnesses = witnessesOf(config.witnesses);
    const witnessClient = witnesses.length
      ? createWitnessClient(witnesses, config.witnessQuorum, async (oldSize, newSize) => consistencyProof(oldSize, newSize, await logStore.readLogHashes(consistencyProofIndexes(oldSize, newSize))))
      : undefined;
    receiptLog = createReceiptLog(logStore, key, config, signedCheckpointFile(config.stateFile), witnessClient);
  }
  return receiptLog;
}

let offerReceiptSigner: OfferReceiptSigner | undefined;

/** The signer of x402 offers and receipts over X402_SIGNING_KEY_FILE (made on first use in DATA_DIR when allowed). */
export function getOfferReceiptSigner(): OfferReceiptSigner {
  offerReceiptSigner ??= createOfferReceiptSigner(loadX402SigningKey(loadX402SigningConfig()));
  return offerReceiptSigner;
}

/**
 * The x402 signing key's checks at start: readable, its owner's alone, not the receipt log's key, and
 * the key the build published (`published`, from its discovery descriptor; none when the build named
 * none). Any failing refuses the start with what to do: a server whose offers no client can verify
 * must not sell.
 */
export function checkX402SigningKeyAtStart(published: string | null | undefined): void {
  const config = loadX402SigningConfig();
  let key: KeyObject;
  try {
    key = loadX402SigningKey(config);
  } catch (error) {
    // As with the log's key: one still to be made in a DATA_DIR that cannot be written yet is the
    // store's case (503 until it can), not a refusal; offers go unsigned until the key can be made.
    if (config.createIfMissing && !existsSync(config.keyFile)) {
      logger.warn({ err: error }, 'x402 signing: the key cannot be made yet; offers and receipts go unsigned until it can');
      return;
    }
    throw error;
  }
  const logConfig = loadReceiptLogConfig();
  const logKey = existsSync(logConfig.keyFile) ? loadLogSigningKey(logConfig) : undefined;
  const refusal = x402KeyRefusal(key, { logKey, published });
  if (refusal) throw new Error(`x402 signing: the start is refused: ${refusal}`);
}

/** What an operator does when the store does not extend what the log signed, by the refusal's code. */
const WAY_OUT: Record<string, string> = {
  foreign_key:
    'this server\'s key is not the key that signed this log: give every instance the log\'s own key file (LOG_SIGNING_KEY_FILE), or, to change keys, start a new log (docs/transparency-log.md, "One key per log")',
  default:
    'restore the newest copy of the store, one that holds every entry up to the signed size unchanged. If those entries are lost for good, this log cannot go on under its key: retire it (keep its last checkpoint for auditors) and start a new one (docs/transparency-log.md, "When the store and the log disagree")',
};

/**
 * The receipt log's checks at start: its key must be readable, its own owner's, and the key that
 * signed the store's checkpoints; the store must hold every entry of the last signed checkpoint
 * (kept in LOG_STATE_FILE), unchanged. Either failing refuses the start with what to do; a first
 * checkpoint (size 0 for an empty log) is signed here, so the log serves one from the first request.
 * The store checks need the embedded store open: on PostgreSQL the server runs them once it listens
 * (and they run again before every signature and, when none ran lately, before a settlement).
 */
export async function checkReceiptLogAtStart(): Promise<void> {
  const config = loadReceiptLogConfig();
  // A key given, or one that exists, must be usable now; one still to be made in a DATA_DIR that
  // cannot be written yet is the store's case below (503 until it can).
  if (!config.createIfMissing || existsSync(config.keyFile)) loadLogSigningKey(config);
  witnessesOf(config.witnesses);
  // PostgreSQL is opened on first use, as ever (a database still starting, another build migrating
  // beside this one): the server runs checkReceiptLogStore once it listens.
  if (getStore().kind !== 'sqlite') return;
  await checkReceiptLogStore();
}

/**
 * The store's side of the start check: the log signs its first checkpoint, or refuses to (throws,
 * naming both sizes and the way out, when the store does not extend what the log signed). A store
 * that cannot be read yet is only logged: nothing is signed, and no payment settled, until it is.
 */
export async function checkReceiptLogStore(): Promise<void> {
  try {
    await getReceiptLog().checkpointNow();
  } catch (error) {
    if (error instanceof LogForkError) {
      throw new Error(`receipt log: the start is refused: ${error.fork.reason}. To go on, ${WAY_OUT[error.fork.code] ?? WAY_OUT.default}`, { cause: error });
    }
    logger.warn({ err: error }, 'receipt log: not checked at start (the store cannot be read yet); nothing is signed until it is');
  }
}

/** The rate limiter (memory, or Redis with REDIS_URL). */
export function getRateLimiter(): RateLimiter {
  limiter ??= createRateLimiter(loadRateLimitConfig());
  return limiter;
}

/**
 * Opens the store and applies its migrations now rather than on the first call that needs it, so
 * the first request finds it ready and a store this build cannot use stops the process at start.
 * Throws StoreUnusableError (a corrupt file, a schema from a newer build), whose message says what to
 * do; any other failure (a database that is down, a read-only DATA_DIR) is logged, and the store tries
 * again on the next call, answering 503 until then.
 */
export async function warmUpRuntime(): Promise<void> {
  const current = getStore() as AssistantStore & { ready?: () => Promise<unknown> };
  try {
    await (current.ready ? current.ready() : current.ping());
    logger.info({ store: current.kind }, 'store ready (migrations applied)');
  } catch (error) {
    if (error instanceof StoreUnusableError) throw error;
    logger.warn({ err: error, store: current.kind }, 'store not reachable at start; assistant payments answer 503 until it is');
  }
}

/**
 * The server's start-up step: the embedded store is opened at start (milliseconds), the PostgreSQL
 * pool on first use as before, so a site whose database is not up yet still starts.
 */
export async function openEmbeddedStoreAtStart(): Promise<void> {
  if (getStore().kind === 'sqlite') await warmUpRuntime();
}

/** Replaces parts for tests that run handlers in-process; parts not given keep their configured build. */
export function setRuntimeForTesting(parts: { store?: AssistantStore; chain?: ChainClient; limiter?: RateLimiter }): void {
  if (parts.store) store = parts.store;
  if (parts.chain) chain = parts.chain;
  if (parts.limiter) limiter = parts.limiter;
}

/** Closes everything built so far (pools, the embedded engine, the Redis connection); safe to call twice. */
export async function closeRuntime(): Promise<void> {
  const parts: Array<Partial<Closable> | undefined> = [store, chain, limiter];
  store = undefined;
  receiptLog = undefined;
  offerReceiptSigner = undefined;
  chain = undefined;
  limiter = undefined;
  const results = await Promise.allSettled(parts.map((part) => part?.close?.()));
  for (const result of results) {
    if (result.status === 'rejected') logger.warn({ err: result.reason }, 'closing an outside connection failed');
  }
}
