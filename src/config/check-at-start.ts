/**
 * Every variable the served process reads, checked before it listens. Most parts read their
 * configuration when first used (the store, the chain client, the limiter, the faucet), so without
 * this a malformed value would start fine and then answer 500 on the first request that needs it.
 * All malformed variables are named at once, each with what it must be; values are never echoed.
 */
import { loadChainConfig } from './chain.ts';
import { loadFaucetConfig } from './faucet.ts';
import { loadMcpConfig } from './mcp.ts';
import { loadRateLimitConfig } from './rate-limit.ts';
import { loadListenConfig, loadServerConfig } from './server.ts';
import { loadRetentionConfig, loadStoreConfig } from './store.ts';
import { loadReceiptLogConfig } from './receipt-log.ts';

const LOADERS: ReadonlyArray<(env: Record<string, string | undefined>) => unknown> = [
  loadListenConfig,
  loadServerConfig,
  loadStoreConfig,
  loadRetentionConfig,
  loadReceiptLogConfig,
  loadChainConfig,
  loadRateLimitConfig,
  loadFaucetConfig,
  loadMcpConfig,
];

/** Throws one error naming every malformed variable, one per line. */
export function checkConfigurationAtStart(env: Record<string, string | undefined> = process.env): void {
  const problems: string[] = [];
  for (const load of LOADERS) {
    try {
      load(env);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (problems.length > 0) throw new Error(`configuration refused:\n  ${problems.join('\n  ')}`);
}
