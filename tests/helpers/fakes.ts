/**
 * In-memory stand-ins for the assistant's ports (store, chain, rate limiter, model) and a clock the
 * test moves, so the handlers can be driven through every status without a database, an explorer or a
 * model. Each keeps the contract of its port: the store's settlePayment is all-or-nothing and
 * refuses a used Note with NoteAlreadyUsedError, spendToken spends once, and any of them can be
 * switched to "unavailable" to throw the port's own error.
 */
import { ErgoAddress } from '@fleet-sdk/core';
import { SByte, SColl, SInt } from '@fleet-sdk/serializer';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import type { ReceiptSummary } from '../../schemas/reputation.ts';
import { loadPaidTurnConfig, type PaidTurnConfig } from '../../src/config/assistant.ts';
import type { AssistantDeps } from '../../src/services/paid-turn/deps.ts';
import type { ProbeRun } from '../../src/domain/probe-history.ts';
import { ModelBadResponseError, ModelNotConfiguredError, ModelUnavailableError, type ModelAnswer, type ModelProvider, type ModelRequest, type QuestionJudgement } from '../../src/services/model/provider.ts';
import {
  ChainUnavailableError,
  NoteAlreadyUsedError,
  StoreUnavailableError,
  type ActivityEvent,
  type RecordedActivityEvent,
  type AssistantStore,
  type ChainBox,
  type ChainClient,
  type RateLimitDecision,
  type RateLimiter,
  type ReissueTokenInput,
  type ReissueTokenResult,
  type SettlePaymentInput,
  type SpendTokenResult,
  type StoredQuote,
  type A2aTaskQuery,
  type A2aTaskRecord,
  type CompleteA2aTaskResult,
  type StoredA2aTask,
  type StoredReceiptText,
  type SweepWindow,
} from '../../src/domain/ports.ts';

/** `receipt` as a store lists it: its text, read back on each `bundle()`. */
export function storedText(receipt: ReceiptBundle): StoredReceiptText {
  const text = JSON.stringify(receipt);
  return { text, bundle: () => JSON.parse(text) as ReceiptBundle };
}

export class FakeStore implements AssistantStore {
  readonly kind = 'sqlite' as const;
  unavailable = false;
  readonly quotes = new Map<string, StoredQuote>();
  readonly usedNotes = new Map<string, string>();
  readonly receipts: ReceiptBundle[] = [];
  readonly payers = new Map<string, string | null>();
  readonly tokens = new Map<string, { quoteId: string; receiptId: string; questionHash: string; expiresAt: Date; usedAt: Date | undefined; retryKeyHash: string | null }>();
  readonly activity: ActivityEvent[] = [];
  readonly freeUsage = new Map<string, number>();

  #check(): void {
    if (this.unavailable) throw new StoreUnavailableError('fake store switched off');
  }

  async ping(): Promise<void> {
    this.#check();
  }
  async insertQuote(quote: StoredQuote): Promise<void> {
    this.#check();
    this.quotes.set(quote.quoteId, structuredClone(quote));
    // As the SQL store lists it: the quote is its own quote_issued event.
    this.activity.push({ kind: 'quote_issued', at: quote.issuedAt, amountNanoErg: quote.priceNanoErg, taskHash: quote.taskHash });
  }
  async getQuote(quoteId: string): Promise<StoredQuote | undefined> {
    this.#check();
    const quote = this.quotes.get(quoteId);
    return quote && structuredClone(quote);
  }
  async settlePayment(input: SettlePaymentInput): Promise<void> {
    this.#check();
    const noteBoxId = input.noteBoxId.toLowerCase();
    if (this.usedNotes.has(noteBoxId)) throw new NoteAlreadyUsedError(noteBoxId);
    this.usedNotes.set(noteBoxId, input.quoteId);
    this.receipts.push(structuredClone(input.receipt));
    this.payers.set(input.receipt.receiptId, input.payerAddress);
    this.tokens.set(input.tokenHash, {
      quoteId: input.quoteId,
      receiptId: input.receipt.receiptId,
      questionHash: input.questionHash,
      expiresAt: input.tokenExpiresAt,
      usedAt: undefined,
      retryKeyHash: input.retryKeyHash,
    });
  }
  async reissueToken(input: ReissueTokenInput): Promise<ReissueTokenResult> {
    this.#check();
    const noteBoxId = input.noteBoxId.toLowerCase();
    if (this.usedNotes.get(noteBoxId) !== input.quoteId) return { status: 'other_quote' };
    const receipt = this.receipts.find((candidate) => candidate.noteBoxId === noteBoxId)!;
    const [oldHash, token] = [...this.tokens.entries()].find(([, candidate]) => candidate.receiptId === receipt.receiptId)!;
    if (token.usedAt) return { status: 'answered', receiptId: receipt.receiptId };
    if (token.retryKeyHash === null || token.retryKeyHash !== input.retryKeyHash) return { status: 'not_payer', receiptId: receipt.receiptId };
    this.tokens.delete(oldHash);
    this.tokens.set(input.tokenHash, { ...token, expiresAt: input.tokenExpiresAt });
    return { status: 'reissued', receipt: structuredClone(receipt) };
  }
  async spendToken(tokenHash: string, questionHash: string, now: Date): Promise<SpendTokenResult> {
    this.#check();
    const token = this.tokens.get(tokenHash);
    if (!token) return { ok: false, reason: 'unknown' };
    if (token.usedAt) return { ok: false, reason: 'used' };
    if (token.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    if (token.questionHash !== questionHash) return { ok: false, reason: 'question_mismatch' };
    token.usedAt = now;
    return { ok: true, quoteId: token.quoteId, receiptId: token.receiptId };
  }
  async getReceipt(idOrTxId: string): Promise<ReceiptBundle | undefined> {
    this.#check();
    const id = idOrTxId.toLowerCase();
    return this.receipts.find((receipt) => receipt.receiptId === id) ?? this.receipts.find((receipt) => receipt.settlementTxId === id);
  }
  async listReceiptTexts(limit: number): Promise<StoredReceiptText[]> {
    this.#check();
    return this.receipts.slice(-limit).reverse().map(storedText);
  }
  async listReceiptSummaries(logSize?: number): Promise<ReceiptSummary[]> {
    this.#check();
    // The fake's receipts are in log order: the first `logSize` are the log's first entries.
    return this.receipts.slice(0, logSize ?? this.receipts.length).map((receipt) => ({
      receiptId: receipt.receiptId,
      chain: receipt.chain,
      settledAt: receipt.verification_receipt.checkedAt,
      settlementTxId: receipt.settlementTxId,
      valueNanoErg: receipt.settlement_receipt.valueNanoErg,
      receiverAddress: receipt.agreement.receiverAddress,
      payerAddress: this.payers.get(receipt.receiptId) ?? null,
    }));
  }
  async recordActivity(event: RecordedActivityEvent): Promise<void> {
    this.#check();
    this.activity.push(event);
  }
  async listActivity(limit: number): Promise<ActivityEvent[]> {
    this.#check();
    return this.activity.slice(-limit).reverse();
  }
  async isNoteUsed(noteBoxId: string): Promise<boolean> {
    this.#check();
    return this.usedNotes.has(noteBoxId);
  }
  readonly probeRuns: ProbeRun[] = [];
  async recordProbeRun(run: ProbeRun, { keepRuns, everyMs }: { keepRuns: number; everyMs: number }): Promise<boolean> {
    this.#check();
    if (this.probeRuns.some((kept) => Math.abs(kept.at.getTime() - run.at.getTime()) < everyMs)) return false;
    this.probeRuns.push(run);
    this.probeRuns.sort((a, b) => a.at.getTime() - b.at.getTime());
    this.probeRuns.splice(0, Math.max(0, this.probeRuns.length - keepRuns));
    return true;
  }
  async listProbeRuns(limit: number): Promise<ProbeRun[]> {
    this.#check();
    return this.probeRuns.slice(-limit);
  }
  async reserveFreeUsage(clientKey: string, day: string, limit: number): Promise<number | null> {
    this.#check();
    const count = this.freeUsage.get(`${clientKey}/${day}`) ?? 0;
    if (count >= limit) return null;
    this.freeUsage.set(`${clientKey}/${day}`, count + 1);
    return count + 1;
  }
  async releaseFreeUsage(clientKey: string, day: string): Promise<void> {
    this.#check();
    const count = this.freeUsage.get(`${clientKey}/${day}`) ?? 0;
    if (count > 1) this.freeUsage.set(`${clientKey}/${day}`, count - 1);
    else this.freeUsage.delete(`${clientKey}/${day}`);
  }
  async sweepUnpaidQuotes(from: Date, expiredBefore: Date, limit: number): Promise<SweepWindow> {
    this.#check();
    const paid = new Set(this.usedNotes.values());
    return sweepWindowOf(this.quotes, (quote) => quote.quoteId, (quote) => !paid.has(quote.quoteId), from, expiredBefore, limit);
  }
  readonly a2aTasks = new Map<string, StoredA2aTask>();
  async insertA2aTask(task: StoredA2aTask): Promise<void> {
    this.#check();
    if (this.a2aTasks.has(task.taskId)) throw new Error(`task ${task.taskId} exists`);
    this.a2aTasks.set(task.taskId, structuredClone(task));
  }
  async getA2aTask(taskId: string): Promise<StoredA2aTask | undefined> {
    this.#check();
    const task = this.a2aTasks.get(taskId);
    return task && structuredClone(task);
  }
  async claimA2aTask(taskId: string, now: Date, staleBefore: Date): Promise<StoredA2aTask | undefined> {
    this.#check();
    const task = this.a2aTasks.get(taskId);
    if (!task || !(task.state === 'input-required' || (task.state === 'working' && task.updatedAt.getTime() < staleBefore.getTime()))) return undefined;
    Object.assign(task, { state: 'working', updatedAt: now });
    return structuredClone(task);
  }
  async releaseA2aTask({ taskId, claimedAt, state, record, now }: { taskId: string; claimedAt: Date; state: 'input-required' | 'failed'; record: A2aTaskRecord; now: Date }): Promise<boolean> {
    this.#check();
    const task = this.a2aTasks.get(taskId);
    if (task?.state !== 'working' || task.updatedAt.getTime() !== claimedAt.getTime()) return false;
    Object.assign(task, { state, record: structuredClone(record), updatedAt: now });
    return true;
  }
  async completeA2aTask({ taskId, claimedAt, record, tokenHash, questionHash, now }: { taskId: string; claimedAt: Date; record: A2aTaskRecord; tokenHash: string; questionHash: string; now: Date }): Promise<CompleteA2aTaskResult> {
    this.#check();
    const task = this.a2aTasks.get(taskId);
    if (task?.state !== 'working' || task.updatedAt.getTime() !== claimedAt.getTime()) return { ok: false, reason: 'claim_lost' };
    const spent = await this.spendToken(tokenHash, questionHash, now);
    if (spent.ok) Object.assign(task, { state: 'completed', record: structuredClone(record), updatedAt: now });
    return spent;
  }
  async listA2aTasks({ ownerHash, contextId, state, updatedFrom, after, limit }: A2aTaskQuery): Promise<{ tasks: StoredA2aTask[]; total: number }> {
    this.#check();
    // The SQL store's order: updatedAt, then taskId, both descending.
    const before = (task: StoredA2aTask) => !after || task.updatedAt.getTime() < after.updatedAt.getTime() || (task.updatedAt.getTime() === after.updatedAt.getTime() && task.taskId < after.taskId);
    const matching = [...this.a2aTasks.values()]
      .filter((task) => task.ownerHash === ownerHash && (contextId === undefined || task.contextId === contextId) && (state === undefined || task.state === state))
      .filter((task) => updatedFrom === undefined || task.updatedAt.getTime() >= updatedFrom.getTime())
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0));
    return { tasks: matching.filter(before).slice(0, limit).map((task) => structuredClone(task)), total: matching.length };
  }
  async cancelA2aTask({ taskId, seenAt, record, now }: { taskId: string; seenAt: Date; record: A2aTaskRecord; now: Date }): Promise<StoredA2aTask | undefined> {
    this.#check();
    const task = this.a2aTasks.get(taskId);
    if (task?.state !== 'input-required' || task.updatedAt.getTime() !== seenAt.getTime()) return undefined;
    Object.assign(task, { state: 'canceled', record: structuredClone(record), updatedAt: now });
    return structuredClone(task);
  }
  async sweepStaleA2aTasks(from: Date, expiredBefore: Date, limit: number): Promise<SweepWindow> {
    this.#check();
    const paid = new Set(this.usedNotes.values());
    return sweepWindowOf(this.a2aTasks, (task) => task.taskId, (task) => task.state !== 'completed' && !paid.has(task.quoteId), from, expiredBefore, limit);
  }

  async deleteFreeUsageBefore(day: string): Promise<number> {
    this.#check();
    const gone = [...this.freeUsage.keys()].filter((key) => key.slice(key.lastIndexOf('/') + 1) < day);
    for (const key of gone) this.freeUsage.delete(key);
    return gone.length;
  }
  async getFreeUsage(clientKey: string, day: string): Promise<number> {
    this.#check();
    return this.freeUsage.get(`${clientKey}/${day}`) ?? 0;
  }
  async close(): Promise<void> {}
}

export class FakeChain implements ChainClient {
  readonly explorerUrl = 'http://127.0.0.1:9/sandbox-explorer';
  readonly boxes = new Map<string, ChainBox>();
  /** Transaction id to the address of its first input; a transaction not here is unknown to the chain. */
  readonly payers = new Map<string, string>();
  unavailable = false;
  reads = 0;
  currentHeight: number;
  readonly source: 'testnet' | 'sandbox';
  constructor(currentHeight: number, source: 'testnet' | 'sandbox' = 'sandbox') {
    this.currentHeight = currentHeight;
    this.source = source;
  }
  async height(): Promise<number> {
    this.reads++;
    if (this.unavailable) throw new ChainUnavailableError('fake chain switched off');
    return this.currentHeight;
  }
  /** No cache here: handler tests move the height and expect the next quote to see it. */
  recentHeight(): Promise<number> {
    return this.height();
  }
  async getBox(boxId: string): Promise<ChainBox | undefined> {
    this.reads++;
    if (this.unavailable) throw new ChainUnavailableError('fake chain switched off');
    const box = this.boxes.get(boxId);
    return box && { ...box, registers: { ...box.registers } };
  }
  async getTransactionPayer(transactionId: string): Promise<string | undefined> {
    this.reads++;
    if (this.unavailable) throw new ChainUnavailableError('fake chain switched off');
    return this.payers.get(transactionId);
  }
}

/** Allows `points` requests per bucket and client, then refuses for `retryAfterSeconds`. */
export class FakeLimiter implements RateLimiter {
  readonly counts = new Map<string, number>();
  points: number;
  retryAfterSeconds: number;
  constructor(points = 1_000, retryAfterSeconds = 42) {
    this.points = points;
    this.retryAfterSeconds = retryAfterSeconds;
  }
  mode(): 'memory' {
    return 'memory';
  }
  async refund(bucket: string, key: string): Promise<void> {
    const count = this.counts.get(`${bucket}/${key}`) ?? 0;
    if (count > 0) this.counts.set(`${bucket}/${key}`, count - 1);
  }
  async consume(bucket: string, key: string): Promise<RateLimitDecision> {
    const count = (this.counts.get(`${bucket}/${key}`) ?? 0) + 1;
    this.counts.set(`${bucket}/${key}`, count);
    const allowed = count <= this.points;
    return {
      allowed,
      limit: this.points,
      windowSeconds: 60,
      remaining: Math.max(0, this.points - count),
      retryAfterSeconds: allowed ? 0 : this.retryAfterSeconds,
      resetSeconds: this.retryAfterSeconds,
    };
  }
}

export class FakeModel implements ModelProvider {
  readonly name = 'docs' as const;
  failure: 'not_configured' | 'unavailable' | 'bad_response' | undefined;
  readonly requests: ModelRequest[] = [];
  /** Questions this model says nothing answers. */
  readonly unanswerable = new Set<string>();
  /** What this model judges of a question, where a test says; otherwise one part, answered unless listed above. */
  readonly judgements = new Map<string, QuestionJudgement>();
  async judge(question: string): Promise<QuestionJudgement> {
    if (this.failure === 'not_configured') throw new ModelNotConfiguredError('fake model: none configured');
    const judged = this.judgements.get(question);
    if (judged) return judged;
    const answered = !this.unanswerable.has(question);
    return { answerable: answered, parts: [{ text: question, answered }], dropped: 0 };
  }
  async answer(request: ModelRequest): Promise<ModelAnswer> {
    this.requests.push(request);
    if (this.failure === 'not_configured') throw new ModelNotConfiguredError('fake model: none configured');
    if (this.failure === 'unavailable') throw new ModelUnavailableError('fake model: no answer within 50 ms.');
    if (this.failure === 'bad_response') throw new ModelBadResponseError('fake model: answered HTTP 500.');
    return {
      answer: `Answer to: ${request.question}`,
      citations: [{ title: 'Assistant', url: 'http://127.0.0.1:4321/assistant/' }],
      model: { provider: 'docs', name: 'fake-model' },
    };
  }
}

/** A clock a test moves by hand. */
export class FakeClock {
  now: Date;
  constructor(now: Date) {
    this.now = now;
  }
  readonly read = (): Date => new Date(this.now.getTime());
  advance(milliseconds: number): void {
    this.now = new Date(this.now.getTime() + milliseconds);
  }
}

export const TEST_RECEIVER_ADDRESS = '3WvsT2Gm4EpsM9Pg18PdY6XyhNNMqXDsvJTbbf6ihLvAmSb7u5RN';
export const TEST_RESERVE_BOX_ID = 'a1'.repeat(32);

/** The defaults of the environment with a receiver and reserve configured, and `overrides` on top. */
export function testPaidTurnConfig(overrides: Partial<PaidTurnConfig> = {}): PaidTurnConfig {
  return {
    ...loadPaidTurnConfig({ ASSISTANT_RECEIVER_ADDRESS: TEST_RECEIVER_ADDRESS, ASSISTANT_RESERVE_BOX_ID: TEST_RESERVE_BOX_ID }),
    ...overrides,
  };
}

export interface FakeDeps extends AssistantDeps {
  store: FakeStore;
  chain: FakeChain;
  limiter: FakeLimiter;
  model: FakeModel;
  fakeClock: FakeClock;
}

export function fakeDeps(options: { height?: number; now?: Date; config?: Partial<PaidTurnConfig>; source?: 'testnet' | 'sandbox' } = {}): FakeDeps {
  const fakeClock = new FakeClock(options.now ?? new Date('2026-11-23T12:00:00.000Z'));
  return {
    store: new FakeStore(),
    chain: new FakeChain(options.height ?? 1_000, options.source ?? 'sandbox'),
    limiter: new FakeLimiter(),
    model: new FakeModel(),
    clock: fakeClock.read,
    fakeClock,
    config: testPaidTurnConfig(options.config),
  };
}

export interface NoteBoxOptions {
  boxId: string;
  transactionId?: string;
  value: bigint;
  reserveBoxId?: string;
  expiryHeight?: number;
  taskHash?: string;
  creationHeight: number;
  inclusionHeight: number | undefined;
  /** Raw serialized registers replacing the ones built from the fields above. */
  registers?: ChainBox['registers'];
  /** ErgoTree the value is locked to; the test receiver's by default. */
  ergoTree?: string;
}

/** A Note box as a chain source reports it, registers serialized by the Fleet SDK as a wallet would. */
export function noteBox(options: NoteBoxOptions): ChainBox {
  const registers: ChainBox['registers'] = {};
  if (options.reserveBoxId !== undefined) registers.R4 = SColl(SByte, options.reserveBoxId).toHex();
  if (options.expiryHeight !== undefined) registers.R5 = SInt(options.expiryHeight).toHex();
  if (options.taskHash !== undefined) registers.R6 = SColl(SByte, options.taskHash).toHex();
  return {
    boxId: options.boxId,
    transactionId: options.transactionId ?? options.boxId.split('').reverse().join(''),
    value: options.value,
    ergoTree: options.ergoTree ?? ErgoAddress.decode(TEST_RECEIVER_ADDRESS).ergoTree,
    address: undefined,
    creationHeight: options.creationHeight,
    inclusionHeight: options.inclusionHeight,
    registers: options.registers ?? registers,
  };
}

/** A retention window over `rows` as the SQL store reads one: the rows from `from` to the `limit`+1-th row's expiry, those `unkept` deleted. */
function sweepWindowOf<T extends { expiresAt: Date }>(rows: Map<string, T>, key: (row: T) => string, unkept: (row: T) => boolean, from: Date, expiredBefore: Date, limit: number): SweepWindow {
  const ahead = [...rows.values()].filter((row) => row.expiresAt >= from && row.expiresAt < expiredBefore).sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
  const boundary = ahead[limit];
  const next = boundary ? new Date(Math.max(boundary.expiresAt.getTime(), from.getTime() + 1)) : expiredBefore;
  const gone = ahead.filter((row) => row.expiresAt < next && unkept(row));
  for (const row of gone) rows.delete(key(row));
  return { deleted: gone.length, next };
}
