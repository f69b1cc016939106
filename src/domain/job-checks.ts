/**
 * What the job acceptance and job quote validations share: the board and clock they are judged
 * against, the job-id check (which looks the job up for the checks after it), and the receipt and
 * evidence checks, each with its codes. Pure.
 */
import { type Job } from '../../schemas/jobs.ts';
import type { JobAcceptanceIntent } from '../../schemas/job-validations.ts';
import { canonicalHash } from './canonical-hash.ts';
import { addEvidenceUrlFindings, EVIDENCE_URL_CODES, type SchemaOverride, type SubmissionContext, type SubmissionState } from './submission-findings.ts';
import { check, codeOf, type Check, type FindingSink } from './validation-check.ts';

export interface JobsContext extends SubmissionContext {
  /** The jobs board. */
  jobs: readonly Job[];
  /** The instant deadlines and quote validity are judged at. */
  now: Date;
}

type JobParts = Pick<JobAcceptanceIntent, 'job_id' | 'evidence' | 'receipt_expectation'>;

/** The state of a job validation: the job its body names, once the job-id check has found it on the board. */
export type JobState<Parts extends JobParts> = SubmissionState<Parts> & { context: JobsContext; job: Job | undefined };

/**
 * The id an accepted intent or a ready quote is known by (ACCEPTED_JOB_ID_DERIVATION in
 * schemas/jobs.ts): blake2b256 of the RFC 8785 canonical JSON of {job_id, agent_id, content}, so the same submission always gets the same id and any change to
 * it gets another.
 */
export function acceptedJobId(jobId: string, agentId: string, content: unknown): string {
  return canonicalHash({ job_id: jobId, agent_id: agentId, content });
}

const RECEIPT_ID = /^[0-9a-f]{64}$/;

export const EVIDENCE_OVERRIDE: SchemaOverride = {
  pointer: /^\/evidence\/links\/\d+\/url$/,
  code: 'evidence_url_malformed',
  hint: 'link evidence with an absolute http(s) URL anyone can open',
};

/** Finds the job the body names, for the checks after it; an unknown or closed job blocks. */
export const jobIdCheck: Check<JobState<JobParts>> = check(
  [codeOf('job-id', 'error', 'job_unknown', 'job_id names no job of the jobs board.'), codeOf('job-id', 'error', 'job_closed', 'The job is closed, or its deadline has passed.')],
  (findings, state) => {
    state.job = findJob(findings, state.parts.job_id, state.context);
  },
);

function findJob(findings: FindingSink, jobId: string | undefined, context: JobsContext): Job | undefined {
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

export const receiptCheck: Check<JobState<JobParts>> = check(
  [
    codeOf('receipt', 'error', 'receipt_not_required', 'receipt_expectation.required is false; every job settles with a receipt.'),
    codeOf('receipt', 'error', 'receipt_type_weaker', 'receipt_expectation.type is weaker than the receipt type the job requires (a full receipt bundle satisfies any part).'),
    codeOf('receipt', 'error', 'receipt_field_missing', 'receipt_expectation.includes lacks a field the job’s receipt must include.'),
  ],
  (findings, { parts: { receipt_expectation: expectation }, job }) => {
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
  },
);

export const jobEvidenceCheck: Check<JobState<JobParts>> = check(
  [
    codeOf('evidence', 'error', 'evidence_missing', 'evidence has neither a link nor a receipt id.'),
    ...EVIDENCE_URL_CODES,
    codeOf('evidence', 'error', 'evidence_receipt_id_malformed', 'A receipt id is not 64 lower-case hexadecimal characters (a receipt id or settlement transaction id).'),
  ],
  (findings, { parts: { evidence }, context }) => {
    if (!evidence) return;
    if (evidence.links.length === 0 && evidence.receipt_ids.length === 0) {
      findings.add('evidence_missing', '/evidence', 'offer at least one public evidence link or the id of a receipt earned before');
    }
    addEvidenceUrlFindings(
      findings,
      evidence.links.map((link, index) => ({ url: link.url, path: `/evidence/links/${index}/url` })),
      context,
    );
    evidence.receipt_ids.forEach((id, index) => {
      if (!RECEIPT_ID.test(id)) {
        findings.add('evidence_receipt_id_malformed', `/evidence/receipt_ids/${index}`, `"${id}" is not a receipt id or settlement transaction id (64 lower-case hexadecimal characters)`);
      }
    });
  },
);
