/**
 * Every problem `code` this server answers with, its status and what it means: the `/problems/`
 * page renders this list, and each problem's `type` URL points at its entry there. `ProblemError`
 * takes only a `ProblemCode`, so a code that is not listed here does not compile.
 */
import { NOTE_CHECKS, NOTE_FAILURE_CODES, problemCodeOfNoteFailure, type NoteFailureCode } from '../../schemas/assistant.ts';

const ANY = 'any route';
const ASSISTANT = 'assistant routes';
const QUOTE = 'POST /api/assistant/quote';
const VERIFY = 'POST /api/assistant/verify-payment';
const CHAT = 'POST /api/assistant/chat';
const FAUCET = 'POST /api/dev/faucet';
const SIGNER = 'GET /api/assistant/signer-health';
/** Its problems are the data of a JSON-RPC error -32000 (schemas/a2a.ts), as every refusal there. */
const A2A = 'POST /a2a';

const LISTED = [
  { code: 'invalid_request', status: 400, where: ANY, meaning: 'The body does not match the request schema; `errors[]` names each offending field by JSON Pointer.' },
  { code: 'empty_body', status: 400, where: ANY, meaning: 'A POST arrived without a body.' },
  { code: 'invalid_json', status: 400, where: ANY, meaning: 'The body is not valid JSON.' },
  { code: 'invalid_utf8', status: 400, where: ANY, meaning: 'The body is not valid UTF-8.' },
  { code: 'too_deeply_nested', status: 400, where: ANY, meaning: 'The body nests arrays or objects deeper than 32 levels.' },
  { code: 'invalid_url', status: 400, where: ANY, meaning: 'The request target is not a valid URL.' },
  { code: 'not_found', status: 404, where: ANY, meaning: 'No endpoint at this path.' },
  { code: 'unknown_alias', status: 404, where: 'the agent hub host', meaning: 'No such short alias on the agent hub host; the discovery descriptor lists them.' },
  { code: 'method_not_allowed', status: 405, where: ANY, meaning: 'The path exists but not for this method; `Allow` lists the methods.' },
  { code: 'payload_too_large', status: 413, where: ANY, meaning: 'The body exceeds the documented limit (64 KiB).' },
  { code: 'unsupported_media_type', status: 415, where: ANY, meaning: 'The body was not sent as application/json.' },
  { code: 'rate_limited', status: 429, where: ASSISTANT, meaning: 'The per-client limit of this route is used up; `Retry-After` and `retry_after_seconds` say when to retry.' },
  { code: 'internal_error', status: 500, where: ANY, meaning: 'A bug: the request was logged; nothing was half-written.' },

  { code: 'invalid_input', status: 400, where: 'POST /api/dev/tools', meaning: 'The tool cannot read its `input` (not the encoding or the kind of value the action takes).' },

  { code: 'payment_unconfigured', status: 503, where: QUOTE, meaning: 'Premium answers are not offered: the operator has not configured the receiver address or the reserve box id.' },
  {
    code: 'question_unanswerable',
    status: 422,
    where: `${QUOTE}, ${CHAT}`,
    meaning: 'Nothing on this site answers any part of the question, so no premium quote is issued and nothing is to be paid; `search_url` names the site search. A question answered in part is quoted, its `reason` naming the parts.',
  },
  { code: 'chain_unavailable', status: 503, where: `${QUOTE}, ${VERIFY}`, meaning: 'The chain source did not answer, or answered garbage, within its timeout; nothing was written. Retry shortly.' },
  { code: 'receipt_storage_unavailable', status: 503, where: ASSISTANT, meaning: 'The store of quotes, tokens and receipts cannot be reached; nothing was written. Retry shortly.' },
  {
    code: 'receipt_log_inconsistent',
    status: 503,
    where: `${VERIFY}, ${CHAT} (an x402 payment), POST /api/x402/facilitator/settle`,
    meaning:
      'The receipt store does not extend what the receipt log signed (a restored backup, a rewritten receipt), so the log refuses to sign and no payment is settled until the operator resolves it; nothing was written, and the Note stays unspent here. `Retry-After` says when to ask again.',
  },
  { code: 'quote_not_found', status: 400, where: `${VERIFY} (404 on GET /api/assistant/quote/{id})`, meaning: 'No quote was issued with this `quoteId`.' },
  { code: 'question_mismatch', status: 400, where: VERIFY, meaning: 'The question is not the one the quote was issued for.' },
  { code: 'invalid_idempotency_key', status: 400, where: VERIFY, meaning: 'The `Idempotency-Key` header (the payer\'s retry key) is not 16 to 128 letters, digits, `-` or `_`.' },
  {
    code: 'payment_already_settled',
    status: 409,
    where: VERIFY,
    meaning: 'The Note already paid this quote, and the retry did not present the retry key the payer sent with its first verification (`Idempotency-Key`, or x402\'s `payment-identifier`): no token is handed out. `receiptId` and `receiptUrl` name the receipt.',
  },
  { code: 'payment_already_answered', status: 409, where: VERIFY, meaning: 'The Note paid this quote and its payment token has paid its turn: each payment answers once. `receiptId` and `receiptUrl` name the receipt.' },
  { code: 'quote_expired', status: 410, where: `${VERIFY}, GET /api/assistant/quote/{id}`, meaning: 'The quote is past its `expiresAt`; ask for a new quote.' },
  { code: 'receipt_log_pending', status: 409, where: 'GET /api/assistant/receipt/{id}/proof', meaning: 'The receipt is an entry of the receipt log, but no signed checkpoint includes it yet; `Retry-After` says when to ask again.' },
  { code: 'reputation_subject_not_found', status: 404, where: 'GET /api/agents/reputation/evidence', meaning: 'No subject of this kind and id has a counted receipt in the reputation graph.' },
  {
    code: 'reputation_catching_up',
    status: 503,
    where: 'GET /api/agents/reputation and /evidence',
    meaning: 'The reputation aggregates are being folded up to the receipt log\'s newest checkpoint (after a migration, say); `folded` and `log_size` say how far, `Retry-After` when to ask again.',
  },
  { code: 'receipt_not_found', status: 404, where: 'GET /api/assistant/receipt/{id}', meaning: 'No receipt is stored under this receipt id or settlement transaction id.' },

  {
    code: 'invalid_authorization',
    status: 401,
    where: A2A,
    meaning: 'The `Authorization` header is not `Bearer` and a secret of 32 to 1024 token68 characters; nothing was read.',
  },
  {
    code: 'authorization_required',
    status: 401,
    where: A2A,
    meaning: 'ListTasks, CancelTask and a rejected payment need the `Authorization: Bearer` secret the task was created with.',
  },
  {
    code: 'not_task_owner',
    status: 403,
    where: A2A,
    meaning: 'Only the client that created the task, with its `Authorization: Bearer` secret, may cancel it or reject its payment.',
  },
  { code: 'payment_required', status: 402, where: CHAT, meaning: 'A premium question (or a free question past the daily allowance) needs a payment token; `quote_url` names the quote endpoint, and the `PAYMENT-REQUIRED` header offers the same payment in x402 v2 terms.' },
  { code: 'invalid_payment_signature', status: 400, where: CHAT, meaning: 'The `PAYMENT-SIGNATURE` header is not base64 JSON of an x402 v2 payment payload for an Ergo Note, or came with a `paymentToken` too.' },
  { code: 'x402_payment_refused', status: 402, where: CHAT, meaning: 'The x402 payment did not pay this request; `payment_error` names why with verify-payment\'s code (a used or unconfirmed Note, another question, an expired quote), and `PAYMENT-REQUIRED` offers a new quote.' },
  { code: 'payment_token_invalid', status: 402, where: CHAT, meaning: 'No payment token like this was issued.' },
  { code: 'payment_token_used', status: 402, where: CHAT, meaning: 'The payment token already paid a turn; each token answers once.' },
  { code: 'payment_token_expired', status: 402, where: CHAT, meaning: 'The payment token is past `paymentTokenExpiresAt`.' },
  { code: 'payment_token_question_mismatch', status: 402, where: CHAT, meaning: 'The payment token was issued for another question.' },
  { code: 'model_provider_bad_response', status: 502, where: CHAT, meaning: 'The model provider answered with an error status or a body that is not an answer; no token was spent.' },
  { code: 'model_provider_not_configured', status: 503, where: `${QUOTE}, ${CHAT}`, meaning: 'No model provider is configured on this deployment (`ASSISTANT_MODEL_PROVIDER=none`): nothing is quoted, free or premium, and chat cannot answer.' },
  { code: 'model_provider_unavailable', status: 503, where: CHAT, meaning: 'The model provider did not answer within its timeout; no token was spent and no free turn counted.' },

  { code: 'signer_unconfigured', status: 503, where: SIGNER, meaning: 'No signer is configured (`SIGNER_URL`); `signer_health` carries the probe.' },
  { code: 'signer_unreachable', status: 503, where: SIGNER, meaning: 'The signer did not answer its health probe in time; `signer_health` carries the probe.' },
  { code: 'signer_degraded', status: 503, where: SIGNER, meaning: 'The signer answered but reports itself unhealthy; `signer_health` carries the probe.' },

  { code: 'invalid_address', status: 400, where: FAUCET, meaning: 'The address is not a valid Ergo address; `errors[]` says why.' },
  { code: 'not_testnet_address', status: 400, where: FAUCET, meaning: 'The address is valid but not a testnet address.' },
  { code: 'invalid_challenge_token', status: 400, where: FAUCET, meaning: 'The proof-of-work challenge token is malformed, expired, for another address or short of the difficulty.' },
  { code: 'challenge_token_used', status: 400, where: FAUCET, meaning: 'The proof-of-work challenge token was already spent; solve a new one.' },
  { code: 'faucet_limit_reached', status: 429, where: FAUCET, meaning: 'The per-address or per-IP payout limit is used up; `Retry-After` says when.' },
  { code: 'faucet_backend_error', status: 502, where: FAUCET, meaning: 'The payout backend refused or failed the request; nothing is known to be paid.' },
  { code: 'faucet_backend_timeout', status: 502, where: FAUCET, meaning: 'The payout backend did not answer in time; the payout may still arrive, so check the address first.' },
  { code: 'faucet_backend_unreachable', status: 502, where: FAUCET, meaning: 'The payout backend could not be reached; nothing was paid.' },
  { code: 'faucet_backend_unavailable', status: 503, where: FAUCET, meaning: 'The payout backend is busy or out of funds; `public_fallback_url` names the public faucet.' },
  { code: 'faucet_payouts_guarded', status: 503, where: FAUCET, meaning: 'Payouts are off until a dedicated backend wallet is configured; `public_fallback_url` names the public faucet.' },
  { code: 'faucet_misconfigured', status: 503, where: FAUCET, meaning: 'The faucet configuration of this deployment is invalid; no payout can be made.' },
] as const;

export type ProblemCode = (typeof LISTED)[number]['code'] | Lowercase<NoteFailureCode>;

export interface ProblemCodeEntry {
  code: ProblemCode;
  status: number;
  /** The routes that answer it. */
  where: string;
  meaning: string;
}

/** The whole list: the codes above, then one per Note rule of verify-payment (402). */
export const PROBLEM_CODES: readonly ProblemCodeEntry[] = [
  ...LISTED,
  ...NOTE_FAILURE_CODES.map((code) => ({
    code: problemCodeOfNoteFailure(code),
    status: 402,
    where: VERIFY,
    meaning: `${code}: the Note does not pay the quote unless ${NOTE_CHECKS[code].rule}`,
  })),
];
