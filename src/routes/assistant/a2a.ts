/**
 * POST /a2a: the A2A JSON-RPC binding of the assistant, A2A 1.0 (`SendMessage`, `GetTask`,
 * `ListTasks`, `CancelTask`) and 0.3 (`message/send`, `tasks/get`, `tasks/cancel`). A message of text
 * parts is one turn, answered exactly as POST /api/assistant/chat answers it (same free allowance,
 * rate limit and model), as an agent message in the request's version. A question beyond the free
 * tier from a client that activated the a2a-x402 extension (its URI in `A2A-Extensions` or
 * `X-A2A-Extensions`) becomes a task waiting for payment, with the chat's x402 PaymentRequired in its
 * status metadata, owned by the bearer credential the message carried, if any; the client's x402
 * payload on that task is settled by the paid-turn service under verify-payment's rules and
 * single-use claim, and the task completes with the answer and its receipt. A payment that does not
 * pay it leaves it waiting, naming why: anyone holding a task id may pay it, so only its owner ends
 * it by choice (a rejected payment, CancelTask), and otherwise it ends by being paid or by its quote
 * expiring. Without the extension such a question answers `payment_required` with the quote URL,
 * as before. Every failure is a JSON-RPC error in a 200 answer, as JSON-RPC clients expect; the
 * service's own refusals carry its problem body as `data`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  A2A_METHODS,
  A2A_SUPPORTED_VERSIONS,
  A2A_UNSUPPORTED_METHODS,
  A2A_X402_EXTENSION,
  a2aEnvelopeSchema,
  a2aRequestV0_3Schema,
  a2aRequestV1Schema,
  type A2aResponse,
} from '../../../schemas/a2a.ts';
import { chatRequestSchema, type ChatResponse } from '../../../schemas/assistant.ts';
import type { X402Network, X402PaymentPayload, X402PaymentRequired } from '../../../schemas/x402.ts';
import { receiptUrl as receiptUrlOf } from '../../catalogue/lookup.ts';
import { isTaskOwner } from '../../domain/assistant/a2a-task-owner.ts';
import {
  completedRecord,
  failedRecord,
  paymentRequiredRecord,
  readPaymentMessage,
  refusedPaymentRecord,
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
import { ENDED_A2A_TASK_STATES, type A2aTaskRecord, type StoredA2aTask, type StoredQuote } from '../../domain/ports.ts';
import { hashQuestion } from '../../domain/assistant/task-hash.ts';
import { json, type ApiRequest, type ApiResponse, type Handler } from '../../lib/api.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { consumeRateLimit, fromStore, type AssistantDeps } from '../../services/paid-turn/deps.ts';
import { answerPaidTurn, CLEARS_BY_ITSELF, settleNote, type Settlement } from '../../services/paid-turn/paid-turn.ts';
import { callerOf, idOf, invalidParams, isTaskId, issuesOf, notTaskOwner, ownerCredentialRequired, rpcError, taskNotFound, viewOf, type Id } from './a2a-rpc.ts';
import { createA2aTaskMethods, type A2aMethod } from './a2a-tasks.ts';
import { chatBody, createChatHandler } from './chat.ts';

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

/** How a refusal of a payment leaves its task: only the quote's expiry ends it (410); any other wrong payment leaves it waiting. */
const ENDS_THE_TASK: ReadonlySet<string> = new Set(['quote_expired']);

/** What is said of each operation the card declares unsupported. */
const UNSUPPORTED_BECAUSE = {
  unsupported_operation: 'Unsupported operation: {method} is not served here (the agent card declares capabilities.streaming and capabilities.extendedAgentCard false). Send messages with SendMessage (message/send) and poll GetTask (tasks/get); the public card is the whole card.',
  push_notification_not_supported: 'Push notifications are not supported: {method} is not served here (the agent card declares capabilities.pushNotifications false). Poll GetTask (tasks/get) or ListTasks instead.',
} as const;

const SERVED = `${A2A_METHODS.v1}, ${A2A_METHODS.getTaskV1}, ${A2A_METHODS.listTasksV1} and ${A2A_METHODS.cancelTaskV1} (A2A 1.0); ${A2A_METHODS.v0_3}, ${A2A_METHODS.getTaskV0_3} and ${A2A_METHODS.cancelTaskV0_3} (A2A 0.3)`;

/**
 * Where a refused payment leaves its task, as `release` takes it: waiting, naming why, unless the
 * quote expired (then nothing can pay the task, and it fails as verify-payment would refuse it).
 */
function refusedOutcome(task: StoredA2aTask, refusal: { code: string; message: string }, network: X402Network): ['input-required' | 'failed', A2aTaskRecord] {
  if (ENDS_THE_TASK.has(refusal.code)) return ['failed', failedRecord(refusal.code, refusal.message, network)];
  return ['input-required', refusedPaymentRecord(task.record.question!, requiredOf(task), refusal)];
}

export function createA2aHandler(deps: AssistantDeps): Handler {
  const chat = createChatHandler(deps);
  const { store, clock } = deps;
  const network = x402NetworkOf(deps.chain.source);
  const taskMethods = createA2aTaskMethods(deps);
  const refused = (task: StoredA2aTask, refusal: { code: string; message: string }) => refusedOutcome(task, refusal, network);

  /** A new question: the free tier answers it, or, with the extension, a task owned by `owner` waits for its payment. */
  async function ask(request: ApiRequest, id: Id, version: Version, message: { contextId?: string | undefined }, question: string, owner: string | undefined): Promise<ApiResponse> {
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
        const task = await openTask(contextId, turn.data.messages[0]!.content, decodeX402Header<X402PaymentRequired>(offer), owner);
        // The offer travels in the task; the answer keeps the rate-limit headers.
        const { 'payment-required': _offer, ...headers } = error.headers;
        return json(200, { jsonrpc: '2.0', id, result: version.task(task) } as A2aResponse, { ...headers, ...extension });
      }
      return rpcError(id, 'assistant_refused', `${error.title}: ${error.message}`, error.toBody(), error.headers);
    }
    return json(200, { jsonrpc: '2.0', id, result: version.answer({ messageId: randomUUID(), contextId }, answered.body as ChatResponse) } satisfies A2aResponse, answered.headers);
  }

  /** Stores a task waiting for the payment the chat's offer names (a quote it stored); `ownerHash` undefined: nobody owns it. */
  async function openTask(contextId: string, question: string, required: X402PaymentRequired, ownerHash: string | undefined): Promise<TaskView> {
    const now = clock();
    const [offer] = required.accepts;
    const task: StoredA2aTask = {
      taskId: randomUUID(),
      contextId,
      quoteId: offer!.extra.quoteId,
      state: 'input-required',
      retryKey: randomBytes(32).toString('base64url'),
      ownerHash,
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
   * A message on a task: its payment (or its owner's rejection), settled and answered by one request
   * at a time. Every write of the request is fenced on its claim, so a request that outlived its
   * claim (taken over as stale) changes nothing; the answer is kept on the task in the transaction
   * that spends the turn, so a paid answer is never spent without being kept. A payment that does
   * not pay the task leaves it waiting for one that does: whoever learnt the task id can send one.
   */
  async function continueTask(request: ApiRequest, id: Id, version: Version, taskId: string, metadata: Record<string, unknown> | undefined, caller: string | undefined): Promise<ApiResponse> {
    const found = isTaskId(taskId) ? await fromStore(() => store.getA2aTask(taskId)) : undefined;
    if (!found) return taskNotFound(id, taskId);
    if (ENDED_A2A_TASK_STATES.has(found.state)) {
      return rpcError(id, 'unsupported_operation', `Task ${taskId} has ended (${found.state}) and takes no more messages; GetTask reads it, and a new question starts a new task.`);
    }
    // A settled task finishes with its own Note, whatever the message carries.
    const reply = found.record.settled ? undefined : readPaymentMessage(metadata);
    if (reply?.kind === 'invalid') return rpcError(id, 'invalid_params', `Invalid params: ${reply.path.split('/').pop()} ${reply.message}.`, [{ path: reply.path, message: reply.message }]);
    // Rejecting ends the task: its owner's choice alone.
    if (reply?.kind === 'rejected' && caller === undefined) throw ownerCredentialRequired('A payment-rejected message');
    if (reply?.kind === 'rejected' && !isTaskOwner(found.ownerHash, caller)) throw notTaskOwner(taskId, 'reject its payment');
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
        if (refusal) return release(...refused(claimed, refusal));
      }
      // Settled before: its own Note; otherwise the payload's (read above, as `reply` is one when unsettled).
      const noteBoxId = settled?.noteBoxId ?? payload!.payload.noteBoxId.toLowerCase();
      let settlement: Settlement;
      try {
        settlement = await settleNote(deps, stored!, noteBoxId, { retryKey: claimed.retryKey });
      } catch (error) {
        if (!(error instanceof ProblemError) || ![400, 402, 409, 410].includes(error.status)) throw error;
        if (CLEARS_BY_ITSELF.has(error.code)) return release('input-required', paymentRequiredRecord(claimed.record.question!, requiredOf(claimed), { code: error.code, message: error.message }));
        return release(...refused(claimed, { code: error.code, message: error.message }));
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

  /** SendMessage (`message/send`): a question, or a message on a task. */
  const sendMessage: A2aMethod = async (request, id, method, caller) => {
    const version = VERSIONS[method as keyof typeof VERSIONS];
    const parsed = version.request.safeParse(request.body);
    if (!parsed.success) return invalidParams(id, method, parsed.error.issues);
    const { message } = parsed.data.params;
    const others = version.otherKinds(message.parts);
    if (others.length > 0) return rpcError(id, 'content_type_not_supported', `Content type not supported: only text parts are read, not ${others.join(', ')}.`);
    // Tasks are the extension's: a client that did not activate it has its taskId ignored, as before.
    if (message.taskId !== undefined && activatedExtension(request)) return continueTask(request, id, version, message.taskId, message.metadata, caller);
    return ask(request, id, version, message, version.texts(message.parts).join('\n'), caller);
  };

  const methods: Record<string, A2aMethod> = { ...taskMethods, [A2A_METHODS.v1]: sendMessage, [A2A_METHODS.v0_3]: sendMessage };

  async function handle(request: ApiRequest, id: Id, method: string): Promise<ApiResponse> {
    if (Object.hasOwn(A2A_UNSUPPORTED_METHODS, method)) {
      const error = A2A_UNSUPPORTED_METHODS[method as keyof typeof A2A_UNSUPPORTED_METHODS];
      return rpcError(id, error, UNSUPPORTED_BECAUSE[error].replace('{method}', method));
    }
    if (!Object.hasOwn(methods, method)) return rpcError(id, 'method_not_found', `Method not found: ${method.slice(0, 80)} is no A2A method served here; ${SERVED} are.`);
    // A malformed credential is refused before the method reads anything.
    const caller = callerOf(request);
    return methods[method]!(request, id, method, caller);
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
