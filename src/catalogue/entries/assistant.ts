/**
 * Spec 4.5: the hosted assistant, every route documented with each status and code it answers. The
 * handlers live in `src/routes/assistant/` as factories over the ports (bound in src/routes/groups/assistant.ts).
 */
import { chatRequestSchema, chatResponseSchema, NOTE_CHECKS, NOTE_FAILURE_CODES, premiumQuoteSchema, problemCodeOfNoteFailure, QUESTION_MAX_CHARACTERS, quoteRequestSchema, quoteResponseSchema, verifyPaymentRequestSchema } from '../../../schemas/assistant.ts';
import { activitySchema, signerHealthSchema } from '../../../schemas/assistant-status.ts';
import { assistantTermsSchema } from '../../../schemas/assistant-terms.ts';
import { A2A_ERROR_CODES, A2A_LIST_PAGE_SIZE, a2aRequestSchema, a2aResponseSchema } from '../../../schemas/a2a.ts';
import { A2A_TASK_OWNER_SCHEME } from '../../../schemas/agent-card.ts';
import { receiptBundleSchema, verifyPaymentResponseSchema } from '../../../schemas/receipt.ts';
import { x402FacilitatorRequestSchema, x402SettleResponseSchema, x402SupportedSchema, x402VerifyResponseSchema } from '../../../schemas/x402.ts';
import { ACTIVITY_LIMIT, SIGNER_HEALTH_CACHE_MS } from '../../config/limits.ts';
import { publish } from '../published.ts';
import type { Entry, ResponseDoc } from '../types.ts';

const UNANSWERABLE =
  'Nothing on this site answers any part of the question (code `question_unanswerable`, with `search_url`): no quote is issued, so no one pays for no answer. A question the site answers in part is quoted, and the quote\'s `reason` names the parts the answer will answer and those it will name as not answered here.';

const quoteRequest = publish('assistant-quote-request.schema.v0.json', 'AssistantQuoteRequest', 'Assistant quote request', quoteRequestSchema, 'input');
const quoteResponse = publish('assistant-quote.schema.v0.json', 'AssistantQuote', 'Assistant quote or free-tier decision', quoteResponseSchema);
const storedQuote = publish('assistant-premium-quote.schema.v0.json', 'AssistantPremiumQuote', 'Assistant premium quote as issued', premiumQuoteSchema);
const chatRequest = publish('assistant-chat-request.schema.v0.json', 'AssistantChatRequest', 'Assistant chat request', chatRequestSchema, 'input');
const chatResponse = publish('assistant-chat.schema.v0.json', 'AssistantChat', 'Assistant chat answer', chatResponseSchema);
const verifyRequest = publish(
  'assistant-verify-payment-request.schema.v0.json',
  'AssistantVerifyPaymentRequest',
  'Assistant payment verification request',
  verifyPaymentRequestSchema,
  'input',
);
const verifyResponse = publish('assistant-verify-payment.schema.v0.json', 'AssistantVerifyPayment', 'Assistant payment verification', verifyPaymentResponseSchema);
const receiptDocument = publish('assistant-receipt.schema.v0.json', 'AssistantReceipt', 'Assistant receipt bundle', receiptBundleSchema);
const activityDocument = publish('assistant-activity.schema.v0.json', 'AssistantActivity', 'Assistant activity', activitySchema);
const termsDocument = publish('assistant-terms.schema.v0.json', 'AssistantTerms', 'Assistant terms', assistantTermsSchema);
const x402Request = publish('x402-facilitator-request.schema.v0.json', 'X402FacilitatorRequest', 'x402 facilitator request', x402FacilitatorRequestSchema, 'input');
const x402Supported = publish('x402-supported.schema.v0.json', 'X402Supported', 'x402 facilitator kinds', x402SupportedSchema);
const x402Verify = publish('x402-verify.schema.v0.json', 'X402Verify', 'x402 verification', x402VerifyResponseSchema);
const x402Settle = publish('x402-settle.schema.v0.json', 'X402Settle', 'x402 settlement', x402SettleResponseSchema);
const signerHealthDocument = publish('assistant-signer-health.schema.v0.json', 'AssistantSignerHealth', 'Assistant signer health', signerHealthSchema);

const a2aRequest = publish('a2a-request.schema.v0.json', 'A2aRequest', 'A2A JSON-RPC request (SendMessage, GetTask, ListTasks, CancelTask and their 0.3 names)', a2aRequestSchema, 'input');
const a2aResponse = publish('a2a-response.schema.v0.json', 'A2aResponse', 'A2A JSON-RPC response', a2aResponseSchema);
const a2aErrorCodes = Object.entries(A2A_ERROR_CODES)
  .map(([name, code]) => `${code} \`${name}\``)
  .join(', ');

const rateLimited = (limit: string): ResponseDoc => ({
  name: `${limit}RateLimited`,
  description: `${limit} rate limit exceeded (code \`rate_limited\`); \`retry_after_seconds\` and the \`Retry-After\` header say when to retry. Limits are per client.`,
  headers: {
    'Retry-After': 'Seconds until the client may retry.',
    RateLimit: 'The limit counted, the requests left and the seconds until it resets: `"quote";r=0;t=42` (draft-ietf-httpapi-ratelimit-headers).',
    'RateLimit-Policy': 'The limit counted, its quota and window: `"quote";q=30;w=60`; the terms list every limit (`rate_limits`).',
  },
});

const facilitatorInvalidRequest: ResponseDoc = {
  name: 'X402FacilitatorInvalidRequest',
  description: 'The body is not an x402 v2 facilitator request for an Ergo Note (code `invalid_request`, naming each field).',
};

const noteCodes = NOTE_FAILURE_CODES.map((code) => `\`${problemCodeOfNoteFailure(code)}\` (${code}) unless ${NOTE_CHECKS[code].rule}`).join('; ');

export const ASSISTANT_ENTRIES: readonly Entry[] = [
    {
      id: 'a2a',
      kind: 'dynamic',
      method: 'POST',
      path: '/a2a',
      tag: 'Assistant',
      summary: 'A2A JSON-RPC: ask the assistant, free or paid (a2a-x402)',
      description:
        'The A2A JSON-RPC endpoint of the agent card, for A2A 1.0 (`SendMessage`, `GetTask`, `ListTasks`, `CancelTask`) and 0.3 (`message/send`, `tasks/get`, `tasks/cancel`), ' +
        'sent as `application/json` or `application/a2a+json` and answered as `application/json`. A text message is one turn, answered as ' +
        '`POST /api/assistant/chat` answers it. Beyond the free tier, a client that activated a2a-x402 (`A2A-Extensions`) gets a task in `input-required` carrying ' +
        '`x402.payment.required`; `x402.payment.payload` on that task settles the Note as verify-payment does, and the task completes with the answer and `x402.payment.receipts` ' +
        '(docs/x402-ergo.md). Without it, the error\'s data is the `payment_required` problem. A payment that does not pay the task leaves it waiting, naming why in `x402.payment.error`. ' +
        `The task belongs to the \`Authorization: Bearer\` credential (a secret of 32 characters or more the client picks) sent when it was created: only that credential cancels it, rejects its payment or lists it (\`ListTasks\`, at most ${A2A_LIST_PAGE_SIZE.max} a page); a task created without one is nobody's and ends when paid or when its quote expires. ` +
        'Streaming and the extended card answer -32004, push notification configs -32003, as the card declares. ' +
        `Errors are JSON-RPC errors in a 200 answer: ${a2aErrorCodes}.`,
      request: a2aRequest,
      validatesOwnBody: true,
      protocol: 'json-rpc',
      requestMediaTypes: ['application/a2a+json'],
      optionalBearer: {
        scheme: A2A_TASK_OWNER_SCHEME,
        description:
          'Optional: the owner credential of an A2A task, a secret of 32 to 1024 characters the client picks (only its hash is kept). Sent on the message that creates a task, it makes the task its own; ListTasks, CancelTask and a payment-rejected message need it again. A malformed one is refused.',
      },
      responses: {
        200: { description: 'The JSON-RPC answer: the agent message, the task, the page of tasks, or a JSON-RPC error.', schema: a2aResponse },
        400: { description: 'A body that is not JSON (code `invalid_json`), before any JSON-RPC is read.' },
      },
    },
    {
      id: 'assistant-quote',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/assistant/quote',
      tag: 'Assistant',
      summary: 'Quote a question: free-tier decision or premium Note payment request',
      description:
        'Step 1 of the paid turn. A short question within the client\'s daily free allowance gets a free-tier decision; any other gets a premium quote ' +
        'whose `noteRequirements` spell out the Note a wallet must create: R4 `Coll[Byte]` reserve box id, R5 `Int` expiry height, R6 `Coll[Byte]` task hash.',
      request: quoteRequest,
      responses: {
        200: {
          description: 'Free-tier decision (`tier: "free"`) or premium quote with the Note payment request (`tier: "premium"`).',
          schema: quoteResponse,
        },
        400: {
          description: `Invalid, missing or too-long question (code \`invalid_request\`; \`errors[]\` names each field): \`question\` must be 1 to ${QUESTION_MAX_CHARACTERS} characters, \`history\` items exactly {role, content}, no other keys.`,
        },
        422: { description: UNANSWERABLE },
        429: rateLimited('Quote'),
        503: {
          description:
            'Payment configuration or wallet address unavailable: `payment_unconfigured` when the receiver address or reserve box id is not configured, ' +
            '`model_provider_not_configured` when no model could answer, ' +
            '`chain_unavailable` when the chain height cannot be read within its timeout, `receipt_storage_unavailable` when the quote cannot be stored ' +
            '(a premium quote is stored before it is shown, since verify-payment trusts only its own copy).',
        },
      },
      page: '/assistant/',
    },
    {
      id: 'assistant-quote-read',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/assistant/quote/{id}',
      tag: 'Assistant',
      summary: 'A premium quote as it was issued, by quote id',
      description:
        'Reads back the stored premium quote with `quoteId` = `id` (1 to 128 URL-safe characters), byte for byte the body POST /api/assistant/quote answered, ' +
        'so a wallet or tool that kept only the id can build the Note. It holds the question\'s hash, never its text. Free-tier decisions are not stored.',
      responses: {
        200: { description: 'The premium quote, unchanged since it was issued.', schema: storedQuote },
        400: { description: 'The id is not 1 to 128 URL-safe characters (code `invalid_request`).' },
        404: { description: 'No quote was issued with this id, or it expired unpaid and was deleted (code `quote_not_found`).' },
        410: { description: 'The quote expired (code `quote_expired`): ask for a new quote.' },
        503: { description: 'The store holding quotes is unavailable (code `receipt_storage_unavailable`).' },
      },
      page: '/assistant/',
    },
    {
      id: 'assistant-chat',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/assistant/chat',
      tag: 'Assistant',
      summary: 'Answer a free or paid turn',
      description:
        'Step 3 of the paid turn. A free-tier question needs no token; a premium question needs the `paymentToken` from verify-payment, ' +
        'which is single-use, bound to the quoted question and spent only when the answer is delivered. ' +
        'Or pay with x402 v2 (docs/x402-ergo.md): the 402 carries a `PAYMENT-REQUIRED` header offering a stored quote (scheme `exact`, network `ergo:testnet`, or `ergo:sandbox` on a server reading the sandbox chain; asset ERG in nanoERG); ' +
        'pay its Note and send the same request with a `PAYMENT-SIGNATURE` header, base64 JSON `{x402Version: 2, accepted, payload: {noteBoxId}}`. The Note is settled as verify-payment settles it, and the answer carries `PAYMENT-RESPONSE`.',
      request: chatRequest,
      requestHeaders: {
        'PAYMENT-SIGNATURE': {
          description: 'x402 v2 PaymentPayload, base64 JSON. Its `payment-identifier` id is the payer\'s retry key.',
        },
      },
      responses: {
        200: {
          description: 'Answer for an allowed free or paid turn, with the pages it cites.',
          schema: chatResponse,
          headers: { 'PAYMENT-RESPONSE': 'x402 only: base64 JSON `{success, transaction, network, payer?}`, the Note\'s transaction.' },
        },
        400: {
          description:
            'Invalid message payload (code `invalid_request`): `messages` needs at least one {role, content} item, no other keys. ' +
            '`invalid_payment_signature`: `PAYMENT-SIGNATURE` is not base64 JSON of an x402 v2 Ergo payload, or came with a `paymentToken`.',
        },
        402: {
          description:
            'Premium payment required. `payment_required`: no token was sent for a premium question; the body\'s `quote_url` names the quote endpoint to ask first. ' +
            '`payment_token_invalid`: no such token was issued; `payment_token_expired`: past `paymentTokenExpiresAt`; `payment_token_used`: already spent; ' +
            '`payment_token_question_mismatch`: the token was issued for another question. `x402_payment_refused`: the `PAYMENT-SIGNATURE` did not pay, `payment_error` says why with verify-payment\'s code.',
          headers: {
            'PAYMENT-REQUIRED': 'x402 v2, on `payment_required` and on a final `x402_payment_refused`: base64 JSON PaymentRequired offering a new stored quote, with Bazaar discovery info; `error` names the reason. Absent when no quote can be offered now.',
            'Retry-After': 'On an `x402_payment_refused` that clears by itself (`note_not_found`, `note_unconfirmed`, `payment_in_progress`): send the same payment again after this many seconds.',
          },
        },
        422: { description: `An unpaid premium question: ${UNANSWERABLE}` },
        429: rateLimited('Question'),
        502: {
          description: 'The model provider answered, but with an error status or a body that is not an answer (code `model_provider_bad_response`). No token is spent.',
        },
        503: {
          description:
            'Model provider not configured (code `model_provider_not_configured`), or it did not answer within its timeout (code `model_provider_unavailable`), ' +
            'or the store that spends the token is unavailable (code `receipt_storage_unavailable`), or an x402 payment cannot be settled because the receipt store does not extend what the receipt log signed (code `receipt_log_inconsistent`). No token is spent and no free turn is counted.',
        },
      },
    },
    {
      id: 'assistant-verify-payment',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/assistant/verify-payment',
      tag: 'Assistant',
      summary: 'Verify a testnet Note payment for a quote',
      description:
        'Step 2 of the paid turn. The server looks up its own stored quote by `quote.quoteId`, checks the question is the quoted one, reads the Note from the chain ' +
        'and checks every Note rule; then, in one transaction, marks the Note used, stores the receipt bundle and issues a single-use payment token. ' +
        'A retry with the first verification\'s `Idempotency-Key` gets the same receipt and a fresh token replacing the unspent one (one is live per Note), or 409 once it paid its turn; without the key, 409 and no token.',
      request: verifyRequest,
      requestHeaders: {
        'Idempotency-Key': {
          description: 'The payer\'s retry key: a random secret; only a retry sending it again gets a fresh token. Stored hashed.',
          pattern: '^[A-Za-z0-9_-]{16,128}$',
        },
      },
      responses: {
        200: { description: 'Payment verified, payment token issued, receipt bundle stored; on a retry after a settlement, the same receipt with a fresh token.', schema: verifyResponse },
        400: {
          description:
            'Invalid quote, question or Note box id: `invalid_request` (schema; `noteBoxId` must be 64 hexadecimal characters), ' +
            '`quote_not_found` (no quote was issued with this `quoteId`), `question_mismatch` (not the quoted question), `invalid_idempotency_key`.',
        },
        402: {
          description:
            'Payment not verifiable against the quote. `code` names the first Note rule that failed and `note_code` repeats it in the Accord v0 vocabulary: ' +
            `${noteCodes}.`,
        },
        409: {
          description:
            'This Note paid this quote: `payment_already_answered`, its token has paid its turn; `payment_already_settled`, the retry lacks the payer\'s `Idempotency-Key`. `receiptId` and `receiptUrl` name the receipt.',
        },
        410: { description: 'Quote expired (code `quote_expired`): ask for a new quote.' },
        429: rateLimited('Verification'),
        503: {
          description:
            'Receipt storage required but unavailable (code `receipt_storage_unavailable`), the chain could not be read within its timeout (code `chain_unavailable`), ' +
            'or the receipt store does not extend what the receipt log signed, so no payment is settled (code `receipt_log_inconsistent`). Nothing is written.',
        },
      },
    },
    {
      id: 'x402-supported',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/x402/facilitator/supported',
      tag: 'Assistant',
      summary: 'x402 facilitator: what it settles',
      page: '/assistant/',
      description: 'The x402 v2 kinds this facilitator verifies and settles: scheme `exact` on `ergo:testnet` (`ergo:sandbox` on a server reading the sandbox chain), for quotes issued by this service.',
      responses: { 200: { description: 'The supported kinds.', schema: x402Supported } },
    },
    {
      id: 'x402-verify',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/x402/facilitator/verify',
      tag: 'Assistant',
      summary: 'x402 facilitator: verify a Note payment',
      page: '/assistant/',
      description:
        'Whether the Note in `paymentPayload.payload.noteBoxId` pays the stored quote `paymentPayload.accepted.extra.quoteId` names: `paymentRequirements` must be exactly the requirements issued for it and `paymentPayload.accepted` exactly `paymentRequirements` ' +
        '(else `requirements_mismatch` or `unsupported_scheme`, naming the fields), then every rule verify-payment applies (a Note already settled included). Claims nothing. A refusal is `isValid: false` with its code in `invalidReason`.',
      request: x402Request,
      responses: {
        200: { description: 'The verdict.', schema: x402Verify },
        400: facilitatorInvalidRequest,
        429: rateLimited('Verification'),
        503: { description: 'The chain or the store could not be read (codes `chain_unavailable`, `receipt_storage_unavailable`).' },
      },
    },
    {
      id: 'x402-settle',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/x402/facilitator/settle',
      tag: 'Assistant',
      summary: 'x402 facilitator: settle a Note payment',
      page: '/assistant/',
      description:
        'Verifies as `verify` does, then claims the Note once: marks it used and stores the receipt bundle in one transaction, so of concurrent settles of one Note exactly one succeeds. ' +
        'The payer then gets its answer from the chat with the same PAYMENT-SIGNATURE. A refusal is `success: false` with its code in `errorReason` and claims nothing.',
      request: x402Request,
      responses: {
        200: { description: 'The settlement; `transaction` is the Note\'s transaction id.', schema: x402Settle },
        400: facilitatorInvalidRequest,
        429: rateLimited('Verification'),
        503: {
          description:
            'The chain or the store could not be read (codes `chain_unavailable`, `receipt_storage_unavailable`), or the receipt store does not extend what the receipt log signed (code `receipt_log_inconsistent`). Nothing is written.',
        },
      },
    },
    {
      id: 'assistant-terms',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/assistant/terms',
      tag: 'Assistant',
      summary: 'Assistant terms',
      description:
        'The terms this server runs the assistant on, read from its configuration on every request: the premium price and whether premium quotes are issued now, the receiver and reserve box a Note must name, quote and payment-token lifetimes, confirmations, the free allowance per day and its question length, and every rule a Note must meet.',
      responses: { 200: { description: 'The terms.', schema: termsDocument } },
      page: '/assistant/',
    },
    {
      id: 'assistant-activity',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/assistant/activity',
      tag: 'Assistant',
      summary: 'Recent assistant activity',
      description:
        'Recent quotes issued, payments verified and turns answered, with times, amounts, task hashes and receipt ids; never question text, payment tokens or client addresses.',
      responses: {
        200: { description: `Recent activity records, newest first (at most ${ACTIVITY_LIMIT}).`, schema: activityDocument },
        503: { description: 'The store holding the events is unavailable (code `receipt_storage_unavailable`).' },
      },
    },
    {
      id: 'assistant-signer-health',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/assistant/signer-health',
      tag: 'Assistant',
      summary: 'Signer health',
      description:
        `Probes \`SIGNER_URL\`/health within \`SIGNER_TIMEOUT_MS\` (default 2000 ms); results are reused for ${SIGNER_HEALTH_CACHE_MS / 1000} s. ` +
        'This service never signs: the signer is a separate service.',
      responses: {
        200: { description: 'Signer reachable and healthy.', schema: signerHealthDocument },
        503: {
          description:
            'Signer unavailable or degraded: code `signer_unconfigured`, `signer_unreachable` or `signer_degraded`; the `signer_health` member carries the same body as a 200.',
        },
      },
    },
    {
      id: 'assistant-receipt',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/assistant/receipt/{id}',
      tag: 'Assistant',
      summary: 'Receipt bundle by receipt id or transaction id',
      description:
        'Step 4 of the paid turn. Path parameter `id` (at least 1 character): a receipt id (64 hex, blake2b256 of the bundle\'s canonical JSON) ' +
        'or the settlement transaction id that created the Note. Anyone can fetch a receipt and recompute its hashes.',
      responses: {
        200: {
          description: 'The receipt; new paid turns return the full receipt bundle.',
          schema: receiptDocument,
          headers: {
            'Cache-Control': '`public, max-age=31536000, immutable` once in a checkpoint of the receipt log; `public, max-age=5` before.',
            ETag: 'Strong; `If-None-Match` with it answers 304.',
          },
        },
        404: { description: 'Receipt not found (code `receipt_not_found`).' },
        503: { description: 'The receipt store is unavailable (code `receipt_storage_unavailable`).' },
      },
    },
];

