/**
 * The probes behind live status. Each runs concurrently under its own timeout, so the endpoint
 * answers within about PROBE_TIMEOUT_MS even when every dependency hangs; results are cached for a
 * few seconds so a burst of readers does not become a burst of probes.
 */
import { lookup } from 'node:dns/promises';
import { mcpHealthSchema, type ChainProbe, type LiveStatus, type LogProbe, type Probe, type RateLimiterProbe, type StorageProbe } from '../../schemas/live.ts';
import { mcpUrl, site } from '../config/site.ts';
import { POSTURE } from '../descriptors/common.ts';
import { checkPolicy } from '../domain/policy-engine.ts';
import { examplePolicyCheckRequest } from '../domain/policy-examples.ts';
import type { ModelProvider } from './model/provider.ts';
import type { AssistantStore, ChainClient, RateLimiter } from '../domain/ports.ts';
import type { ReceiptLog } from './receipt-log.ts';
import { signerHealth } from './signer-health.ts';
import { PROBE_TIMEOUT_MS } from '../config/limits.ts';


/**
 * Why each failed probe failed, in the words of the part that failed (a URL, a port, a driver's
 * error): the operator's, not the public answer's. The caller logs it with the request id it knows.
 */
const failureCauses = new WeakMap<Probe, unknown>();

/** The error behind a probe that failed by throwing or timing out; undefined for any other probe. */
export function probeFailureCause(probe: Probe): unknown {
  return failureCauses.get(probe);
}

/**
 * Runs a probe under PROBE_TIMEOUT_MS. A failure is answered in this service's words, naming
 * `part` ("the chain source"); what the part itself said is kept for the log (probeFailureCause).
 */
async function timed<P extends Probe>(required: boolean, part: string, run: (signal: AbortSignal) => Promise<Omit<P, 'required' | 'latency_ms'>>, onFailure?: Partial<P>): Promise<P> {
  const started = performance.now();
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    const result = await Promise.race([
      run(signal),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), { once: true })),
    ]);
    return { ...result, required, latency_ms: Math.round(performance.now() - started) } as unknown as P;
  } catch (error) {
    const timedOut = signal.aborted;
    const probe = {
      ...onFailure,
      ok: false,
      required,
      status: timedOut ? 'timeout' : 'unreachable',
      detail: timedOut ? `${capitalised(part)} did not answer within ${PROBE_TIMEOUT_MS} ms.` : `${capitalised(part)} could not be reached or failed; the cause is in this service's log.`,
      latency_ms: Math.round(performance.now() - started),
    } as unknown as P;
    failureCauses.set(probe, error);
    return probe;
  }
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Spec posture fact 6: the MCP host must resolve and its /health must answer {ok, service, version}. */
export function probeMcp(): Promise<Probe> {
  return timed(false, 'the MCP host', async (signal) => {
    const { hostname } = new URL(site.mcp_url);
    await lookup(hostname);
    const response = await fetch(mcpUrl('/health'), { signal });
    const parsed = mcpHealthSchema.safeParse(await response.json().catch(() => undefined));
    if (!response.ok || !parsed.success || !parsed.data.ok) {
      return { ok: false, status: 'unhealthy', detail: `${mcpUrl('/health')} answered ${response.status} without {ok: true, service, version}` };
    }
    return { ok: true, status: 'answering', detail: `${hostname} resolves; ${parsed.data.service} ${parsed.data.version} is healthy` };
  });
}

export function probeMainnetGate(): Promise<Probe> {
  return timed(true, 'the mainnet gate check', async () =>
    POSTURE.mainnet_ready === false
      ? { ok: true, status: 'closed', detail: 'The mainnet gate is closed: external review and an audit-bound mainnet script identity are missing.' }
      : { ok: false, status: 'open', detail: 'The posture claims mainnet readiness; the gate must stay closed.' },
  );
}

/**
 * The assistant answers chat: its model provider is configured and gives an answer to a fixed
 * question within the probe timeout. Required, since the paid turn is the one thing sold here.
 */
export function probeAssistant(provider: ModelProvider): Promise<Probe> {
  if (provider.name === 'none') {
    return Promise.resolve({ ok: false, required: true, status: 'unconfigured', detail: 'No model provider is configured (ASSISTANT_MODEL_PROVIDER=none); chat answers 503.' });
  }
  return timed(true, `the ${provider.name} model provider`, async () => {
    const question = 'What does the policy check decide?';
    const answer = await provider.answer({ question, messages: [{ role: 'user', content: question }] });
    return answer.answer.trim()
      ? { ok: true, status: 'answering', detail: `The ${provider.name} provider (${answer.model.name}) answered a probe question.` }
      : { ok: false, status: 'empty_answer', detail: `The ${provider.name} provider answered the probe question with nothing.` };
  });
}

/** A real round trip to the receipt store. Required: verify-payment answers 503 without it. */
export function probeReceiptStorage(store: AssistantStore): Promise<StorageProbe> {
  return timed<StorageProbe>(
    true,
    'the receipt store',
    async () => {
      await store.ping();
      return { ok: true, status: 'answering', backend: store.kind, detail: `The ${store.kind === 'sqlite' ? 'embedded SQLite' : 'PostgreSQL'} receipt store answered a round trip.` };
    },
    { backend: store.kind },
  );
}

/**
 * The receipt log checked against the published key and the receipt store (docs/transparency-log.md).
 * Required: a receipt removed from the store or rewritten after it was logged is what the log exists
 * to expose, so the site must not call itself ok while its own log says so.
 */
export function probeTransparencyLog(log: ReceiptLog): Promise<LogProbe> {
  return timed<LogProbe>(
    true,
    'the receipt log',
    async () => {
      const health = await log.health();
      return { ok: health.ok, status: health.status, detail: health.detail, checkpoint: health.checkpoint && { size: health.checkpoint.size, root_hash: health.checkpoint.rootHash, issued_at: health.checkpoint.issuedAt } };
    },
    { checkpoint: null },
  );
}

/** Blocks behind before the chain source counts as lagging: about an hour of testnet blocks. */
export const CHAIN_LAG_LIMIT_BLOCKS = 30;

/**
 * The chain source answers with its height, compared with the highest height this process has seen
 * from it: a source that goes backwards or stalls far behind is lagging. Required: payments are
 * verified against it.
 */
export function createChainProbe(): (chain: ChainClient) => Promise<ChainProbe> {
  let highest = 0;
  return (chain) =>
    timed<ChainProbe>(
      true,
      `the ${chain.source} chain source`,
      async () => {
        const height = await chain.height();
        highest = Math.max(highest, height);
        const lag = highest - height;
        const lagging = lag > CHAIN_LAG_LIMIT_BLOCKS;
        return {
          ok: !lagging,
          status: lagging ? 'lagging' : 'answering',
          source: chain.source,
          height,
          lag_blocks: lag,
          detail: lagging
            ? `The ${chain.source} chain source reports height ${height}, ${lag} blocks behind the ${highest} it reported before.`
            : `The ${chain.source} chain source reports height ${height}${lag ? `, ${lag} blocks behind the highest seen` : ''}.`,
        };
      },
      { source: chain.source, height: null, lag_blocks: null },
    );
}

/** The client key of the limiter probe's own request: counted apart from every real client. */
export const LIMITER_PROBE_KEY = 'live-status-probe';

/**
 * How rate limits are kept, after one real request to the limiter under its own key when Redis is
 * configured (so the mode is what Redis answered just now, not what it last answered). Falling back
 * to memory (Redis configured but unreachable) still limits, per instance only: it is reported as
 * failing without failing the whole status.
 */
export function probeRateLimiter(limiter: RateLimiter): Promise<RateLimiterProbe> {
  return timed<RateLimiterProbe>(
    false,
    'the rate limiter',
    async () => {
      if (limiter.mode() !== 'memory') await limiter.consume('quote', LIMITER_PROBE_KEY);
      const mode = limiter.mode();
      const detail = {
        redis: 'Limits are shared through Redis by every instance; Redis answered the probe.',
        memory: 'Limits are kept in this process’s memory (no REDIS_URL): right for one instance.',
        memory_fallback: 'Redis is configured but did not answer: limits fall back to this process’s memory, per instance, until it returns.',
      }[mode];
      return { ok: mode !== 'memory_fallback', status: mode, mode, detail };
    },
    { mode: 'memory_fallback' },
  );
}

/** The payment widget can run a paid turn only when the assistant, the receipt store and the chain all answer. */
export function paymentWidgetProbe(parts: Pick<LiveStatus['probes'], 'assistant' | 'receipt_storage' | 'chain'>): Probe {
  const failing = Object.entries(parts).filter(([, probe]) => !probe.ok).map(([name]) => name);
  return failing.length
    ? { ok: false, required: false, status: 'blocked', detail: `A paid turn needs the assistant, the receipt store and the chain source; failing: ${failing.join(', ')}.` }
    : { ok: true, required: false, status: 'ready', detail: 'The assistant, the receipt store and the chain source all answer: a paid turn can run.' };
}

/** How many stored receipts are scanned for the newest testnet one (sandbox receipts never count). */
const LATEST_RECEIPT_SCAN = 50;

/** Receipt id of the newest full receipt bundle settled on the testnet, or null (none, or the store is down). */
export async function latestFullReceiptId(store: AssistantStore): Promise<string | null> {
  try {
    const texts = await Promise.race([
      store.listReceiptTexts(LATEST_RECEIPT_SCAN),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS).unref()),
    ]);
    // Read back newest first until one is found: usually the first, where reading all fifty was 250 KB of garbage a run.
    for (const stored of texts) {
      const receipt = stored.bundle();
      if (receipt.chain === 'testnet' && receipt.receipt_type === 'full_receipt_bundle') return receipt.receiptId;
    }
    return null;
  } catch {
    return null;
  }
}

/** Signer health as live status sees it; not required, since no public flow needs the signer. */
export function probeSigner(): Promise<Probe> {
  return timed(false, 'the signer', async () => {
    const health = await signerHealth();
    return { ok: health.ok, status: health.status, detail: health.detail };
  });
}

/** The policy engine answers its own published example with an allow, as the contract says it does. */
export function probeWalletAgent(): Promise<Probe> {
  return timed(true, 'the policy engine', async () => {
    const verdict = checkPolicy(examplePolicyCheckRequest, new Date());
    return verdict.allowed && verdict.reasons.length === 0
      ? { ok: true, status: 'answering', detail: 'The policy engine allows its published example request with no reasons.' }
      : { ok: false, status: 'wrong_verdict', detail: `The policy engine denied its own example: ${verdict.reasons.map((r) => r.code).join(', ')}.` };
  });
}
