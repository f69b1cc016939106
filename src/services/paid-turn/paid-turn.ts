/**
 * The paid turn, one service for every door that sells it (verify-payment and the chat's payment
 * token, x402 over HTTP and MCP `_meta`, the x402 facilitator, A2A's a2a-x402): issue a stored
 * quote, judge a Note against it without claiming it, settle it (claim it once and store the
 * receipt), and answer the turn it paid. Each door only translates its request into these steps
 * and their outcomes into its own answers, so a rule changes here for all of them.
 *
 * Settling is idempotent for the payer: the same Note for the same quote after it settled (its
 * answer lost on the way), with the retry key the payer sent the first time, gets the same receipt
 * and a fresh token replacing the unspent one, or 409 once that token has paid its turn. Without
 * that key a retry gets 409 and the receipt id, never a token: everything else it names is public.
 */
import { NOTE_CHECKS, problemCodeOfNoteFailure, type ConversationMessage, type PremiumQuote } from '../../../schemas/assistant.ts';
import type { ReceiptBundle } from '../../../schemas/receipt.ts';
import { checkNote, type NoteCheckResult } from '../../domain/assistant/note-rules.ts';
import { issuePaymentToken } from '../../domain/assistant/payment-token.ts';
import { newQuoteId, premiumQuoteBody, premiumQuoteTerms } from '../../domain/assistant/pricing.ts';
import { buildReceiptBundle } from '../../domain/assistant/receipt-bundle.ts';
import { hashQuestion } from '../../domain/assistant/task-hash.ts';
import { judgementReason, type QuestionJudgement } from '../../domain/assistant/question-parts.ts';
import { hashRetryKey } from '../../domain/assistant/retry-key.ts';
import { NoteAlreadyUsedError, type SpendTokenResult, type StoredQuote } from '../../domain/ports.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { receiptUrl } from '../../catalogue/lookup.ts';
import { siteUrl } from '../../config/site.ts';
import { ModelBadResponseError, ModelNotConfiguredError, ModelUnavailableError, NOT_CONFIGURED, noModelProvider, type ModelAnswer, type ModelProvider, type ModelRequest } from '../model/provider.ts';
import { fromChain, fromStore, recordActivity, type AssistantDeps } from './deps.ts';

type Deps = Pick<AssistantDeps, 'store' | 'chain' | 'clock' | 'config' | 'receiptStored' | 'receiptLogRefusal'>;
type QuoteDeps = Pick<AssistantDeps, 'store' | 'chain' | 'clock' | 'config' | 'model'>;

/**
 * Refusals that clear by themselves: the Note not yet seen by the chain source, or not yet
 * confirmed; a concurrent retry of the same payment holding its turn. A door offers no new quote
 * there (a client would pay a second Note) but asks for the same payment again.
 */
export const CLEARS_BY_ITSELF: ReadonlySet<string> = new Set(['note_not_found', 'note_unconfirmed', 'payment_in_progress']);

/** A refusal in x402's terms: a reason code (verify-payment's code for a Note) and its words. */
export interface PaymentRefusal {
  reason: string;
  message: string;
}

/**
 * Refuses a quote of any tier where no model answers (ASSISTANT_MODEL_PROVIDER=none): the chat would
 * answer 503, so a free-tier decision would promise an answer that never comes.
 */
export function assertModelAnswers(model: ModelProvider): void {
  if (model.name === noModelProvider.name) throw new ProblemError(503, 'model_provider_not_configured', 'Model provider not configured', NOT_CONFIGURED);
}

/** A premium quote for `question`, stored (with its activity event) before anyone sees it. */
export async function issuePremiumQuote({ store, chain, clock, config, model }: QuoteDeps, question: string, history: ConversationMessage[] | undefined): Promise<PremiumQuote> {
  const { receiverAddress, reserveBoxId } = config;
  if (!receiverAddress || !reserveBoxId) {
    const missing = [!receiverAddress && 'ASSISTANT_RECEIVER_ADDRESS', !reserveBoxId && 'ASSISTANT_RESERVE_BOX_ID'].filter(Boolean).join(' and ');
    throw new ProblemError(503, 'payment_unconfigured', 'Payment configuration unavailable', `Premium answers are not offered: the operator has not configured ${missing}.`);
  }
  // Judged before anything is stored or paid: a premium answer always answers, at least in part, and says which part up front.
  const judgement = await fromModel(() => model.judge(question));
  if (!judgement.answerable) throw unanswerable();
  const height = await fromChain(() => chain.recentHeight());
  // Read after the chain, with nothing awaited before the store write: quotes are stored in the
  // order of their issue times, which is the order the activity feed lists them by.
  const now = clock();
  const quoteId = newQuoteId(now.getTime());
  const terms = premiumQuoteTerms({ quoteId, question, history, terms: { ...config, receiverAddress, reserveBoxId }, height, now });
  const stored: StoredQuote = { ...terms, questionHash: hashQuestion(question), issuedAt: now };
  // Stored before it is shown; the stored quote is also its `quote_issued` activity event.
  await fromStore(() => store.insertQuote(stored));
  return { ...premiumQuoteBody(terms), reason: reasonOf(judgement) };
}

/** A judgement's reason, made once: the model keeps one judgement per question it keeps reading, and the same question is quoted again and again. */
function reasonOf(judgement: QuestionJudgement): string {
  let reason = reasons.get(judgement);
  if (reason === undefined) reasons.set(judgement, (reason = judgementReason(judgement)));
  return reason;
}
const reasons = new WeakMap<QuestionJudgement, string>();

/**
 * The Note read from the chain at its current height, and judged by every rule of `stored`: whether
 * it already paid a quote is read from the store too, so its checks never say it is unused when it
 * is (`usedKnown`: the caller read it already).
 */
export async function judgeNote({ chain, config, store }: Pick<Deps, 'chain' | 'config' | 'store'>, stored: StoredQuote, noteBoxId: string, usedKnown?: boolean) {
  const [[height, box], used] = await Promise.all([
    fromChain(() => Promise.all([chain.height(), chain.getBox(noteBoxId)])),
    usedKnown ?? fromStore(() => store.isNoteUsed(noteBoxId)),
  ]);
  return { height, box, result: checkNote(stored, box, height, used, config.creationHeightToleranceBlocks) };
}

/** The Note rule that refuses it, as its problem code and the words of its own check (not those of another that failed too). */
export function noteRefusal(result: NoteCheckResult): { code: string; detail: string } {
  const failed = result.checks.find((check) => check.code === NOTE_CHECKS[result.failure!].check);
  return { code: problemCodeOfNoteFailure(result.failure!), detail: failed?.detail ?? 'the Note does not pay this quote.' };
}

/** The 402 naming the first Note rule that failed, with every check for the payer to read. */
function noteRefused(result: NoteCheckResult): ProblemError {
  const code = result.failure!;
  return new ProblemError(402, problemCodeOfNoteFailure(code), 'Payment not verifiable against the quote', `${code}: ${noteRefusal(result).detail}`, {
    extra: { note_code: code, checks: result.checks },
  });
}

export interface Settlement {
  /** The single-use token that pays the turn (shown once; only its hash is stored). */
  token: { token: string; tokenHash: string; expiresAt: Date };
  receipt: ReceiptBundle;
  /** The Note's funding address, when the chain says (settled now, not on a retry). */
  payerAddress: string | null;
}

export interface SettleOptions {
  /** Off for the x402 facilitator, whose settle succeeds once per Note. */
  recoverSettled?: boolean;
  /** The payer's retry key (retry-key.ts), already checked against its rule; its hash binds the turn. */
  retryKey?: string | undefined;
}

/**
 * Settles `noteBoxId` against `stored`: the Note read from the chain and judged by every rule, then
 * one store transaction marks it used, stores the receipt bundle, the token's hash and the retry
 * key's hash. Nothing is written on any failure. Throws the documented problems (402 Note codes,
 * 409, 410, 503).
 */
export async function settleNote({ store, chain, clock, config, receiptStored, receiptLogRefusal }: Deps, stored: StoredQuote, noteBoxId: string, { recoverSettled = true, retryKey }: SettleOptions = {}): Promise<Settlement> {
  // A store the log cannot extend (a restored backup, a rewritten receipt) may not know this Note was
  // used: nothing is settled, and no receipt sold that the log could not prove, until it is resolved.
  const refused = receiptLogRefusal && (await fromStore(receiptLogRefusal));
  if (refused) {
    throw new ProblemError(
      503,
      'receipt_log_inconsistent',
      'Receipt log inconsistent',
      `The receipt store does not extend what the receipt log signed (${refused}), so no payment is settled until the operator resolves it; nothing was written and the Note is unspent here. Retry later.`,
      { headers: { 'retry-after': '60' } },
    );
  }
  const retryKeyHash = retryKey === undefined ? null : hashRetryKey(retryKey);
  /**
   * A retry of a settlement of this quote by this Note, or undefined when the Note did not pay it
   * (or when `recoverSettled` is off: the x402 facilitator's settle succeeds once per Note).
   */
  async function settledBefore(): Promise<Settlement | undefined> {
    if (!recoverSettled) return undefined;
    const token = issuePaymentToken(clock(), config.tokenLifetimeSeconds);
    const previous = await fromStore(() => store.reissueToken({ noteBoxId, quoteId: stored.quoteId, tokenHash: token.tokenHash, tokenExpiresAt: token.expiresAt, retryKeyHash }));
    if (previous.status === 'reissued') return { token, receipt: previous.receipt, payerAddress: null };
    const receiptNamed = (receiptId: string) => ({ extra: { receiptId, receiptUrl: receiptUrl(receiptId) } });
    if (previous.status === 'answered') {
      throw new ProblemError(409, 'payment_already_answered', 'Payment already answered', `Note ${noteBoxId} paid quote ${stored.quoteId}, and its payment token has paid its turn: each payment answers once. The receipt stays available.`, receiptNamed(previous.receiptId));
    }
    if (previous.status === 'not_payer') {
      throw new ProblemError(
        409,
        'payment_already_settled',
        'Payment already settled',
        `Note ${noteBoxId} already paid quote ${stored.quoteId}. A retry gets a fresh payment token only with the retry key the payer sent on its first verification (the Idempotency-Key header, or x402's payment-identifier); the receipt stays available.`,
        receiptNamed(previous.receiptId),
      );
    }
    return undefined;
  }

  // A quote that expired, or a Note the chain now judges otherwise, may still have settled before:
  // the payer who lost that answer gets it back rather than a refusal.
  if (clock().getTime() >= stored.expiresAt.getTime()) {
    const recovered = await settledBefore();
    if (recovered) return recovered;
    throw new ProblemError(410, 'quote_expired', 'Quote expired', `Quote ${stored.quoteId} expired at ${stored.expiresAt.toISOString()}; ask for a new quote.`);
  }

  const { height, box, result } = await judgeNote({ chain, config, store }, stored, noteBoxId);
  const checkedAt = clock();
  if (result.failure) {
    const recovered = await settledBefore();
    if (recovered) return recovered;
    throw noteRefused(result);
  }

  // Who paid feeds the reputation graph; a chain that cannot say now is a 503 like any other chain read.
  const payerAddress = (await fromChain(() => chain.getTransactionPayer(box!.transactionId))) ?? null;
  const quote = premiumQuoteBody(stored);
  const receipt = buildReceiptBundle({
    quote,
    noteBox: box!,
    noteCheck: result,
    chain: { source: chain.source, via: box!.via ?? 'explorer_api_v1', explorer: chain.explorerUrl, height },
    checkedAt,
    issuedAt: checkedAt,
    tokenLifetimeSeconds: config.tokenLifetimeSeconds,
  });
  const token = issuePaymentToken(checkedAt, config.tokenLifetimeSeconds);
  try {
    await fromStore(() =>
      store.settlePayment({ quoteId: stored.quoteId, noteBoxId, receipt, tokenHash: token.tokenHash, tokenExpiresAt: token.expiresAt, questionHash: stored.questionHash, payerAddress, retryKeyHash }),
    );
  } catch (error) {
    if (!(error instanceof NoteAlreadyUsedError)) throw error;
    const recovered = await settledBefore();
    if (recovered) return recovered;
    throw noteRefused(checkNote(stored, box, height, true, config.creationHeightToleranceBlocks));
  }
  receiptStored?.();
  await recordActivity(store, { kind: 'payment_verified', at: checkedAt, amountNanoErg: box!.value, taskHash: stored.taskHash, receiptId: receipt.receiptId });
  return { token, receipt, payerAddress };
}

/** The stored quote `quoteId` names, or the documented 400. */
export async function storedQuote({ store }: Pick<Deps, 'store'>, quoteId: string, pointer: string): Promise<StoredQuote> {
  const stored = await fromStore(() => store.getQuote(quoteId));
  if (!stored) {
    throw new ProblemError(400, 'quote_not_found', 'Quote not found', 'No quote was issued with this quoteId; ask the quote endpoint for one.', {
      errors: [{ path: pointer, code: 'quote_not_found', message: 'no quote was issued with this id' }],
    });
  }
  return stored;
}

/** The documented 400 when `question` is not the one `stored` was issued for. */
export function assertQuotedQuestion(stored: StoredQuote, question: string, pointer: string): void {
  if (hashQuestion(question) !== stored.questionHash) {
    throw new ProblemError(400, 'question_mismatch', 'Question does not match the quote', 'The question differs from the one this quote was issued for; send it exactly as quoted.', {
      errors: [{ path: pointer, code: 'question_mismatch', message: 'not the quoted question' }],
    });
  }
}

/**
 * Whether `noteBoxId` would pay `stored` now, claiming nothing: the quote unexpired, the Note never
 * claimed before (whatever the chain says of it now), and every Note rule met. The payer is the
 * Note's funding address when the chain says.
 */
export async function judgePayment(deps: Pick<Deps, 'store' | 'chain' | 'clock' | 'config'>, stored: StoredQuote, noteBoxId: string): Promise<{ ok: true; payer: string | undefined } | ({ ok: false } & PaymentRefusal)> {
  if (deps.clock().getTime() >= stored.expiresAt.getTime()) {
    return { ok: false, reason: 'quote_expired', message: `Quote ${stored.quoteId} expired at ${stored.expiresAt.toISOString()}.` };
  }
  if (await fromStore(() => deps.store.isNoteUsed(noteBoxId))) {
    return { ok: false, reason: 'note_already_used', message: `Note ${noteBoxId} has already paid a quote.` };
  }
  const { box, result } = await judgeNote(deps, stored, noteBoxId, false);
  if (result.failure) {
    const { code, detail } = noteRefusal(result);
    return { ok: false, reason: code, message: detail };
  }
  const payer = await fromChain(() => deps.chain.getTransactionPayer(box!.transactionId));
  return { ok: true, payer: payer ?? undefined };
}

/** Asks the provider; each way it can fail becomes its documented status. */
export function askModel(model: ModelProvider, request: ModelRequest): Promise<ModelAnswer> {
  return fromModel(() => model.answer(request));
}

/** The 422 of a question nothing on the site answers: no quote is issued, so nothing is paid for it. */
function unanswerable(): ProblemError {
  const searchUrl = siteUrl('/search/');
  return new ProblemError(
    422,
    'question_unanswerable',
    'Question not answerable by this site',
    `Nothing on this site answers this question, so no premium quote was issued and nothing is to be paid. Search its pages at ${searchUrl}, or ask another question.`,
    { extra: { search_url: searchUrl } },
  );
}

/** Runs a model provider call; its failures become their documented problems. */
async function fromModel<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ModelNotConfiguredError) throw new ProblemError(503, 'model_provider_not_configured', 'Model provider not configured', error.message);
    if (error instanceof ModelUnavailableError) {
      throw new ProblemError(503, 'model_provider_unavailable', 'Model provider unavailable', `${error.message} No payment token was spent.`, { headers: { 'retry-after': '5' } });
    }
    if (error instanceof ModelBadResponseError) throw new ProblemError(502, 'model_provider_bad_response', 'Model provider answered wrongly', `${error.message} No payment token was spent.`);
    throw error;
  }
}

/** Why a token did not pay a turn: `SpendTokenResult`'s reasons, or a door's own. */
type SpendRefusal = Extract<SpendTokenResult, { ok: false }>['reason'];

/** A premium answer, or why the token did not pay it. */
export type PaidAnswer<Reason extends string = SpendRefusal> = { ok: true; answer: ModelAnswer; receiptId: string } | { ok: false; reason: Reason };

/**
 * Answers the premium turn a payment token pays: the model answers first and the token is spent
 * only once an answer exists, so a provider failure never costs the payer their turn; spending is
 * the store's atomic single use, so of two turns racing with one token exactly one is answered.
 * `spend` spends the token: by default alone, or (A2A) keeping the answer in the same transaction.
 */
export async function answerPaidTurn<Reason extends string = SpendRefusal>(
  { store, model, clock }: Pick<AssistantDeps, 'store' | 'model' | 'clock'>,
  tokenHash: string,
  request: ModelRequest,
  settled?: Pick<ReceiptBundle, 'taskHash'>,
  spend?: (answer: ModelAnswer) => Promise<{ ok: true; quoteId: string; receiptId: string } | { ok: false; reason: Reason }>,
): Promise<PaidAnswer<Reason>> {
  const answer = await askModel(model, request);
  // Without `spend`, Reason is its default: the store's own refusals.
  const spendAlone = () => store.spendToken(tokenHash, hashQuestion(request.question), clock()) as Promise<{ ok: true; quoteId: string; receiptId: string } | { ok: false; reason: Reason }>;
  const spent = await fromStore(() => (spend ? spend(answer) : spendAlone()));
  if (!spent.ok) return spent;
  // The activity event names the task; a door that just settled knows it, the token's door reads it.
  const taskHash = settled?.taskHash ?? (await fromStore(() => store.getQuote(spent.quoteId)).catch(() => undefined))?.taskHash;
  await recordActivity(store, { kind: 'turn_answered', at: clock(), receiptId: spent.receiptId, ...(taskHash ? { taskHash } : {}) });
  return { ok: true, answer, receiptId: spent.receiptId };
}
