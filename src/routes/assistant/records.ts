/**
 * GET /api/assistant/activity, GET /api/assistant/quote/{id} and GET /api/assistant/receipt/{id}:
 * what the store holds, read back.
 * Activity events carry only times, amounts, task hashes and receipt ids: the store never holds
 * question text, tokens or client addresses, and nothing else is copied out of it.
 */
import { quoteId as quoteIdSchema } from '../../../schemas/assistant.ts';
import { type Activity } from '../../../schemas/assistant-status.ts';
import { ACTIVITY_LIMIT } from '../../config/limits.ts';
import { typeName } from '../../config/site.ts';
import { json, JsonText, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { sharedWhileRunning } from '../../lib/in-flight.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { AssistantStore } from '../../domain/ports.ts';
import { premiumQuoteBody } from '../../domain/assistant/pricing.ts';
import { fromStore, type AssistantDeps } from '../../services/paid-turn/deps.ts';
import { servedReceipts, SETTLED_RECEIPT_CACHE, UNSETTLED_RECEIPT_CACHE } from '../../services/kept-receipts.ts';
import { strongEtag } from '../../lib/etag.ts';

/**
 * The feed is read per request, never kept; requests that arrive while a read runs share that read
 * and its serialization (under load, several a read: the feed was the busiest reader of the store).
 */
const feedReads = new WeakMap<AssistantStore, ReturnType<typeof sharedWhileRunning<JsonText>>>();

export function createActivityHandler({ store }: { store: AssistantStore }): Handler {
  // By store: a handler is made per request, the store lives as long as the runtime.
  let shared = feedReads.get(store);
  if (!shared) feedReads.set(store, (shared = sharedWhileRunning<JsonText>()));
  const feed = async (): Promise<JsonText> => {
    const events = await fromStore(() => store.listActivity(ACTIVITY_LIMIT));
    const body: Activity = {
      type: typeName('agent_economy.assistant_activity.v0'),
      version: 'v0',
      events: events.map((event) => ({
        kind: event.kind,
        at: event.at.toISOString(),
        ...(event.amountNanoErg !== undefined ? { amountNanoErg: event.amountNanoErg.toString() } : {}),
        ...(event.taskHash !== undefined ? { taskHash: event.taskHash } : {}),
        ...(event.receiptId !== undefined ? { receiptId: event.receiptId } : {}),
      })),
    };
    return new JsonText(JSON.stringify(body));
  };
  return async (): Promise<ApiResponse> => json(200, await shared('feed', feed), { 'cache-control': 'no-store' });
}

/**
 * A stored receipt, as the store hands it back. Once it is in a checkpoint it never changes, so its
 * bytes are kept and the server answers it from memory from then on, cached for ever (kept-receipts.ts);
 * until then it carries the same strong ETag and a few seconds' caching.
 */
export function createReceiptHandler({ store, receiptInCheckpoint }: Pick<AssistantDeps, 'store' | 'receiptInCheckpoint'>): Handler {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const id = request.params.id ?? '';
    // Ids are written in lower-case hex; an upper-case copy of one names the same receipt.
    const key = /^[0-9a-fA-F]{64}$/.test(id) ? id.toLowerCase() : id;
    const receipt = await fromStore(() => store.getReceipt(key));
    if (!receipt) {
      const shown = id.length > 80 ? `${id.slice(0, 80)}...` : id;
      throw new ProblemError(404, 'receipt_not_found', 'Receipt not found', `No receipt is stored with receipt id or settlement transaction id "${shown}".`, {
        headers: { 'cache-control': 'no-store' },
      });
    }
    // The store hands bundles back in their documented key order, whatever the engine (sql-store.ts).
    const body = JSON.stringify(receipt);
    // A log that cannot answer now (no key yet, a store hiccup) only costs the caching.
    const settled = receiptInCheckpoint ? await receiptInCheckpoint(receipt.receiptId).catch(() => false) : false;
    const etag = settled ? servedReceipts.keep(key === receipt.receiptId ? [key] : [key, receipt.receiptId], body).etag : strongEtag(Buffer.from(body, 'utf8'));
    return json(200, new JsonText(body), { etag, 'cache-control': settled ? SETTLED_RECEIPT_CACHE : UNSETTLED_RECEIPT_CACHE, vary: 'accept-encoding' });
  };
}

/**
 * A premium quote as it was issued, by its id: a client that kept only the id (a wallet, the
 * `agent-economy sandbox pay` command) reads the Note request back. The body is the stored copy of
 * the answer to POST /api/assistant/quote, which holds a hash of the question, never its text.
 */
export function createQuoteReadHandler({ store, clock }: { store: AssistantStore; clock: () => Date }): Handler {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const id = request.params.id ?? '';
    const noStore = { 'cache-control': 'no-store' };
    if (!quoteIdSchema.safeParse(id).success) {
      throw new ProblemError(400, 'invalid_request', 'Invalid quote id', 'A quote id is 1 to 128 URL-safe characters (A-Z, a-z, 0-9, _ or -).', {
        errors: [{ path: '/id', code: 'invalid_format', message: 'must be 1 to 128 URL-safe characters' }],
        headers: noStore,
      });
    }
    const stored = await fromStore(() => store.getQuote(id));
    if (!stored) {
      throw new ProblemError(404, 'quote_not_found', 'Quote not found', `No quote was issued with quoteId "${id}".`, { headers: noStore });
    }
    if (stored.expiresAt.getTime() <= clock().getTime()) {
      throw new ProblemError(410, 'quote_expired', 'Quote expired', `Quote ${stored.quoteId} expired at ${stored.expiresAt.toISOString()}; ask for a new quote.`, { headers: noStore });
    }
    return json(200, premiumQuoteBody(stored), noStore);
  };
}
