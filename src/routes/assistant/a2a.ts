/**
 * POST /a2a: the A2A JSON-RPC binding of the assistant, A2A 1.0 (`SendMessage`, `GetTask`) and 0.3
 * (`message/send`, `tasks/get`). A message of text parts is one turn, answered exactly as POST
 * /api/assistant/chat answers it (same free allowance, rate limit and model), as an agent message in
 * the request's version. A question beyond the free tier from a client that activated the a2a-x402
 * extension (its URI in `A2A-Extensions` or `X-A2A-Extensions`) becomes a task waiting for payment,
 * with the chat's x402 PaymentRequired in its status metadata; the client's x402 payload on that task
 * is settled by the paid-turn service under verify-payment's rules and single-use claim, and the
 * task completes with the answer and its receipt, or fails naming verify-payment's code. Without the
 * extension such a question answers `payment_required` with the quote URL, as before. Every failure
 * is a JSON-RPC error in a 200 answer, as JSON-RPC clients expect; the assistant's own refusals carry
 * its problem body as `data`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  A2A_ERROR_CODES,
  A2A_SUPPORTED_VERSIONS,
  A2A_METHODS,
  A2A_X402_EXTENSION,
  a2aEnvelopeSchema,
  a2aGetTaskV0_3Schema,
  a2aGetTaskV1Schema,
  a2aRequestV0_3Schema,
  a2aRequestV1Schema,
  type A2aResponse,
} from '../../../schemas/a2a.ts';
import { chatRequestSchema, type ChatResponse } from '../../../schemas/assistant.ts';
import type { X402Network, X402PaymentPayload, X402PaymentRequired } from '../../../schemas/x402.ts';
import { receiptUrl as receiptUrlOf } from '../../catalogue/lookup.ts';
import {
  completedRecord,
  failedRecord,
  paymentRequiredRecord,
  readPaymentMessage,
  rejectedRecord,
  settledRecord,
  taskV0_3,
  taskV1,
  X402_METADATA,
  type TaskView,
} from '../../domain/assistant/a2a-x402.ts';
import { issuedRequirementsOf, requirementsMismatch } from '../../domain/assistant/facilitator-requirements.ts';
import { decodeX402Header, unsupportedKind, x402NetworkOf, x402Settled } from '../../domain/assistant/x402.ts';
import { signedReceiptExtensions } from '../../services/paid-turn/offer-receipt.ts';
import type { A2aTaskRecord, StoredA2aTask, StoredQuote } from '../../domain/ports.ts';
import { hashQuestion } from '../../domain/assistant/task-hash.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { jsonPointer, ProblemError } from '../../lib/problem-error.ts';
import { consumeRateLimit, fromStore, type AssistantDeps } from '../../services/paid-turn/deps.ts';
import { answerPaidTurn, CLEARS_BY_ITSELF, settleNote, type Settlement } from '../../services/paid-turn/paid-turn.ts';
import { chatBody, createChatHandler } from './chat.ts';

type Id = string | number | null;

const idOf = (body: unknown): Id => {
  const id = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
};

const rpcError = (id: Id, name: keyof typeof A2A_ERROR_CODES, message: string, data?: unknown, headers?: Record<string, string>): ApiResponse =>
  json(200, { jsonrpc: '2.0', id, error: { code: A2A_ERROR_CODES[name], message, ...(data === undefined ? {} : { data }) } } satisfies A2aResponse, headers);

/**
 * The `A2A-Version` a request names when this agent does not speak it, or undefined. A2A 1.0: the
 * header is Major.Minor (a patch, if sent, does not change the version); absent, the method's own
 * name says which version the client speaks (SendMessage or message/send), as before the header.
 */
function unsupportedVersion(header: string | undefined): string | undefined {
  const named = header?.trim();
  if (!named) return undefined;
  const version = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(named);
  const majorMinor = version ? `${Number(version[1])}.${Number(version[2])}` : undefined;
  return majorMinor !== undefined && (A2A_SUPPORTED_VERSIONS as readonly string[]).includes(majorMinor) ? undefined : named.slice(0, 40);
}

const issuesOf = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) => issues.map((issue) => ({ path: jsonPointer(issue.path), message: issue.message }));

/**
 * A claim on a task that has not moved for this long belongs to a request that is gone: longer
 * than a request can take (chain reads, the store and the model each give up well within it). A
 * request that still outlives it writes nothing: its writes are fenced on its claim.
 */
const STALE_CLAIM_MS = 600_000;

/** What each version reads from a message and how it writes the answer and a task. */
const VERSIONS = {
  [A2A_METHODS.v1]: {
    request: a2aRequestV1Schema,
    texts: (parts: ReadonlyArray<Record<string, unknown>>) => parts.map((part) => (typeof part.text === 'string' ? part.text : undefined)),
    otherKinds: (parts: ReadonlyArray<Record<string, unknown>>) => parts.filter((part) => typeof part.text !== 'string').map((part) => ['data', 'url', 'raw'].find((key) => key in part) ?? 'empty'),
    answer: (ids: { messageId: string; contextId: string }, answer: ChatResponse) => ({ message: { ...ids, role: 'ROLE_AGENT' as const, parts: [{ text: answer.answer }, { data: answer }] as [{ text: string }, { data: ChatResponse }] } }),
    task: (task: TaskView) => ({ task: taskV1(task) }),
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
    task: taskV0_3,
  },
};

const GET_TASK = {
  [A2A_METHODS.getTaskV1]: { request: a2aGetTaskV1Schema, task: taskV1 },
  [A2A_METHODS.getTaskV0_3]: { request: a2aGetTaskV0_3Schema, task: taskV0_3 },
};

type Version = (typeof VERSIONS)[keyof typeof VERSIONS];

/**
 * The header naming the a2a-x402 extension when the client activated it (A2A 1.0 `A2A-Extensions`,
 * 0.3 `X-A2A-Extensions`), echoed in the answer as A2A asks; undefined when it did not.
 */
function activatedExtension(request: ApiRequest): Record<string, string> | undefined {
  for (const name of ['a2a-extensions', 'x-a2a-extensions']) {
    const value = request.headers[name];
    if (value?.split(',').some((uri) => uri.trim() === A2A_X402_EXTENSION)) return { [name]: A2A_X402_EXTENSION };
  }
  return undefined;
}

const taskNotFound = (id: Id, taskId: string): ApiResponse =>
  rpcError(id, 'task_not_found', `Task not found: no task ${taskId.slice(0, 128)} (never created here, or deleted with its expired quote).`);

const viewOf = ({ taskId, contextId, state, record, updatedAt }: StoredA2aTask): TaskView => ({ taskId, contextId, state, record, updatedAt });

/** A task id this service could have made: a task is never looked up by anything else (a hostile length, a U+0000). */
const isTaskId = (taskId: string): boolean => /^[0-9a-f-]{36}$/.test(taskId);

/** The offer a task waits on, as its status metadata carries it. */
const requiredOf = (task: StoredA2aTask): X402PaymentRequired => task.record.status.metadata[X402_METADATA.required] as X402PaymentRequired;

/**
 * Why a payload cannot pay this task, before any Note is read: another scheme or network, the
 * task's quote gone, or requirements other than the ones the task offered (field by field).
 */
function offerRefusal(task: StoredA2aTask, stored: StoredQuote | undefined, payload: X402PaymentPayload, network: X402Network): { code: string; message: string } | undefined {
  const unsupported = unsupportedKind(payload.accepted, network);
  if (unsupported) return { code: 'unsupported_scheme', message: unsupported };
  if (!stored) return { code: 'quote_expired', message: `Quote ${task.quoteId} expired and is gone; ask the question again for a new task.` };
  const names = { requirements: 'x402.payment.payload.accepted', accepted: 'x402.payment.payload.accepted' };
  const mismatch = requirementsMismatch(issuedRequirementsOf(stored, network), { paymentRequirements: payload.accepted, accepted: payload.accepted }, names);
  return mismatch && { code: mismatch.reason, message: mismatch.message };
}

export function createA2aHandler(deps: AssistantDeps): Handler {
  const chat = createChatHandler(deps);
  const { store, clock } = deps;
  const network = x402NetworkOf(deps.chain.source);

  /** A new question: the free tier answers it, or, with the extension, a task waits for its payment. */
  async function ask(request: ApiRequest, id: Id, version: Version, message: { contextId?: string | undefined }, question: string): Promise<ApiResponse> {
    const turn = chatRequestSchema.safeParse({ messages: [{ role: 'user', content: question }] });
    if (!turn.success) return rpcError(id, 'invalid_params', 'Invalid params: the question is not one the assistant takes.', issuesOf(turn.error.issues.map((issue) => ({ ...issue, path: ['params', 'message', 'parts'] }))));
    const contextId = message.contextId ?? randomUUID();
    let answered: ApiResponse;
    try {
      answered = await chat({ ...request, body: turn.data });
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      const extension = activatedExtension(request);
      const offer = error.headers?.['payment-required'];
      if (error.code === 'payment_required' && extension && offer) {
        const task = await openTask(contextId, turn.data.messages[0]!.content, decodeX402Header<X402PaymentRequired>(offer));
        // The offer travels in the task; the answer keeps the rate-limit headers.
        const { 'payment-required': _offer, ...headers } = error.headers;
        return json(200, { jsonrpc: '2.0', id, result: version.task(task) } as A2aResponse, { ...headers, ...extension });
      }
      return rpcError(id, 'assistant_refused', `${error.title}: ${error.message}`, error.toBody(), error.headers);
    }
    return json(200, { jsonrpc: '2.0', id, result: version.answer({ messageId: randomUUID(), contextId }, answered.body as ChatResponse) } satisfies A2aResponse, answered.headers);
  }

  /** Stores a task waiting for the payment the chat's offer names (a quote it stored). */
  async function openTask(contextId: string, question: string, required: X402PaymentRequired): Promise<TaskView> {
    const now = clock();
    const [offer] = required.accepts;
    const task: StoredA2aTask = {
      taskId: randomUUID(),
      contextId,
      quoteId: offer!.extra.quoteId,
      state: 'input-required',
      retryKey: randomBytes(32).toString('base64url'),
      record: paymentRequiredRecord(question, required),
      // The quote was stored just now with this lifetime: its expiry, to the millisecond the sweep needs.
      expiresAt: new Date(now.getTime() + offer!.maxTimeoutSeconds * 1000),
      createdAt: now,
      updatedAt: now,
    };
    await fromStore(() => store.insertA2aTask(task));
    return viewOf(task);
  }

  /**
   * A message on a task: its payment (or its rejection), settled and answered by one request at a
   * time. Every write of the request is fenced on its claim, so a request that outlived its claim
   * (taken over as stale) changes nothing; the answer is kept on the task in the transaction that
   * spends the turn, so a paid answer is never spent without being kept.
   */
  async function continueTask(request: ApiRequest, id: Id, version: Version, taskId: string, metadata: Record<string, unknown> | undefined): Promise<ApiResponse> {
    const found = isTaskId(taskId) ? await fromStore(() => store.getA2aTask(taskId)) : undefined;
    if (!found) return taskNotFound(id, taskId);
    if (found.state === 'completed' || found.state === 'failed') {
      return rpcError(id, 'unsupported_operation', `Task ${taskId} has ended (${found.state}) and takes no more messages; GetTask reads it, and a new question starts a new task.`);
    }
    // A settled task finishes with its own Note, whatever the message carries.
    const reply = found.record.settled ? undefined : readPaymentMessage(metadata);
    if (reply?.kind === 'invalid') return rpcError(id, 'invalid_params', `Invalid params: ${reply.path.split('/').pop()} ${reply.message}.`, [{ path: reply.path, message: reply.message }]);
    const headers = { ...(await consumeRateLimit(deps.limiter, 'verify', request.clientIp, 'verification')), ...activatedExtension(request) };
    const answer = (task: TaskView) => json(200, { jsonrpc: '2.0', id, result: version.task(task) } as A2aResponse, headers);
    const current = async () => answer(viewOf((await fromStore(() => store.getA2aTask(taskId))) ?? found));

    const claimedAt = clock();
    const claimed = await fromStore(() => store.claimA2aTask(taskId, claimedAt, new Date(claimedAt.getTime() - STALE_CLAIM_MS)));
    // Another request holds the task (or just ended it): the client reads where it stands.
    if (!claimed) return current();
    const release = async (state: 'input-required' | 'failed', record: A2aTaskRecord): Promise<ApiResponse> => {
      const now = clock();
      const released = await fromStore(() => store.releaseA2aTask({ taskId, claimedAt, state, record, now }));
      return released ? answer({ ...viewOf(claimed), state, record, updatedAt: now }) : current();
    };
    if (reply?.kind === 'rejected') return release('failed', rejectedRecord());

    let settled = claimed.record.settled;
    const payload = reply?.kind === 'payload' ? reply.payload : undefined;
    try {
      const stored = await fromStore(() => store.getQuote(claimed.quoteId));
      if (payload) {
        const refusal = offerRefusal(claimed, stored, payload, network);
        if (refusal) return release('failed', failedRecord(refusal.code, refusal.message, network));
      }
      // Settled before: its own Note; otherwise the payload's (read above, as `reply` is one when unsettled).
      const noteBoxId = settled?.noteBoxId ?? payload!.payload.noteBoxId.toLowerCase();
      let settlement: Settlement;
      try {
        settlement = await settleNote(deps, stored!, noteBoxId, { retryKey: claimed.retryKey });
      } catch (error) {
        if (!(error instanceof ProblemError) || ![400, 402, 409, 410].includes(error.status)) throw error;
        if (CLEARS_BY_ITSELF.has(error.code)) return release('input-required', paymentRequiredRecord(claimed.record.question!, requiredOf(claimed), { code: error.code, message: error.message }));
        return release('failed', failedRecord(error.code, error.message, network));
      }
      settled = { noteBoxId, receiptId: settlement.receipt.receiptId };
      const { receipt } = settlement;
      const question = claimed.record.question!;
      const receiptUrl = receiptUrlOf(receipt.receiptId);
      const signedReceipt = await signedReceiptExtensions(deps, stored!, settlement, network);
      const paid = await answerPaidTurn(deps, settlement.token.tokenHash, { question, messages: [{ role: 'user', content: question }] }, receipt, (model) =>
        store.completeA2aTask({
          taskId,
          claimedAt,
          tokenHash: settlement.token.tokenHash,
          questionHash: hashQuestion(question),
          now: clock(),
          record: completedRecord(
            chatBody(model, receipt.receiptId),
            { ...x402Settled(receipt.settlementTxId, settlement.payerAddress, network, signedReceipt), extra: { receiptId: receipt.receiptId, receiptUrl } },
          ),
        }),
      );
      if (paid.ok) return current();
      // Lost the claim to a request that took the task over: it finishes the turn; the client reads where it stands.
      if (paid.reason === 'claim_lost') return current();
      if (paid.reason === 'used') return release('failed', failedRecord('payment_already_answered', 'This payment already answered its turn: each payment answers once.', network));
      // The token lapsed while the model answered, or changed under this request: the same message again finishes it.
      return release('input-required', settledRecord(claimed.record, settled, 'payment_in_progress'));
    } catch (error) {
      // Nothing final happened (the chain, the store or the model did not answer): the task waits
      // for the same message again, which settles its payment, or recovers the settlement, next time.
      const record = settled ? settledRecord(claimed.record, settled, error instanceof ProblemError ? error.code : 'internal_error') : claimed.record;
      await fromStore(() => store.releaseA2aTask({ taskId, claimedAt, state: 'input-required', record, now: clock() })).catch(() => undefined);
      if (error instanceof ProblemError) return rpcError(id, 'assistant_refused', `${error.title}: ${error.message} The task waits for the same message again.`, error.toBody(), { ...error.headers, ...headers });
      throw error;
    }
  }

  async function handle(request: ApiRequest, id: Id, method: string): Promise<ApiResponse> {
    if (Object.hasOwn(GET_TASK, method)) {
      const reader = GET_TASK[method as keyof typeof GET_TASK];
      const parsed = reader.request.safeParse(request.body);
      if (!parsed.success) return rpcError(id, 'invalid_params', `Invalid params for ${method}.`, issuesOf(parsed.error.issues));
      const taskId = parsed.data.params.id;
      const task = isTaskId(taskId) ? await fromStore(() => store.getA2aTask(taskId)) : undefined;
      if (!task) return taskNotFound(id, taskId);
      return json(200, { jsonrpc: '2.0', id, result: reader.task(viewOf(task)) } as A2aResponse);
    }

    const version = Object.hasOwn(VERSIONS, method) ? VERSIONS[method as keyof typeof VERSIONS] : undefined;
    if (!version) {
      return rpcError(id, 'method_not_found', `Method not found: ${A2A_METHODS.v1} and ${A2A_METHODS.getTaskV1} (A2A 1.0), ${A2A_METHODS.v0_3} and ${A2A_METHODS.getTaskV0_3} (A2A 0.3) are served here.`);
    }
    const parsed = version.request.safeParse(request.body);
    if (!parsed.success) return rpcError(id, 'invalid_params', `Invalid params for ${method}.`, issuesOf(parsed.error.issues));
    const { message } = parsed.data.params;
    const others = version.otherKinds(message.parts);
    if (others.length > 0) return rpcError(id, 'content_type_not_supported', `Content type not supported: only text parts are read, not ${others.join(', ')}.`);
    // Tasks are the extension's: a client that did not activate it has its taskId ignored, as before.
    if (message.taskId !== undefined && activatedExtension(request)) return continueTask(request, id, version, message.taskId, message.metadata);
    return ask(request, id, version, message, version.texts(message.parts).join('\n'));
  }

  return async (request: ApiRequest): Promise<ApiResponse> => {
    const envelope = a2aEnvelopeSchema.safeParse(request.body);
    if (!envelope.success) return rpcError(idOf(request.body), 'invalid_request', 'Invalid Request: not a JSON-RPC 2.0 request.', issuesOf(envelope.error.issues));
    const { id, method } = envelope.data;
    const unsupported = unsupportedVersion(request.headers['a2a-version']);
    if (unsupported !== undefined) {
      return rpcError(id, 'version_not_supported', `Version not supported: A2A-Version ${JSON.stringify(unsupported)} is not a version this agent speaks (${A2A_SUPPORTED_VERSIONS.join(', ')}).`, {
        supportedVersions: [...A2A_SUPPORTED_VERSIONS],
      });
    }
    try {
      return await handle(request, id, method);
    } catch (error) {
      // The service's refusals (rate limited, store or chain unavailable) as JSON-RPC clients read them.
      if (error instanceof ProblemError) return rpcError(id, 'assistant_refused', `${error.title}: ${error.message}`, error.toBody(), error.headers);
      throw error;
    }
  };
}
