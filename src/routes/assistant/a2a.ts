/**
 * POST /a2a: the A2A JSON-RPC binding of the assistant's free tier, A2A 1.0 (`SendMessage`) and
 * 0.3 (`message/send`). A message of text parts is one free turn, answered exactly as POST
 * /api/assistant/chat answers it (same free allowance, rate limit and model), and returned as an
 * agent message in the request's version. Every failure is a JSON-RPC error in a 200 answer, as
 * JSON-RPC clients expect; the assistant's own refusals (payment required, rate limited, provider
 * unavailable) carry its problem body as `data`. Premium turns are not sold over A2A: a question
 * beyond the free tier answers `payment_required` with the quote URL.
 */
import { randomUUID } from 'node:crypto';
import { A2A_ERROR_CODES, A2A_METHODS, a2aEnvelopeSchema, a2aRequestV0_3Schema, a2aRequestV1Schema, type A2aResponse } from '../../../schemas/a2a.ts';
import { chatRequestSchema, type ChatResponse } from '../../../schemas/assistant.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { jsonPointer, ProblemError } from '../../lib/problem-error.ts';
import { createChatHandler } from './chat.ts';
import type { AssistantDeps } from '../../services/paid-turn/deps.ts';

type Id = string | number | null;

const idOf = (body: unknown): Id => {
  const id = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
};

const rpcError = (id: Id, name: keyof typeof A2A_ERROR_CODES, message: string, data?: unknown, headers?: Record<string, string>): ApiResponse =>
  json(200, { jsonrpc: '2.0', id, error: { code: A2A_ERROR_CODES[name], message, ...(data === undefined ? {} : { data }) } } satisfies A2aResponse, headers);

const issuesOf = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) => issues.map((issue) => ({ path: jsonPointer(issue.path), message: issue.message }));

/** What each version reads from a message and how it writes the answer. */
const VERSIONS = {
  [A2A_METHODS.v1]: {
    request: a2aRequestV1Schema,
    texts: (parts: ReadonlyArray<Record<string, unknown>>) => parts.map((part) => (typeof part.text === 'string' ? part.text : undefined)),
    otherKinds: (parts: ReadonlyArray<Record<string, unknown>>) => parts.filter((part) => typeof part.text !== 'string').map((part) => ['data', 'url', 'raw'].find((key) => key in part) ?? 'empty'),
    answer: (ids: { messageId: string; contextId: string }, answer: ChatResponse) => ({ message: { ...ids, role: 'ROLE_AGENT' as const, parts: [{ text: answer.answer }, { data: answer }] as [{ text: string }, { data: ChatResponse }] } }),
  },
  [A2A_METHODS.v0_3]: {
    request: a2aRequestV0_3Schema,
    texts: (parts: ReadonlyArray<Record<string, unknown>>) => parts.map((part) => (part.kind === 'text' && typeof part.text === 'string' ? part.text : undefined)),
    otherKinds: (parts: ReadonlyArray<Record<string, unknown>>) => parts.filter((part) => part.kind !== 'text' || typeof part.text !== 'string').map((part) => String(part.kind)),
    answer: (ids: { messageId: string; contextId: string }, answer: ChatResponse) => ({
      kind: 'message' as const,
      ...ids,
      role: 'agent' as const,
      parts: [{ kind: 'text' as const, text: answer.answer }, { kind: 'data' as const, data: answer }] as [{ kind: 'text'; text: string }, { kind: 'data'; data: ChatResponse }],
    }),
  },
};

export function createA2aHandler(deps: AssistantDeps): Handler {
  const chat = createChatHandler(deps);
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const envelope = a2aEnvelopeSchema.safeParse(request.body);
    if (!envelope.success) return rpcError(idOf(request.body), 'invalid_request', 'Invalid Request: not a JSON-RPC 2.0 request.', issuesOf(envelope.error.issues));
    const { id, method } = envelope.data;
    const version = Object.hasOwn(VERSIONS, method) ? VERSIONS[method as keyof typeof VERSIONS] : undefined;
    if (!version) return rpcError(id, 'method_not_found', `Method not found: only ${A2A_METHODS.v1} (A2A 1.0) and ${A2A_METHODS.v0_3} (A2A 0.3) are served here.`);
    const parsed = version.request.safeParse(request.body);
    if (!parsed.success) return rpcError(id, 'invalid_params', `Invalid params for ${method}.`, issuesOf(parsed.error.issues));
    const { message } = parsed.data.params;
    const others = version.otherKinds(message.parts);
    if (others.length > 0) return rpcError(id, 'content_type_not_supported', `Content type not supported: only text parts are read, not ${others.join(', ')}.`);
    const question = version.texts(message.parts).join('\n');
    const turn = chatRequestSchema.safeParse({ messages: [{ role: 'user', content: question }] });
    if (!turn.success) return rpcError(id, 'invalid_params', 'Invalid params: the question is not one the assistant takes.', issuesOf(turn.error.issues.map((issue) => ({ ...issue, path: ['params', 'message', 'parts'] }))));

    let answered: ApiResponse;
    try {
      answered = await chat({ ...request, body: turn.data });
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      return rpcError(id, 'assistant_refused', `${error.title}: ${error.message}`, error.toBody(), error.headers);
    }
    const ids = { messageId: randomUUID(), contextId: message.contextId ?? randomUUID() };
    return json(200, { jsonrpc: '2.0', id, result: version.answer(ids, answered.body as ChatResponse) } satisfies A2aResponse, answered.headers);
  };
}
