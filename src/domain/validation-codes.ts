/**
 * Every finding the publish, job acceptance and job quote validations can report: its stable code,
 * the check that raises it, whether it blocks (error) or only informs (warning), and what it means.
 * The validators look severity up here, so a code cannot be an error in one place and a warning in
 * another; the guides publish these lists under each check; the tests prove each code is reachable.
 * A code, once published, keeps its meaning; a new failure mode gets a new code.
 */

export type Severity = 'error' | 'warning';

export interface CodeEntry {
  readonly code: string;
  readonly check: string;
  readonly severity: Severity;
  readonly meaning: string;
}

const entry = (check: string, severity: Severity, code: string, meaning: string): CodeEntry => ({ code, check, severity, meaning });

/** Most findings that reach a body past the first hundred would only repeat what the first ones say. */
export const MAX_FINDINGS = 100;

const SCHEMA_CODES = [
  entry('schema', 'error', 'schema_missing_field', 'A required field is absent.'),
  entry('schema', 'error', 'schema_invalid_type', 'The value has the wrong JSON type (for example a number where a string is required).'),
  entry('schema', 'error', 'schema_unknown_key', 'The key is not part of the schema; the request schemas allow no extra keys.'),
  entry('schema', 'error', 'schema_too_small', 'A string, array or number is below its minimum (length, items or value).'),
  entry('schema', 'error', 'schema_too_big', 'A string, array or number is above its maximum (length, items or value).'),
  entry('schema', 'error', 'schema_invalid_format', 'A string does not have the required form (kebab-case id, absolute URL, ISO 8601 timestamp, nine-digit decimal).'),
  entry('schema', 'error', 'schema_invalid_value', 'The value is not one of the values the schema allows.'),
  entry('schema', 'error', 'schema_invalid', 'The value fails the schema in a way not covered by the other schema codes.'),
  entry('schema', 'error', 'findings_truncated', `More than ${MAX_FINDINGS} findings: the rest are not listed. Fix these and submit again.`),
] as const;

const POSTURE_CODES = [
  entry('posture', 'error', 'posture_network_not_testnet', 'posture.network is not `ergo_testnet`, the only network while the mainnet gate is closed.'),
  entry('posture', 'error', 'posture_mainnet_ready', 'posture.mainnet_ready is true; nothing listed, accepted or quoted here is ready for mainnet.'),
  entry('posture', 'error', 'posture_production_custody', 'posture.production_custody is true; no service or agent here holds funds or keys for others.'),
] as const;

const EVIDENCE_URL_CODES = [
  entry('evidence', 'error', 'evidence_url_malformed', 'An evidence URL is not an absolute http(s) URL.'),
  entry('evidence', 'error', 'evidence_url_not_public', 'An evidence URL points at a loopback, private or local-only host that nobody else can open (this site itself excepted).'),
  entry('evidence', 'error', 'evidence_url_credentials', 'An evidence URL carries a user name or password; evidence must be open to anyone without secrets.'),
  entry('evidence', 'warning', 'evidence_url_plain_http', 'An evidence URL uses plain http; the operator prefers https for third-party evidence.'),
  entry('evidence', 'warning', 'evidence_duplicate_url', 'The same evidence URL is listed more than once.'),
] as const;

const FORBIDDEN_CLAIM_CODES = [
  entry('forbidden-claims', 'error', 'forbidden_claim', 'A string of the submission makes a claim of the forbidden-claims list (and is not a disclaimer of it).'),
] as const;

const JOB_ID_CODES = [
  entry('job-id', 'error', 'job_unknown', 'job_id names no job of the jobs board.'),
  entry('job-id', 'error', 'job_closed', 'The job is closed, or its deadline has passed.'),
] as const;

const RECEIPT_CODES = [
  entry('receipt', 'error', 'receipt_not_required', 'receipt_expectation.required is false; every job settles with a receipt.'),
  entry('receipt', 'error', 'receipt_type_weaker', 'receipt_expectation.type is weaker than the receipt type the job requires (a full receipt bundle satisfies any part).'),
  entry('receipt', 'error', 'receipt_field_missing', 'receipt_expectation.includes lacks a field the job’s receipt must include.'),
] as const;

const JOB_EVIDENCE_CODES = [
  entry('evidence', 'error', 'evidence_missing', 'evidence has neither a link nor a receipt id.'),
  ...EVIDENCE_URL_CODES,
  entry('evidence', 'error', 'evidence_receipt_id_malformed', 'A receipt id is not 64 lower-case hexadecimal characters (a receipt id or settlement transaction id).'),
] as const;

export const PUBLISH_CODES: readonly CodeEntry[] = [
  ...SCHEMA_CODES,
  ...POSTURE_CODES,
  entry('payment', 'error', 'payment_unknown_rail', 'An accepted payment rail is not one of `ergo_testnet_note` and `free`.'),
  entry('payment', 'error', 'payment_malformed_price', 'pricing.amount is not a non-negative decimal string with exactly nine fraction digits.'),
  entry('payment', 'error', 'payment_unknown_currency', 'pricing.currency is not `ERG_testnet`.'),
  entry('payment', 'error', 'payment_price_exceeds_supply', 'pricing.amount is more than all the ERG that will ever exist (97,739,924 ERG).'),
  entry('payment', 'error', 'payment_paid_without_note_rail', 'The price is above zero but `ergo_testnet_note` is not an accepted payment rail.'),
  entry('payment', 'error', 'payment_note_rail_zero_price', '`ergo_testnet_note` is accepted but the price is zero; a Note payment needs a positive price.'),
  entry('payment', 'error', 'payment_free_without_free_rail', 'The price is zero but `free` is not an accepted payment rail.'),
  entry('payment', 'error', 'payment_paid_without_receipt', 'The service is paid but its receipt expectation is not a required receipt.'),
  entry('payment', 'warning', 'payment_duplicate_rail', 'A payment rail is listed more than once.'),
  entry('predicate', 'error', 'predicate_note_binding_missing', 'The service accepts Note payments but declares no Note binding predicate (an id starting with `note-`).'),
  entry('predicate', 'error', 'predicate_duplicate_id', 'Two predicate requirements share an id.'),
  entry('predicate', 'warning', 'predicate_none_declared', 'The service declares no predicate requirement; callers cannot tell what it checks.'),
  entry('evidence', 'error', 'evidence_missing', 'evidence is empty; at least one public link is required.'),
  ...EVIDENCE_URL_CODES,
  entry('evidence', 'error', 'evidence_settlement_missing', 'A paid service links no `receipt` or `proof_explorer` evidence where its settled payments can be re-checked.'),
  ...FORBIDDEN_CLAIM_CODES,
];

export const ACCEPTANCE_CODES: readonly CodeEntry[] = [
  ...SCHEMA_CODES,
  ...JOB_ID_CODES,
  entry('capability', 'error', 'capability_missing', 'capabilities lacks a capability the job requires.'),
  entry('capability', 'warning', 'capability_duplicate', 'A capability is listed more than once.'),
  entry('output', 'error', 'output_format_mismatch', 'proposed_output.format differs from the format of the job’s deliverable.'),
  entry('output', 'error', 'output_predicate_not_addressed', 'proposed_output.predicates_addressed lacks an acceptance predicate of the job; all must hold.'),
  entry('output', 'warning', 'output_predicate_unknown', 'proposed_output.predicates_addressed names a predicate the job does not have.'),
  ...RECEIPT_CODES,
  ...POSTURE_CODES,
  ...JOB_EVIDENCE_CODES,
  ...FORBIDDEN_CLAIM_CODES,
];

export const QUOTE_CODES: readonly CodeEntry[] = [
  ...SCHEMA_CODES,
  ...JOB_ID_CODES,
  entry('quote-terms', 'error', 'quote_terms_malformed_amount', 'quote_terms.amount is not a non-negative decimal string with exactly nine fraction digits.'),
  entry('quote-terms', 'error', 'quote_terms_unknown_currency', 'quote_terms.currency is not `ERG_testnet`.'),
  entry('quote-terms', 'error', 'quote_terms_amount_not_positive', 'quote_terms.amount is zero.'),
  entry('quote-terms', 'error', 'quote_terms_amount_exceeds_reward', 'quote_terms.amount is more than the job’s reward.'),
  entry('quote-terms', 'error', 'quote_terms_delivery_after_deadline', 'quote_terms.delivery_deadline is after the job’s deadline.'),
  entry('quote-terms', 'error', 'quote_terms_delivery_passed', 'quote_terms.delivery_deadline is not in the future.'),
  entry('quote-terms', 'error', 'quote_terms_valid_until_not_before_delivery', 'quote_terms.valid_until is not before quote_terms.delivery_deadline.'),
  entry('quote-terms', 'error', 'quote_terms_expired', 'quote_terms.valid_until is not in the future: the quote no longer stands.'),
  ...RECEIPT_CODES,
  entry('settlement', 'error', 'settlement_unknown_rail', 'settlement.rail is not one of `ergo_testnet_note` and `free`.'),
  entry('settlement', 'error', 'settlement_rail_not_note', 'settlement.rail is not `ergo_testnet_note`; job rewards are paid with a testnet Note.'),
  entry('settlement', 'error', 'settlement_payee_invalid_address', 'settlement.payee_address does not decode as an Ergo address (base58 with a valid checksum).'),
  entry('settlement', 'error', 'settlement_payee_not_testnet', 'settlement.payee_address is a mainnet address; settlement happens on the testnet only.'),
  entry('settlement', 'error', 'settlement_task_hash_not_bound', 'settlement.binds_task_hash is false; the Note must carry the agreement’s task hash.'),
  ...POSTURE_CODES,
  ...JOB_EVIDENCE_CODES,
  ...FORBIDDEN_CLAIM_CODES,
];

/** The entry of `code` in `catalog`; a code missing from it is a programming error, not bad input. */
export function codeEntry(catalog: readonly CodeEntry[], code: string): CodeEntry {
  const found = catalog.find((candidate) => candidate.code === code);
  if (!found) throw new Error(`validation codes: "${code}" is not in this validation's catalog`);
  return found;
}
