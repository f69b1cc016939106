/**
 * The probes behind live status. Each runs concurrently under its own timeout, so the endpoint
 * answers within about PROBE_TIMEOUT_MS even when every dependency hangs; results are cached for a
 * few seconds so a burst of readers does not become a burst of probes.
 */
import { lookup } from 'node:dns/promises';
import { mcpHealthSchema, type LiveStatus, type Probe } from '../../schemas/live.ts';
import { mcpUrl, site } from '../config/site.ts';
import { POSTURE } from '../descriptors/common.ts';
import { checkPolicy } from '../domain/policy-engine.ts';
import { examplePolicyCheckRequest } from '../domain/policy-examples.ts';
import { signerHealth } from './signer-health.ts';

export const PROBE_TIMEOUT_MS = 1500;
export const PROBE_CACHE_SECONDS = 5;

type ProbeName = keyof LiveStatus['probes'];

async function timed(required: boolean, run: (signal: AbortSignal) => Promise<Omit<Probe, 'required' | 'latency_ms'>>): Promise<Probe> {
  const started = performance.now();
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    const result = await Promise.race([
      run(signal),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('timeout')), { once: true })),
    ]);
    return { ...result, required, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    const timedOut = signal.aborted;
    return {
      ok: false,
      required,
      status: timedOut ? 'timeout' : 'unreachable',
      detail: timedOut ? `no answer within ${PROBE_TIMEOUT_MS} ms` : `failed: ${(error as Error).message}`,
      latency_ms: Math.round(performance.now() - started),
    };
  }
}

/** Spec posture fact 6: the MCP host must resolve and its /health must answer {ok, service, version}. */
export function probeMcp(): Promise<Probe> {
  return timed(false, async (signal) => {
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
  return timed(true, async () =>
    POSTURE.mainnet_ready === false
      ? { ok: true, status: 'closed', detail: 'The mainnet gate is closed: external review and an audit-bound mainnet script identity are missing.' }
      : { ok: false, status: 'open', detail: 'The posture claims mainnet readiness; the gate must stay closed.' },
  );
}

/** A surface this release does not run yet: reported as such, never as healthy. */
export function notRunning(required: boolean, detail: string): Promise<Probe> {
  return Promise.resolve({ ok: false, required, status: 'not_running', detail });
}

export type ProbeSet = Record<ProbeName, () => Promise<Probe>>;

/** Signer health as live status sees it; not required, since no public flow needs the signer. */
export function probeSigner(): Promise<Probe> {
  return timed(false, async () => {
    const health = await signerHealth();
    return { ok: health.ok, status: health.status, detail: health.detail };
  });
}

/** The policy engine answers its own published example with an allow, as the contract says it does. */
export function probeWalletAgent(): Promise<Probe> {
  return timed(true, async () => {
    const verdict = checkPolicy(examplePolicyCheckRequest, new Date());
    return verdict.allowed && verdict.reasons.length === 0
      ? { ok: true, status: 'answering', detail: 'The policy engine allows its published example request with no reasons.' }
      : { ok: false, status: 'wrong_verdict', detail: `The policy engine denied its own example: ${verdict.reasons.map((r) => r.code).join(', ')}.` };
  });
}
