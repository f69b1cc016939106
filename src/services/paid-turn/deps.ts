/**
 * What the assistant's handlers need from the outside, as one object so tests hand in fakes and the
 * route group hands in the runtime's store, chain client and limiter. Also the translations every
 * handler shares: a port's failure into its documented problem, a rate-limit refusal into a 429.
 */
import type { PaidTurnConfig } from '../../config/assistant.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { logger } from '../logger.ts';
import type { ModelProvider } from '../model/provider.ts';
import type { OfferReceiptSigner } from '../x402-signing-key.ts';
import { rateLimitFields } from '../rate-limit/header.ts';
import { ChainUnavailableError, StoreUnavailableError, type AssistantStore, type RecordedActivityEvent, type ChainClient, type RateLimiter } from '../../domain/ports.ts';

export type Clock = () => Date;

export interface AssistantDeps {
  store: AssistantStore;
  chain: ChainClient;
  limiter: RateLimiter;
  model: ModelProvider;
  clock: Clock;
  config: PaidTurnConfig;
  /** Tells the receipt log a receipt was stored, so a checkpoint including it is signed soon (ReceiptLog.receiptStored). */
  receiptStored?: () => void;
  /** Why the receipt log refuses to sign now (ReceiptLog.signingRefused), or undefined: no Note is settled while it refuses. */
  receiptLogRefusal?: () => Promise<string | undefined>;
  /** Whether a receipt is in the newest checkpoint (ReceiptLog.inCheckpoint): its bytes can then be kept and cached for ever. */
  receiptInCheckpoint?: (receiptId: string) => Promise<boolean>;
  /** Signs x402 offers and receipts (x402-signing-key.ts); without it none are signed and `offer-receipt` is not honoured. */
  offerReceipts?: OfferReceiptSigner;
}

/**
 * Runs a store call; the store being unreachable becomes the documented 503, whose `detail` says
 * what that means for this request (by default: nothing was written). The store's own error names
 * its file or database and the driver's words, so it goes to the log as the problem's cause only.
 */
export async function fromStore<T>(run: () => Promise<T>, detail = 'The receipt store cannot be reached right now, so nothing was written; retry shortly.'): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StoreUnavailableError) {
      throw new ProblemError(503, 'receipt_storage_unavailable', 'Receipt storage unavailable', detail, { headers: { 'retry-after': '5' }, cause: error });
    }
    throw error;
  }
}

/**
 * Runs a chain read; the chain not answering in time becomes the documented 503. The client's
 * error names the explorer or node URL and the transport's words (`connect ECONNREFUSED host:port`),
 * so it goes to the log as the problem's cause only.
 */
export async function fromChain<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ChainUnavailableError) {
      throw new ProblemError(
        503,
        'chain_unavailable',
        'Chain unavailable',
        'The chain source did not answer in time, or not with an answer of the Explorer API; nothing was written. Retry shortly.',
        { headers: { 'retry-after': '5' }, cause: error },
      );
    }
    throw error;
  }
}

/**
 * Counts one request of `bucket` for this client. Refused: 429 with `Retry-After`, `RateLimit` and `RateLimit-Policy`,
 * naming the limit (`what`) and, where the route is not the limit's own, why it counts (`why`).
 * Allowed: those two for the answer, so clients can pace themselves before a 429.
 */
export async function consumeRateLimit(limiter: RateLimiter, bucket: 'quote' | 'chat' | 'verify', clientIp: string, what: string, why?: string): Promise<Record<string, string>> {
  const decision = await limiter.consume(bucket, clientIp);
  const fields = rateLimitFields(bucket, decision);
  if (!decision.allowed) {
    const retryAfter = Math.max(1, Math.ceil(decision.retryAfterSeconds));
    throw new ProblemError(429, 'rate_limited', 'Too many requests', `The ${what} limit of ${decision.limit} per client is used up${why ? ` (${why})` : ''}; retry in ${retryAfter} s.`, {
      headers: { 'retry-after': String(retryAfter), ...fields },
      extra: { retry_after_seconds: retryAfter },
    });
  }
  return fields;
}

/**
 * Records a public activity event. The event is a courtesy to readers, not part of the turn: a
 * store hiccup here must not turn an answered turn or a settled payment into an error.
 */
export async function recordActivity(store: AssistantStore, event: RecordedActivityEvent): Promise<void> {
  try {
    await store.recordActivity(event);
  } catch (error) {
    logger.warn({ err: error, kind: event.kind }, 'assistant activity not recorded');
  }
}
