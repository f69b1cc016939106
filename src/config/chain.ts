/**
 * Where Note payments are read from. The chain client speaks the Ergo Explorer API v1 at
 * `ERGO_EXPLORER_URL` (the public testnet explorer by default, or the local sandbox), and, because
 * the public explorer has been seen answering 404 for unspent boxes, may fall back to an Ergo node at
 * `ERGO_NODE_URL`. `CHAIN_SOURCE` is what receipts record: a sandbox proof must never pass for a
 * testnet one, so the client also refuses a sandbox explorer while `CHAIN_SOURCE` says `testnet`.
 */
import { z } from 'zod';
import { integerVariable, readEnvironment } from './env.ts';

export const ERGO_EXPLORER_URL_DEFAULT = 'https://api-testnet.ergoplatform.com';
export const CHAIN_TIMEOUT_MS_DEFAULT = 5_000;
export const CHAIN_RETRIES_DEFAULT = 1;
export const CHAIN_HEIGHT_MAX_AGE_MS_DEFAULT = 5_000;

const baseUrl = (example: string) =>
  z
    .url({ protocol: /^https?$/, message: `must be an absolute http(s) URL such as ${example}` })
    .transform((value) => value.replace(/\/+$/, ''));

const chainEnvironmentSchema = z.object({
  ERGO_EXPLORER_URL: baseUrl(ERGO_EXPLORER_URL_DEFAULT).default(ERGO_EXPLORER_URL_DEFAULT),
  ERGO_NODE_URL: baseUrl('http://127.0.0.1:9052').optional(),
  CHAIN_TIMEOUT_MS: integerVariable(100, 120_000, 'milliseconds').default(CHAIN_TIMEOUT_MS_DEFAULT),
  CHAIN_RETRIES: integerVariable(0, 5, 'retries').default(CHAIN_RETRIES_DEFAULT),
  CHAIN_HEIGHT_MAX_AGE_MS: integerVariable(0, 60_000, 'milliseconds').default(CHAIN_HEIGHT_MAX_AGE_MS_DEFAULT),
  CHAIN_SOURCE: z.enum(['testnet', 'sandbox'], { message: 'must be testnet or sandbox' }).default('testnet'),
});

export interface ChainConfig {
  explorerUrl: string;
  nodeUrl: string | undefined;
  /** The most one chain read (height or box, retries and node fallback included) may take. */
  timeoutMs: number;
  /** How many times a failed attempt (transport error, 5xx, malformed answer) is tried again within the timeout. */
  retries: number;
  source: 'testnet' | 'sandbox';
  /** How old a chain height a premium quote may be issued at (0: read the chain for every quote). */
  heightMaxAgeMs: number;
}

/** Reads the chain variables; throws naming the variable. */
export function loadChainConfig(env: Record<string, string | undefined> = process.env): ChainConfig {
  const values = readEnvironment('chain configuration', chainEnvironmentSchema, env);
  return {
    explorerUrl: values.ERGO_EXPLORER_URL,
    nodeUrl: values.ERGO_NODE_URL,
    timeoutMs: values.CHAIN_TIMEOUT_MS,
    retries: values.CHAIN_RETRIES,
    source: values.CHAIN_SOURCE,
    heightMaxAgeMs: values.CHAIN_HEIGHT_MAX_AGE_MS,
  };
}
