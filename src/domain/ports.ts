/**
 * The interfaces between the assistant's flow and the outside world. Handlers and domain code
 * depend on these, never on node:sqlite, pg, ioredis or undici directly; `src/services/runtime.ts`
 * picks the implementation from configuration (embedded SQLite by default, PostgreSQL with DATABASE_URL,
 * Redis-backed limits with REDIS_URL, the Explorer API at ERGO_EXPLORER_URL).
 */
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import type { ReceiptSummary, SubjectKind } from '../../schemas/reputation.ts';
import type { ReputationEvidence } from './reputation.ts';
import type { ReputationTotals, SubjectAggregate } from './reputation-fold.ts';

/** Receipts settled on one UTC day (`YYYY-MM-DD`, or '' when a receipt has no settlement date) on one chain. */
export interface ReceiptDay {
  day: string;
  chain: 'testnet' | 'sandbox';
  count: number;
}

/** Where a page of reputation subjects starts: after this subject in the graph's order. */
export type SubjectCursor = Pick<SubjectAggregate, 'receiptCount' | 'lastSettledAt' | 'subjectId' | 'kind'>;
import type { ProbeRun } from './probe-history.ts';
import type { RateLimitBucket } from '../config/rate-limit.ts';

/** A quote as the server issued and stored it; verification trusts only this, never the client's copy. */
export interface StoredQuote {
  quoteId: string;
  taskHash: string;
  /** blake2b256 hex of the quoted question text (the text itself is never stored). */
  questionHash: string;
  priceNanoErg: bigint;
  receiverAddress: string;
  reserveBoxId: string;
  noteExpiryMinHeight: number;
  minConfirmations: number;
  issuedHeight: number;
  issuedAt: Date;
  expiresAt: Date;
}

export interface ActivityEvent {
  kind: 'quote_issued' | 'payment_verified' | 'turn_answered';
  at: Date;
  amountNanoErg?: bigint;
  taskHash?: string;
  receiptId?: string;
}

/** The events recorded as such; a `quote_issued` event is the stored quote itself. */
export type RecordedActivityEvent = ActivityEvent & { kind: 'payment_verified' | 'turn_answered' };

export interface SettlePaymentInput {
  quoteId: string;
  noteBoxId: string;
  receipt: ReceiptBundle;
  /** blake2b256 (or sha256) hex of the payment token; the token itself is never stored. */
  tokenHash: string;
  tokenExpiresAt: Date;
  questionHash: string;
  /** The address that funded the Note (ChainClient.getTransactionPayer); null when the chain could not name it. */
  payerAddress: string | null;
  /** Hash of the payer's retry key (retry-key.ts); null when the payer sent none. */
  retryKeyHash: string | null;
}

export type SpendTokenResult =
  | { ok: true; quoteId: string; receiptId: string }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' | 'question_mismatch' };

export interface ReissueTokenInput {
  noteBoxId: string;
  /** The quote the retry names; the Note must have paid exactly this one. */
  quoteId: string;
  /** Hash of the fresh token that replaces the unspent one. */
  tokenHash: string;
  tokenExpiresAt: Date;
  /** Hash of the retry key this retry presents; it must equal the one stored at settlement. */
  retryKeyHash: string | null;
}

export type ReissueTokenResult =
  /** The Note paid this quote and its token was unspent: the fresh token replaces it (the old one stops working). */
  | { status: 'reissued'; receipt: ReceiptBundle }
  /** The Note paid this quote and its token already paid a turn: no second answer. */
  | { status: 'answered'; receiptId: string }
  /** The Note paid this quote, but the retry did not present the payer's retry key: nothing changed. */
  | { status: 'not_payer'; receiptId: string }
  /** The Note paid another quote. */
  | { status: 'other_quote' };

/** Thrown by settlePayment when the Note already paid a quote (the unique constraint fired). */
export class NoteAlreadyUsedError extends Error {
  readonly noteBoxId: string;

  constructor(noteBoxId: string) {
    super(`Note ${noteBoxId} already paid another quote`);
    this.noteBoxId = noteBoxId;
    this.name = 'NoteAlreadyUsedError';
  }
}

/** Thrown by any store method when the database cannot be reached; handlers answer 503. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The store's data cannot be used by this build at all (a corrupt file, a schema written by a newer
 * build): no retry helps, so the server refuses to start on it, and while running it answers 503.
 * The message says what to do.
 */
export class StoreUnusableError extends StoreUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnusableError';
  }
}

/**
 * Where an A2A task of the a2a-x402 extension stands: waiting for its payment, being settled and
 * answered by one request (claimed, so a second payload waits), or ended: answered, failed (its
 * owner rejected the payment, or its quote expired) or canceled by its owner.
 */
export type A2aTaskState = 'input-required' | 'working' | 'completed' | 'failed' | 'canceled';

/** The states in which a task takes no more messages and none of its fields changes again. */
export const ENDED_A2A_TASK_STATES: ReadonlySet<A2aTaskState> = new Set(['completed', 'failed', 'canceled']);

/** What an A2A task shows, in no protocol version's words: each request renders it in its own. */
export interface A2aTaskRecord {
  /** The question the task's quote was issued for; dropped once the task ends. */
  question?: string;
  /** The agent's status message: its text and its `x402.payment.*` metadata. */
  status: { text: string; metadata: Record<string, unknown> };
  /** The premium answer (the chat's answer body), once completed. */
  answer?: Record<string, unknown>;
  /**
   * The Note that settled the task's quote, once it did: whatever the client sends next, the task
   * finishes with this payment (a turn settled but not answered is recovered, never lost).
   */
  settled?: { noteBoxId: string; receiptId: string };
}

/** Spending a token to complete a task: as spendToken answers, or the claim was lost (nothing spent). */
export type CompleteA2aTaskResult = SpendTokenResult | { ok: false; reason: 'claim_lost' };

/**
 * A premium question asked over A2A with the a2a-x402 extension, kept in the store so any instance
 * (or this one after a restart) continues it. Bound to its quote, and through it to its question.
 */
export interface StoredA2aTask {
  taskId: string;
  contextId: string;
  quoteId: string;
  state: A2aTaskState;
  /**
   * The secret that binds the task's settlement to the task (retry-key.ts): a retry on this task
   * recovers a turn it settled but did not answer; nobody else can. Never shown.
   */
  retryKey: string;
  /**
   * The hash of the bearer credential the task was created with (a2a-task-owner.ts): only that
   * credential cancels the task, rejects its payment or lists it. Absent: nobody owns it.
   */
  ownerHash?: string | undefined;
  record: A2aTaskRecord;
  /** The quote's expiry: an unpaid task is deleted with its quote. */
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** Which of one owner's tasks a ListTasks page reads, newest status first. */
export interface A2aTaskQuery {
  ownerHash: string;
  contextId?: string | undefined;
  state?: A2aTaskState | undefined;
  /** Only tasks whose status changed at or after this instant. */
  updatedFrom?: Date | undefined;
  /** Where the previous page ended: tasks strictly before it in the order (updatedAt, then taskId, both descending). */
  after?: { updatedAt: Date; taskId: string } | undefined;
  /** At most this many tasks. */
  limit: number;
}

/** One window of a retention sweep: how many rows it deleted, and where the next window starts. */
export interface SweepWindow {
  deleted: number;
  next: Date;
}

/** A stored receipt bundle as its stored text; `bundle()` reads it back (in the documented key order), anew on each call. */
export interface StoredReceiptText {
  readonly text: string;
  bundle(): ReceiptBundle;
}

export interface AssistantStore {
  /** `sqlite`: the embedded store in DATA_DIR; `postgres`: a PostgreSQL shared by every instance. */
  readonly kind: 'sqlite' | 'postgres';
  /** A real round trip (SELECT 1). */
  ping(): Promise<void>;
  /** Stores a quote. It is its own `quote_issued` activity event: listActivity reads that from the quote. */
  insertQuote(quote: StoredQuote): Promise<void>;
  getQuote(quoteId: string): Promise<StoredQuote | undefined>;
  /**
   * ONE transaction: mark the Note used (unique on noteBoxId), store the receipt bundle, store the
   * token hash bound to quote and question. All or nothing. Throws NoteAlreadyUsedError.
   */
  settlePayment(input: SettlePaymentInput): Promise<void>;
  /**
   * A verification retried after it settled (its answer was lost on the way): in ONE transaction,
   * finds the Note's settlement and, when it paid `quoteId`, its token is unspent and the retry
   * presents the payer's retry key, replaces that token's hash with `tokenHash`, so only one token
   * is ever live for a Note and only the payer can hold it.
   */
  reissueToken(input: ReissueTokenInput): Promise<ReissueTokenResult>;
  /** Whether a settlement has claimed this Note (the claim settlePayment makes). */
  isNoteUsed(noteBoxId: string): Promise<boolean>;
  /** Atomically spends a token (single use) if it exists, is unexpired and matches the question. */
  spendToken(tokenHash: string, questionHash: string, now: Date): Promise<SpendTokenResult>;
  /** By receipt id or by settlement transaction id; in the documented key order of the bundle. */
  getReceipt(idOrTxId: string): Promise<ReceiptBundle | undefined>;
  /**
   * Newest first, each as the text stored, read back into a bundle only when asked: a reader that
   * keeps what it derived from a text it saw before reads back only the texts that are new or
   * changed, and one looking for the first of a kind reads back only up to it.
   */
  listReceiptTexts(limit: number): Promise<StoredReceiptText[]>;
  /** Every stored receipt as the reputation derivation reads it, oldest first. */
  /** Every receipt's summary, in the order stored; with `logSize`, only those of the first `logSize` log entries, in log order. */
  listReceiptSummaries(logSize?: number): Promise<ReceiptSummary[]>;
  recordActivity(event: RecordedActivityEvent): Promise<void>;
  /** Newest first: the recorded events and every quote's `quote_issued`. */
  listActivity(limit: number): Promise<ActivityEvent[]>;
  /**
   * Keeps one run of the live status's probes unless a kept run (any instance's) is less than
   * `everyMs` away from it, and in the same transaction drops the oldest runs beyond `keepRuns`.
   * Whether it was kept.
   */
  recordProbeRun(run: ProbeRun, limits: { keepRuns: number; everyMs: number }): Promise<boolean>;
  /** The newest `limit` kept runs, oldest first. */
  listProbeRuns(limit: number): Promise<ProbeRun[]>;
  /**
   * Reserves one free-tier question of a client key on a UTC day, in one statement: counted when
   * fewer than `limit` are, refused otherwise, so parallel requests never reserve past the limit.
   * The count with this one, or null when refused.
   */
  reserveFreeUsage(clientKey: string, day: string, limit: number): Promise<number | null>;
  /** Gives back a reserved question whose turn was not answered (never below zero). */
  releaseFreeUsage(clientKey: string, day: string): Promise<void>;
  getFreeUsage(clientKey: string, day: string): Promise<number>;
  /**
   * Retention, one window: of the quotes that expired from `from` on and before `expiredBefore`,
   * the oldest `limit` or so (a window ends between two expiry instants), deletes those never paid
   * (no Note claimed them); paid quotes stay with their receipts. How many went, and where the next
   * window starts (`expiredBefore` once none are left).
   */
  sweepUnpaidQuotes(from: Date, expiredBefore: Date, limit: number): Promise<SweepWindow>;
  /** Stores a new task (state `input-required`). */
  insertA2aTask(task: StoredA2aTask): Promise<void>;
  getA2aTask(taskId: string): Promise<StoredA2aTask | undefined>;
  /**
   * Claims a task for one request, in one statement: `input-required` (or `working` but untouched
   * since `staleBefore`, its request gone) becomes `working`, its `updatedAt` the claim's instant
   * `now`, which fences every later write of this claim. The claimed task, or undefined when another
   * request holds it or it has ended.
   */
  claimA2aTask(taskId: string, now: Date, staleBefore: Date): Promise<StoredA2aTask | undefined>;
  /**
   * Ends the claim made at `claimedAt` without an answer: the task takes `state` and `record`.
   * False when that claim is no longer the task's (taken over as stale): nothing is written.
   */
  releaseA2aTask(input: { taskId: string; claimedAt: Date; state: 'input-required' | 'failed'; record: A2aTaskRecord; now: Date }): Promise<boolean>;
  /**
   * ONE transaction: the claim made at `claimedAt` completes the task with `record` (its answer)
   * and spends the payment token, or neither happens. A settled turn's answer is never spent
   * without being kept on its task.
   */
  completeA2aTask(input: { taskId: string; claimedAt: Date; record: A2aTaskRecord; tokenHash: string; questionHash: string; now: Date }): Promise<CompleteA2aTaskResult>;
  /**
   * A page of one owner's tasks matching the query (newest status first, then by task id), and how
   * many match it in all, the page's cursor apart. Read through the owner index, never a table scan.
   */
  listA2aTasks(query: A2aTaskQuery): Promise<{ tasks: StoredA2aTask[]; total: number }>;
  /**
   * Cancels a task waiting for its payment, in one statement fenced on the `updatedAt` its caller
   * read (`seenAt`): the canceled task, or undefined when the task moved since (claimed, ended, or
   * changed by another message) and nothing was written.
   */
  cancelA2aTask(input: { taskId: string; seenAt: Date; record: A2aTaskRecord; now: Date }): Promise<StoredA2aTask | undefined>;
  /** Retention, one window as for quotes: deletes the tasks in it not completed whose quote no Note settled. */
  sweepStaleA2aTasks(from: Date, expiredBefore: Date, limit: number): Promise<SweepWindow>;
  /** Retention: deletes the free-tier counts of days before `day` (YYYY-MM-DD). How many were deleted. */
  deleteFreeUsageBefore(day: string): Promise<number>;
  close(): Promise<void>;
}

/** A signed checkpoint of the receipt log as stored (c2sp.org/tlog-checkpoint). */
export interface StoredCheckpoint {
  size: number;
  /** Root hash of the tree of `size` entries, lower-case hex. */
  rootHex: string;
  /** The signed note, exactly as served. */
  note: string;
  issuedAt: Date;
}

/** One entry of the receipt log: its bytes, or undefined when its receipt is gone from the store. */
export interface LogEntry {
  index: number;
  receiptId: string;
  bytes: Uint8Array | undefined;
  /** The receipt as the store holds it, when it has one: whether it is there is known without making its bytes. */
  stored?: string;
}

/**
 * The receipt transparency log's storage (docs/transparency-log.md): entries are appended by
 * settlePayment in the transaction that stores the receipt; this reads the tree's stored hashes and
 * entries and keeps the signed checkpoints every instance serves.
 */
export interface ReceiptLogStore {
  /** Entries in the log now. */
  logSize(): Promise<number>;
  /** Stored hashes by stored hash index (tree.ts), in the order asked; throws when one is missing. */
  readLogHashes(indexes: readonly number[]): Promise<Uint8Array[]>;
  /** Entries [start, end), in order. */
  readLogEntries(start: number, end: number): Promise<LogEntry[]>;
  /** The index of a receipt's entry, or undefined when it has none. */
  logIndexOf(receiptId: string): Promise<number | undefined>;
  latestCheckpoint(): Promise<StoredCheckpoint | undefined>;
  /**
   * Keeps a checkpoint unless one of that size is kept already (another instance signed it first);
   * one of the same size and root takes its place (the same tree signed again, under the origin a
   * moved site has now), one with another root never does.
   */
  saveCheckpoint(checkpoint: StoredCheckpoint): Promise<void>;
  /** Appends stored receipts the log lacks (a build without the log stored them); how many. */
  appendUnloggedReceipts(): Promise<number>;
  /** Receipts in the store, for the live check that the log and the store agree. */
  countReceipts(): Promise<number>;
  /**
   * A value that changes whenever a stored receipt or log entry is rewritten or removed (appends leave
   * it): entries read while it holds are still the store's.
   */
  logRevision(): Promise<string>;
  /** The gzip of full entry bundle `n` as kept, with the log revision it was made at. */
  keptBundle(n: number): Promise<KeptBundle | undefined>;
  /** Keeps the gzip of full entry bundle `n`, made at `revision`, in place of any kept before. */
  keepBundle(n: number, bundle: KeptBundle): Promise<void>;
  /** The full entry bundles kept at `revision`. */
  keptBundleIndexes(revision: string): Promise<number[]>;
}

export interface KeptBundle {
  revision: string;
  gzipped: Uint8Array;
}

/** A box as the chain source reports it; value is exact (may exceed 2^53). */
export interface ChainBox {
  boxId: string;
  transactionId: string;
  value: bigint;
  ergoTree: string;
  address: string | undefined;
  creationHeight: number;
  /** Height of the block that included it; undefined while unconfirmed (mempool). */
  inclusionHeight: number | undefined;
  /** Serialized register constants (hex), e.g. { R4: '0e20...', R5: '04...' }. */
  registers: Partial<Record<'R4' | 'R5' | 'R6' | 'R7' | 'R8' | 'R9', string>>;
  /** Which API answered: receipts record it; absent means the Explorer API v1. */
  via?: 'explorer_api_v1' | 'node_api';
}

/** Thrown by the chain client on timeout, transport failure or an answer that is not the API's shape. */
export class ChainUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainUnavailableError';
  }
}

export interface ChainClient {
  /** `testnet` for the public test network, `sandbox` for the local sandbox chain. */
  readonly source: 'testnet' | 'sandbox';
  /** The API base the client reads (for receipts' chain evidence). */
  readonly explorerUrl: string;
  /** Height of the best block, read now. */
  height(): Promise<number>;
  /** Height of the best block, at most CHAIN_HEIGHT_MAX_AGE_MS old (services/chain/recent-height.ts). */
  recentHeight(): Promise<number>;
  /** undefined when the box is not known to the chain source (404). */
  getBox(boxId: string): Promise<ChainBox | undefined>;
  /**
   * The address of the transaction's first input: by Ergo wallets' convention the payer's (its
   * change returns there). undefined when the chain source does not know the transaction.
   */
  getTransactionPayer(transactionId: string): Promise<string | undefined>;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** The window `limit` counts in, in seconds. */
  windowSeconds: number;
  remaining: number;
  retryAfterSeconds: number;
  resetSeconds: number;
}

export interface RateLimiter {
  /** `redis` when shared; `memory` by configuration; `memory_fallback` while Redis is unreachable. */
  mode(): 'redis' | 'memory' | 'memory_fallback';
  consume(bucket: RateLimitBucket, key: string): Promise<RateLimitDecision>;
  /**
   * Gives back one request counted for `key` (a faucet payout that paid nothing). Best effort: a
   * refund that cannot be written is logged, never thrown.
   */
  refund(bucket: RateLimitBucket, key: string): Promise<void>;
}

/**
 * The reputation graph kept per checkpoint of the receipt log (src/domain/reputation-fold.ts): its
 * aggregates folded stretch by stretch, and read a page at a time.
 */
export interface ReputationStore {
  /** The stored checkpoint of exactly `size` entries, if one was signed. */
  checkpointOfSize(size: number): Promise<StoredCheckpoint | undefined>;
  /**
   * Folds the log's receipts into the reputation aggregates from where they stand up to `toSize`,
   * at most `maxEntries` in this one transaction; the log size they cover afterwards. Concurrent
   * folds (any instance) wait for one another and never fold an entry twice.
   */
  foldReputation(toSize: number, maxEntries: number): Promise<number>;
  /** The reputation graph's totals and the log size they cover. */
  reputationTotals(): Promise<ReputationTotals>;
  /** Up to `limit` subjects in the graph's order, after `after`. */
  reputationSubjects(limit: number, after?: SubjectCursor): Promise<SubjectAggregate[]>;
  /** Receipts per settlement day and chain, over the folded log: a row per day, whatever the receipts. */
  receiptDays(): Promise<ReceiptDay[]>;
  /** One subject's aggregates, or undefined when it has no counted receipt. */
  reputationSubject(kind: SubjectKind, subjectId: string): Promise<SubjectAggregate | undefined>;
  /** Up to `limit` receipts credited to a subject, newest first, after `after`. */
  reputationEvidence(kind: SubjectKind, subjectId: string, limit: number, after?: ReputationEvidence): Promise<ReputationEvidence[]>;
}
