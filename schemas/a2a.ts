/**
 * The A2A JSON-RPC binding as far as this service serves it: a question answered by the hosted
 * assistant's free tier with one agent message, and, for a client that activated the a2a-x402
 * extension, a premium question as a task paid with an x402 payload on it, read with GetTask, listed
 * with ListTasks and canceled with CancelTask by the client that created it (the bearer credential
 * it created the task with, src/domain/assistant/a2a-task-owner.ts). Both protocol versions a client
 * may speak are served at the one endpoint the agent card names: A2A 1.0 (`SendMessage`, `GetTask`,
 * `ListTasks`, `CancelTask`, parts as `{text}`, roles `ROLE_USER`/`ROLE_AGENT`) and A2A 0.3
 * (`message/send`, `tasks/get`, `tasks/cancel`, parts as `{kind: "text", text}`; 0.3 has no
 * `tasks/list` over JSON-RPC). Messages and parts keep the keys clients add (metadata, extensions);
 * the envelope is JSON-RPC 2.0. The operations the agent card declares unsupported (streaming,
 * push notifications, the extended card) are answered with the error A2A names for each.
 */
import { z } from 'zod';
import { chatResponseSchema } from './assistant.ts';

/** The a2a-x402 extension's canonical URI (v0.2), which the agent card declares and a client activates. */
export const A2A_X402_EXTENSION = 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2';

export const A2A_METHODS = {
  v1: 'SendMessage',
  v0_3: 'message/send',
  getTaskV1: 'GetTask',
  getTaskV0_3: 'tasks/get',
  listTasksV1: 'ListTasks',
  cancelTaskV1: 'CancelTask',
  cancelTaskV0_3: 'tasks/cancel',
} as const;

/**
 * The methods A2A defines (1.0, and their 0.3 names) for what the agent card declares unsupported,
 * with the error A2A 1.0 requires for each (3.3.4, capability validation): streaming
 * (`capabilities.streaming: false`) and the extended card (`capabilities.extendedAgentCard: false`)
 * are UnsupportedOperationError; push notification configs (`capabilities.pushNotifications: false`)
 * are PushNotificationNotSupportedError. Any other name is method not found.
 */
export const A2A_UNSUPPORTED_METHODS = {
  SendStreamingMessage: 'unsupported_operation',
  'message/stream': 'unsupported_operation',
  SubscribeToTask: 'unsupported_operation',
  'tasks/resubscribe': 'unsupported_operation',
  GetExtendedAgentCard: 'unsupported_operation',
  'agent/getAuthenticatedExtendedCard': 'unsupported_operation',
  CreateTaskPushNotificationConfig: 'push_notification_not_supported',
  GetTaskPushNotificationConfig: 'push_notification_not_supported',
  ListTaskPushNotificationConfigs: 'push_notification_not_supported',
  DeleteTaskPushNotificationConfig: 'push_notification_not_supported',
  'tasks/pushNotificationConfig/set': 'push_notification_not_supported',
  'tasks/pushNotificationConfig/get': 'push_notification_not_supported',
  'tasks/pushNotificationConfig/list': 'push_notification_not_supported',
  'tasks/pushNotificationConfig/delete': 'push_notification_not_supported',
} as const satisfies Record<string, 'unsupported_operation' | 'push_notification_not_supported'>;

/** JSON-RPC 2.0 error codes, and the A2A and server codes this binding answers with. */
export const A2A_ERROR_CODES = {
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  /**
   * Server-defined: the service refused the request (payment required, rate limited, an owner
   * credential missing, malformed or not the task's, provider or store unavailable); `data` is its problem.
   */
  assistant_refused: -32000,
  /** A2A TaskNotFoundError: no task with this id (never created, or deleted with its expired quote). */
  task_not_found: -32001,
  /** A2A TaskNotCancelableError: CancelTask of a task that has ended, is being settled, or whose payment settled. */
  task_not_cancelable: -32002,
  /** A2A PushNotificationNotSupportedError: a push notification config method (the card declares none). */
  push_notification_not_supported: -32003,
  /** A2A UnsupportedOperationError: a message on a task that has ended, streaming, or the extended card. */
  unsupported_operation: -32004,
  /** A2A ContentTypeNotSupportedError: a part other than text. */
  content_type_not_supported: -32005,
  /** A2A VersionNotSupportedError: an `A2A-Version` header naming a version this agent does not speak. */
  version_not_supported: -32009,
} as const;

/** The A2A versions this agent speaks (Major.Minor, as the `A2A-Version` header names them), newest first; the agent card lists one interface each. */
export const A2A_SUPPORTED_VERSIONS = ['1.0', '0.3'] as const;

export const jsonRpcIdSchema = z.union([z.string(), z.int(), z.null()]).describe('The request id, echoed in the answer.');
export const a2aMetadataSchema = z.record(z.string(), z.unknown()).optional().describe('Metadata; on a task, the a2a-x402 `x402.payment.*` keys are read.');

/** Any JSON-RPC 2.0 request: what is read before the method is known. */
export const a2aEnvelopeSchema = z.object({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.string().min(1), params: z.unknown().optional() });

// A2A 1.0: parts are one of text, data, url or raw (protobuf JSON of the oneof).
const partV1 = z
  .looseObject({
    text: z.string().optional().describe('Text content: the question.'),
    data: z.unknown().optional().describe('Structured content: not accepted in a question.'),
    url: z.string().optional().describe('A file by URL: not accepted.'),
    raw: z.string().optional().describe('File bytes in base64: not accepted.'),
  })
  .describe('A2A 1.0 Part.');
/** A conversation id the store can keep. */
const contextIdSchema = z.string().min(1).max(256).regex(/^[^\u0000]*$/, 'must not contain U+0000');

/** A question as either version writes it: its ids, the user's role in that version's words, and its parts. */
const questionMessage = <Part extends z.ZodType>(role: string, part: Part) => ({
  messageId: z.string().min(1).describe('Id the sender gives the message.'),
  contextId: contextIdSchema.optional().describe('Conversation id; the answer (or the task) carries the one sent, or a new one.'),
  taskId: z.string().min(1).optional().describe('The a2a-x402 task this message pays (read when the extension is activated).'),
  role: z.literal(role).describe('The question is the user\'s.'),
  parts: z.array(part).min(1).describe('The content; the question is its text parts, joined by line breaks.'),
  metadata: a2aMetadataSchema,
});

const messageV1 = z.looseObject(questionMessage('ROLE_USER', partV1)).describe('A2A 1.0 Message.');

// A2A 0.3: parts carry a `kind` discriminator.
const partV0_3 = z
  .looseObject({ kind: z.enum(['text', 'file', 'data']).describe('`text` is read; `file` and `data` are not accepted.'), text: z.string().optional().describe('The text of a text part.') })
  .describe('A2A 0.3 Part.');
const messageV0_3 = z.looseObject({ kind: z.literal('message').describe('Constant `message`.'), ...questionMessage('user', partV0_3) }).describe('A2A 0.3 Message.');

const sendParams = <Message extends z.ZodType>(message: Message) =>
  z.looseObject({
    message,
    configuration: z.looseObject({}).optional().describe('Client preferences (accepted output modes, blocking); the answer is always one blocking message.'),
    metadata: a2aMetadataSchema,
  });

export const a2aRequestV1Schema = z.strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.literal(A2A_METHODS.v1), params: sendParams(messageV1).describe('A2A 1.0 SendMessageRequest.') });
export const a2aRequestV0_3Schema = z.strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.literal(A2A_METHODS.v0_3), params: sendParams(messageV0_3).describe('A2A 0.3 MessageSendParams.') });

const taskIdParam = z.string().min(1).max(128).describe('The task id, as the task gave it.');
const getTaskParams = z
  .looseObject({
    id: taskIdParam,
    historyLength: z.int().min(0).optional().describe('Ignored: a task here keeps no message history.'),
  })
  .describe('Which task to read.');
export const a2aGetTaskV1Schema = z.strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.literal(A2A_METHODS.getTaskV1), params: getTaskParams.describe('A2A 1.0 GetTaskRequest.') });
export const a2aGetTaskV0_3Schema = z.strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.literal(A2A_METHODS.getTaskV0_3), params: getTaskParams.describe('A2A 0.3 TaskQueryParams.') });

const cancelTaskParams = z
  .looseObject({ id: taskIdParam, metadata: a2aMetadataSchema.describe('Ignored.') })
  .describe('Which task to cancel: only its owner (the bearer credential it was created with) may.');
export const a2aCancelTaskV1Schema = z.strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.literal(A2A_METHODS.cancelTaskV1), params: cancelTaskParams.describe('A2A 1.0 CancelTaskRequest.') });
export const a2aCancelTaskV0_3Schema = z.strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.literal(A2A_METHODS.cancelTaskV0_3), params: cancelTaskParams.describe('A2A 0.3 TaskIdParams.') });

/** A2A 1.0 TaskState names (ProtoJSON); a task here is only ever in five of them. */
export const A2A_TASK_STATES_V1 = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;

/** ListTasks' page size: A2A 1.0's default when none is asked, and its bound. */
export const A2A_LIST_PAGE_SIZE = { default: 50, max: 100 } as const;

/** The longest page token this service writes, with room: a token is an instant and a task id. */
export const A2A_PAGE_TOKEN_MAX_LENGTH = 128;

const listTasksParams = z
  .looseObject({
    contextId: contextIdSchema.optional().describe('Only the tasks of this conversation.'),
    status: z.enum(A2A_TASK_STATES_V1).optional().describe('Only the tasks in this state (`TASK_STATE_UNSPECIFIED`: any).'),
    pageSize: z
      .int()
      .min(1)
      .max(A2A_LIST_PAGE_SIZE.max)
      .optional()
      .describe(`At most this many tasks (${A2A_LIST_PAGE_SIZE.default} when not sent).`),
    pageToken: z.string().max(A2A_PAGE_TOKEN_MAX_LENGTH).optional().describe('The `nextPageToken` of the previous page; empty or absent for the first.'),
    historyLength: z.int().min(0).optional().describe('Ignored: a task here keeps no message history.'),
    statusTimestampAfter: z.iso.datetime({ offset: true }).optional().describe('Only the tasks whose status changed at or after this instant (ISO 8601).'),
    includeArtifacts: z.boolean().optional().describe('Include each completed task\'s answer artifact (default false: artifacts left out).'),
  })
  .describe('A2A 1.0 ListTasksRequest: the caller\'s own tasks (the bearer credential they were created with), newest status first.');
export const a2aListTasksV1Schema = z.strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.literal(A2A_METHODS.listTasksV1), params: listTasksParams.optional() });

export const a2aRequestSchema = z
  .union([a2aRequestV1Schema, a2aRequestV0_3Schema, a2aGetTaskV1Schema, a2aGetTaskV0_3Schema, a2aListTasksV1Schema, a2aCancelTaskV1Schema, a2aCancelTaskV0_3Schema])
  .describe(
    'A2A JSON-RPC request: a question or its payment on a task (`SendMessage`, `message/send`), a task read (`GetTask`, `tasks/get`), the caller\'s tasks (`ListTasks`), or a cancellation (`CancelTask`, `tasks/cancel`).',
  );

const chatAnswerData = chatResponseSchema.describe('The assistant\'s chat answer as `POST /api/assistant/chat` gives it: tier, citations, model.');
const answerText = z.string().min(1).describe('The answer, as Markdown text.');
const answerIds = { messageId: z.string().min(1), contextId: z.string().min(1) };

const answerV1 = z
  .strictObject({
    message: z.strictObject({
      ...answerIds,
      role: z.literal('ROLE_AGENT'),
      parts: z.tuple([z.strictObject({ text: answerText }), z.strictObject({ data: chatAnswerData })]).describe('The answer as text, then the whole chat answer as data.'),
    }),
  })
  .describe('A2A 1.0 SendMessageResponse: one agent message.');
const answerV0_3 = z
  .strictObject({
    kind: z.literal('message'),
    ...answerIds,
    role: z.literal('agent'),
    parts: z
      .tuple([z.strictObject({ kind: z.literal('text'), text: answerText }), z.strictObject({ kind: z.literal('data'), data: chatAnswerData })])
      .describe('The answer as text, then the whole chat answer as data.'),
  })
  .describe('A2A 0.3 agent Message.');

const taskMetadata = z.record(z.string(), z.unknown()).describe('The a2a-x402 `x402.payment.*` keys.');
const taskIds = { id: z.string().min(1).describe('Task id.'), contextId: z.string().min(1) };
const statusTimestamp = z.iso.datetime().describe('When the task last changed.');

export const a2aTaskV1Schema = z
  .strictObject({
    ...taskIds,
    status: z.strictObject({
      state: z.enum(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED']),
      message: z.strictObject({ messageId: z.string(), contextId: z.string(), taskId: z.string(), role: z.literal('ROLE_AGENT'), parts: z.tuple([z.strictObject({ text: z.string() })]), metadata: taskMetadata }),
      timestamp: statusTimestamp,
    }),
    artifacts: z
      .tuple([z.strictObject({ artifactId: z.string(), name: z.literal('answer'), parts: z.tuple([z.strictObject({ text: answerText }), z.strictObject({ data: chatAnswerData })]) })])
      .optional()
      .describe('The premium answer, once completed (left out by ListTasks unless `includeArtifacts`).'),
  })
  .describe('A2A 1.0 Task (a2a-x402).');
export const a2aTaskV0_3Schema = z
  .strictObject({
    kind: z.literal('task'),
    ...taskIds,
    status: z.strictObject({
      state: z.enum(['input-required', 'working', 'completed', 'failed', 'canceled']),
      message: z.strictObject({
        kind: z.literal('message'),
        messageId: z.string(),
        contextId: z.string(),
        taskId: z.string(),
        role: z.literal('agent'),
        parts: z.tuple([z.strictObject({ kind: z.literal('text'), text: z.string() })]),
        metadata: taskMetadata,
      }),
      timestamp: statusTimestamp,
    }),
    artifacts: z
      .tuple([
        z.strictObject({
          artifactId: z.string(),
          name: z.literal('answer'),
          parts: z.tuple([z.strictObject({ kind: z.literal('text'), text: answerText }), z.strictObject({ kind: z.literal('data'), data: chatAnswerData })]),
        }),
      ])
      .optional()
      .describe('The premium answer, once completed.'),
  })
  .describe('A2A 0.3 Task (a2a-x402).');

export const a2aListTasksResultSchema = z
  .strictObject({
    tasks: z.array(a2aTaskV1Schema).describe('The page: newest status first.'),
    nextPageToken: z.string().max(A2A_PAGE_TOKEN_MAX_LENGTH).describe('Send it as `pageToken` for the next page; empty on the last page.'),
    pageSize: z.int().min(1).max(A2A_LIST_PAGE_SIZE.max).describe('The page size this answer used.'),
    totalSize: z.int().min(0).describe('How many of the caller\'s tasks match the filters, over all pages.'),
  })
  .describe('A2A 1.0 ListTasksResponse.');

export const a2aResponseSchema = z
  .union([
    z
      .strictObject({
        jsonrpc: z.literal('2.0'),
        id: jsonRpcIdSchema,
        result: z.union([answerV1, answerV0_3, z.strictObject({ task: a2aTaskV1Schema }).describe('A2A 1.0 SendMessageResponse: a task.'), a2aTaskV1Schema, a2aTaskV0_3Schema, a2aListTasksResultSchema]),
      })
      .describe('Success: the answer, the task or the page of tasks, in the version of the request.'),
    z
      .strictObject({
        jsonrpc: z.literal('2.0'),
        id: jsonRpcIdSchema,
        error: z
          .strictObject({
            code: z.int().describe('JSON-RPC error code (see the operation description).'),
            message: z.string().min(1).describe('What went wrong.'),
            data: z.unknown().optional().describe('For `assistant_refused` (-32000), the service\'s problem body (RFC 9457); for invalid requests and params, the offending fields.'),
          })
          .describe('JSON-RPC error.'),
      })
      .describe('Failure.'),
  ])
  .describe('A2A JSON-RPC response: the answer as an agent message, or a JSON-RPC error.');
export type A2aResponse = z.infer<typeof a2aResponseSchema>;
