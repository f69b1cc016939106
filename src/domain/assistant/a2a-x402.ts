/**
 * The a2a-x402 extension (v0.2, standalone flow) as this service speaks it: the metadata keys, the
 * task records each step leaves (payment required, a payment refused, completed with its receipts,
 * failed with its error, canceled), and a task rendered as A2A 1.0 and as A2A 0.3 write it. Pure: the route reads and writes
 * the store, this says what the task shows.
 */
import type { ChatResponse } from '../../../schemas/assistant.ts';
import { X402_NETWORKS, x402PaymentPayloadSchema, type X402Network, type X402PaymentPayload, type X402PaymentRequired, type X402SettleResponse } from '../../../schemas/x402.ts';
import type { A2aTaskRecord, A2aTaskState } from '../ports.ts';

/** Where the extension's values live in a message's metadata. */
export const X402_METADATA = {
  status: 'x402.payment.status',
  required: 'x402.payment.required',
  payload: 'x402.payment.payload',
  receipts: 'x402.payment.receipts',
  error: 'x402.payment.error',
} as const;

/** The largest `x402.payment.payload` read, as JSON text: an Ergo payload is a few hundred bytes. */
export const MAX_PAYLOAD_JSON_LENGTH = 8_192;

/** A settled payment as the task's receipts list it: x402's SettleResponse, naming this service's receipt in `extra`. */
export type A2aReceipt = X402SettleResponse & { extra?: { receiptId: string; receiptUrl: string } };

/** The chain the offer is paid on, in words: a sandbox server's Notes are a local demo, never the testnet's. */
const chainName = (required: X402PaymentRequired) =>
  required.accepts[0]?.network === X402_NETWORKS.sandbox ? 'the local sandbox chain (a demo: its receipts are never testnet proofs)' : 'the Ergo testnet';

/** The record of a task waiting for its payment; `retry` says why a payment sent did not settle yet. */
export function paymentRequiredRecord(question: string, required: X402PaymentRequired, retry?: { code: string; message: string }): A2aTaskRecord {
  return {
    question,
    status: {
      text: retry
        ? `The payment has not settled yet (${retry.code}): ${retry.message} Send the same payment again in a few seconds; do not pay again.`
        : `Payment is required: this question is beyond the free tier. Pay the quote in x402.payment.required with a Note on ${chainName(required)} and send its payload on this task.`,
      metadata: {
        [X402_METADATA.status]: 'payment-required',
        [X402_METADATA.required]: required,
        ...(retry ? { [X402_METADATA.error]: retry.code } : {}),
      },
    },
  };
}

/**
 * The record of a task that still waits after a payment sent on it was refused: a Note that does not
 * pay its quote, another scheme or network, requirements other than its offer. Whoever holds the
 * task id may send a payment, so a wrong one never ends the task: the right one still completes it.
 */
export function refusedPaymentRecord(question: string, required: X402PaymentRequired, refusal: { code: string; message: string }): A2aTaskRecord {
  return {
    question,
    status: {
      text:
        `A payment sent on this task was refused (${refusal.code}): ${refusal.message} Nothing was settled and the task still waits: ` +
        `pay the quote in x402.payment.required with a Note on ${chainName(required)} and send its payload on this task.`,
      metadata: { [X402_METADATA.status]: 'payment-required', [X402_METADATA.required]: required, [X402_METADATA.error]: refusal.code },
    },
  };
}

/** The record of a task its owner canceled before paying. */
export function canceledRecord(): A2aTaskRecord {
  return { status: { text: 'Canceled by the client that created this task; nothing was paid, and it takes no more messages.', metadata: {} } };
}

/** The record of a paid, answered task: the answer is the artifact, the receipt in the status. */
export function completedRecord(answer: ChatResponse, receipt: A2aReceipt): A2aTaskRecord {
  return {
    status: {
      text: `Payment settled; the premium answer is the task's artifact. Receipt ${receipt.extra?.receiptUrl ?? ''}`.trimEnd(),
      metadata: { [X402_METADATA.status]: 'payment-completed', [X402_METADATA.receipts]: [receipt] },
    },
    answer: answer as unknown as Record<string, unknown>,
  };
}

/** The record of a task whose payment can never settle (its quote expired), with the code verify-payment would answer. */
export function failedRecord(code: string, message: string, network: X402Network): A2aTaskRecord {
  const receipt: A2aReceipt = { success: false, errorReason: code, errorMessage: message, transaction: '', network };
  return {
    status: {
      text: `Payment failed (${code}): ${message}`,
      metadata: { [X402_METADATA.status]: 'payment-failed', [X402_METADATA.error]: code, [X402_METADATA.receipts]: [receipt] },
    },
  };
}

/**
 * The record of a task whose payment settled but whose turn was not answered (the model or the
 * store failed, `code` says which): it waits for the same message again, which finishes it.
 */
export function settledRecord(record: A2aTaskRecord, settled: NonNullable<A2aTaskRecord['settled']>, code: string): A2aTaskRecord {
  return {
    ...record,
    settled,
    status: {
      text: `The payment settled (receipt ${settled.receiptId}) but the answer failed (${code}): send a message on this task again to get it; do not pay again.`,
      metadata: { ...record.status.metadata, [X402_METADATA.status]: 'payment-verified', [X402_METADATA.error]: code },
    },
  };
}

/** The record of a task whose owner rejected the payment requirements. */
export function rejectedRecord(): A2aTaskRecord {
  return { status: { text: 'The client rejected the payment requirements; nothing was paid.', metadata: { [X402_METADATA.status]: 'payment-rejected' } } };
}

/** What the status of a task being settled shows: the payment received, its result not yet known. */
const WORKING_STATUS: A2aTaskRecord['status'] = { text: 'The payment was received and is being settled and answered.', metadata: { [X402_METADATA.status]: 'payment-submitted' } };

/** What a client's message on a task says, read from its metadata. */
export type PaymentMessage =
  | { kind: 'payload'; payload: X402PaymentPayload }
  | { kind: 'rejected' }
  | { kind: 'invalid'; path: string; message: string };

/** Reads the client's reply on a task: a payment payload, a rejection, or why it is neither. */
export function readPaymentMessage(metadata: Record<string, unknown> | undefined): PaymentMessage {
  const at = (key: string) => `/params/message/metadata/${key}`;
  if (metadata?.[X402_METADATA.status] === 'payment-rejected') return { kind: 'rejected' };
  const payload = metadata?.[X402_METADATA.payload];
  if (payload === undefined) {
    return { kind: 'invalid', path: at(X402_METADATA.payload), message: `a message on a task waiting for payment carries the x402 PaymentPayload under "${X402_METADATA.payload}" (or "${X402_METADATA.status}": "payment-rejected")` };
  }
  if (JSON.stringify(payload).length > MAX_PAYLOAD_JSON_LENGTH) {
    return { kind: 'invalid', path: at(X402_METADATA.payload), message: `is longer than ${MAX_PAYLOAD_JSON_LENGTH} characters of JSON; an Ergo payment payload is a few hundred` };
  }
  const parsed = x402PaymentPayloadSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { kind: 'invalid', path: `${at(X402_METADATA.payload)}/${issue.path.join('/')}`.replace(/\/$/, ''), message: `not an x402 v2 payment payload for an Ergo Note: ${issue.message}` };
  }
  return { kind: 'payload', payload: parsed.data };
}

/** A task as a request sees it: the stored task without its secret. */
export interface TaskView {
  taskId: string;
  contextId: string;
  state: A2aTaskState;
  record: A2aTaskRecord;
  updatedAt: Date;
}

const statusOf = (task: TaskView) => (task.state === 'working' ? WORKING_STATUS : task.record.status);

/** Each state as A2A 1.0 names it (ProtoJSON TaskState). */
export const V1_STATES = {
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
} as const satisfies Record<A2aTaskState, string>;

/** Whether a rendering carries a completed task's answer artifact: ListTasks leaves it out unless asked. */
interface Rendering {
  artifacts?: boolean;
}

/** The task as A2A 1.0 writes it (protobuf JSON): states in upper case, parts by their field. */
export function taskV1(task: TaskView, { artifacts = true }: Rendering = {}) {
  const status = statusOf(task);
  const answer = task.record.answer;
  return {
    id: task.taskId,
    contextId: task.contextId,
    status: {
      state: V1_STATES[task.state],
      message: { messageId: `${task.taskId}-${task.state}`, contextId: task.contextId, taskId: task.taskId, role: 'ROLE_AGENT', parts: [{ text: status.text }], metadata: status.metadata },
      timestamp: task.updatedAt.toISOString(),
    },
    ...(answer && artifacts && task.state === 'completed' ? { artifacts: [{ artifactId: `${task.taskId}-answer`, name: 'answer', parts: [{ text: String(answer.answer) }, { data: answer }] }] } : {}),
  };
}

/** The task as A2A 0.3 writes it: `kind` on the task, message and parts; states in kebab case. */
export function taskV0_3(task: TaskView, { artifacts = true }: Rendering = {}) {
  const status = statusOf(task);
  const answer = task.record.answer;
  return {
    kind: 'task' as const,
    id: task.taskId,
    contextId: task.contextId,
    status: {
      state: task.state,
      message: {
        kind: 'message' as const,
        messageId: `${task.taskId}-${task.state}`,
        contextId: task.contextId,
        taskId: task.taskId,
        role: 'agent' as const,
        parts: [{ kind: 'text' as const, text: status.text }],
        metadata: status.metadata,
      },
      timestamp: task.updatedAt.toISOString(),
    },
    ...(answer && artifacts && task.state === 'completed'
      ? { artifacts: [{ artifactId: `${task.taskId}-answer`, name: 'answer', parts: [{ kind: 'text' as const, text: String(answer.answer) }, { kind: 'data' as const, data: answer }] }] }
      : {}),
  };
}
