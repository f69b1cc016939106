/**
 * Per-client limits on the assistant's endpoints (spec 4.5: quote, question and verification
 * limits answer 429) and on faucet payouts. Counters live in memory by default; with `REDIS_URL`
 * they live in Redis so every instance behind a load balancer counts against the same budget.
 */
import { z } from 'zod';
import { integerVariable, readEnvironment } from './env.ts';
import { FAUCET_PER_ADDRESS_LIMIT, FAUCET_PER_IP_LIMIT, FAUCET_TOKEN_MEMORY_SECONDS } from './faucet.ts';

/** `faucet_token` is one use per proof-of-work token: the set of spent tokens, kept where the limits are. */
export const RATE_LIMIT_BUCKETS = ['quote', 'chat', 'verify', 'faucet_ip', 'faucet_address', 'faucet_token'] as const;
export type RateLimitBucket = (typeof RATE_LIMIT_BUCKETS)[number];

export const RATE_LIMIT_DEFAULTS = { quote: 30, chat: 20, verify: 20 } as const;
export const REDIS_TIMEOUT_MS_DEFAULT = 500;
export const RATE_LIMIT_REDIS_PREFIX_DEFAULT = 'agent-economy:rl';

const rateLimitEnvironmentSchema = z.object({
  REDIS_URL: z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379').optional(),
  REDIS_TIMEOUT_MS: integerVariable(50, 30_000, 'milliseconds').default(REDIS_TIMEOUT_MS_DEFAULT),
  RATE_LIMIT_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,100}$/, 'must be 1 to 100 characters of A-Z, a-z, 0-9, :, _, . or -')
    .default(RATE_LIMIT_REDIS_PREFIX_DEFAULT),
  RATE_LIMIT_QUOTE_PER_MINUTE: integerVariable(1, 1_000_000, 'requests').default(RATE_LIMIT_DEFAULTS.quote),
  RATE_LIMIT_CHAT_PER_MINUTE: integerVariable(1, 1_000_000, 'requests').default(RATE_LIMIT_DEFAULTS.chat),
  RATE_LIMIT_VERIFY_PER_MINUTE: integerVariable(1, 1_000_000, 'requests').default(RATE_LIMIT_DEFAULTS.verify),
});

export interface BucketLimit {
  points: number;
  durationSeconds: number;
}

export interface RateLimitConfig {
  redisUrl: string | undefined;
  /** Bound on connecting to Redis and on each command; past it the instance counts in memory. */
  redisTimeoutMs: number;
  /** Prefix of every Redis key, so deployments (or test runs) sharing a Redis do not share counters. */
  redisPrefix: string;
  limits: Record<RateLimitBucket, BucketLimit>;
}

/** Reads the rate-limit variables; throws naming the variable. The Redis URL is never echoed. */
export function loadRateLimitConfig(env: Record<string, string | undefined> = process.env): RateLimitConfig {
  const values = readEnvironment('rate limit configuration', rateLimitEnvironmentSchema, env);
  return {
    redisUrl: values.REDIS_URL,
    redisTimeoutMs: values.REDIS_TIMEOUT_MS,
    redisPrefix: values.RATE_LIMIT_REDIS_PREFIX,
    limits: {
      quote: { points: values.RATE_LIMIT_QUOTE_PER_MINUTE, durationSeconds: 60 },
      chat: { points: values.RATE_LIMIT_CHAT_PER_MINUTE, durationSeconds: 60 },
      verify: { points: values.RATE_LIMIT_VERIFY_PER_MINUTE, durationSeconds: 60 },
      // The faucet's limits are part of its published anti-abuse posture, fixed in config/faucet.ts.
      faucet_ip: { points: FAUCET_PER_IP_LIMIT.max_payouts, durationSeconds: FAUCET_PER_IP_LIMIT.window_seconds },
      faucet_address: { points: FAUCET_PER_ADDRESS_LIMIT.max_payouts, durationSeconds: FAUCET_PER_ADDRESS_LIMIT.window_seconds },
      faucet_token: { points: 1, durationSeconds: FAUCET_TOKEN_MEMORY_SECONDS },
    },
  };
}
