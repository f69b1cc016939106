/**
 * The dedicated payout backend, over undici. One bounded call: the whole exchange (connect,
 * headers, body) must finish within the configured timeout, or it counts as failed; the caller
 * maps each failure kind to its documented status. Credentials in FAUCET_BACKEND_URL are sent as
 * HTTP Basic authorization and never appear in logs or answers.
 */
import type { Dispatcher } from 'undici';
import { undici } from '../../lib/lazy-modules.ts';
import { faucetBackendAnswerSchema, type FaucetBackendRequest } from '../../../schemas/faucet.ts';

/** Largest backend answer read; a payout answer is a few hundred bytes. */
const MAX_ANSWER_BYTES = 16 * 1024;

export type FaucetBackendFailureKind =
  /** No complete answer within the timeout: the payout may or may not have been made. */
  | 'timeout'
  /** The backend could not be reached (refused, reset, DNS): nothing was paid. */
  | 'unreachable'
  /** The backend answered 429 or 503: it is busy, out of funds or in maintenance. */
  | 'unavailable'
  /** Any other non-2xx answer. */
  | 'rejected';

export class FaucetBackendError extends Error {
  readonly kind: FaucetBackendFailureKind;
  readonly status: number | undefined;
  /** From the backend's Retry-After (seconds), bounded to an hour. */
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: FaucetBackendFailureKind, message: string, details: { status?: number; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'FaucetBackendError';
    this.kind = kind;
    this.status = details.status;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

export interface FaucetBackendAcceptance {
  transactionId: string | null;
  reference: string | null;
}

export interface FaucetBackend {
  requestPayout(payout: FaucetBackendRequest): Promise<FaucetBackendAcceptance>;
}

function isTimeout(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  return name === 'TimeoutError' || name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

async function readBounded(body: Dispatcher.ResponseData['body']): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function retryAfter(header: string | string[] | undefined): number | undefined {
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(3_600, Math.max(1, Math.ceil(seconds))) : undefined;
}

/** Reads the backend's 2xx answer; anything unreadable still means accepted, with nothing to report. */
function acceptance(text: string | undefined): FaucetBackendAcceptance {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const answer = faucetBackendAnswerSchema.safeParse(parsed);
  if (!answer.success) return { transactionId: null, reference: null };
  const transactionId = answer.data.transaction_id ?? answer.data.transactionId ?? answer.data.txId;
  return { transactionId: transactionId?.toLowerCase() ?? null, reference: answer.data.reference ?? null };
}

export function createFaucetBackend(backendUrl: URL, timeoutMs: number): FaucetBackend {
  const target = new URL(backendUrl.href);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (target.username || target.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`;
    target.username = '';
    target.password = '';
  }
  const agent = new (undici().Agent)({ connect: { timeout: timeoutMs }, keepAliveTimeout: 10_000, connections: 8 });

  return {
    async requestPayout(payout) {
      const signal = AbortSignal.timeout(timeoutMs);
      let response: Dispatcher.ResponseData;
      try {
        response = await undici().request(target, {
          method: 'POST',
          headers,
          body: JSON.stringify(payout),
          dispatcher: agent,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (error) {
        if (isTimeout(error) || signal.aborted) throw new FaucetBackendError('timeout', `the payout backend did not answer within ${timeoutMs} ms`);
        throw new FaucetBackendError('unreachable', 'the payout backend could not be reached');
      }
      const status = response.statusCode;
      let text: string | undefined;
      try {
        text = await readBounded(response.body);
      } catch (error) {
        if (status >= 200 && status < 300) {
          // The backend said yes before its body broke off; the payout stands.
          return { transactionId: null, reference: null };
        }
        if (isTimeout(error) || signal.aborted) throw new FaucetBackendError('timeout', `the payout backend did not finish its answer within ${timeoutMs} ms`);
      }
      if (status >= 200 && status < 300) return acceptance(text);
      if (status === 429 || status === 503) {
        throw new FaucetBackendError('unavailable', `the payout backend answered ${status}`, { status, retryAfterSeconds: retryAfter(response.headers['retry-after']) });
      }
      throw new FaucetBackendError('rejected', `the payout backend answered ${status}`, { status });
    },
  };
}
