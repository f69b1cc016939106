/**
 * POST /api/assistant/quote: a free-tier decision, or a premium quote stored before it is shown so
 * that verify-payment can trust only its own copy.
 */
import type { FreeTierDecision, QuoteRequest } from '../../../schemas/assistant.ts';
import { typeName } from '../../config/site.ts';
import { buildPremiumQuote, newQuoteId } from '../../domain/assistant/pricing.ts';
import { hashQuestion } from '../../domain/assistant/task-hash.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { StoredQuote } from '../../domain/ports.ts';
import { routeUrl } from '../../catalogue/lookup.ts';
import { consumeRateLimit, decideFreeTier, fromChain, fromStore, type AssistantDeps } from './deps.ts';

export function createQuoteHandler({ store, chain, limiter, clock, config }: AssistantDeps): Handler {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const headers = await consumeRateLimit(limiter, 'quote', request.clientIp, 'quote');
    const { question, history } = request.body as QuoteRequest;
    const now = clock();
    const { decision } = await decideFreeTier({ store, config }, request.clientIp, question, now);
    if (decision.tier === 'free') {
      const body: FreeTierDecision = {
        type: typeName('agent_economy.assistant_quote.v0'),
        version: 'v0',
        tier: 'free',
        reason: decision.reason,
        free_questions_remaining_today: decision.remainingToday,
        next: routeUrl('assistant-chat'),
      };
      return json(200, body, headers);
    }

    const { receiverAddress, reserveBoxId } = config;
    if (!receiverAddress || !reserveBoxId) {
      const missing = [!receiverAddress && 'ASSISTANT_RECEIVER_ADDRESS', !reserveBoxId && 'ASSISTANT_RESERVE_BOX_ID'].filter(Boolean).join(' and ');
      throw new ProblemError(503, 'payment_unconfigured', 'Payment configuration unavailable', `Premium answers are not offered: the operator has not configured ${missing}.`);
    }
    const height = await fromChain(() => chain.recentHeight());
    const quoteId = newQuoteId();
    const quote = buildPremiumQuote({ quoteId, question, history, terms: { ...config, receiverAddress, reserveBoxId }, height, now });
    const stored: StoredQuote = {
      quoteId,
      taskHash: quote.taskHash,
      questionHash: hashQuestion(question),
      priceNanoErg: config.priceNanoErg,
      receiverAddress,
      reserveBoxId,
      noteExpiryMinHeight: quote.noteExpiryMinHeight,
      minConfirmations: quote.minConfirmations,
      issuedHeight: height,
      issuedAt: now,
      expiresAt: new Date(quote.expiresAt),
      quote,
    };
    // Stored with its activity event in one statement, before it is shown.
    await fromStore(() => store.insertQuote(stored, { kind: 'quote_issued', at: now, amountNanoErg: config.priceNanoErg, taskHash: quote.taskHash }));
    return json(200, quote, headers);
  };
}
