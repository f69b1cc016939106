/**
 * POST /a2a driven in process with the in-memory fakes: JSON-RPC requests as the route receives
 * them, and a premium question opened as an a2a-x402 task whose Note is already on the fake chain.
 */
import { expect } from 'vitest';
import { A2A_X402_EXTENSION } from '../../schemas/a2a.ts';
import type { X402Requirements } from '../../schemas/x402.ts';
import type { ApiRequest, ApiResponse, Handler } from '../../src/lib/api.ts';
import { createA2aHandler } from '../../src/routes/assistant/a2a.ts';
import { noteBox, type FakeDeps } from './fakes.ts';

export const LONG = 'How does the verify-payment endpoint decide that a Note pays a quote, and what does the receipt bundle record? '.repeat(3);

/** The a2a-x402 extension activated, in 0.3's header. */
export const ACTIVATED = { 'x-a2a-extensions': A2A_X402_EXTENSION };

/** The owner credential of a client picking `secret` (32 characters or more), with the extension. */
export const bearer = (secret: string): Record<string, string> => ({ ...ACTIVATED, authorization: `Bearer ${secret}` });

export const post = (body: unknown, headers: Record<string, string> = ACTIVATED): ApiRequest => ({
  method: 'POST',
  path: '/a2a',
  params: {},
  query: new URLSearchParams(),
  headers,
  body,
  clientIp: '203.0.113.9',
});
export const rpc = (method: string, params: unknown, headers?: Record<string, string>) => post({ jsonrpc: '2.0', id: 7, method, params }, headers);
export const ask = (text: string, headers?: Record<string, string>, extra: Record<string, unknown> = {}) =>
  rpc('message/send', { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text }], ...extra } }, headers);
export const send = (taskId: string, metadata: Record<string, unknown>, headers?: Record<string, string>) =>
  rpc('message/send', { message: { kind: 'message', messageId: 'm2', role: 'user', taskId, parts: [{ kind: 'text', text: 'pay' }], metadata } }, headers);
export const body = (r: ApiResponse) => r.body as any;

/** The x402 payload metadata paying `requirements` with the Note `noteBoxId`. */
export const payloadOf = (requirements: unknown, noteBoxId: string) => ({
  'x402.payment.status': 'payment-submitted',
  'x402.payment.payload': { x402Version: 2, accepted: requirements, payload: { noteBoxId } },
});

let counter = 0;

export interface OpenedTask {
  a2a: Handler;
  taskId: string;
  requirements: X402Requirements;
  /** The payment metadata of the Note minted for this task's offer. */
  payload: ReturnType<typeof payloadOf>;
  noteBoxId: string;
}

/**
 * A premium question (`question`, LONG by default) asked with the extension and `headers` (an owner
 * credential, or none), answered by a task waiting for payment; a confirmed Note paying its offer
 * is put on the fake chain, not yet sent.
 */
export async function openTask(deps: FakeDeps, { question = LONG, headers = ACTIVATED, a2a = createA2aHandler(deps) }: { question?: string; headers?: Record<string, string>; a2a?: Handler } = {}): Promise<OpenedTask> {
  const opened = body(await a2a(ask(question, headers)));
  const task = opened.result;
  expect(task?.status.state, JSON.stringify(opened)).toBe('input-required');
  const requirements = task.status.message.metadata['x402.payment.required'].accepts[0] as X402Requirements;
  // The words name the chain the offer is paid on: a sandbox server's Note is never "on the Ergo testnet".
  expect(task.status.message.parts[0].text).toContain(requirements.network === 'ergo:sandbox' ? 'a Note on the local sandbox chain' : 'a Note on the Ergo testnet');
  counter += 1;
  const box = noteBox({
    boxId: (counter + 500).toString(16).padStart(64, '0'),
    transactionId: (counter + 9000).toString(16).padStart(64, '0'),
    value: BigInt(requirements.amount),
    reserveBoxId: requirements.extra.reserveBoxId,
    expiryHeight: requirements.extra.noteExpiryMinHeight,
    taskHash: requirements.extra.taskHash,
    creationHeight: deps.chain.currentHeight,
    inclusionHeight: deps.chain.currentHeight,
  });
  deps.chain.boxes.set(box.boxId, box);
  deps.chain.currentHeight += 1;
  return { a2a, taskId: task.id as string, requirements, payload: payloadOf(requirements, box.boxId), noteBoxId: box.boxId };
}
