/**
 * Builders of the jobs board, of the acceptance and quote guides and of the acceptance and quote
 * validation results, from `content/jobs.json` and the site configuration. Rewards are written once
 * in nanoERG; the ERG decimal is derived. The guides' worked examples are run through the same
 * validations as the endpoints, against the same board, so an example the endpoint would reject
 * fails the build.
 */
import type { z } from 'zod';
import jobsContent from '../../content/jobs.json' with { type: 'json' };
import { type Job, type JobsBoard } from '../../schemas/jobs.ts';
import { type JobAcceptanceIntent, type JobAcceptanceResult, type JobQuoteRequest, type JobQuoteResult } from '../../schemas/job-validations.ts';
import { jobsContentSchema, type JobAcceptanceGuide, type JobQuoteGuide } from '../../schemas/job-guides.ts';
import { ACCEPTANCE_CODES, checkAcceptanceIntent, checkQuoteRequest, QUOTE_CODES, type JobsContext } from '../domain/job-validation.ts';
import { formatNanoErg } from '../domain/money.ts';
import { routeSchemaUrl, routeUrl } from '../catalogue/lookup.ts';
import { descriptorHeader, POSTURE } from './common.ts';
import { resolveLink } from './links.ts';
import {
  assertExampleAccepted,
  checksWithCodes,
  exampleCheckedAt,
  forbiddenClaimsList,
  operatorReview,
  payloadHeader,
  submissionContext,
  validationEndpoint,
  validationOutcome,
} from './validation-guides.ts';

type JobsContent = z.infer<typeof jobsContentSchema>;
type ContentEvidence = JobsContent['acceptance_guide']['example_intent']['evidence'];

let parsed: JobsContent | undefined;
const content = (): JobsContent => (parsed ??= jobsContentSchema.parse(jobsContent));

export function boardJobs(): Job[] {
  return content().jobs.map(({ reward_nanoerg, inputs, ...job }) => ({
    ...job,
    reward: { nanoerg: reward_nanoerg, erg: formatNanoErg(BigInt(reward_nanoerg)), network: 'ergo_testnet' as const, rail: 'ergo_testnet_note' as const },
    inputs: inputs.map(resolveLink),
  }));
}

export function buildJobsBoard(): JobsBoard {
  const jobs = boardJobs();
  return {
    ok: true,
    ...descriptorHeader('agent_economy.agent_jobs.v0'),
    description: content().description,
    posture: POSTURE,
    counts: {
      open: jobs.filter((job) => job.status === 'open').length,
      closed: jobs.filter((job) => job.status === 'closed').length,
    },
    how_to_take_a_job: {
      acceptance_guide: routeUrl('jobs-accept-guide'),
      acceptance_validate: routeUrl('jobs-accept'),
      acceptance_intent_schema: routeSchemaUrl('jobs-accept'),
      quote_guide: routeUrl('jobs-quote-guide'),
      quote_validate: routeUrl('jobs-quote'),
      quote_request_schema: routeSchemaUrl('jobs-quote'),
      operator_review: content().operator_review,
    },
    jobs,
  };
}

function resolveEvidence(evidence: ContentEvidence): JobAcceptanceIntent['evidence'] {
  return { links: evidence.links.map(({ kind, link }) => ({ kind, url: resolveLink(link) })), receipt_ids: evidence.receipt_ids };
}

export function exampleAcceptanceIntent(): JobAcceptanceIntent {
  const { evidence, ...intent } = content().acceptance_guide.example_intent;
  return { ...intent, evidence: resolveEvidence(evidence) };
}

export function exampleQuoteRequest(): JobQuoteRequest {
  const { evidence, ...request } = content().quote_guide.example_request;
  return { ...request, evidence: resolveEvidence(evidence) };
}

/** The jobs context at `now`: the board as built, the compiled claims list and this site's origin. */
function jobsContext(now: Date): JobsContext {
  return { ...submissionContext(), jobs: boardJobs(), now };
}

/**
 * POST /api/jobs/accept: the acceptance checks on `body` (the JSON as received) against the board
 * at `now`, as a result document of the same shape whether accepted for review or blocked.
 */
export function acceptanceValidation(body: unknown, now: Date): JobAcceptanceResult {
  const outcome = checkAcceptanceIntent(body, jobsContext(now));
  const accepted = outcome.errors.length === 0;
  const guide = content().acceptance_guide;
  return {
    ...payloadHeader('agent_economy.agent_job_acceptance.v0'),
    accepted_for_operator_review: accepted,
    accepted_job_id: outcome.acceptedJobId,
    job_id: outcome.jobId,
    agent_id: outcome.agentId,
    assigned: false,
    checked_at: now.toISOString(),
    ...validationOutcome(outcome, { passed: guide.accepted_next_steps, blocked: guide.blocked_next_steps }),
  };
}

/**
 * POST /api/jobs/quote: the quote checks on `body` against the board at `now`. When nothing blocks,
 * the scaffold: the agreement draft and the handoff a wallet host needs, which escrows nothing.
 */
export function quoteValidation(body: unknown, now: Date): JobQuoteResult {
  const outcome = checkQuoteRequest(body, jobsContext(now));
  const guide = content().quote_guide;
  const draft = outcome.agreementDraft;
  return {
    ...payloadHeader('agent_economy.agent_job_quote.v0'),
    quote_scaffold_ready: draft !== null,
    accepted_job_id: outcome.acceptedJobId,
    job_id: outcome.jobId,
    agent_id: outcome.agentId,
    assigned: false,
    checked_at: now.toISOString(),
    quote: draft && {
      agreement_draft: draft,
      settlement_handoff: {
        rail: 'ergo_testnet_note',
        payee_address: draft.receiverAddress,
        amount_nanoerg: draft.priceNanoErg,
        task_hash: draft.taskHash,
        note_requirements: guide.note_requirements,
        signer: 'host_wallet',
        policy_check: routeUrl('policy-check'),
        escrowed: false,
        statement: guide.settlement_statement,
      },
    },
    ...validationOutcome(outcome, { passed: guide.ready_next_steps, blocked: guide.blocked_next_steps }),
  };
}

/** The result the acceptance validation gives the example intent; the build fails if it is not accepted. */
export function exampleAcceptanceResult(intent: JobAcceptanceIntent = exampleAcceptanceIntent()): JobAcceptanceResult {
  const result = acceptanceValidation(intent, new Date(exampleCheckedAt()));
  assertExampleAccepted('content/jobs.json acceptance_guide.example_intent', result.errors);
  return result;
}

/** The quote scaffold the quote validation builds for the example request; the build fails if it is blocked. */
export function exampleQuoteResult(request: JobQuoteRequest = exampleQuoteRequest()): JobQuoteResult {
  const result = quoteValidation(request, new Date(exampleCheckedAt()));
  assertExampleAccepted('content/jobs.json quote_guide.example_request', result.errors);
  return result;
}

function guideCommon(routeId: string) {
  return {
    posture: POSTURE,
    endpoint: validationEndpoint(routeId),
    jobs_board: routeUrl('jobs'),
    forbidden_claims: forbiddenClaimsList(),
    operator_review: operatorReview(content().how_to_submit),
  };
}

export function buildAcceptanceGuide(): JobAcceptanceGuide {
  const guide = content().acceptance_guide;
  const intent = exampleAcceptanceIntent();
  return {
    ok: true,
    ...descriptorHeader('agent_economy.agent_job_acceptance_guide.v0'),
    description: guide.description,
    ...guideCommon('jobs-accept'),
    checks: checksWithCodes(guide.checks, ACCEPTANCE_CODES, 'content/jobs.json acceptance_guide'),
    example_intent: intent,
    example_result: exampleAcceptanceResult(intent),
  };
}

export function buildQuoteGuide(): JobQuoteGuide {
  const guide = content().quote_guide;
  const request = exampleQuoteRequest();
  return {
    ok: true,
    ...descriptorHeader('agent_economy.agent_job_quote_guide.v0'),
    description: guide.description,
    ...guideCommon('jobs-quote'),
    checks: checksWithCodes(guide.checks, QUOTE_CODES, 'content/jobs.json quote_guide'),
    example_request: request,
    example_result: exampleQuoteResult(request),
  };
}
