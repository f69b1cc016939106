/**
 * The assistant's handlers driven through every documented status with in-memory ports: quote
 * (free, premium, 429, 503), verify-payment (200, 400, 402 with each Note code, 410, 429, 503,
 * nothing stored on failure, one 200 for a raced Note), chat (free, paid, 402 for each token
 * problem, 429, 503/502 without spending the token), activity, quote and receipt lookup.
 */
import { describe, expect, it, vi } from 'vitest';
import { chatResponseSchema, freeTierDecisionSchema, premiumQuoteSchema, type NoteFailureCode, type PremiumQuote } from '../../schemas/assistant.ts';
import { activitySchema } from '../../schemas/assistant-status.ts';
import { problemSchema } from '../../schemas/problem.ts';
import { receiptBundleSchema, verifyPaymentResponseSchema, type VerifyPaymentResponse } from '../../schemas/receipt.ts';
import { hashPaymentToken } from '../../src/domain/assistant/payment-token.ts';
import { hashQuestion } from '../../src/domain/assistant/task-hash.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';
import type { ApiRequest, ApiResponse, Handler, JsonText } from '../../src/lib/api.ts';
import { strongEtag } from '../../src/lib/etag.ts';
import { servedReceipts } from '../../src/services/kept-receipts.ts';
import { ProblemError } from '../../src/lib/problem-error.ts';
import { createChatHandler } from '../../src/routes/assistant/chat.ts';
import { createQuoteHandler } from '../../src/routes/assistant/quote.ts';
import { NOTE_CHECKS } from '../../schemas/assistant.ts';
import { noModelProvider, type ModelProvider } from '../../src/services/model/provider.ts';
import { createActivityHandler, createQuoteReadHandler, createReceiptHandler } from '../../src/routes/assistant/records.ts';
import { createVerifyPaymentHandler } from '../../src/routes/assistant/verify-payment.ts';
import { ChainUnavailableError, type ChainBox } from '../../src/domain/ports.ts';
import { fakeDeps, noteBox, TEST_RESERVE_BOX_ID, type FakeDeps } from '../helpers/fakes.ts';
import { premiumQuoteBody } from '../../src/domain/assistant/pricing.ts';

const LONG_QUESTION = 'How does the verify-payment endpoint decide that a Note pays a quote, and what does the receipt bundle record? '.repeat(3);

function post(body: unknown, clientIp = '203.0.113.7', headers: Record<string, string> = {}): ApiRequest {
  return { method: 'POST', path: '/api/assistant/x', params: {}, query: new URLSearchParams(), headers, body, clientIp };
}

/** The payer's retry key, as it sends it with every verification of one Note. */
const RETRY_KEY = 'payer-retry-key-0123456789abcdef';
const withRetryKey = (body: unknown, key = RETRY_KEY) => post(body, '203.0.113.7', { 'idempotency-key': key });

function get(params: Record<string, string> = {}): ApiRequest {
  return { method: 'GET', path: '/api/assistant/x', params, query: new URLSearchParams(), headers: {}, body: undefined, clientIp: '203.0.113.7' };
}

async function problem(run: Promise<ApiResponse> | ApiResponse): Promise<ProblemError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ProblemError) {
      expect(problemSchema.safeParse(error.toBody('/api/assistant/x')).success).toBe(true);
      return error;
    }
    throw error;
  }
  throw new Error('expected a problem response');
}

interface Harness {
  deps: FakeDeps;
  quote: Handler;
  verify: Handler;
  chat: Handler;
}

function harness(options: Parameters<typeof fakeDeps>[0] = {}): Harness {
  const deps = fakeDeps(options);
  return { deps, quote: createQuoteHandler(deps), verify: createVerifyPaymentHandler(deps), chat: createChatHandler(deps) };
}

async function premiumQuote(h: Harness, question = LONG_QUESTION): Promise<PremiumQuote> {
  const response = await h.quote(post({ question }));
  return premiumQuoteSchema.parse(response.body);
}

/** The address the fake chain names as the first input of every Note's transaction. */
const PAYER = '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw';

let boxCounter = 0;
/** Puts a Note paying `quote` on the fake chain, included one block below the tip (2 confirmations at minConfirmations 1). */
function payNote(h: Harness, quote: PremiumQuote, overrides: Partial<Parameters<typeof noteBox>[0]> = {}): ChainBox {
  boxCounter += 1;
  const box = noteBox({
    boxId: boxCounter.toString(16).padStart(64, '0'),
    transactionId: (boxCounter + 1_000).toString(16).padStart(64, '0'),
    value: BigInt(quote.priceNanoErg),
    reserveBoxId: quote.reserveBoxId,
    expiryHeight: quote.noteExpiryMinHeight,
    taskHash: quote.taskHash,
    creationHeight: quote.issuedHeight,
    inclusionHeight: quote.issuedHeight,
    ...overrides,
  });
  h.deps.chain.boxes.set(box.boxId, box);
  h.deps.chain.payers.set(box.transactionId, PAYER);
  h.deps.chain.currentHeight = quote.issuedHeight + 1;
  return box;
}

async function paidTurn(h: Harness, question = LONG_QUESTION): Promise<{ quote: PremiumQuote; box: ChainBox; verified: VerifyPaymentResponse }> {
  const quote = await premiumQuote(h, question);
  const box = payNote(h, quote);
  const response = await h.verify(post({ quote, question, noteBoxId: box.boxId }));
  expect(response.status).toBe(200);
  return { quote, box, verified: verifyPaymentResponseSchema.parse(response.body) };
}

describe('POST /api/assistant/quote', () => {
  it('answers a short question with a free-tier decision that counts the allowance left', async () => {
    const h = harness();
    const response = await h.quote(post({ question: 'What is a Note?' }));
    expect(response.status).toBe(200);
    const decision = freeTierDecisionSchema.parse(response.body);
    expect(decision.free_questions_remaining_today).toBe(5);
    expect(decision.next).toMatch(/\/api\/assistant\/chat$/);
    expect(h.deps.store.quotes.size).toBe(0);
    // The current IETF draft's fields, naming the limit counted: "quote".
    expect(response.headers?.ratelimit).toMatch(/^"quote";r=\d+;t=\d+$/);
    expect(response.headers?.['ratelimit-policy']).toBe(`"quote";q=${h.deps.limiter.points};w=60`);
  });

  it('answers a premium quote, stores it with the question hashed, records the activity', async () => {
    const h = harness({ height: 5_000 });
    const quote = await premiumQuote(h);
    expect(quote).toMatchObject({ tier: 'premium', issuedHeight: 5_000, noteExpiryMinHeight: 5_720, minConfirmations: 1, reserveBoxId: TEST_RESERVE_BOX_ID, price: '0.010000000' });
    expect(quote.expiresAt).toBe('2026-11-23T12:15:00.000Z');
    const stored = h.deps.store.quotes.get(quote.quoteId)!;
    // What it will answer is said when it is issued, not kept: the stored terms render the rest.
    const { reason, ...issued } = quote;
    expect(reason).toBe('This site answers this question: the answer quotes its pages.');
    expect(premiumQuoteBody(stored)).toEqual(issued);
    expect(JSON.stringify(stored, (_key, value) => (typeof value === 'bigint' ? value.toString() : value))).not.toContain('verify-payment endpoint');
    expect(h.deps.store.activity).toEqual([{ kind: 'quote_issued', at: new Date('2026-11-23T12:00:00.000Z'), amountNanoErg: 10_000_000n, taskHash: quote.taskHash }]);
  });

  it('says in the quote which parts of a question the answer will answer, before anyone pays', async () => {
    const h = harness();
    h.deps.model.judgements.set(LONG_QUESTION, {
      answerable: true,
      parts: [
        { text: 'which header carries the offer', answered: true },
        { text: 'what will one premium answer cost on mainnet?', answered: false },
        { text: 'which header comes back on the answer', answered: true },
      ],
      dropped: 0,
    });
    const quote = await premiumQuote(h);
    expect(quote.reason).toBe(
      'This question asks 3 things; this site answers 2 of them, (1) "which header carries the offer", (3) "which header comes back on the answer", and does not say (2) "what will one premium answer cost on mainnet": the answer will name what it does not answer.',
    );
  });

  it('quotes nothing, free or premium, where no model answers (ASSISTANT_MODEL_PROVIDER=none): 503 model_provider_not_configured, nothing stored', async () => {
    const h = harness();
    (h.deps as { model: ModelProvider }).model = noModelProvider;
    for (const question of ['Short?', LONG_QUESTION]) {
      const error = await problem(h.quote(post({ question })));
      expect({ status: error.status, code: error.code }, question).toEqual({ status: 503, code: 'model_provider_not_configured' });
    }
    expect(h.deps.store.quotes.size).toBe(0);
  });

  it('quotes premium once the daily free allowance is used up', async () => {
    const h = harness({ config: { freeTier: { maxCharacters: 200, dailyLimit: 1 } } });
    expect((await h.quote(post({ question: 'Short?' }))).body).toMatchObject({ tier: 'free', free_questions_remaining_today: 1 });
    await h.chat(post({ messages: [{ role: 'user', content: 'Short?' }] }));
    expect((await h.quote(post({ question: 'Short?' }))).body).toMatchObject({ tier: 'premium' });
    // Another client still has its own allowance.
    expect((await h.quote(post({ question: 'Short?' }, '198.51.100.1'))).body).toMatchObject({ tier: 'free' });
  });

  it('refuses 422 question_unanswerable, linking search, a premium question nothing answers: no quote stored, no chain read, nothing to pay', async () => {
    const h = harness();
    h.deps.model.unanswerable.add(LONG_QUESTION);
    const error = await problem(h.quote(post({ question: LONG_QUESTION })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 422, code: 'question_unanswerable' });
    expect(error.extra.search_url).toMatch(/\/search\/$/);
    expect(error.message).toContain(error.extra.search_url as string);
    expect({ quotes: h.deps.store.quotes.size, activity: h.deps.store.activity, chainReads: h.deps.chain.reads }).toEqual({ quotes: 0, activity: [], chainReads: 0 });
  });

  it('answers 503 model_provider_not_configured for a premium question when no model could answer it, storing nothing', async () => {
    const h = harness();
    h.deps.model.failure = 'not_configured';
    const error = await problem(h.quote(post({ question: LONG_QUESTION })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'model_provider_not_configured' });
    expect(h.deps.store.quotes.size).toBe(0);
  });

  it('answers 503 payment_unconfigured naming the missing variable, without reading the chain', async () => {
    const h = harness({ config: { receiverAddress: null } });
    const error = await problem(h.quote(post({ question: LONG_QUESTION })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'payment_unconfigured' });
    expect(error.message).toContain('ASSISTANT_RECEIVER_ADDRESS');
    expect(h.deps.chain.reads).toBe(0);
    const noReserve = harness({ config: { reserveBoxId: null } });
    expect((await problem(noReserve.quote(post({ question: LONG_QUESTION })))).message).toContain('ASSISTANT_RESERVE_BOX_ID');
  });

  it('answers 503 chain_unavailable when the height cannot be read, storing nothing', async () => {
    const h = harness();
    h.deps.chain.unavailable = true;
    const error = await problem(h.quote(post({ question: LONG_QUESTION })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'chain_unavailable' });
    expect(h.deps.store.quotes.size).toBe(0);
  });

  it('answers 503 receipt_storage_unavailable when the quote cannot be stored', async () => {
    const h = harness();
    h.deps.store.unavailable = true;
    const error = await problem(h.quote(post({ question: LONG_QUESTION })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'receipt_storage_unavailable' });
  });

  it('answers 429 with Retry-After and RateLimit once the quote limit is used up', async () => {
    const h = harness();
    h.deps.limiter.points = 2;
    await h.quote(post({ question: 'a?' }));
    await h.quote(post({ question: 'b?' }));
    const error = await problem(h.quote(post({ question: 'c?' })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect(error.headers['retry-after']).toBe('42');
    expect(error.headers.ratelimit).toBe('"quote";r=0;t=42');
    expect(error.headers['ratelimit-policy']).toBe('"quote";q=2;w=60');
    expect(error.extra.retry_after_seconds).toBe(42);
    expect(h.deps.limiter.counts.get('quote/203.0.113.7')).toBe(3);
  });
});

describe('POST /api/assistant/verify-payment', () => {
  it('verifies a Note, stores the bundle, issues a token and records the activity', async () => {
    const h = harness();
    const { quote, box, verified } = await paidTurn(h);
    expect(verified.paymentToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verified.paymentTokenExpiresAt).toBe('2026-11-23T12:30:00.000Z');
    expect(verified.settlementTxId).toBe(box.transactionId);
    expect(verified.receiptUrl).toMatch(new RegExp(`/api/assistant/receipt/${verified.receiptId}$`));
    const { receiptId, ...rest } = verified.receipt;
    expect(computeReceiptId(rest)).toBe(receiptId);
    expect(verified.receipt).toMatchObject({ chain: 'sandbox', noteBoxId: box.boxId, taskHash: quote.taskHash, agreement: { quoteId: quote.quoteId } });
    expect(verified.receipt.verification_receipt.chain).toEqual({ source: 'sandbox', via: 'explorer_api_v1', explorer: h.deps.chain.explorerUrl, height: quote.issuedHeight + 1 });
    expect(h.deps.store.receipts).toEqual([verified.receipt]);
    expect(h.deps.store.usedNotes.get(box.boxId)).toBe(quote.quoteId);
    // Only the hash of the token is kept.
    expect([...h.deps.store.tokens.keys()]).not.toContain(verified.paymentToken);
    expect(h.deps.store.activity.at(-1)).toEqual({ kind: 'payment_verified', at: new Date('2026-11-23T12:00:00.000Z'), amountNanoErg: 10_000_000n, taskHash: quote.taskHash, receiptId });
  });

  it('stores who paid: the first input of the settlement transaction, or null when the chain does not know the transaction', async () => {
    const h = harness();
    const { verified } = await paidTurn(h);
    expect(h.deps.store.payers.get(verified.receiptId)).toBe(PAYER);
    const quote = await premiumQuote(h, `${LONG_QUESTION} (unknown payer)`);
    const box = payNote(h, quote);
    h.deps.chain.payers.delete(box.transactionId);
    const response = await h.verify(post({ quote, question: `${LONG_QUESTION} (unknown payer)`, noteBoxId: box.boxId }));
    expect(response.status).toBe(200);
    expect(h.deps.store.payers.get((response.body as VerifyPaymentResponse).receiptId)).toBeNull();
  });

  it('answers 503 chain_unavailable and writes nothing when the payer cannot be read in time', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    h.deps.chain.getTransactionPayer = async () => {
      throw new ChainUnavailableError('explorer timed out');
    };
    const refused = await problem(h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect([refused.status, refused.code]).toEqual([503, 'chain_unavailable']);
    expect(h.deps.store.receipts).toEqual([]);
    expect(h.deps.store.usedNotes.size).toBe(0);
  });

  it('records the chain source: a testnet chain client yields testnet receipts', async () => {
    const h = harness({ source: 'testnet' });
    const { verified } = await paidTurn(h);
    expect(verified.receipt.chain).toBe('testnet');
  });

  it('records the node fallback when the chain client read the Note from a node', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    h.deps.chain.boxes.set(box.boxId, { ...box, via: 'node_api' });
    const response = await h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId.toUpperCase() }));
    expect(verifyPaymentResponseSchema.parse(response.body).receipt.verification_receipt.chain.via).toBe('node_api');
  });

  const noteFailures: Array<[NoteFailureCode, (quote: PremiumQuote) => Partial<Parameters<typeof noteBox>[0]> | 'absent']> = [
    ['NOTE_NOT_FOUND', () => 'absent'],
    ['NOTE_UNCONFIRMED', () => ({ inclusionHeight: undefined })],
    ['NOTE_EXPIRED', (quote) => ({ expiryHeight: quote.noteExpiryMinHeight - 1 })],
    ['RESERVE_MISMATCH', () => ({ reserveBoxId: 'b2'.repeat(32) })],
    ['TASK_HASH_MISSING', () => ({ taskHash: undefined })],
    ['TASK_HASH_MISMATCH', () => ({ taskHash: 'c3'.repeat(32) })],
    ['INSUFFICIENT_VALUE', (quote) => ({ value: BigInt(quote.priceNanoErg) - 1n })],
    ['NOTE_TOO_OLD', (quote) => ({ creationHeight: quote.issuedHeight - 11 })],
  ];

  it.each(noteFailures)('answers 402 %s and stores nothing', async (code, variant) => {
    const h = harness();
    const quote = await premiumQuote(h);
    const change = variant(quote);
    const box = payNote(h, quote, change === 'absent' ? {} : change);
    if (change === 'absent') h.deps.chain.boxes.delete(box.boxId);
    const activityBefore = h.deps.store.activity.length;
    const error = await problem(h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect({ status: error.status, code: error.code, note_code: error.extra.note_code }).toEqual({ status: 402, code: code.toLowerCase(), note_code: code });
    expect(error.message.startsWith(`${code}: `)).toBe(true);
    expect(Array.isArray(error.extra.checks)).toBe(true);
    expect(h.deps.store.receipts).toEqual([]);
    expect(h.deps.store.usedNotes.size).toBe(0);
    expect(h.deps.store.tokens.size).toBe(0);
    expect(h.deps.store.activity.length).toBe(activityBefore);
  });

  it('answers 402 note_already_used when the Note paid another quote', async () => {
    const h = harness();
    const { box } = await paidTurn(h);
    const second = await premiumQuote(h);
    // The same box cannot carry the second quote's task hash; make the chain claim it does, so only the used-Note rule can refuse it.
    h.deps.chain.boxes.set(box.boxId, noteBox({ ...box, boxId: box.boxId, reserveBoxId: second.reserveBoxId, expiryHeight: second.noteExpiryMinHeight, taskHash: second.taskHash, registers: undefined }));
    const error = await problem(h.verify(post({ quote: second, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect({ status: error.status, code: error.code, note_code: error.extra.note_code }).toEqual({ status: 402, code: 'note_already_used', note_code: 'NOTE_ALREADY_USED' });
    expect(h.deps.store.receipts).toHaveLength(1);
    expect(h.deps.store.tokens.size).toBe(1);
  });

  it('answers 402 note_already_used for the very Note that paid another quote, and its checks say it is used', async () => {
    const h = harness();
    const { box } = await paidTurn(h);
    const second = await premiumQuote(h);
    // The box as it is on chain: it carries the first quote's task hash, so the task-hash rule fails
    // too. The reason given is that it paid another quote, and no check says it did not.
    const error = await problem(h.verify(post({ quote: second, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect({ status: error.status, code: error.code, note_code: error.extra.note_code }).toEqual({ status: 402, code: 'note_already_used', note_code: 'NOTE_ALREADY_USED' });
    const unused = (error.extra.checks as Array<{ code: string; ok: boolean; detail: string }>).find((check) => check.code === NOTE_CHECKS.NOTE_ALREADY_USED.check)!;
    expect(unused).toMatchObject({ ok: false, detail: 'This Note already paid another quote.' });
    // The refusal says its own reason, not the words of another rule that failed too (R5, R6 are the first quote's).
    expect(error.message).toBe('NOTE_ALREADY_USED: This Note already paid another quote.');
    expect(h.deps.store.receipts).toHaveLength(1);
  });

  it('settles once when requests race with the same quote and Note: every one gets that receipt, one token stays live', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    const request = () => h.verify(withRetryKey({ quote, question: LONG_QUESTION, noteBoxId: box.boxId }));
    const answers = (await Promise.all([request(), request(), request()])).map((answer) => answer.body as VerifyPaymentResponse);
    expect(new Set(answers.map((answer) => answer.receiptId)).size).toBe(1);
    expect(h.deps.store.receipts).toHaveLength(1);
    expect(h.deps.store.activity.filter((event) => event.kind === 'payment_verified')).toHaveLength(1);
    const live = [...h.deps.store.tokens.keys()];
    expect(live).toHaveLength(1);
    expect(answers.map((answer) => hashPaymentToken(answer.paymentToken)).filter((hash) => live.includes(hash))).toHaveLength(1);
  });

  it('gives a payer who lost the answer the same receipt and a fresh token, even once the quote has expired; the old token stops working', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    const lost = (await h.verify(withRetryKey({ quote, question: LONG_QUESTION, noteBoxId: box.boxId }))).body as VerifyPaymentResponse;
    h.deps.fakeClock.advance(16 * 60 * 1000);
    const retried = await h.verify(withRetryKey({ quote, question: LONG_QUESTION, noteBoxId: box.boxId }));
    expect(retried.status).toBe(200);
    const answer = verifyPaymentResponseSchema.parse(retried.body);
    expect(answer.receiptId).toBe(lost.receiptId);
    expect(answer.paymentToken).not.toBe(lost.paymentToken);
    expect(await h.deps.store.spendToken(hashPaymentToken(lost.paymentToken), hashQuestion(LONG_QUESTION), h.deps.clock())).toEqual({ ok: false, reason: 'unknown' });
    expect((await h.deps.store.spendToken(hashPaymentToken(answer.paymentToken), hashQuestion(LONG_QUESTION), h.deps.clock())).ok).toBe(true);
  });

  it('hands a settled turn to no one but the payer: a retry from public data alone, or with another key, is 409 with the receipt and no token, and the payer\'s token keeps working', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    const paid = (await h.verify(withRetryKey({ quote, question: LONG_QUESTION, noteBoxId: box.boxId }))).body as VerifyPaymentResponse;
    // Everything the attacker sends is published: the quote id and Note in the receipt, the question guessed against the task hash.
    for (const attempt of [post({ quote: { quoteId: quote.quoteId }, question: LONG_QUESTION, noteBoxId: box.boxId }), withRetryKey({ quote, question: LONG_QUESTION, noteBoxId: box.boxId }, 'attacker-guess-0123456789')]) {
      const refused = await problem(h.verify(attempt));
      expect({ status: refused.status, code: refused.code }).toEqual({ status: 409, code: 'payment_already_settled' });
      expect(refused.extra).toMatchObject({ receiptId: paid.receiptId });
      expect(JSON.stringify(refused.extra)).not.toContain('paymentToken');
    }
    expect((await h.deps.store.spendToken(hashPaymentToken(paid.paymentToken), hashQuestion(LONG_QUESTION), h.deps.clock())).ok).toBe(true);
  });

  it('keeps no retry for a payer that sent no key: the retry is 409 and the first token still pays', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    const paid = (await h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId }))).body as VerifyPaymentResponse;
    const refused = await problem(h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect({ status: refused.status, code: refused.code }).toEqual({ status: 409, code: 'payment_already_settled' });
    expect((await h.deps.store.spendToken(hashPaymentToken(paid.paymentToken), hashQuestion(LONG_QUESTION), h.deps.clock())).ok).toBe(true);
  });

  it('answers 400 invalid_idempotency_key naming the header for a key that breaks its pattern, before anything is read', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    for (const key of ['short', 'x'.repeat(129), 'has spaces in it 0123456789', 'ключ-0123456789abcdef']) {
      const refused = await problem(h.verify(withRetryKey({ quote, question: LONG_QUESTION, noteBoxId: box.boxId }, key)));
      expect({ status: refused.status, code: refused.code, path: refused.errors?.[0]?.path }).toEqual({ status: 400, code: 'invalid_idempotency_key', path: '/headers/idempotency-key' });
    }
    expect(h.deps.store.usedNotes.size).toBe(0);
  });

  it('answers a retry after the token paid its turn 409 with the receipt', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    const first = (await h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId }))).body as VerifyPaymentResponse;
    const spent = await h.deps.store.spendToken(hashPaymentToken(first.paymentToken), hashQuestion(LONG_QUESTION), h.deps.clock());
    expect(spent.ok).toBe(true);
    const again = await problem(h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect({ status: again.status, code: again.code }).toEqual({ status: 409, code: 'payment_already_answered' });
    expect(again.extra).toMatchObject({ receiptId: first.receiptId });
    expect(h.deps.store.receipts).toHaveLength(1);
  });

  it('answers 400 quote_not_found for a quote this server never issued', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    const error = await problem(h.verify(post({ quote: { ...quote, quoteId: 'q_forged' }, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 'quote_not_found' });
    expect(error.errors?.[0]?.path).toBe('/quote/quoteId');
  });

  it('trusts only its stored quote: a client copy with a lower price changes nothing', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote, { value: 1n });
    const error = await problem(h.verify(post({ quote: { ...quote, priceNanoErg: '1', price: '0.000000001' }, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect(error.code).toBe('insufficient_value');
  });

  it('answers 400 question_mismatch when the question is not the quoted one', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    const error = await problem(h.verify(post({ quote, question: `${LONG_QUESTION}!`, noteBoxId: box.boxId })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 'question_mismatch' });
    expect(h.deps.store.receipts).toEqual([]);
  });

  it('answers 410 quote_expired once the clock passes expiresAt, even for a good Note', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    h.deps.fakeClock.advance(15 * 60 * 1000 - 1);
    h.deps.store.unavailable = false;
    const justInTime = await h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId }));
    expect(justInTime.status).toBe(200);

    const late = await premiumQuote(h);
    const lateBox = payNote(h, late);
    h.deps.fakeClock.advance(15 * 60 * 1000);
    const error = await problem(h.verify(post({ quote: late, question: LONG_QUESTION, noteBoxId: lateBox.boxId })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 410, code: 'quote_expired' });
    expect(h.deps.store.usedNotes.has(lateBox.boxId)).toBe(false);
  });

  it('answers 503 chain_unavailable when the chain does not answer, storing nothing', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    h.deps.chain.unavailable = true;
    const error = await problem(h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'chain_unavailable' });
    expect(h.deps.store.receipts).toEqual([]);
  });

  it('answers 503 receipt_storage_unavailable when the store is down', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    h.deps.store.unavailable = true;
    const error = await problem(h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'receipt_storage_unavailable' });
  });

  it('answers 429 once the verification limit is used up, before reading anything', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const box = payNote(h, quote);
    h.deps.limiter.points = 0;
    const reads = h.deps.chain.reads;
    const error = await problem(h.verify(post({ quote, question: LONG_QUESTION, noteBoxId: box.boxId })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect(error.headers['retry-after']).toBe('42');
    expect(h.deps.chain.reads).toBe(reads);
  });
});

describe('POST /api/assistant/chat', () => {
  it('answers a free turn and counts it only once answered', async () => {
    const h = harness({ config: { freeTier: { maxCharacters: 200, dailyLimit: 2 } } });
    h.deps.model.failure = 'unavailable';
    await problem(h.chat(post({ messages: [{ role: 'user', content: 'What is a Note?' }] })));
    expect([...h.deps.store.freeUsage.values()]).toEqual([]);
    h.deps.model.failure = undefined;
    const response = await h.chat(post({ messages: [{ role: 'user', content: 'What is a Note?' }] }));
    const chat = chatResponseSchema.parse(response.body);
    expect(chat).toMatchObject({ tier: 'free', receiptId: null, answer: 'Answer to: What is a Note?' });
    expect([...h.deps.store.freeUsage.values()]).toEqual([1]);
    expect(h.deps.store.activity.at(-1)).toEqual({ kind: 'turn_answered', at: new Date('2026-11-23T12:00:00.000Z') });
  });

  it('answers exactly the daily limit of free turns when one client asks many at once, and gives back turns whose answer failed', async () => {
    const h = harness({ config: { freeTier: { maxCharacters: 200, dailyLimit: 5 } } });
    // The model takes its time, as a real one does: every request is past its allowance check before any answer.
    const answer = h.deps.model.answer.bind(h.deps.model);
    h.deps.model.answer = async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return answer(request);
    };
    const ask = (): Promise<number | string> =>
      Promise.resolve(h.chat(post({ messages: [{ role: 'user', content: 'What is a Note?' }] }))).then((response) => response.status, (error: ProblemError) => error.code);
    const outcomes = await Promise.all(Array.from({ length: 20 }, ask));
    expect(outcomes.filter((outcome) => outcome === 200)).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === 'payment_required')).toHaveLength(15);
    expect([...h.deps.store.freeUsage.values()]).toEqual([5]);

    const next = harness({ config: { freeTier: { maxCharacters: 200, dailyLimit: 2 } } });
    next.deps.model.failure = 'unavailable';
    await Promise.all(Array.from({ length: 4 }, () => problem(next.chat(post({ messages: [{ role: 'user', content: 'What is a Note?' }] })))));
    expect([...next.deps.store.freeUsage.values()]).toEqual([]);
  });

  it('answers 402 payment_required with the quote URL for a premium question without a token', async () => {
    const h = harness();
    const error = await problem(h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }] })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 402, code: 'payment_required' });
    expect(error.extra.quote_url).toMatch(/\/api\/assistant\/quote$/);
    expect(h.deps.model.requests).toEqual([]);
  });

  it('answers 422 question_unanswerable, offering nothing to pay, for an unpaid premium question nothing answers', async () => {
    const h = harness();
    h.deps.model.unanswerable.add(LONG_QUESTION);
    const error = await problem(h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }] })));
    expect({ status: error.status, code: error.code, offer: error.headers?.['payment-required'] }).toEqual({ status: 422, code: 'question_unanswerable', offer: undefined });
    expect(h.deps.store.quotes.size).toBe(0);
  });

  it('answers a paid turn once, with its receipt id; the token cannot be used again', async () => {
    const h = harness();
    const { verified, quote } = await paidTurn(h);
    const messages = [
      { role: 'user' as const, content: 'earlier' },
      { role: 'assistant' as const, content: 'earlier answer' },
      { role: 'user' as const, content: LONG_QUESTION },
    ];
    const response = await h.chat(post({ messages, paymentToken: verified.paymentToken }));
    const chat = chatResponseSchema.parse(response.body);
    expect(chat).toMatchObject({ tier: 'premium', receiptId: verified.receiptId });
    expect(h.deps.model.requests.at(-1)).toEqual({ question: LONG_QUESTION, messages });
    expect(h.deps.store.activity.at(-1)).toMatchObject({ kind: 'turn_answered', receiptId: verified.receiptId, taskHash: quote.taskHash });

    const again = await problem(h.chat(post({ messages, paymentToken: verified.paymentToken })));
    expect({ status: again.status, code: again.code }).toEqual({ status: 402, code: 'payment_token_used' });
  });

  it('answers 402 payment_token_question_mismatch for another question, leaving the token unspent', async () => {
    const h = harness();
    const { verified } = await paidTurn(h);
    const error = await problem(h.chat(post({ messages: [{ role: 'user', content: `${LONG_QUESTION} And more?` }], paymentToken: verified.paymentToken })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 402, code: 'payment_token_question_mismatch' });
    const response = await h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: verified.paymentToken }));
    expect(response.status).toBe(200);
  });

  it('answers 402 payment_token_expired once the token lifetime has passed', async () => {
    const h = harness();
    const { verified } = await paidTurn(h);
    h.deps.fakeClock.advance(30 * 60 * 1000);
    const error = await problem(h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: verified.paymentToken })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 402, code: 'payment_token_expired' });
  });

  it('answers 402 payment_token_invalid for a token never issued, malformed ones without asking the model', async () => {
    const h = harness();
    const unknown = await problem(h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: 'A'.repeat(43) })));
    expect(unknown.code).toBe('payment_token_invalid');
    const asked = h.deps.model.requests.length;
    const malformed = await problem(h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: 'short' })));
    expect(malformed.code).toBe('payment_token_invalid');
    expect(h.deps.model.requests.length).toBe(asked);
  });

  it.each([
    ['not_configured', 503, 'model_provider_not_configured'],
    ['unavailable', 503, 'model_provider_unavailable'],
    ['bad_response', 502, 'model_provider_bad_response'],
  ] as const)('answers %s as %i %s and never spends the token', async (failure, status, code) => {
    const h = harness();
    const { verified } = await paidTurn(h);
    h.deps.model.failure = failure;
    const error = await problem(h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: verified.paymentToken })));
    expect({ status: error.status, code: error.code }).toEqual({ status, code });
    h.deps.model.failure = undefined;
    const response = await h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: verified.paymentToken }));
    expect(response.status).toBe(200);
  });

  it('gives exactly one answer when two requests race with one token', async () => {
    const h = harness();
    const { verified } = await paidTurn(h);
    const request = () => h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: verified.paymentToken }));
    const outcomes = await Promise.allSettled([request(), request()]);
    const results = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.status : (outcome.reason as ProblemError).code)).sort();
    expect(results).toEqual([200, 'payment_token_used'].sort());
  });

  it('answers 400 when no turn is a user turn', async () => {
    const h = harness();
    const error = await problem(h.chat(post({ messages: [{ role: 'assistant', content: 'hello' }] })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 400, code: 'invalid_request' });
    expect(error.errors?.[0]?.path).toBe('/messages');
  });

  it('answers an unpaid premium question past the quote limit with a 429 that says why the chat counts against it', async () => {
    const h = harness();
    h.deps.limiter.points = 1;
    await h.quote(post({ question: 'a?' }));
    const error = await problem(h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }] })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect(error.message).toBe(
      'The quote limit of 1 per client is used up (an unpaid premium question on the chat is offered a quote, and counts against the quote limit as POST /api/assistant/quote does); retry in 42 s.',
    );
    expect(h.deps.limiter.counts.get('chat/203.0.113.7')).toBe(1);
  });

  it('answers 429 once the question limit is used up', async () => {
    const h = harness();
    h.deps.limiter.points = 0;
    const error = await problem(h.chat(post({ messages: [{ role: 'user', content: 'hi?' }] })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect(error.headers['retry-after']).toBe('42');
  });

  it('answers 503 receipt_storage_unavailable when the token cannot be spent, and the answer is not given', async () => {
    const h = harness();
    const { verified } = await paidTurn(h);
    h.deps.store.unavailable = true;
    const error = await problem(h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: verified.paymentToken })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'receipt_storage_unavailable' });
    h.deps.store.unavailable = false;
    expect((await h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: verified.paymentToken }))).status).toBe(200);
  });
});

describe('GET /api/assistant/activity and /api/assistant/receipt/{id}', () => {
  it('lists quote, payment and answer events newest first, with no question, token or client address', async () => {
    const h = harness();
    const { verified } = await paidTurn(h);
    await h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: verified.paymentToken }));
    const response = await createActivityHandler(h.deps)(get());
    const text = (response.body as JsonText).text;
    const feed = activitySchema.parse(JSON.parse(text));
    expect(feed.events.map((event) => event.kind)).toEqual(['turn_answered', 'payment_verified', 'quote_issued']);
    expect(feed.events[1]).toMatchObject({ amountNanoErg: '10000000', receiptId: verified.receiptId });
    for (const secret of [LONG_QUESTION.slice(0, 30), verified.paymentToken, '203.0.113.7']) expect(text).not.toContain(secret);
  });

  it('lets requests that arrive while the feed is read share that read, and reads again for the next one', async () => {
    const h = harness();
    await paidTurn(h);
    const read = vi.spyOn(h.deps.store, 'listActivity');
    const [first, second] = await Promise.all([createActivityHandler(h.deps)(get()), createActivityHandler(h.deps)(get())]);
    expect(read).toHaveBeenCalledTimes(1);
    expect(second.body).toBe(first.body);
    await h.chat(post({ messages: [{ role: 'user', content: LONG_QUESTION }], paymentToken: (await paidTurn(h)).verified.paymentToken }));
    const after = activitySchema.parse(JSON.parse(((await createActivityHandler(h.deps)(get())).body as JsonText).text));
    expect(read).toHaveBeenCalledTimes(2);
    expect(after.events[0]!.kind).toBe('turn_answered');
  });

  it('answers 503 when the store is down', async () => {
    const h = harness();
    h.deps.store.unavailable = true;
    expect((await problem(createActivityHandler(h.deps)(get()))).status).toBe(503);
  });

  it('finds a receipt by receipt id or settlement transaction id, in either case; 404 otherwise', async () => {
    const h = harness();
    const { verified } = await paidTurn(h);
    const lookup = createReceiptHandler(h.deps);
    for (const id of [verified.receiptId, verified.settlementTxId, verified.receiptId.toUpperCase()]) {
      const response = await lookup(get({ id }));
      expect(response.status).toBe(200);
      expect(receiptBundleSchema.parse(JSON.parse((response.body as JsonText).text))).toEqual(verified.receipt);
    }
    const error = await problem(lookup(get({ id: 'no-such-receipt' })));
    expect({ status: error.status, code: error.code }).toEqual({ status: 404, code: 'receipt_not_found' });
  });

  it('keeps a receipt in a checkpoint to be served from memory and cached for ever; one not in a checkpoint yet is cached for seconds and not kept', async () => {
    const h = harness();
    const { verified } = await paidTurn(h);
    const pending = await createReceiptHandler({ ...h.deps, receiptInCheckpoint: async () => false })(get({ id: verified.settlementTxId }));
    const text = (pending.body as JsonText).text;
    expect(pending.headers).toEqual({ etag: strongEtag(Buffer.from(text)), 'cache-control': 'public, max-age=5', vary: 'accept-encoding' });
    expect(servedReceipts.get(verified.receiptId)).toBeUndefined();
    expect(servedReceipts.get(verified.settlementTxId)).toBeUndefined();
    // A log that cannot say costs only the caching.
    const unsure = await createReceiptHandler({ ...h.deps, receiptInCheckpoint: async () => Promise.reject(new Error('no key yet')) })(get({ id: verified.receiptId }));
    expect(unsure.headers?.['cache-control']).toBe('public, max-age=5');

    const asked: string[] = [];
    const settled = await createReceiptHandler({ ...h.deps, receiptInCheckpoint: async (receiptId) => (asked.push(receiptId), true) })(get({ id: verified.settlementTxId.toUpperCase() }));
    expect(asked).toEqual([verified.receiptId]);
    expect(settled.headers).toEqual({ etag: pending.headers!.etag, 'cache-control': 'public, max-age=31536000, immutable', vary: 'accept-encoding' });
    for (const id of [verified.receiptId, verified.settlementTxId]) {
      expect(servedReceipts.get(id)).toMatchObject({ body: Buffer.from(text), etag: pending.headers!.etag });
    }
  });
});

describe('GET /api/assistant/quote/{id}', () => {
  it('reads back a premium quote exactly as it was issued, until it expires', async () => {
    const h = harness();
    const quote = await premiumQuote(h);
    const read = createQuoteReadHandler(h.deps);
    const response = await read(get({ id: quote.quoteId }));
    expect(response.status).toBe(200);
    expect(response.headers?.['cache-control']).toBe('no-store');
    const { reason: _reason, ...issued } = quote;
    expect(response.body).toEqual(issued);
    expect(JSON.stringify(response.body)).not.toContain(LONG_QUESTION.slice(0, 30));

    h.deps.fakeClock.advance(15 * 60 * 1000);
    const expired = await problem(read(get({ id: quote.quoteId })));
    expect({ status: expired.status, code: expired.code }).toEqual({ status: 410, code: 'quote_expired' });
  });

  it('answers 404 for an unknown id, 400 naming the id for a malformed one, 503 when the store is down', async () => {
    const h = harness();
    const read = createQuoteReadHandler(h.deps);
    const missing = await problem(read(get({ id: 'no-such-quote' })));
    expect({ status: missing.status, code: missing.code }).toEqual({ status: 404, code: 'quote_not_found' });
    for (const id of ['', 'a/b', 'x'.repeat(129), 'quote id']) {
      const bad = await problem(read(get({ id })));
      expect({ status: bad.status, code: bad.code, path: bad.errors?.[0]?.path }).toEqual({ status: 400, code: 'invalid_request', path: '/id' });
    }
    h.deps.store.unavailable = true;
    expect((await problem(read(get({ id: 'some-quote' })))).status).toBe(503);
  });
});
