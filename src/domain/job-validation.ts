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
import { parseErgDecimal } from './money.ts';
import {
  addEvidenceUrlFindings,
  addForbiddenClaimFindings,
  addPostureFindings,
  addSchemaFindings,
  FindingList,
  stringField,
  wellFormedParts,
  type Finding,
  type SchemaOverride,
  type SubmissionContext,
} from './submission-findings.ts';
import { ACCEPTANCE_CODES, QUOTE_CODES } from './validation-codes.ts';

export interface JobsContext extends SubmissionContext {
  /** The jobs board. */
  jobs: readonly Job[];
  /** The instant deadlines and quote validity are judged at. */
  now: Date;
}

/**
 * The id an accepted intent or a ready quote is known by (ACCEPTED_JOB_ID_DERIVATION in
 * schemas/jobs.ts): blake2b256 of the RFC 8785 canonical JSON of {job_id, agent_id, content}, so the same submission always gets the same id and any change to
 * it gets another.
 */
export function acceptedJobId(jobId: string, agentId: string, content: unknown): string {
  return canonicalHash({ job_id: jobId, agent_id: agentId, content });
}

const RECEIPT_ID = /^[0-9a-f]{64}$/;

const EVIDENCE_OVERRIDE: SchemaOverride = {
  pointer: /^\/evidence\/links\/\d+\/url$/,
  code: 'evidence_url_malformed',
  hint: 'link evidence with an absolute http(s) URL anyone can open',
};

type EvidenceParts = Partial<Pick<JobAcceptanceIntent, 'evidence' | 'receipt_expectation' | 'job_id'>>;

function findJob(findings: FindingList, jobId: string | undefined, context: JobsContext): Job | undefined {
  if (jobId === undefined) return undefined;
  const job = context.jobs.find((candidate) => candidate.id === jobId);
  if (!job) {
    const open = context.jobs.filter((candidate) => candidate.status === 'open').map((candidate) => candidate.id);
    findings.add('job_unknown', '/job_id', `no job "${jobId}" on the jobs board; open jobs: ${open.join(', ') || 'none'}`);
    return undefined;
  }
  if (job.status === 'closed') {
    findings.add('job_closed', '/job_id', `job "${job.id}" is closed and takes no more intents or quotes`);
  } else if (Date.parse(job.deadline) <= context.now.getTime()) {
    findings.add('job_closed', '/job_id', `the deadline of job "${job.id}" (${job.deadline}) has passed (checked at ${context.now.toISOString()})`);
  }
  return job;
}

/** A receipt of type `offered` gives at least what `required` asks: the same part, or the full bundle. */
function receiptCovers(offered: Job['receipt_requirements']['type'], required: Job['receipt_requirements']['type']): boolean {
  return required === 'none' || offered === required || offered === 'full_receipt_bundle';
}

function checkReceipt(findings: FindingList, expectation: EvidenceParts['receipt_expectation'], job: Job | undefined): void {
  if (!expectation) return;
  if (!expectation.required) {
    findings.add('receipt_not_required', '/receipt_expectation/required', 'every job settles with a receipt: set required to true');
  }
  if (!job) return;
  const required = job.receipt_requirements;
  if (!receiptCovers(expectation.type, required.type)) {
    findings.add('receipt_type_weaker', '/receipt_expectation/type', `"${expectation.type}" is weaker than the "${required.type}" job "${job.id}" requires (a full_receipt_bundle covers any part)`);
  }
  for (const field of required.must_include) {
    if (!expectation.includes.includes(field)) {
      findings.add('receipt_field_missing', '/receipt_expectation/includes', `includes lacks "${field}", which the receipt of job "${job.id}" must carry`);
    }
  }
}

function checkEvidence(findings: FindingList, evidence: EvidenceParts['evidence'], context: JobsContext): void {
  if (!evidence) return;
  if (evidence.links.length === 0 && evidence.receipt_ids.length === 0) {
    findings.add('evidence_missing', '/evidence', 'offer at least one public evidence link or the id of a receipt earned before');
  }
  addEvidenceUrlFindings(
    findings,
    evidence.links.map((link, index) => ({ url: link.url, path: `/evidence/links/${index}/url` })),
    context.siteOrigin,
  );
  evidence.receipt_ids.forEach((id, index) => {
    if (!RECEIPT_ID.test(id)) {
      findings.add('evidence_receipt_id_malformed', `/evidence/receipt_ids/${index}`, `"${id}" is not a receipt id or settlement transaction id (64 lower-case hexadecimal characters)`);
    }
  });
}

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
  const parsed = jobAcceptanceIntentSchema.safeParse(raw);
  if (!parsed.success) addSchemaFindings(findings, parsed.error, raw, [EVIDENCE_OVERRIDE]);
  const parts: Partial<JobAcceptanceIntent> = parsed.success ? parsed.data : wellFormedParts(jobAcceptanceIntentSchema, raw);

  const job = findJob(findings, parts.job_id, context);

  const capabilities = parts.capabilities;
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

  const output = parts.proposed_output;
  if (output && job) {
    if (output.format !== job.deliverable.format) {
      findings.add('output_format_mismatch', '/proposed_output/format', `job "${job.id}" takes its deliverable as "${job.deliverable.format}", not "${output.format}"`);
    }
    const predicateIds = job.acceptance_predicates.map((predicate) => predicate.id);
    for (const predicate of job.acceptance_predicates) {
      if (!output.predicates_addressed.includes(predicate.id)) {
        findings.add('output_predicate_not_addressed', '/proposed_output/predicates_addressed', `predicate "${predicate.id}" (${predicate.description}) is not addressed; every acceptance predicate must hold`);
      }
    }
    output.predicates_addressed.forEach((id, index) => {
      if (!predicateIds.includes(id)) findings.add('output_predicate_unknown', `/proposed_output/predicates_addressed/${index}`, `job "${job.id}" has no predicate "${id}"`);
    });
  }

  checkReceipt(findings, parts.receipt_expectation, job);
  addPostureFindings(findings, parts.posture);
  checkEvidence(findings, parts.evidence, context);
  addForbiddenClaimFindings(findings, raw, context.matcher);

  const intent = parsed.success ? parsed.data : undefined;
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

function checkQuoteTerms(findings: FindingList, terms: JobQuoteRequest['quote_terms'] | undefined, job: Job | undefined, now: Date): void {
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
}

function isErgoAddress(address: string): boolean {
  try {
    return validateAddress(address);
  } catch {
    return false;
  }
}

function checkSettlement(findings: FindingList, settlement: JobQuoteRequest['settlement'] | undefined): void {
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
}

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
  const parsed = jobQuoteRequestSchema.safeParse(raw);
  if (!parsed.success) addSchemaFindings(findings, parsed.error, raw, QUOTE_OVERRIDES);
  const parts: Partial<JobQuoteRequest> = parsed.success ? parsed.data : wellFormedParts(jobQuoteRequestSchema, raw);

  const job = findJob(findings, parts.job_id, context);
  checkQuoteTerms(findings, parts.quote_terms, job, context.now);
  checkReceipt(findings, parts.receipt_expectation, job);
  checkSettlement(findings, parts.settlement);
  addPostureFindings(findings, parts.posture);
  checkEvidence(findings, parts.evidence, context);
  addForbiddenClaimFindings(findings, raw, context.matcher);

  const request = parsed.success ? parsed.data : undefined;
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
