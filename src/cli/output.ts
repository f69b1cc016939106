/**
 * What every `agent-economy` command shares: the one error type that becomes a single stderr line
 * and an exit code, check lines, a progress bar that only draws on a terminal, and JSON fetching
 * with a bounded timeout whose failures read as one sentence.
 */
import type { ProofCheck } from '../domain/receipt-proof.ts';

/** Exit codes: 1 a check failed or a verdict denied; 2 the command was used wrongly or could not run. */
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A failure to report as one line (`agent-economy: <message>`), never a stack trace. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number = EXIT_USAGE) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Whether stderr is a terminal (progress bars draw only there). */
  isTty: boolean;
}

export const processOutput = (): Output => ({
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  isTty: Boolean(process.stderr.isTTY),
});

/** A check line; a `pending` check (a receipt not yet in a checkpoint) is neither a pass nor a failure. */
export const checkLine = (check: ProofCheck & { pending?: boolean }): string => `${check.pending ? 'WAIT' : check.ok ? 'PASS' : 'FAIL'}  ${check.id.padEnd(26)} ${check.detail}`;

/** A one-line progress bar redrawn in place on stderr; silent when stderr is not a terminal. */
export function progressBar(output: Output, total: number, label: string): { tick: (done: number, note: string) => void; end: () => void } {
  if (!output.isTty || total === 0) return { tick: () => undefined, end: () => undefined };
  const width = 24;
  const draw = (done: number, note: string) => {
    const filled = Math.round((done / total) * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${label} ${note.slice(0, 40).padEnd(40)}`);
  };
  draw(0, '');
  return { tick: draw, end: () => process.stderr.write('\n') };
}

export const FETCH_TIMEOUT_MS = 15_000;

/** Fetches `url`, any transport failure or timeout becoming a CliError naming the URL. */
async function fetchOrFail(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : cause ?? (error as Error).message;
    throw new CliError(`cannot reach ${url}: ${reason}`, EXIT_FAILED);
  }
}

/**
 * GETs raw bytes (tiles, checkpoints, proofs are not JSON) with the status, whatever it is: the
 * caller decides what a 404 or a 409 means for its check. A problem body's `detail` is kept so a
 * refusal can quote the site's own explanation.
 */
export async function fetchBytes(url: string): Promise<{ status: number; bytes: Uint8Array; text: string; problemDetail?: string; headers: Headers }> {
  const response = await fetchOrFail(url, { headers: { accept: 'text/plain, application/octet-stream, application/problem+json' } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let problemDetail: string | undefined;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      const detail = (JSON.parse(text) as { detail?: unknown }).detail;
      if (typeof detail === 'string') problemDetail = detail;
    } catch {
      // A non-JSON error body has no detail to quote; the status alone is reported.
    }
  }
  return { status: response.status, bytes, text, headers: response.headers, ...(problemDetail !== undefined ? { problemDetail } : {}) };
}

/**
 * GETs or POSTs JSON; `undefined` for a 404 when `allowNotFound`. Any transport failure, timeout,
 * other status or non-JSON body becomes a CliError naming the URL.
 */
export async function fetchJson(url: string, options: { method?: 'GET' | 'POST'; body?: unknown; allowNotFound?: boolean } = {}): Promise<{ status: number; body: unknown; text: string } | undefined> {
  const response = await fetchOrFail(url, {
    method: options.method ?? 'GET',
    headers: { accept: 'application/json', ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  if (response.status === 404 && options.allowNotFound) {
    await response.body?.cancel();
    return undefined;
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CliError(`${url} answered HTTP ${response.status} with a body that is not JSON`, EXIT_FAILED);
  }
  return { status: response.status, body, text };
}
