/**
 * POST /api/assistant/chat: a free turn, or a premium turn paid by a payment token. The model
 * answers first and the token is spent only once an answer exists, so a provider failure never
 * costs the payer their turn; spending is the store's atomic single use, so of two requests racing
 * with one token exactly one is answered.
 */
import { z } from 'zod';
import { chatRequestSchema, paymentToken as paymentTokenFormat, type ChatRequest, type ChatResponse } from '../../../schemas/assistant.ts';
import { typeName } from '../../config/site.ts';
import { hashPaymentToken } from '../../domain/assistant/payment-token.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import type { ProblemCode } from '../../lib/problem-codes.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { SpendTokenResult, StoredQuote } from '../../domain/ports.ts';
import { routeUrl } from '../../catalogue/lookup.ts';
import type { ModelAnswer } from '../../services/model/provider.ts';
import { consumeRateLimit, recordActivity, type AssistantDeps } from '../../services/paid-turn/deps.ts';
import { takeFreeTurn } from './free-tier.ts';
import { answerPaidTurn, askModel, CLEARS_BY_ITSELF, assertQuotedQuestion, issuePremiumQuote, settleNote, storedQuote, type Settlement } from '../../services/paid-turn/paid-turn.ts';
import { PAYMENT_IDENTIFIER, paymentIdentifierDeclaration, paymentIdentifierOf } from '../../domain/assistant/retry-key.ts';
import { bazaarDiscovery, decodePaymentSignature, encodeX402Header, honouredX402Extensions, unsupportedKind, x402NetworkOf, x402PaymentRequired, x402RequirementsOf, x402Settled } from '../../domain/assistant/x402.ts';
import { OFFER_RECEIPT } from '../../domain/assistant/offer-receipt.ts';
import { paidResourceUrl, signedOffers, signedReceiptExtensions } from '../../services/paid-turn/offer-receipt.ts';
import type { X402Requirements } from '../../../schemas/x402.ts';

/** The chat's answer body: premium with the receipt that paid it, free without one. */
export const chatBody = (answer: ModelAnswer, receiptId: string | null): ChatResponse => ({
  type: typeName('agent_economy.assistant_chat.v0'),
  version: 'v0',
  tier: receiptId === null ? 'free' : 'premium',
  ...answer,
  receiptId,
});

const TOKEN_REFUSALS: Record<Exclude<SpendTokenResult, { ok: true }>['reason'], { code: ProblemCode; title: string; detail: string }> = {
  unknown: { code: 'payment_token_invalid', title: 'Payment token invalid', detail: 'No payment token like this was issued; verify a Note payment to get one.' },
  used: { code: 'payment_token_used', title: 'Payment token already used', detail: 'This payment token already paid a turn; each token answers once.' },
  expired: { code: 'payment_token_expired', title: 'Payment token expired', detail: 'This payment token expired; ask for a new quote and pay again.' },
  question_mismatch: {
    code: 'payment_token_question_mismatch',
    title: 'Payment token is for another question',
    detail: 'This payment token was issued for another question; send the quoted question as the last user message.',
  },
};

const tokenRefused = (reason: keyof typeof TOKEN_REFUSALS): ProblemError => {
  const refusal = TOKEN_REFUSALS[reason];
  return new ProblemError(402, refusal.code, refusal.title, refusal.detail, { extra: { quote_url: routeUrl('assistant-quote') } });
};

/**
 * The declarations that do not change per quote, made once: the chat in x402's Bazaar terms, for
 * facilitators that catalogue paid resources, and `payment-identifier`, the key that lets the payer
 * (and only the payer) recover a settled turn whose answer was lost.
 */
let fixedDeclarations: Record<'bazaar' | typeof PAYMENT_IDENTIFIER, unknown> | undefined;
const fixedDeclarationsOnce = () =>
  (fixedDeclarations ??= {
    bazaar: bazaarDiscovery({
      body: { messages: [{ role: 'user', content: 'Which registers must a Note carry?' }] },
      bodySchema: z.toJSONSchema(chatRequestSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>,
      outputExample: { tier: 'premium', answer: '> The Note must carry three registers: R4 the reserve box id, R5 the expiry height and R6 the task hash.', receiptId: '<64 hex>' },
      outputSchema: { type: 'object', properties: { tier: { const: 'premium' }, answer: { type: 'string' }, receiptId: { type: 'string' } }, required: ['tier', 'answer', 'receiptId'] },
    }).bazaar,
    [PAYMENT_IDENTIFIER]: paymentIdentifierDeclaration(),
  });

/**
 * The extensions PAYMENT-REQUIRED declares for `accepts`: exactly the honoured ones (the list
 * /supported reads too), `offer-receipt` being the signed offer of each entry.
 */
async function declaredExtensions(deps: AssistantDeps, accepts: X402Requirements[], expiresAt: Date): Promise<Record<string, unknown>> {
  const declared: Record<string, unknown> = {};
  for (const name of honouredX402Extensions(deps.offerReceipts !== undefined)) {
    declared[name] = name === OFFER_RECEIPT ? await signedOffers(deps, accepts, expiresAt) : fixedDeclarationsOnce()[name];
  }
  return declared;
}

/** What an x402 payment buys here, as PAYMENT-REQUIRED names it. */
const chatResource = () => ({ url: paidResourceUrl(), description: 'One premium answer from the hosted assistant, with a verifiable receipt.', mimeType: 'application/json' });

/**
 * The PAYMENT-REQUIRED header for this conversation: a premium quote issued and stored as the quote
 * endpoint does (and counted against the quote limit), as x402 v2 requirements, with `error` saying
 * why payment is required. Empty when no quote can be offered now (no receiver configured, the chain
 * or the store unreachable): the 402 then says why without an offer, rather than turning into a 503.
 */
async function offerFor(deps: AssistantDeps, clientIp: string, conversation: Conversation, error: string): Promise<Record<string, string>> {
  if (!deps.config.receiverAddress || !deps.config.reserveBoxId) return {};
  await consumeRateLimit(deps.limiter, 'quote', clientIp, 'quote', 'an unpaid premium question on the chat is offered a quote, and counts against the quote limit as POST /api/assistant/quote does');
  const history = conversation.messages.slice(0, -1);
  try {
    const quote = await issuePremiumQuote(deps, conversation.question, history.length ? history : undefined);
    const accepts = [x402RequirementsOf(quote, deps.config.quoteLifetimeSeconds, x402NetworkOf(deps.chain.source))];
    const extensions = await declaredExtensions(deps, accepts, new Date(quote.expiresAt));
    return { 'payment-required': encodeX402Header(x402PaymentRequired(error, chatResource(), accepts[0]!, extensions)) };
  } catch (failure) {
    if (failure instanceof ProblemError && failure.status === 503) return {};
    throw failure;
  }
}

interface Conversation {
  question: string;
  messages: ChatRequest['messages'];
}

const RETRY_SAME_PAYMENT_SECONDS = 5;

/**
 * A premium turn paid over x402: the PAYMENT-SIGNATURE names a stored quote and the Note that pays
 * it; the Note is settled as verify-payment settles it (a retry after a lost answer included), the
 * model answers, and only then is the turn's token spent. A final refusal is a 402 with a new quote;
 * one that clears by itself a 402 with Retry-After and no offer.
 */
async function payWithX402(deps: AssistantDeps, request: ApiRequest, conversation: Conversation, headers: Record<string, string>): Promise<ApiResponse> {
  const decoded = decodePaymentSignature(request.headers['payment-signature']!);
  if (!decoded.ok) {
    throw new ProblemError(400, 'invalid_payment_signature', 'Invalid PAYMENT-SIGNATURE', `The PAYMENT-SIGNATURE header ${decoded.reason}: send base64 JSON of { x402Version: 2, accepted, payload: { noteBoxId } }.`);
  }
  const { accepted, payload, extensions } = decoded.payload;
  const retryKey = paymentIdentifierOf(extensions);
  if (typeof retryKey === 'object') {
    throw new ProblemError(400, 'invalid_payment_signature', 'Invalid PAYMENT-SIGNATURE', `The PAYMENT-SIGNATURE payload's ${retryKey.invalid}.`);
  }
  const refused = async (code: string, detail: string): Promise<never> => {
    if (CLEARS_BY_ITSELF.has(code)) {
      throw new ProblemError(402, 'x402_payment_refused', 'Payment not settled yet', `${code}: ${detail} Send the same PAYMENT-SIGNATURE again in a few seconds; do not pay again.`, {
        headers: { 'retry-after': String(RETRY_SAME_PAYMENT_SECONDS) },
        extra: { payment_error: code },
      });
    }
    const offer = await offerFor(deps, request.clientIp, conversation, code);
    throw new ProblemError(402, 'x402_payment_refused', 'Payment refused', `${code}: ${detail}${'payment-required' in offer ? ' The PAYMENT-REQUIRED header offers a new quote for this question.' : ''}`, {
      headers: offer,
      extra: { payment_error: code },
    });
  };
  const network = x402NetworkOf(deps.chain.source);
  const unsupported = unsupportedKind(accepted, network);
  if (unsupported) return refused('unsupported_scheme', unsupported);
  await consumeRateLimit(deps.limiter, 'verify', request.clientIp, 'verification');
  let settlement: Settlement;
  let stored: StoredQuote;
  try {
    stored = await storedQuote(deps, accepted.extra.quoteId, '/accepted/extra/quoteId');
    assertQuotedQuestion(stored, conversation.question, '/messages');
    settlement = await settleNote(deps, stored, payload.noteBoxId.toLowerCase(), { retryKey });
  } catch (error) {
    if (error instanceof ProblemError && [400, 402, 409, 410].includes(error.status)) return refused(error.code, error.message);
    throw error;
  }
  const { receipt } = settlement;
  const paid = await answerPaidTurn(deps, settlement.token.tokenHash, conversation, receipt);
  if (!paid.ok) {
    // `used`: another request with this payment was answered. Otherwise a concurrent retry replaced this turn's token and holds the turn now.
    return paid.reason === 'used'
      ? refused('payment_already_answered', 'another request with this payment was answered first: each payment answers once.')
      : refused('payment_in_progress', 'another request with this payment is being answered.');
  }
  const settled = x402Settled(receipt.settlementTxId, settlement.payerAddress, network, await signedReceiptExtensions(deps, stored, settlement, network));
  const body = chatBody(paid.answer, receipt.receiptId);
  return json(200, body, { ...headers, 'payment-response': encodeX402Header(settled) });
}

export function createChatHandler(deps: AssistantDeps): Handler {
  const { store, limiter, model, clock, config } = deps;
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const { messages, paymentToken } = request.body as ChatRequest;
    const questionIndex = messages.findLastIndex((message) => message.role === 'user');
    if (questionIndex === -1) {
      throw new ProblemError(400, 'invalid_request', 'Invalid request', 'The request body is invalid at: /messages.', {
        errors: [{ path: '/messages', code: 'no_user_turn', message: 'needs at least one turn with role "user": the last one is the question answered' }],
      });
    }
    const question = messages[questionIndex]!.content;
    const headers = await consumeRateLimit(limiter, 'chat', request.clientIp, 'question');
    const conversation = { question, messages: messages.slice(0, questionIndex + 1) };

    if (request.headers['payment-signature'] !== undefined) {
      if (paymentToken !== undefined) {
        throw new ProblemError(400, 'invalid_payment_signature', 'Invalid PAYMENT-SIGNATURE', 'A turn is paid once: send either a paymentToken or a PAYMENT-SIGNATURE header, not both.');
      }
      return payWithX402(deps, request, conversation, headers);
    }

    if (paymentToken !== undefined) {
      // A string that cannot be a token was never issued: refuse it before any model work.
      if (!paymentTokenFormat.safeParse(paymentToken).success) throw tokenRefused('unknown');
      const paid = await answerPaidTurn(deps, hashPaymentToken(paymentToken), conversation);
      if (!paid.ok) throw tokenRefused(paid.reason);
      const body = chatBody(paid.answer, paid.receiptId);
      return json(200, body, headers);
    }

    const { decision, release } = await takeFreeTurn({ store, config }, request.clientIp, question, clock());
    if (decision.tier === 'premium') {
      const offered = await offerFor(deps, request.clientIp, conversation, 'payment_required');
      throw new ProblemError(
        402,
        'payment_required',
        'Payment required',
        `${decision.reason} Ask the quote endpoint for a premium quote, pay it with a Note, verify the payment and send the payment token.`,
        { headers: offered, extra: { quote_url: routeUrl('assistant-quote') } },
      );
    }
    // The turn was reserved before the model was asked; a failure gives it back.
    const answer = await askModel(model, conversation).catch(async (error: unknown) => {
      await release();
      throw error;
    });
    await recordActivity(store, { kind: 'turn_answered', at: clock() });
    const body = chatBody(answer, null);
    return json(200, body, headers);
  };
}
