/**
 * Builders of the jobs board and of the acceptance and quote guides, from `content/jobs.json` and the
 * site configuration. Rewards are written once in nanoERG; the ERG decimal is derived. The guides'
 * worked examples target an open job of the same board, so they stay valid when the board changes.
 */
import type { z } from 'zod';
import jobsContent from '../../content/jobs.json' with { type: 'json' };
import {
  jobsContentSchema,
  type Job,
  type JobAcceptanceGuide,
  type JobAcceptanceIntent,
  type JobAcceptanceResult,
  type JobQuoteGuide,
  type JobQuoteRequest,
  type JobQuoteResult,
  type JobsBoard,
} from '../../schemas/jobs.ts';
import { formatNanoErg, parseErgDecimal } from '../domain/money.ts';
import { routeSchemaUrl, routeUrl } from '../routes/lookup.ts';
import { descriptorHeader, POSTURE } from './common.ts';
import { resolveLink, resolveStep } from './links.ts';
import { exampleCheckedAt, forbiddenClaimsList, operatorReview, payloadHeader, validationEndpoint } from './validation-guides.ts';

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

function openJob(id: string): Job {
  const job = boardJobs().find((candidate) => candidate.id === id);
  if (!job || job.status !== 'open') throw new Error(`content/jobs.json: the guides' example must target an open job, "${id}" is ${job ? job.status : 'missing'}`);
  return job;
}

export function exampleAcceptanceIntent(): JobAcceptanceIntent {
  const { evidence, ...intent } = content().acceptance_guide.example_intent;
  return { ...intent, evidence: resolveEvidence(evidence) };
}

export function exampleQuoteRequest(): JobQuoteRequest {
  const { evidence, ...request } = content().quote_guide.example_request;
  return { ...request, evidence: resolveEvidence(evidence) };
}

/** The result the acceptance validation gives the example intent: accepted for review, nothing assigned. */
export function exampleAcceptanceResult(intent: JobAcceptanceIntent = exampleAcceptanceIntent()): JobAcceptanceResult {
  const job = openJob(intent.job_id);
  return {
    ...payloadHeader('agent_economy.agent_job_acceptance.v0'),
    accepted_for_operator_review: true,
    accepted_job_id: job.id,
    agent_id: intent.agent_id,
    assigned: false,
    checked_at: exampleCheckedAt(),
    errors: [],
    warnings: [],
    next_steps: content().acceptance_guide.accepted_next_steps.map(resolveStep),
    posture: POSTURE,
  };
}

/** The quote scaffold the quote validation builds for the example request. */
export function exampleQuoteResult(request: JobQuoteRequest = exampleQuoteRequest()): JobQuoteResult {
  const job = openJob(request.job_id);
  const amountNanoErg = parseErgDecimal(request.quote_terms.amount).toString();
  return {
    ...payloadHeader('agent_economy.agent_job_quote.v0'),
    quote_scaffold_ready: true,
    accepted_job_id: job.id,
    agent_id: request.agent_id,
    assigned: false,
    checked_at: exampleCheckedAt(),
    quote: {
      agreement_draft: {
        status: 'draft_pending_operator_review',
        job_id: job.id,
        agent_id: request.agent_id,
        amount: request.quote_terms.amount,
        amount_nanoerg: amountNanoErg,
        currency: 'ERG_testnet',
        delivery_deadline: request.quote_terms.delivery_deadline,
        acceptance_predicates: job.acceptance_predicates.map((predicate) => predicate.id),
        receipt: request.receipt_expectation,
      },
      settlement_handoff: {
        rail: 'ergo_testnet_note',
        payee_address: request.settlement.payee_address,
        amount_nanoerg: amountNanoErg,
        note_requirements: content().quote_guide.note_requirements,
        signer: 'host_wallet',
        policy_check: routeUrl('policy-check'),
        escrowed: false,
      },
    },
    errors: [],
    warnings: [],
    next_steps: content().quote_guide.ready_next_steps.map(resolveStep),
    posture: POSTURE,
  };
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
    checks: guide.checks,
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
    checks: guide.checks,
    example_request: request,
    example_result: exampleQuoteResult(request),
  };
}
