/**
 * POST /api/assistant/verify-payment: the server's own stored quote, the question against it, then
 * the Note settled against the quote (premium-turn.ts): judged by every rule, then one store
 * transaction marks it used, stores the receipt bundle and keeps the payment token's hash. Nothing
 * is written on any failure; a retry after a settlement gets the same receipt and a fresh token.
 */
import type { VerifyPaymentRequest } from '../../../schemas/assistant.ts';
import type { VerifyPaymentResponse } from '../../../schemas/receipt.ts';
import { typeName } from '../../config/site.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { routeUrl } from '../../catalogue/lookup.ts';
import { consumeRateLimit, type AssistantDeps } from './deps.ts';
import { assertQuotedQuestion, settleNote, storedQuote, type Settlement } from './premium-turn.ts';

/** The 200 body: the token the payer spends on its chat turn, and the stored receipt. */
function verified({ token, receipt }: Settlement): VerifyPaymentResponse {
  return {
    type: typeName('agent_economy.assistant_payment_verification.v0'),
    version: 'v0',
    paymentToken: token.token,
    paymentTokenExpiresAt: token.expiresAt.toISOString(),
    receiptId: receipt.receiptId,
    receiptUrl: routeUrl('assistant-receipt').replace('{id}', receipt.receiptId),
    settlementTxId: receipt.settlementTxId,
    receipt,
  };
}

export function createVerifyPaymentHandler(deps: AssistantDeps): Handler {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const headers = await consumeRateLimit(deps.limiter, 'verify', request.clientIp, 'verification');
    const body = request.body as VerifyPaymentRequest;
    const stored = await storedQuote(deps, body.quote.quoteId, '/quote/quoteId');
    assertQuotedQuestion(stored, body.question, '/question');
    return json(200, verified(await settleNote(deps, stored, body.noteBoxId.toLowerCase())), headers);
  };
}
