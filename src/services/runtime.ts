/**
 * The process's outside connections, built once from configuration: the assistant store, the chain
 * client and the rate limiter. Importing this module starts nothing; each part is built on first
 * use (reading its configuration then, so a malformed variable fails loudly at that point), and
 * `closeRuntime()` releases whatever was built, for a graceful shutdown.
 *
 * Handlers depend on the ports (ports.ts), never on PGlite, pg, ioredis or undici; this module is
 * the one place that knows which implementation the configuration picks.
 */
import { loadChainConfig } from '../config/chain.ts';
import { loadRateLimitConfig } from '../config/rate-limit.ts';
import { loadStoreConfig } from '../config/store.ts';
import { createChainClient } from './chain/explorer-client.ts';
import { logger } from './logger.ts';
import type { AssistantStore, ChainClient, RateLimiter } from './ports.ts';
import { createRateLimiter } from './rate-limit/limiter.ts';
import { createStore } from './store/index.ts';

interface Closable {
  close(): Promise<void>;
}

let store: (AssistantStore & { ready?: () => Promise<unknown> }) | undefined;
let chain: (ChainClient & Partial<Closable>) | undefined;
let limiter: (RateLimiter & Partial<Closable>) | undefined;

/** The assistant store (PGlite in DATA_DIR, or PostgreSQL with DATABASE_URL); connects on first call. */
export function getStore(): AssistantStore {
  store ??= createStore(loadStoreConfig());
  return store;
}

/** The chain client (Explorer API v1 at ERGO_EXPLORER_URL, node fallback at ERGO_NODE_URL). */
export function getChainClient(): ChainClient {
  chain ??= createChainClient(loadChainConfig());
  return chain;
}

/** The rate limiter (memory, or Redis with REDIS_URL). */
export function getRateLimiter(): RateLimiter {
  limiter ??= createRateLimiter(loadRateLimitConfig());
  return limiter;
}

/**
 * Opens the store and applies its migrations now rather than on the first call that needs it (for
 * tools that want a deployment migrated before traffic). Never throws: a database that is down is
 * logged, and the store tries again on the next call. The server does not call it at start: opening
 * PGlite compiles the engine and, in a fresh DATA_DIR, initialises a cluster (seconds of CPU), a cost
 * only the processes that serve the assistant should pay.
 */
export async function warmUpRuntime(): Promise<void> {
  const current = getStore() as AssistantStore & { ready?: () => Promise<unknown> };
  try {
    await (current.ready ? current.ready() : current.ping());
    logger.info({ store: current.kind }, 'store ready (migrations applied)');
  } catch (error) {
    logger.warn({ err: error, store: current.kind }, 'store not reachable at start; assistant payments answer 503 until it is');
  }
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
  chain = undefined;
  limiter = undefined;
  const results = await Promise.allSettled(parts.map((part) => part?.close?.()));
  for (const result of results) {
    if (result.status === 'rejected') logger.warn({ err: result.reason }, 'closing an outside connection failed');
  }
}
