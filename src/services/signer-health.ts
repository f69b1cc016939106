/**
 * Signer health: one probe of `${SIGNER_URL}/health` under a bounded timeout, shared by the
 * signer-health route and live status. Concurrent readers share one probe and results are reused
 * for a few seconds, so public readers cannot turn into a flood of probes.
 */
import type { SignerHealth } from '../../schemas/assistant-status.ts';
import { assistantConfig, type SignerConfig } from '../config/assistant.ts';
import { SIGNER_HEALTH_CACHE_MS } from '../config/limits.ts';
import { typeName } from '../config/site.ts';



/**
 * Probes `${url}/health` once within `timeoutMs`. 2xx is healthy unless the body is JSON saying
 * `ok: false`; any other answer is degraded; no answer (timeout, refused, DNS) is unreachable. The
 * detail never repeats the signer URL, which may be internal.
 */
export async function probeSignerHealth(signer: SignerConfig): Promise<SignerHealth> {
  const base = { type: typeName('agent_economy.assistant_signer_health.v0'), version: 'v0' as const, checked_at: new Date().toISOString() };
  if (!signer.url) {
    return {
      ...base,
      ok: false,
      configured: false,
      status: 'unconfigured',
      detail: 'No signer is configured (SIGNER_URL is not set), so no signer-backed action is available.',
    };
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(`${signer.url}/health`, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(signer.timeoutMs),
    });
    const text = await response.text();
    const latency_ms = elapsed();
    if (!response.ok) {
      return { ...base, ok: false, configured: true, status: 'degraded', latency_ms, detail: `The signer health check answered HTTP ${response.status}.` };
    }
    if (reportsNotOk(text)) {
      return { ...base, ok: false, configured: true, status: 'degraded', latency_ms, detail: 'The signer health check answered, reporting ok: false.' };
    }
    return { ...base, ok: true, configured: true, status: 'healthy', latency_ms, detail: `The signer health check answered HTTP ${response.status} in ${latency_ms} ms.` };
  } catch (error) {
    const latency_ms = elapsed();
    const timedOut = error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    return {
      ...base,
      ok: false,
      configured: true,
      status: 'unreachable',
      latency_ms,
      detail: timedOut
        ? `The signer did not answer its health check within ${signer.timeoutMs} ms.`
        : `The signer health check could not connect${typeof cause === 'string' ? ` (${cause})` : ''}.`,
    };
  }
}

function reportsNotOk(text: string): boolean {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null && (body as { ok?: unknown }).ok === false;
  } catch {
    return false;
  }
}

/** A probe of `signer` whose result is shared for `cacheMs`. */
export function cachedSignerProbe(signer: SignerConfig, cacheMs = SIGNER_HEALTH_CACHE_MS): () => Promise<SignerHealth> {
  let latest: { at: number; health: Promise<SignerHealth> } | undefined;
  return () => {
    const now = Date.now();
    if (!latest || now - latest.at >= cacheMs) latest = { at: now, health: probeSignerHealth(signer) };
    return latest.health;
  };
}

/** The configured signer's shared probe. */
export const signerHealth = cachedSignerProbe(assistantConfig.signer);
