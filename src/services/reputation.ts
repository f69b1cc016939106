/**
 * The reputation graph (and the receipts per day the proofs picture draws) as the routes read it:
 * the aggregates are folded up to the receipt log's newest signed checkpoint (one fold at a time in
 * this process, the store ordering instances), after each checkpoint in the background and, for the
 * few receipts signed since, by the request itself; then one page is read. A request's work is a
 * page and at most INLINE_BACKLOG entries, never the whole history: a longer backlog (a store
 * migrated with its history, a fold that fell behind) is folded in the background while requests
 * are told when to come back.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SubjectKind } from '../../schemas/reputation.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { logger } from './logger.ts';
import type { ReceiptDay, ReputationStore, StoredCheckpoint, SubjectCursor } from '../domain/ports.ts';
import type { ReputationEvidence } from '../domain/reputation.ts';
import type { ReputationTotals, SubjectAggregate } from '../domain/reputation-fold.ts';

/**
 * Entries one fold transaction takes at most. The embedded store runs on the event loop: 2,000 held
 * it for 115 ms, 200 for about 10 (`npm run bench:scale`), and the loop turns between steps.
 */
const FOLD_STEP = 200;
/** Entries a request waits to see folded at most; a checkpoint's worth in steady traffic. */
export const INLINE_BACKLOG = 2_000;
/** When a request refused during a long fold should come back. */
const CATCHING_UP_RETRY_SECONDS = 5;
/** Reads of a page retried when another instance folded in between (the totals moved). */
const CONSISTENT_READ_ATTEMPTS = 3;

export interface ReputationReader {
  /** Folds up to the newest checkpoint in the background (after a checkpoint is signed); never rejects. */
  catchUp(): Promise<void>;
  /** A page of subjects after `after`, with the totals of the log size they reflect and its checkpoint. */
  subjects(limit: number, after?: SubjectCursor): Promise<{ totals: ReputationTotals; subjects: SubjectAggregate[]; checkpoint: StoredCheckpoint | undefined }>;
  /** Receipts per settlement day and chain, as of the newest signed checkpoint (the proofs picture). */
  receiptDays(): Promise<ReceiptDay[]>;
  /** A page of one subject's receipts; undefined when the subject has none counted. */
  evidence(kind: SubjectKind, subjectId: string, limit: number, after?: ReputationEvidence): Promise<{ subject: SubjectAggregate; evidence: ReputationEvidence[]; checkpoint: StoredCheckpoint | undefined } | undefined>;
}

export function createReputationReader(store: ReputationStore, newestCheckpoint: () => Promise<StoredCheckpoint | undefined>): ReputationReader {
  let folding: Promise<void> | undefined;
  const foldToNewest = () =>
    (folding ??= (async () => {
      const target = (await newestCheckpoint())?.size ?? 0;
      let size = (await store.reputationTotals()).logSize;
      while (size < target) {
        size = await store.foldReputation(target, FOLD_STEP);
        if (size < target) await nextTurn();
      }
    })().finally(() => {
      folding = undefined;
    }));

  const catchUp = () => foldToNewest().catch((error: unknown) => logger.warn({ err: error }, 'reputation: the aggregates could not be folded this round; the next checkpoint tries again'));

  /**
   * Folds what a request may wait for. With more than INLINE_BACKLOG entries to go, the fold goes on
   * in the background, and `refuse` says whether the request is refused (a 503 saying how far it
   * is) or reads the aggregates as they are.
   */
  async function folded(refuse: boolean): Promise<void> {
    const target = (await newestCheckpoint())?.size ?? 0;
    const size = (await store.reputationTotals()).logSize;
    if (size >= target) return;
    if (target - size <= INLINE_BACKLOG) return foldToNewest();
    void catchUp();
    if (!refuse) return;
    throw new ProblemError(
      503,
      'reputation_catching_up',
      'Reputation catching up',
      `The reputation aggregates hold ${size} of the receipt log's ${target} signed entries and are being folded; ask again in ${CATCHING_UP_RETRY_SECONDS} s.`,
      { headers: { 'retry-after': String(CATCHING_UP_RETRY_SECONDS) }, extra: { folded: size, log_size: target } },
    );
  }

  /** Reads `page` between two reads of the totals, until both name the same log size. */
  async function consistent<T>(page: () => Promise<T>): Promise<{ totals: ReputationTotals; value: T; checkpoint: StoredCheckpoint | undefined }> {
    await folded(true);
    let totals = await store.reputationTotals();
    for (let attempt = 1; ; attempt++) {
      const value = await page();
      const after = await store.reputationTotals();
      if (after.logSize === totals.logSize || attempt === CONSISTENT_READ_ATTEMPTS) {
        const checkpoint = after.logSize === 0 ? undefined : await store.checkpointOfSize(after.logSize);
        return { totals: after, value, checkpoint };
      }
      totals = after;
    }
  }

  return {
    catchUp,
    async subjects(limit, after) {
      const { totals, value, checkpoint } = await consistent(() => store.reputationSubjects(limit, after));
      return { totals, subjects: value, checkpoint };
    },
    async receiptDays() {
      // A picture may lag a long fold: it draws the days folded so far.
      await folded(false);
      return store.receiptDays();
    },
    async evidence(kind, subjectId, limit, after) {
      const { value, checkpoint } = await consistent(async () => {
        const subject = await store.reputationSubject(kind, subjectId);
        return subject && { subject, evidence: await store.reputationEvidence(kind, subjectId, limit, after) };
      });
      return value && { ...value, checkpoint };
    },
  };
}
