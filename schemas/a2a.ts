/**
 * The A2A JSON-RPC binding as far as this service serves it: a question answered by the hosted
 * assistant's free tier with one agent message, and, for a client that activated the a2a-x402
 * extension, a premium question as a task paid with an x402 payload on it and read with GetTask.
 * Both protocol versions a client may speak are served at the one endpoint the agent card names:
 * A2A 1.0 (`SendMessage`, `GetTask`, parts as `{text}`, roles `ROLE_USER`/`ROLE_AGENT`) and A2A 0.3
 * (`message/send`, `tasks/get`, parts as `{kind: "text", text}`). Messages and parts keep the keys
 * clients add (metadata, extensions); the envelope is JSON-RPC 2.0. Streaming, task lists and
 * cancellation, and push notifications are not served ("method not found").
 */
import { z } from 'zod';
import { chatResponseSchema } from './assistant.ts';

/** The a2a-x402 extension's canonical URI (v0.2), which the agent card declares and a client activates. */
export const A2A_X402_EXTENSION = 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2';

export const A2A_METHODS = { v1: 'SendMessage', v0_3: 'message/send', getTaskV1: 'GetTask', getTaskV0_3: 'tasks/get' } as const;

/** JSON-RPC 2.0 error codes, and the A2A and server codes this binding answers with. */
export const A2A_ERROR_CODES = {
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  /** Server-defined: the assistant refused the turn (payment required, rate limited, provider or store unavailable); `data` is its problem. */
  assistant_refused: -32000,
  /** A2A TaskNotFoundError: no task with this id (never created, or deleted with its expired quote). */
  task_not_found: -32001,
  /** A2A UnsupportedOperationError: a message on a task that has ended. */
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
/** A question as either version writes it: its ids, the user's role in that version's words, and its parts. */
const questionMessage = <Part extends z.ZodType>(role: string, part: Part) => ({
  messageId: z.string().min(1).describe('Id the sender gives the message.'),
  contextId: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[^\u0000]*$/, 'must not contain U+0000')
    .optional()
    .describe('Conversation id; the answer (or the task) carries the one sent, or a new one.'),
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

const getTaskParams = z
  .looseObject({
    id: z.string().min(1).max(128).describe('The task id, as the task gave it.'),
    historyLength: z.int().min(0).optional().describe('Ignored.'),
  })
  .describe('Which task to read.');
export const a2aGetTaskV1Schema = z.strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.literal(A2A_METHODS.getTaskV1), params: getTaskParams.describe('A2A 1.0 GetTaskRequest.') });
export const a2aGetTaskV0_3Schema = z.strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, method: z.literal(A2A_METHODS.getTaskV0_3), params: getTaskParams.describe('A2A 0.3 TaskQueryParams.') });

export const a2aRequestSchema = z
  .union([a2aRequestV1Schema, a2aRequestV0_3Schema, a2aGetTaskV1Schema, a2aGetTaskV0_3Schema])
  .describe(
    'A2A JSON-RPC request: a question or its payment on a task (`SendMessage`, `message/send`), or a task read (`GetTask`, `tasks/get`).',
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
      state: z.enum(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED']),
      message: z.strictObject({ messageId: z.string(), contextId: z.string(), taskId: z.string(), role: z.literal('ROLE_AGENT'), parts: z.tuple([z.strictObject({ text: z.string() })]), metadata: taskMetadata }),
      timestamp: statusTimestamp,
    }),
    artifacts: z
      .tuple([z.strictObject({ artifactId: z.string(), name: z.literal('answer'), parts: z.tuple([z.strictObject({ text: answerText }), z.strictObject({ data: chatAnswerData })]) })])
      .optional()
      .describe('The premium answer, once completed.'),
  })
  .describe('A2A 1.0 Task (a2a-x402).');
export const a2aTaskV0_3Schema = z
  .strictObject({
    kind: z.literal('task'),
    ...taskIds,
    status: z.strictObject({
      state: z.enum(['input-required', 'working', 'completed', 'failed']),
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

export const a2aResponseSchema = z
  .union([
    z
      .strictObject({ jsonrpc: z.literal('2.0'), id: jsonRpcIdSchema, result: z.union([answerV1, answerV0_3, z.strictObject({ task: a2aTaskV1Schema }).describe('A2A 1.0 SendMessageResponse: a task.'), a2aTaskV1Schema, a2aTaskV0_3Schema]) })
      .describe('Success: the answer or the task, in the version of the request.'),
    z
      .strictObject({
        jsonrpc: z.literal('2.0'),
        id: jsonRpcIdSchema,
        error: z
          .strictObject({
            code: z.int().describe('JSON-RPC error code (see the operation description).'),
            message: z.string().min(1).describe('What went wrong.'),
            data: z.unknown().optional().describe('For `assistant_refused` (-32000), the assistant\'s problem body (RFC 9457); for invalid requests and params, the offending fields.'),
          })
          .describe('JSON-RPC error.'),
      })
      .describe('Failure.'),
  ])
  .describe('A2A JSON-RPC response: the answer as an agent message, or a JSON-RPC error.');
export type A2aResponse = z.infer<typeof a2aResponseSchema>;
