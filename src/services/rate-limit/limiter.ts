/**
 * RateLimiter over rate-limiter-flexible. In memory by default (one instance counts alone); with
 * REDIS_URL the counters live in Redis, so every instance draws on one budget per client. While
 * Redis is unreachable or slow, each instance falls back to its own in-memory counters with the
 * same limits (the library's insurance limiter) instead of failing requests or letting everything
 * through, and `mode()` says `memory_fallback` until Redis answers again.
 */
import { createRequire } from 'node:module';
import type { Redis as RedisClient } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RATE_LIMIT_BUCKETS, type BucketLimit, type RateLimitBucket, type RateLimitConfig } from '../../config/rate-limit.ts';
import { logger } from '../logger.ts';
import type { RateLimitDecision, RateLimiter } from '../../domain/ports.ts';

/** The memory limiter standing in for Redis; counts how often it was asked, to tell who answered. */
class InsuranceLimiter extends RateLimiterMemory {
  answered = 0;

  override consume(key: string | number, points?: number, options?: Record<string, unknown>): Promise<RateLimiterRes> {
    this.answered++;
    return super.consume(key, points, options);
  }
}

function decision(result: RateLimiterRes, allowed: boolean, { points: limit, durationSeconds: windowSeconds }: BucketLimit): RateLimitDecision {
  const resetSeconds = Math.max(0, Math.ceil(result.msBeforeNext / 1000));
  return {
    allowed,
    limit,
    windowSeconds,
    remaining: Math.max(0, result.remainingPoints),
    // A refused client always waits at least a second: "retry in 0 s" invites a hot loop.
    retryAfterSeconds: allowed ? 0 : Math.max(1, resetSeconds),
    resetSeconds,
  };
}

export interface FlexibleRateLimiter extends RateLimiter {
  close(): Promise<void>;
}

/** Builds the limiter for `config`; with a Redis URL it starts connecting at once (in the background). */
export function createRateLimiter(config: RateLimitConfig): FlexibleRateLimiter {
  if (!config.redisUrl) {
    const limiters = new Map<RateLimitBucket, RateLimiterAbstract>(
      RATE_LIMIT_BUCKETS.map((bucket) => [bucket, new RateLimiterMemory({ keyPrefix: bucket, points: config.limits[bucket].points, duration: config.limits[bucket].durationSeconds })]),
    );
    return {
      mode: () => 'memory',
      consume: (bucket, key) => consumeOne(limiters.get(bucket)!, key, config.limits[bucket]),
      refund: (bucket, key) => refundOne(limiters.get(bucket)!, bucket, key),
      close: async () => undefined,
    };
  }

  // ioredis is required here, not imported with this module: a process without REDIS_URL (the
  // default) never needs it, and loading it costs about 5 MiB resident.
  const { Redis } = createRequire(import.meta.url)('ioredis') as { Redis: typeof RedisClient };
  const redis = new Redis(config.redisUrl, {
    // Fail at once while disconnected, so the insurance limiter answers instead of a queue growing.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: config.redisTimeoutMs,
    commandTimeout: config.redisTimeoutMs,
    // Keep trying to come back, at most every two seconds.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  let reportedDown = false;
  redis.on('error', (error: Error) => {
    if (reportedDown) return;
    reportedDown = true;
    logger.warn({ err: error }, 'rate limits: Redis unreachable; counting per instance in memory until it is back');
  });
  redis.on('ready', () => {
    if (reportedDown) logger.info('rate limits: Redis is back; counters are shared again');
    reportedDown = false;
  });

  // Requests that arrive while the first connection is still being made wait for it (once, at most
  // the Redis timeout), so an instance that just started counts in Redis from its first request
  // instead of in its own memory. A refused or failed first connection ends the wait at once.
  let firstConnection: Promise<void> | undefined = new Promise<void>((resolve) => {
    const done = () => resolve();
    redis.once('ready', done).once('error', done).once('end', done);
    setTimeout(done, config.redisTimeoutMs).unref();
  }).then(() => {
    firstConnection = undefined;
  });

  const insurances: InsuranceLimiter[] = [];
  const limiters = new Map<RateLimitBucket, RateLimiterAbstract>(
    RATE_LIMIT_BUCKETS.map((bucket) => {
      const { points, durationSeconds } = config.limits[bucket];
      const insurance = new InsuranceLimiter({ keyPrefix: `${config.redisPrefix}:${bucket}`, points, duration: durationSeconds });
      insurances.push(insurance);
      const limiter = new RateLimiterRedis({
        storeClient: redis,
        rejectIfRedisNotReady: true,
        keyPrefix: `${config.redisPrefix}:${bucket}`,
        points,
        duration: durationSeconds,
        insuranceLimiter: insurance,
      });
      return [bucket, limiter];
    }),
  );
  const answeredByInsurance = () => insurances.reduce((sum, insurance) => sum + insurance.answered, 0);
  let lastAnsweredByRedis = true;

  return {
    mode: () => (redis.status === 'ready' && lastAnsweredByRedis ? 'redis' : 'memory_fallback'),
    async consume(bucket, key) {
      if (firstConnection) await firstConnection;
      const before = answeredByInsurance();
      try {
        return await consumeOne(limiters.get(bucket)!, key, config.limits[bucket]);
      } finally {
        lastAnsweredByRedis = answeredByInsurance() === before;
      }
    },
    refund: (bucket, key) => refundOne(limiters.get(bucket)!, bucket, key),
    async close() {
      const bounded = (work: Promise<unknown>) => Promise.race([work, new Promise((resolve) => setTimeout(resolve, config.redisTimeoutMs).unref())]);
      const ended = new Promise((resolve) => (redis.status === 'end' ? resolve(undefined) : redis.once('end', resolve)));
      await bounded(redis.quit().catch(() => undefined));
      redis.disconnect();
      await bounded(ended);
    },
  };
}

async function refundOne(limiter: RateLimiterAbstract, bucket: RateLimitBucket, key: string): Promise<void> {
  try {
    await limiter.reward(key, 1);
  } catch (error) {
    logger.warn({ err: error, bucket }, 'rate limits: a refund could not be written; the request stays counted');
  }
}

async function consumeOne(limiter: RateLimiterAbstract, key: string, limit: BucketLimit): Promise<RateLimitDecision> {
  try {
    return decision(await limiter.consume(key), true, limit);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return decision(rejection, false, limit);
    throw rejection;
  }
}
