/**
 * The job acceptance validation (POST /api/jobs/accept) and the job quote validation (POST
 * /api/jobs/quote): is an intent or a quote request ready for operator review against the jobs
 * board as it stands at `now`, and if not, everything that stands in the way. Each check runs on
 * whatever part of the body is well formed; all findings are reported at once. When nothing blocks,
 * the outcome carries a deterministic `accepted_job_id` and, for a quote, the agreement draft.
 * Pure: the board, the clock and the claims list come in through the context; nothing is assigned
 * or escrowed, whatever the outcome.
 */
import { ErgoAddress, Network, validateAddress } from '@fleet-sdk/core';
import { type Job } from '../../schemas/jobs.ts';
import { JOB_TASK_HASH_DERIVATION, jobAcceptanceIntentSchema, jobQuoteRequestSchema, type AgreementDraft, type JobAcceptanceIntent, type JobQuoteRequest } from '../../schemas/job-validations.ts';
import { canonicalHash } from './canonical-hash.ts';
import { acceptedJobId, EVIDENCE_OVERRIDE, jobEvidenceCheck, jobIdCheck, receiptCheck, type JobsContext, type JobState } from './job-checks.ts';
import { parseErgDecimal } from './money.ts';
import { FindingList, forbiddenClaimsCheck, postureCheck, schemaCheck, stringField, submissionState, type Finding, type SchemaOverride } from './submission-findings.ts';
import { catalogueOf, check, codeOf } from './validation-check.ts';

export { acceptedJobId, type JobsContext } from './job-checks.ts';

type AcceptanceState = JobState<JobAcceptanceIntent>;
type QuoteState = JobState<JobQuoteRequest>;

const capabilityCheck = check<AcceptanceState>(
  [
    codeOf('capability', 'error', 'capability_missing', 'capabilities lacks a capability the job requires.'),
    codeOf('capability', 'warning', 'capability_duplicate', 'A capability is listed more than once.'),
  ],
  (findings, { parts: { capabilities }, job }) => {
    if (capabilities) {
      if (job) {
        for (const required of job.required_capabilities) {
          if (!capabilities.includes(required)) {
            findings.add('capability_missing', '/capabilities', `lacks "${required}"; job "${job.id}" requires ${job.required_capabilities.map((c) => `"${c}"`).join(', ')}`);
          }
        }
      }
      capabilities.forEach((capability, index) => {
        if (capabilities.indexOf(capability) !== index) findings.add('capability_duplicate', `/capabilities/${index}`, `"${capability}" is listed more than once`);
      });
    }
  },
);

const outputCheck = check<AcceptanceState>(
  [
    codeOf('output', 'error', 'output_format_mismatch', 'proposed_output.format differs from the format of the job’s deliverable.'),
    codeOf('output', 'error', 'output_predicate_not_addressed', 'proposed_output.predicates_addressed lacks an acceptance predicate of the job; all must hold.'),
    codeOf('output', 'warning', 'output_predicate_unknown', 'proposed_output.predicates_addressed names a predicate the job does not have.'),
  ],
  (findings, { parts: { proposed_output: output }, job }) => {
    if (output && job) {
      if (output.format !== job.deliverable.format) {
        findings.add('output_format_mismatch', '/proposed_output/format', `job "${job.id}" takes its deliverable as "${job.deliverable.format}", not "${output.format}"`);
      }
      const predicateIds = job.acceptance_predicates.map((predicate) => predicate.id);
      for (const predicate of job.acceptance_predicates) {
        if (!output.predicates_addressed.includes(predicate.id)) {
          findings.add(
            'output_predicate_not_addressed',
            '/proposed_output/predicates_addressed',
            `predicate "${predicate.id}" (${predicate.description}) is not addressed; every acceptance predicate must hold`,
          );
        }
      }
      output.predicates_addressed.forEach((id, index) => {
        if (!predicateIds.includes(id)) findings.add('output_predicate_unknown', `/proposed_output/predicates_addressed/${index}`, `job "${job.id}" has no predicate "${id}"`);
      });
    }
  },
);

/** The acceptance checks in the order the acceptance guide lists them. */
const ACCEPTANCE_CHECKS = [schemaCheck([EVIDENCE_OVERRIDE]), jobIdCheck, capabilityCheck, outputCheck, receiptCheck, postureCheck, jobEvidenceCheck, forbiddenClaimsCheck] as const;

/** Every finding the job acceptance validation can report. */
export const ACCEPTANCE_CODES = catalogueOf(ACCEPTANCE_CHECKS);

export interface AcceptanceCheck {
  intent: JobAcceptanceIntent | undefined;
  jobId: string | null;
  agentId: string | null;
  /** Set when nothing blocks. */
  acceptedJobId: string | null;
  errors: Finding[];
  warnings: Finding[];
}

/** Runs every acceptance check on `raw`, the JSON body exactly as received. */
export function checkAcceptanceIntent(raw: unknown, context: JobsContext): AcceptanceCheck {
  const findings = new FindingList(ACCEPTANCE_CODES);
  const { valid: intent, ...parsed } = submissionState(jobAcceptanceIntentSchema, raw);
  const state: AcceptanceState = { ...parsed, context, job: undefined };
  for (const each of ACCEPTANCE_CHECKS) each.run(findings, state);
  return {
    intent,
    jobId: stringField(raw, 'job_id'),
    agentId: stringField(raw, 'agent_id'),
    acceptedJobId: intent && !findings.blocked ? acceptedJobId(intent.job_id, intent.agent_id, intent) : null,
    ...findings.lists(),
  };
}

const QUOTE_OVERRIDES: readonly SchemaOverride[] = [
  { pointer: /^\/quote_terms\/amount$/, code: 'quote_terms_malformed_amount', hint: 'write the amount in testnet ERG as a string with exactly nine fraction digits, e.g. "0.400000000"' },
  { pointer: /^\/quote_terms\/currency$/, code: 'quote_terms_unknown_currency', hint: 'the only currency is "ERG_testnet"' },
  { pointer: /^\/settlement\/rail$/, code: 'settlement_unknown_rail', hint: 'job rewards settle on "ergo_testnet_note"' },
  EVIDENCE_OVERRIDE,
];

const quoteTermsCheck = check<QuoteState>(
  [
    codeOf('quote-terms', 'error', 'quote_terms_malformed_amount', 'quote_terms.amount is not a non-negative decimal string with exactly nine fraction digits.'),
    codeOf('quote-terms', 'error', 'quote_terms_unknown_currency', 'quote_terms.currency is not `ERG_testnet`.'),
    codeOf('quote-terms', 'error', 'quote_terms_amount_not_positive', 'quote_terms.amount is zero.'),
    codeOf('quote-terms', 'error', 'quote_terms_amount_exceeds_reward', 'quote_terms.amount is more than the job’s reward.'),
    codeOf('quote-terms', 'error', 'quote_terms_delivery_after_deadline', 'quote_terms.delivery_deadline is after the job’s deadline.'),
    codeOf('quote-terms', 'error', 'quote_terms_delivery_passed', 'quote_terms.delivery_deadline is not in the future.'),
    codeOf('quote-terms', 'error', 'quote_terms_valid_until_not_before_delivery', 'quote_terms.valid_until is not before quote_terms.delivery_deadline.'),
    codeOf('quote-terms', 'error', 'quote_terms_expired', 'quote_terms.valid_until is not in the future: the quote no longer stands.'),
  ],
  (findings, { parts: { quote_terms: terms }, job, context: { now } }) => {
    if (!terms) return;
    const amount = parseErgDecimal(terms.amount);
    const delivery = Date.parse(terms.delivery_deadline);
    const validUntil = Date.parse(terms.valid_until);
    if (amount === 0n) findings.add('quote_terms_amount_not_positive', '/quote_terms/amount', 'the amount is zero; quote a positive price up to the job reward');
    if (job && amount > BigInt(job.reward.nanoerg)) {
      findings.add('quote_terms_amount_exceeds_reward', '/quote_terms/amount', `${terms.amount} ERG is more than the ${job.reward.erg} ERG reward of job "${job.id}"`);
    }
    if (job && delivery > Date.parse(job.deadline)) {
      findings.add('quote_terms_delivery_after_deadline', '/quote_terms/delivery_deadline', `${terms.delivery_deadline} is after the deadline of job "${job.id}" (${job.deadline})`);
    }
    if (delivery <= now.getTime()) {
      findings.add('quote_terms_delivery_passed', '/quote_terms/delivery_deadline', `${terms.delivery_deadline} is not in the future (checked at ${now.toISOString()})`);
    }
    if (validUntil >= delivery) {
      findings.add('quote_terms_valid_until_not_before_delivery', '/quote_terms/valid_until', `the quote must expire before delivery is due (${terms.delivery_deadline})`);
    }
    if (validUntil <= now.getTime()) {
      findings.add('quote_terms_expired', '/quote_terms/valid_until', `${terms.valid_until} is not in the future (checked at ${now.toISOString()}): the quote no longer stands`);
    }
  },
);

function isErgoAddress(address: string): boolean {
  try {
    return validateAddress(address);
  } catch {
    return false;
  }
}

const settlementCheck = check<QuoteState>(
  [
    codeOf('settlement', 'error', 'settlement_unknown_rail', 'settlement.rail is not one of `ergo_testnet_note` and `free`.'),
    codeOf('settlement', 'error', 'settlement_rail_not_note', 'settlement.rail is not `ergo_testnet_note`; job rewards are paid with a testnet Note.'),
    codeOf('settlement', 'error', 'settlement_payee_invalid_address', 'settlement.payee_address does not decode as an Ergo address (base58 with a valid checksum).'),
    codeOf('settlement', 'error', 'settlement_payee_not_testnet', 'settlement.payee_address is a mainnet address; settlement happens on the testnet only.'),
    codeOf('settlement', 'error', 'settlement_task_hash_not_bound', 'settlement.binds_task_hash is false; the Note must carry the agreement’s task hash.'),
  ],
  (findings, { parts: { settlement } }) => {
    if (!settlement) return;
    if (settlement.rail !== 'ergo_testnet_note') {
      findings.add('settlement_rail_not_note', '/settlement/rail', `job rewards are paid with a testnet Note; set rail to "ergo_testnet_note", not "${settlement.rail}"`);
    }
    if (!isErgoAddress(settlement.payee_address)) {
      findings.add('settlement_payee_invalid_address', '/settlement/payee_address', `"${settlement.payee_address}" is not a base58 Ergo address with a valid checksum`);
    } else if (ErgoAddress.getNetworkType(settlement.payee_address) !== Network.Testnet) {
      findings.add('settlement_payee_not_testnet', '/settlement/payee_address', 'this is a mainnet address; give a testnet address (P2PK testnet addresses start with 3)');
    }
    if (!settlement.binds_task_hash) {
      findings.add('settlement_task_hash_not_bound', '/settlement/binds_task_hash', 'the settlement Note must carry the agreement’s task hash in a register: set binds_task_hash to true');
    }
  },
);

/** The quote checks in the order the quote guide lists them. */
const QUOTE_CHECKS = [schemaCheck(QUOTE_OVERRIDES), jobIdCheck, quoteTermsCheck, receiptCheck, settlementCheck, postureCheck, jobEvidenceCheck, forbiddenClaimsCheck] as const;

/** Every finding the job quote validation can report. */
export const QUOTE_CODES = catalogueOf(QUOTE_CHECKS);

/** The agreement draft of a request that passed every check against `job`. */
function agreementDraft(request: JobQuoteRequest, job: Job, quoteId: string): AgreementDraft {
  const task = {
    job_id: job.id,
    agent_id: request.agent_id,
    deliverable: job.deliverable,
    acceptance_predicates: job.acceptance_predicates,
    delivery_deadline: request.quote_terms.delivery_deadline,
    receipt: request.receipt_expectation,
  };
  return {
    quoteId,
    taskHash: canonicalHash(task),
    price: request.quote_terms.amount,
    priceNanoErg: parseErgDecimal(request.quote_terms.amount).toString(),
    receiverAddress: request.settlement.payee_address,
    expiresAt: request.quote_terms.valid_until,
    terms: {
      status: 'draft_pending_operator_review',
      job_id: job.id,
      agent_id: request.agent_id,
      deliverable: job.deliverable.description,
      deliverable_format: job.deliverable.format,
      payment_rail: 'ergo_testnet_note',
      delivery_deadline: request.quote_terms.delivery_deadline,
      acceptance_predicates: job.acceptance_predicates,
      receipt: request.receipt_expectation,
      task_hash_derivation: JOB_TASK_HASH_DERIVATION,
    },
  };
}

export interface QuoteCheck {
  request: JobQuoteRequest | undefined;
  jobId: string | null;
  agentId: string | null;
  /** Set when nothing blocks; also the draft's quoteId. */
  acceptedJobId: string | null;
  /** Set when nothing blocks. */
  agreementDraft: AgreementDraft | null;
  errors: Finding[];
  warnings: Finding[];
}

/** Runs every quote check on `raw`, the JSON body exactly as received. */
export function checkQuoteRequest(raw: unknown, context: JobsContext): QuoteCheck {
  const findings = new FindingList(QUOTE_CODES);
  const { valid: request, ...parsed } = submissionState(jobQuoteRequestSchema, raw);
  const state: QuoteState = { ...parsed, context, job: undefined };
  for (const each of QUOTE_CHECKS) each.run(findings, state);
  const job = state.job;
  const ready = request !== undefined && job !== undefined && !findings.blocked;
  const id = ready ? acceptedJobId(request.job_id, request.agent_id, request) : null;
  return {
    request,
    jobId: stringField(raw, 'job_id'),
    agentId: stringField(raw, 'agent_id'),
    acceptedJobId: id,
    agreementDraft: ready && id ? agreementDraft(request, job, id) : null,
    ...findings.lists(),
  };
}
