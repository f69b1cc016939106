/**
 * What the store keeps, and for how long. Receipts, the Notes they claimed and the quotes they paid
 * are the proof and are kept for ever. An unpaid quote is only an offer: once it has expired and a
 * grace period has passed (a settlement that started before the expiry has long finished by then),
 * nothing can use it, so a sweep deletes it, and the A2A task waiting for it; so are free-tier
 * counts of past days. Each instance
 * sweeps on its own timer; sweeps racing on one PostgreSQL delete each row once.
 */
import type { RetentionConfig } from '../config/store.ts';
import { utcDay } from '../domain/assistant/pricing.ts';
import type { AssistantStore } from '../domain/ports.ts';
import { everyInterval } from '../lib/rounds.ts';
import { logger } from './logger.ts';

/** Rows one statement deletes: a few milliseconds of write lock on SQLite. */
const BATCH = 500;
/** Batches one sweep runs at most; what is left waits for the next sweep. */
const MAX_BATCHES = 20;
const DAY_MS = 86_400_000;

export interface SweepResult {
  quotes: number;
  /** A2A tasks that never completed, gone with their quote. */
  tasks: number;
  freeUsageDays: number;
}

/** One sweep at `now`: deletes what the retention rules let go. Throws what the store throws. */
export async function sweepExpired(store: AssistantStore, config: RetentionConfig, now: Date): Promise<SweepResult> {
  const expiredBefore = new Date(now.getTime() - config.quoteGraceSeconds * 1000);
  let quotes = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const deleted = await store.deleteUnpaidQuotes(expiredBefore, BATCH);
    quotes += deleted;
    if (deleted < BATCH) break;
  }
  let tasks = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const deleted = await store.deleteStaleA2aTasks(expiredBefore, BATCH);
    tasks += deleted;
    if (deleted < BATCH) break;
  }
  // Yesterday's count is kept: a request that started before midnight may still give its turn back.
  const freeUsageDays = await store.deleteFreeUsageBefore(utcDay(new Date(now.getTime() - DAY_MS)));
  return { quotes, tasks, freeUsageDays };
}

/**
 * Sweeps now and then every `sweepIntervalSeconds`, never two at once; a failed sweep is logged and
 * tried again at the next tick. The timer does not keep the process alive.
 */
export function startRetentionSweep(store: AssistantStore, config: RetentionConfig, clock: () => Date = () => new Date()): { stop: () => Promise<void> } {
  const sweep = async () => {
    try {
      const result = await sweepExpired(store, config, clock());
      if (result.quotes || result.tasks || result.freeUsageDays) logger.info({ deleted: result }, 'retention sweep');
    } catch (error) {
      logger.warn({ err: error }, 'retention sweep failed; it runs again at the next interval');
    }
  };
  return everyInterval(config.sweepIntervalSeconds, sweep);
}
