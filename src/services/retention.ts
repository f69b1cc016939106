/**
 * What the store keeps, and for how long. Receipts, the Notes they claimed and the quotes they paid
 * are the proof and are kept for ever. An unpaid quote is only an offer: once it has expired and a
 * grace period has passed (a settlement that started before the expiry has long finished by then),
 * nothing can use it, so a sweep deletes it, and the A2A task waiting for it; so are free-tier
 * counts of past days. Each instance
 * sweeps on its own timer, from where its last sweep ended (what expired before that is final: kept
 * for ever or gone); sweeps racing on one PostgreSQL delete each row once.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RetentionConfig } from '../config/store.ts';
import { utcDay } from '../domain/assistant/pricing.ts';
import type { AssistantStore, SweepWindow } from '../domain/ports.ts';
import { everyInterval } from '../lib/rounds.ts';
import { logger } from './logger.ts';

/** Rows one window reads through the expiry index (and deletes at most): about a millisecond of SQLite's writer. */
const WINDOW = 500;
/**
 * Windows one sweep runs at most, the loop turning between them; what is left waits for the next
 * sweep. A process's first sweep reads the whole history once (a million quotes: 2,000 windows, two
 * sweeps); every later one only what expired since the one before.
 */
const MAX_WINDOWS = 1_000;
const DAY_MS = 86_400_000;

/**
 * Where a process's sweeps resume: every quote (and A2A task) that expired before these instants has
 * been read by a window. Kept in memory: a new process starts from the beginning, once.
 */
export interface SweepMarks {
  quotesFrom: Date;
  tasksFrom: Date;
}

export const sweepFromTheStart = (): SweepMarks => ({ quotesFrom: new Date(0), tasksFrom: new Date(0) });

/** Windows of `sweep` from `from` until `expiredBefore` or MAX_WINDOWS: how many went, and where the next sweep starts. */
async function windowsOf(sweep: (from: Date, expiredBefore: Date, limit: number) => Promise<SweepWindow>, from: Date, expiredBefore: Date): Promise<SweepWindow> {
  let deleted = 0;
  let next = from;
  for (let window = 0; window < MAX_WINDOWS && next < expiredBefore; window++) {
    if (window > 0) await nextTurn();
    const swept = await sweep(next, expiredBefore, WINDOW);
    deleted += swept.deleted;
    next = swept.next;
  }
  return { deleted, next };
}

export interface SweepResult {
  quotes: number;
  /** A2A tasks that never completed, gone with their quote. */
  tasks: number;
  freeUsageDays: number;
}

/**
 * One sweep at `now`, from `marks` (moved to where it ended): deletes what the retention rules let
 * go. Throws what the store throws, the marks left at the last window done.
 */
export async function sweepExpired(store: AssistantStore, config: RetentionConfig, now: Date, marks: SweepMarks = sweepFromTheStart()): Promise<SweepResult> {
  const expiredBefore = new Date(now.getTime() - config.quoteGraceSeconds * 1000);
  const quoteWindows = await windowsOf((from, before, limit) => store.sweepUnpaidQuotes(from, before, limit), marks.quotesFrom, expiredBefore);
  marks.quotesFrom = quoteWindows.next;
  const taskWindows = await windowsOf((from, before, limit) => store.sweepStaleA2aTasks(from, before, limit), marks.tasksFrom, expiredBefore);
  marks.tasksFrom = taskWindows.next;
  // Yesterday's count is kept: a request that started before midnight may still give its turn back.
  const freeUsageDays = await store.deleteFreeUsageBefore(utcDay(new Date(now.getTime() - DAY_MS)));
  return { quotes: quoteWindows.deleted, tasks: taskWindows.deleted, freeUsageDays };
}

/**
 * Sweeps now and then every `sweepIntervalSeconds`, never two at once; a failed sweep is logged and
 * tried again at the next tick. The timer does not keep the process alive.
 */
export function startRetentionSweep(store: AssistantStore, config: RetentionConfig, clock: () => Date = () => new Date()): { stop: () => Promise<void> } {
  const marks = sweepFromTheStart();
  const sweep = async () => {
    try {
      const result = await sweepExpired(store, config, clock(), marks);
      if (result.quotes || result.tasks || result.freeUsageDays) logger.info({ deleted: result }, 'retention sweep');
    } catch (error) {
      logger.warn({ err: error }, 'retention sweep failed; it runs again at the next interval');
    }
  };
  return everyInterval(config.sweepIntervalSeconds, sweep);
}
