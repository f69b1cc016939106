/**
 * The reputation graph (and the receipts per day the proofs picture draws) as the routes read it:
 * the aggregates are first folded up to the receipt log's newest signed checkpoint (one fold at a time in this process, the store ordering instances),
 * then one page is read. A request's work is a page and the receipts signed since the last fold,
 * never the whole history.
 */
import type { SubjectKind } from '../../schemas/reputation.ts';
import type { ReceiptDay, ReputationStore, StoredCheckpoint, SubjectCursor } from '../domain/ports.ts';
import type { ReputationEvidence } from '../domain/reputation.ts';
import type { ReputationTotals, SubjectAggregate } from '../domain/reputation-fold.ts';

/** Entries one fold transaction takes at most: a few milliseconds of work and of write lock. */
const FOLD_STEP = 2_000;
/** Reads of a page retried when another instance folded in between (the totals moved). */
const CONSISTENT_READ_ATTEMPTS = 3;

export interface ReputationReader {
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
      while (size < target) size = await store.foldReputation(target, FOLD_STEP);
    })().finally(() => {
      folding = undefined;
    }));

  /** Reads `page` between two reads of the totals, until both name the same log size. */
  async function consistent<T>(page: () => Promise<T>): Promise<{ totals: ReputationTotals; value: T; checkpoint: StoredCheckpoint | undefined }> {
    await foldToNewest();
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
    async subjects(limit, after) {
      const { totals, value, checkpoint } = await consistent(() => store.reputationSubjects(limit, after));
      return { totals, subjects: value, checkpoint };
    },
    async receiptDays() {
      await foldToNewest();
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
