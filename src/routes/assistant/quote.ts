/**
 * POST /api/assistant/quote: a free-tier decision, or a premium quote stored before it is shown so
 * that verify-payment can trust only its own copy.
 */
import type { FreeTierDecision, QuoteRequest } from '../../../schemas/assistant.ts';
import { typeName } from '../../config/site.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { routeUrl } from '../../catalogue/lookup.ts';
import { consumeRateLimit, type AssistantDeps } from '../../services/paid-turn/deps.ts';
import { decideFreeTier } from './free-tier.ts';
import { assertModelAnswers, issuePremiumQuote } from '../../services/paid-turn/paid-turn.ts';

export function createQuoteHandler(deps: AssistantDeps): Handler {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const headers = await consumeRateLimit(deps.limiter, 'quote', request.clientIp, 'quote');
    const { question, history } = request.body as QuoteRequest;
    assertModelAnswers(deps.model);
    const decision = await decideFreeTier(deps, request.clientIp, question, deps.clock());
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
    return json(200, await issuePremiumQuote(deps, question, history), headers);
  };
}
