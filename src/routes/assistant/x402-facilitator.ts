/**
 * The x402 facilitator for Ergo Notes (/api/x402/facilitator, docs/x402-ergo.md): `verify` judges a
 * Note against the stored quote its payload names, once the requirements sent are exactly the ones
 * issued for that quote, without claiming anything; `settle` claims it, once: of two settles of one
 * Note exactly one succeeds (the store's unique claim), and a refusal is a 200 naming its reason
 * (verify-payment's code for a Note), as x402 facilitators answer.
 */
import { X402_SCHEME, X402_VERSION, type X402FacilitatorRequest, type X402Network, type X402SettleResponse, type X402VerifyResponse } from '../../../schemas/x402.ts';
import { issuedRequirementsOf, requirementsMismatch, unsupportedRequirements } from '../../domain/assistant/facilitator-requirements.ts';
import { honouredX402Extensions, x402NetworkOf, x402Settled } from '../../domain/assistant/x402.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { StoredQuote } from '../../domain/ports.ts';
import { paymentIdentifierOf } from '../../domain/assistant/retry-key.ts';
import { consumeRateLimit, type AssistantDeps } from '../../services/paid-turn/deps.ts';
import { judgePayment, settleNote, storedQuote, type PaymentRefusal } from '../../services/paid-turn/paid-turn.ts';

/**
 * The one kind this facilitator settles (Notes on the network of the chain this server reads), and
 * exactly the extensions this server honours: the list its 402s are declared from.
 */
export function createX402SupportedHandler({ chain, offerReceipts }: Pick<AssistantDeps, 'chain' | 'offerReceipts'>): Handler {
  const kinds = [{ x402Version: X402_VERSION, scheme: X402_SCHEME, network: x402NetworkOf(chain.source) }];
  const extensions = honouredX402Extensions(offerReceipts !== undefined);
  return async () => json(200, { kinds, extensions, signers: {} });
}

/**
 * The stored quote the payment names, or why the payment cannot be for it: a foreign scheme, no
 * such quote, or requirements other than the ones issued for it (then nothing else is read).
 */
async function quoteOf(deps: AssistantDeps, body: X402FacilitatorRequest, network: X402Network): Promise<StoredQuote | PaymentRefusal> {
  const terms = { paymentRequirements: body.paymentRequirements, accepted: body.paymentPayload.accepted };
  const unsupported = unsupportedRequirements(terms, network);
  if (unsupported) return unsupported;
  let stored: StoredQuote;
  try {
    stored = await storedQuote(deps, body.paymentPayload.accepted.extra.quoteId, '/paymentPayload/accepted/extra/quoteId');
  } catch (error) {
    if (error instanceof ProblemError && error.status === 400) return { reason: error.code, message: error.message };
    throw error;
  }
  return requirementsMismatch(issuedRequirementsOf(stored, network), terms) ?? stored;
}

const isPaymentRefusal = (value: StoredQuote | PaymentRefusal): value is PaymentRefusal => 'reason' in value;

export function createX402VerifyHandler(deps: AssistantDeps): Handler {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const headers = await consumeRateLimit(deps.limiter, 'verify', request.clientIp, 'verification');
    const body = request.body as X402FacilitatorRequest;
    const answer = (verdict: X402VerifyResponse) => json(200, verdict, headers);
    const stored = await quoteOf(deps, body, x402NetworkOf(deps.chain.source));
    if (isPaymentRefusal(stored)) return answer({ isValid: false, invalidReason: stored.reason, invalidMessage: stored.message });
    const verdict = await judgePayment(deps, stored, body.paymentPayload.payload.noteBoxId.toLowerCase());
    if (!verdict.ok) return answer({ isValid: false, invalidReason: verdict.reason, invalidMessage: verdict.message });
    return answer({ isValid: true, ...(verdict.payer ? { payer: verdict.payer } : {}) });
  };
}

export function createX402SettleHandler(deps: AssistantDeps): Handler {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const headers = await consumeRateLimit(deps.limiter, 'verify', request.clientIp, 'verification');
    const body = request.body as X402FacilitatorRequest;
    const answer = (settlement: X402SettleResponse) => json(200, settlement, headers);
    const network = x402NetworkOf(deps.chain.source);
    const refused = ({ reason, message }: PaymentRefusal) => answer({ success: false, errorReason: reason, errorMessage: message, transaction: '', network });
    const stored = await quoteOf(deps, body, network);
    if (isPaymentRefusal(stored)) return refused(stored);
    // The payer's payment-identifier binds the settled turn, so the payer (and only the payer) can then get its answer from the chat.
    const retryKey = paymentIdentifierOf(body.paymentPayload.extensions);
    if (typeof retryKey === 'object') return refused({ reason: 'invalid_payload', message: `paymentPayload.${retryKey.invalid}.` });
    try {
      const { receipt, payerAddress } = await settleNote(deps, stored, body.paymentPayload.payload.noteBoxId.toLowerCase(), { recoverSettled: false, retryKey });
      return answer(x402Settled(receipt.settlementTxId, payerAddress, network));
    } catch (error) {
      if (error instanceof ProblemError && [402, 409, 410].includes(error.status)) return refused({ reason: error.code, message: error.message });
      throw error;
    }
  };
}
