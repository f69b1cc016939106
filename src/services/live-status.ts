/**
 * Live status (`GET /api/agent-economy/live` and the MCP `live_status` tool): every probe at once,
 * each under its own timeout, the results shared for a few seconds. Concurrent readers during a run
 * share that run, so a burst of readers is one burst of probes, and the answer comes within about
 * one probe timeout even when every dependency hangs.
 */
import type { LiveStatus, Probe } from '../../schemas/live.ts';
import { PROBE_CACHE_SECONDS, PROBE_HISTORY_INTERVAL_SECONDS, PROBE_HISTORY_RUNS } from '../config/limits.ts';
import { probeRunOf } from '../domain/probe-history.ts';
import { turnTaker } from '../lib/loop-turns.ts';
import { answerEvery } from '../lib/shared-answers.ts';
import { logger } from './logger.ts';
import { buildLiveStatus } from '../descriptors/live.ts';
import {
  createChainProbe,
  latestFullReceiptId,
  paymentWidgetProbe,
  probeAssistant,
  probeMainnetGate,
  probeFailureCause,
  probeMcp,
  probeRateLimiter,
  probeReceiptStorage,
  probeSigner,
  probeTransparencyLog,
  probeWalletAgent,
} from './live-probes.ts';
import type { OfferReceiptSigner } from './x402-signing-key.ts';
import type { ReceiptLog } from './receipt-log.ts';
import type { ModelProvider } from './model/provider.ts';
import type { AssistantStore, ChainClient, RateLimiter } from '../domain/ports.ts';

/** Where the probed parts come from. Each may throw (a malformed variable, a store this process must not open). */
export interface LiveSources {
  store: () => AssistantStore;
  chain: () => ChainClient;
  limiter: () => RateLimiter;
  model: () => ModelProvider;
  receiptLog: () => ReceiptLog;
  /** The signer of x402 offers and receipts (the MCP tools' paid turn signs with it). */
  offerReceipts?: () => OfferReceiptSigner;
}

/** The parts this process was configured with, loaded on first use so importing this module opens nothing. */
export async function runtimeSources(): Promise<LiveSources> {
  const [runtime, model] = await Promise.all([import('./runtime.ts'), import('./model/index.ts')]);
  return { store: runtime.getStore, chain: runtime.getChainClient, limiter: runtime.getRateLimiter, model: model.modelProvider, receiptLog: runtime.getReceiptLog, offerReceipts: runtime.getOfferReceiptSigner };
}

/** A part that cannot even be built is a failing probe that says why, never an exception. */
function unavailable<P extends Probe>(required: boolean, error: unknown, extra: Omit<P, keyof Probe>): P {
  return { ok: false, required, status: 'unavailable', detail: (error as Error)?.message ?? String(error), ...extra } as P;
}

/**
 * Logs why each of `probes` failed, with the id of the request whose reading ran them: the
 * answer says only which part failed. A required part at warn; an optional one (MCP host, signer,
 * shared limits) at debug, since a deployment may run without it and health checks read live status
 * every few seconds.
 */
function logFailures(probes: LiveStatus['probes'], requestId: string | undefined): void {
  for (const [name, probe] of Object.entries(probes) as Array<[string, Probe]>) {
    const cause = probeFailureCause(probe);
    if (cause === undefined) continue;
    logger[probe.required ? 'warn' : 'debug']({ reqId: requestId, probe: name, status: probe.status, err: cause }, 'live status probe failed');
  }
}

async function runProbes(sources: LiveSources, probeChain: ReturnType<typeof createChainProbe>, now: Date, requestId: string | undefined): Promise<LiveStatus> {
  const withPart = <T, R>(get: () => T, run: (part: T) => Promise<R>, fallback: (error: unknown) => R): Promise<R> => {
    let part: T;
    try {
      part = get();
    } catch (error) {
      return Promise.resolve(fallback(error));
    }
    return run(part);
  };
  // Each probe starts in a loop turn of its own: started together, their synchronous parts (the
  // assistant's answer, the policy check, the log's health) held the loop 60 ms in one iteration.
  const turn = turnTaker();
  const inTurn = <R>(start: () => Promise<R>): Promise<R> => turn().then(start);
  const [assistant, receipt_storage, chain, mcp_dns, signer, rate_limiter, wallet_agent, mainnet_gate, transparency_log, latest] = await Promise.all([
    inTurn(() => withPart(sources.model, probeAssistant, (error) => unavailable(true, error, {}))),
    inTurn(() => withPart(sources.store, probeReceiptStorage, (error) => unavailable(true, error, { backend: null }))),
    inTurn(() => withPart(sources.chain, probeChain, (error) => unavailable(true, error, { source: null, height: null, lag_blocks: null }))),
    inTurn(probeMcp),
    inTurn(probeSigner),
    inTurn(() => withPart(sources.limiter, probeRateLimiter, (error) => unavailable(false, error, { mode: 'memory_fallback' as const }))),
    inTurn(probeWalletAgent),
    inTurn(probeMainnetGate),
    inTurn(() => withPart(sources.receiptLog, probeTransparencyLog, (error) => unavailable(true, error, { checkpoint: null }))),
    inTurn(() => withPart(sources.store, latestFullReceiptId, () => null)),
  ]);
  const payment_widget = paymentWidgetProbe({ assistant, receipt_storage, chain });
  const probes = { assistant, receipt_storage, chain, mcp_dns, signer, rate_limiter, payment_widget, wallet_agent, mainnet_gate, transparency_log };
  logFailures(probes, requestId);
  return buildLiveStatus(
    probes,
    latest,
    now,
    PROBE_CACHE_SECONDS,
  );
}

/** How long an answer waits for its run to be kept before it goes out anyway (the write then finishes behind it). */
const HISTORY_WRITE_WAIT_MS = 250;

/**
 * Keeps `status` in the probe history, waiting at most HISTORY_WRITE_WAIT_MS: a slow or failing
 * store costs the history this run, never the live answer (whose storage probe says what is wrong).
 */
async function keepRun(sources: LiveSources, status: LiveStatus, everyMs: number): Promise<void> {
  let write: Promise<unknown>;
  try {
    write = sources.store().recordProbeRun(probeRunOf(status.checked_at, status.probes), { keepRuns: PROBE_HISTORY_RUNS, everyMs });
  } catch {
    return;
  }
  const kept = write.catch((error: unknown) => logger.debug({ err: error }, 'probe run not kept'));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([kept, new Promise<void>((resolve) => (timer = setTimeout(resolve, HISTORY_WRITE_WAIT_MS)))]);
  clearTimeout(timer);
}

/**
 * A live status reader over `sources`, cached for PROBE_CACHE_SECONDS with concurrent readers sharing
 * a run; a run is kept in the probe history when the last kept one is `historyEveryMs` old. A run's
 * failures are logged once, under the id of the request (`requestId`) that started it. While a run
 * goes on (its probes take a loop turn each, and a slow part up to the probe timeout), the run before
 * it is answered, dated by its own `checked_at`, when it is of the interval before; after an idle
 * spell, a request waits for a fresh one.
 */
export function createLiveStatus(sources: () => Promise<LiveSources>, historyEveryMs = PROBE_HISTORY_INTERVAL_SECONDS * 1000): (requestId?: string) => Promise<LiveStatus> {
  const probeChain = createChainProbe();
  let keptAt = -Infinity;
  return answerEvery(PROBE_CACHE_SECONDS, async (now, requestId?: string) => {
    const parts = await sources();
    const status = await runProbes(parts, probeChain, new Date(now), requestId);
    if (now - keptAt >= historyEveryMs) {
      keptAt = now;
      await keepRun(parts, status, historyEveryMs);
    }
    return status;
  });
}

/** Live status of this process with its configured parts. */
export const liveStatus = createLiveStatus(runtimeSources);
