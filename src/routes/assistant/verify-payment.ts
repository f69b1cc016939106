/**
 * POST /api/assistant/verify-payment: the server's own stored quote, the question against it, the
 * Note read from the chain and judged by every rule; then one store transaction marks the Note used,
 * stores the receipt bundle and keeps the payment token's hash. Nothing is written on any failure.
 *
 * Idempotent for the payer: the same quote, question and Note sent again after a settlement (its
 * answer lost on the way) answers 200 with the same receipt and a fresh token that replaces the
 * unspent one, or 409 once that token has paid its turn; a Note that paid another quote keeps 402.
 */
import { issuedPremiumQuoteSchema, problemCodeOfNoteFailure, type VerifyPaymentRequest } from '../../../schemas/assistant.ts';
import type { VerifyPaymentResponse } from '../../../schemas/receipt.ts';
import { typeName } from '../../config/site.ts';
import { checkNote, type NoteCheckResult } from '../../domain/assistant/note-rules.ts';
import { issuePaymentToken } from '../../domain/assistant/payment-token.ts';
import { buildReceiptBundle } from '../../domain/assistant/receipt-bundle.ts';
import { hashQuestion } from '../../domain/assistant/task-hash.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { NoteAlreadyUsedError, type StoredQuote } from '../../domain/ports.ts';
import type { ReceiptBundle } from '../../../schemas/receipt.ts';
import { routeUrl } from '../../catalogue/lookup.ts';
import { consumeRateLimit, fromChain, fromStore, recordActivity, type AssistantDeps } from './deps.ts';

/** The 402 naming the first Note rule that failed, with every check for the payer to read. */
function noteRefused(result: NoteCheckResult): ProblemError {
  const code = result.failure!;
  const failed = result.checks.find((check) => !check.ok);
  return new ProblemError(402, problemCodeOfNoteFailure(code), 'Payment not verifiable against the quote', `${code}: ${failed?.detail ?? 'the Note does not pay this quote.'}`, {
    extra: { note_code: code, checks: result.checks },
  });
}

/** The 200 body: the token the payer spends on its chat turn, and the stored receipt. */
function verified(token: { token: string; expiresAt: Date }, receipt: ReceiptBundle): VerifyPaymentResponse {
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

export function createVerifyPaymentHandler({ store, chain, limiter, clock, config }: AssistantDeps): Handler {
  /**
   * The answer to a retry of a verification that already settled this quote with this Note, or
   * undefined when the Note did not pay this quote (the caller then answers as it would have).
   */
  async function settledBefore(stored: StoredQuote, noteBoxId: string, headers: Record<string, string>): Promise<ApiResponse | undefined> {
    const token = issuePaymentToken(clock(), config.tokenLifetimeSeconds);
    const previous = await fromStore(() => store.reissueToken({ noteBoxId, quoteId: stored.quoteId, tokenHash: token.tokenHash, tokenExpiresAt: token.expiresAt }));
    if (previous.status === 'reissued') return json(200, verified(token, previous.receipt), headers);
    if (previous.status === 'answered') {
      throw new ProblemError(409, 'payment_already_answered', 'Payment already answered', `Note ${noteBoxId} paid quote ${stored.quoteId}, and its payment token has paid its turn: each payment answers once. The receipt stays available.`, {
        extra: { receiptId: previous.receiptId, receiptUrl: routeUrl('assistant-receipt').replace('{id}', previous.receiptId) },
      });
    }
    return undefined;
  }

  return async (request: ApiRequest): Promise<ApiResponse> => {
    const headers = await consumeRateLimit(limiter, 'verify', request.clientIp, 'verification');
    const body = request.body as VerifyPaymentRequest;
    const noteBoxId = body.noteBoxId.toLowerCase();

    const stored = await fromStore(() => store.getQuote(body.quote.quoteId));
    if (!stored) {
      throw new ProblemError(400, 'quote_not_found', 'Quote not found', 'No quote was issued with this quoteId; ask the quote endpoint for one.', {
        errors: [{ path: '/quote/quoteId', code: 'quote_not_found', message: 'no quote was issued with this id' }],
      });
    }
    if (hashQuestion(body.question) !== stored.questionHash) {
      throw new ProblemError(400, 'question_mismatch', 'Question does not match the quote', 'The question differs from the one this quote was issued for; send it exactly as quoted.', {
        errors: [{ path: '/question', code: 'question_mismatch', message: 'not the quoted question' }],
      });
    }
    // A quote that expired, or a Note the chain now judges otherwise, may still have settled before:
    // the payer who lost that answer gets it back rather than a refusal.
    if (clock().getTime() >= stored.expiresAt.getTime()) {
      const recovered = await settledBefore(stored, noteBoxId, headers);
      if (recovered) return recovered;
      throw new ProblemError(410, 'quote_expired', 'Quote expired', `Quote ${stored.quoteId} expired at ${stored.expiresAt.toISOString()}; ask for a new quote.`);
    }

    const [height, box] = await fromChain(() => Promise.all([chain.height(), chain.getBox(noteBoxId)]));
    const checkedAt = clock();
    const result = checkNote(stored, box, height, false, config.creationHeightToleranceBlocks);
    if (result.failure) {
      const recovered = await settledBefore(stored, noteBoxId, headers);
      if (recovered) return recovered;
      throw noteRefused(result);
    }

    // Who paid feeds the reputation graph; a chain that cannot say now is a 503 like any other chain read.
    const payerAddress = (await fromChain(() => chain.getTransactionPayer(box!.transactionId))) ?? null;
    const quote = issuedPremiumQuoteSchema.parse(stored.quote);
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
        store.settlePayment({
          quoteId: stored.quoteId,
          noteBoxId,
          receipt,
          tokenHash: token.tokenHash,
          tokenExpiresAt: token.expiresAt,
          questionHash: stored.questionHash,
          payerAddress,
        }),
      );
    } catch (error) {
      if (!(error instanceof NoteAlreadyUsedError)) throw error;
      const recovered = await settledBefore(stored, noteBoxId, headers);
      if (recovered) return recovered;
      throw noteRefused(checkNote(stored, box, height, true, config.creationHeightToleranceBlocks));
    }
    await recordActivity(store, { kind: 'payment_verified', at: checkedAt, amountNanoErg: box!.value, taskHash: stored.taskHash, receiptId: receipt.receiptId });
    return json(200, verified(token, receipt), headers);
  };
}
