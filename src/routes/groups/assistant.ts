/**
 * Spec 4.5, bound: the assistant's handlers live in `src/routes/assistant/` as factories over the
 * ports; here they are wired to the runtime's store, chain client and rate limiter and to the
 * configured model provider.
 */
import type { SignerHealth } from '../../../schemas/assistant-status.ts';
import { paidTurnConfig } from '../../config/assistant.ts';
import { json, type ApiResponse, type Handler } from '../../lib/api.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { buildAssistantTerms } from '../../descriptors/assistant-terms.ts';
import { signerHealth } from '../../services/signer-health.ts';
import { createA2aHandler } from '../assistant/a2a.ts';
import { createChatHandler } from '../assistant/chat.ts';
import type { AssistantDeps } from '../../services/paid-turn/deps.ts';
import { createQuoteHandler } from '../assistant/quote.ts';
import { createActivityHandler, createQuoteReadHandler, createReceiptHandler } from '../assistant/records.ts';
import { createVerifyPaymentHandler } from '../assistant/verify-payment.ts';
import { createX402SettleHandler, createX402SupportedHandler, createX402VerifyHandler } from '../assistant/x402-facilitator.ts';
import type { Binding } from '../types.ts';
import { logger } from '../../services/logger.ts';
import { modelModule, runtimeModule } from '../lazy-runtime.ts';

/**
 * The signer-health handler: 200 with the health body when healthy, otherwise a 503 problem whose
 * `signer_health` member carries the same body.
 */
export function createSignerHealthHandler(probe: () => Promise<SignerHealth>): Handler {
  return async (): Promise<ApiResponse> => {
    const health = await probe();
    if (health.ok) return json(200, health);
    const code = health.status === 'healthy' ? 'signer_degraded' : (`signer_${health.status}` as const);
    throw new ProblemError(503, code, `Signer ${health.status}`, health.detail, {
      extra: { signer_health: health },
      headers: { 'cache-control': 'no-store' },
    });
  };
}

/** The runtime and model modules once imported: later requests reach them without a turn of the loader. */
let modules: { runtime: typeof import('../../services/runtime.ts'); modelProvider: () => AssistantDeps['model'] } | undefined;

/**
 * The runtime's store, chain client and limiter and the model provider, imported on first use so
 * that loading the route table (at build, in tests, for the OpenAPI document) opens no database and
 * no connection, and so the docs provider's index, built from the route table, does not import it
 * back while it loads.
 */
async function loadModules(): Promise<NonNullable<typeof modules>> {
  const [runtime, { modelProvider }] = await Promise.all([runtimeModule(), modelModule()]);
  modules = { runtime, modelProvider };
  return modules;
}

/**
 * The runtime's signer of x402 offers and receipts. The start refuses a key it cannot use, so this
 * fails only when the key file went away since: the paid turn then goes on unsigned, and /supported
 * stops listing `offer-receipt`, rather than every assistant route failing.
 */
function offerReceiptsOf(runtime: NonNullable<typeof modules>['runtime']): Pick<AssistantDeps, 'offerReceipts'> {
  try {
    return { offerReceipts: runtime.getOfferReceiptSigner() };
  } catch (error) {
    logger.warn({ err: error }, 'x402 signing key unusable: offers and receipts go unsigned');
    return {};
  }
}

function runtimeDeps(runtime: NonNullable<typeof modules>['runtime'], parts: Pick<AssistantDeps, 'store' | 'chain' | 'limiter' | 'model'>): AssistantDeps {
  return {
    ...parts,
    clock: () => new Date(),
    config: paidTurnConfig,
    receiptStored: () => {
      try {
        runtime.getReceiptLog().receiptStored();
      } catch {
        // No key to sign with yet: the log's routes answer 503 and the checkpointer tries again.
      }
    },
    receiptLogRefusal: async () => (await runtime.getReceiptLog().signingRefused())?.reason,
    receiptInCheckpoint: (receiptId) => runtime.getReceiptLog().inCheckpoint(receiptId),
    ...offerReceiptsOf(runtime),
  };
}

/**
 * A handler of `factory` over the runtime's parts. The parts are asked for on every request (the
 * runtime keeps them, and tests replace them), and the handler is made again only when one of them
 * is another: making it per request cost the quote route about 7 us of its 90.
 */
const withRuntime = (factory: (deps: AssistantDeps) => Handler): Handler => {
  let made: { parts: Pick<AssistantDeps, 'store' | 'chain' | 'limiter' | 'model'>; handler: Handler } | undefined;
  return async (request) => {
    const { runtime, modelProvider } = modules ?? (await loadModules());
    const parts = { store: runtime.getStore(), chain: runtime.getChainClient(), limiter: runtime.getRateLimiter(), model: modelProvider() };
    if (!made || made.parts.store !== parts.store || made.parts.chain !== parts.chain || made.parts.limiter !== parts.limiter || made.parts.model !== parts.model) {
      made = { parts, handler: factory(runtimeDeps(runtime, parts)) };
    }
    return made.handler(request);
  };
};

export const assistantBindings: Readonly<Record<string, Binding>> = {
  'assistant-quote': { handler: withRuntime(createQuoteHandler) },
  'assistant-quote-read': { handler: withRuntime(createQuoteReadHandler) },
  'assistant-chat': { handler: withRuntime(createChatHandler) },
  a2a: { handler: withRuntime(createA2aHandler) },
  'assistant-verify-payment': { handler: withRuntime(createVerifyPaymentHandler) },
  'x402-supported': { handler: withRuntime(createX402SupportedHandler) },
  'x402-verify': { handler: withRuntime(createX402VerifyHandler) },
  'x402-settle': { handler: withRuntime(createX402SettleHandler) },
  'assistant-terms': { handler: () => json(200, buildAssistantTerms(paidTurnConfig, new Date())) },
  'assistant-activity': { handler: withRuntime(createActivityHandler) },
  'assistant-signer-health': { handler: createSignerHealthHandler(signerHealth) },
  'assistant-receipt': { handler: withRuntime(createReceiptHandler) },
};

