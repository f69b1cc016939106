/**
 * POST /api/assistant/verify-payment: the server's own stored quote, the question against it, then
 * the Note settled against the quote (services/paid-turn): judged by every rule, then one store
 * transaction marks it used, stores the receipt bundle and keeps the payment token's hash. Nothing
 * is written on any failure. A retry after a settlement that presents the payer's `Idempotency-Key`
 * gets the same receipt and a fresh token; any other retry gets 409 and the receipt id.
 */
import type { VerifyPaymentRequest } from '../../../schemas/assistant.ts';
import type { VerifyPaymentResponse } from '../../../schemas/receipt.ts';
import { typeName } from '../../config/site.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { receiptProofUrl, receiptUrl } from '../../catalogue/lookup.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { RETRY_KEY_PATTERN, RETRY_KEY_RULE } from '../../domain/assistant/retry-key.ts';
import { consumeRateLimit, type AssistantDeps } from '../../services/paid-turn/deps.ts';
import { assertQuotedQuestion, settleNote, storedQuote, type Settlement } from '../../services/paid-turn/paid-turn.ts';

/** The 200 body: the token the payer spends on its chat turn, and the stored receipt. */
function verified({ token, receipt }: Settlement): VerifyPaymentResponse {
  return {
    type: typeName('agent_economy.assistant_payment_verification.v0'),
    version: 'v0',
    paymentToken: token.token,
    paymentTokenExpiresAt: token.expiresAt.toISOString(),
    receiptId: receipt.receiptId,
    receiptUrl: receiptUrl(receipt.receiptId),
    settlementTxId: receipt.settlementTxId,
    receiptProofUrl: receiptProofUrl(receipt.receiptId),
    receipt,
  };
}

/** The payer's retry key from the `Idempotency-Key` header: undefined when absent, 400 when it breaks the rule. */
function retryKeyOf(request: ApiRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!RETRY_KEY_PATTERN.test(key)) {
    throw new ProblemError(400, 'invalid_idempotency_key', 'Invalid Idempotency-Key', `The Idempotency-Key header must be ${RETRY_KEY_RULE}: a secret of the payer's, sent again on a retry.`, {
      errors: [{ path: '/headers/idempotency-key', code: 'invalid_idempotency_key', message: `must be ${RETRY_KEY_RULE}` }],
    });
  }
  return key;
}

export function createVerifyPaymentHandler(deps: AssistantDeps): Handler {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const retryKey = retryKeyOf(request);
    const headers = await consumeRateLimit(deps.limiter, 'verify', request.clientIp, 'verification');
    const body = request.body as VerifyPaymentRequest;
    const stored = await storedQuote(deps, body.quote.quoteId, '/quote/quoteId');
    assertQuotedQuestion(stored, body.question, '/question');
    return json(200, verified(await settleNote(deps, stored, body.noteBoxId.toLowerCase(), { retryKey })), headers);
  };
}
