/**
 * The guides of the two job validations (spec 2.9: GET /api/jobs/accept and /api/jobs/quote) and
 * `content/jobs.json`, the board's and the guides' texts with their worked examples.
 */
import { z } from 'zod';
import {
  evidenceLinkSchema,
  forbiddenClaimsListSchema,
  linkRefSchema,
  nextStepSchema,
  operatorReviewSchema,
  validationCheckContentSchema,
  validationCheckSchema,
  validationEndpointSchema,
} from './agent-common.ts';

import { absoluteUrl, descriptorStatus, isoDate, nanoErgString, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';
import { jobAcceptanceIntentSchema, jobAcceptanceResultSchema, jobQuoteRequestSchema, jobQuoteResultSchema } from './job-validations.ts';
import { jobSchema } from './jobs.ts';

const guideHeader = {
  ok: okTrue,
  version: versionV0,
  status: descriptorStatus,
  last_updated: isoDate,
  description: z.string().describe('What the validation does and does not do.'),
  posture: postureSchema,
  endpoint: validationEndpointSchema,
  jobs_board: absoluteUrl.describe('The jobs board the job ids refer to.'),
  forbidden_claims: forbiddenClaimsListSchema,
  operator_review: operatorReviewSchema,
};

export const jobAcceptanceGuideSchema = z
  .object({
    type: typeLiteral('agent_economy.agent_job_acceptance_guide.v0'),
    ...guideHeader,
    checks: z
      .array(validationCheckSchema)
      .min(1)
      .describe('Checks in order: schema, job id, capability, output, receipt, posture, evidence, forbidden claims, each with every code it can report.'),
    example_intent: jobAcceptanceIntentSchema.describe('An intent that passes every check against an open job of the board.'),
    example_result: jobAcceptanceResultSchema.describe('The result the example intent receives.'),
  })
  .describe('Job acceptance guide: example intent, checks and forbidden claims.');
export type JobAcceptanceGuide = z.infer<typeof jobAcceptanceGuideSchema>;

export const jobQuoteGuideSchema = z
  .object({
    type: typeLiteral('agent_economy.agent_job_quote_guide.v0'),
    ...guideHeader,
    checks: z
      .array(validationCheckSchema)
      .min(1)
      .describe('Checks in order: schema, job id, quote terms, receipt, settlement, posture, evidence, forbidden claims, each with every code it can report.'),
    example_request: jobQuoteRequestSchema.describe('A quote request that passes every check against an open job of the board.'),
    example_result: jobQuoteResultSchema.describe('The result the example request receives.'),
  })
  .describe('Job quote guide: example request, checks and forbidden claims.');
export type JobQuoteGuide = z.infer<typeof jobQuoteGuideSchema>;

const stepContent = nextStepSchema.omit({ href: true }).extend({ link: linkRefSchema.optional() });

/** `content/jobs.json`: the board, the two guides' texts and their worked examples. */
export const jobsContentSchema = z.strictObject({
  description: z.string(),
  operator_review: z.string(),
  jobs: z.array(jobSchema.omit({ reward: true, inputs: true }).extend({ reward_nanoerg: nanoErgString, inputs: z.array(linkRefSchema) })),
  acceptance_guide: z.strictObject({
    description: z.string(),
    checks: z.array(validationCheckContentSchema),
    example_intent: jobAcceptanceIntentSchema.omit({ evidence: true }).extend({
      evidence: z.strictObject({ links: z.array(z.strictObject({ kind: evidenceLinkSchema.shape.kind, link: linkRefSchema })), receipt_ids: z.array(z.string()) }),
    }),
    accepted_next_steps: z.array(stepContent),
    blocked_next_steps: z.array(stepContent),
  }),
  quote_guide: z.strictObject({
    description: z.string(),
    checks: z.array(validationCheckContentSchema),
    example_request: jobQuoteRequestSchema.omit({ evidence: true }).extend({
      evidence: z.strictObject({ links: z.array(z.strictObject({ kind: evidenceLinkSchema.shape.kind, link: linkRefSchema })), receipt_ids: z.array(z.string()) }),
    }),
    note_requirements: z.array(z.string()).min(1),
    settlement_statement: z.string().min(1),
    ready_next_steps: z.array(stepContent),
    blocked_next_steps: z.array(stepContent),
  }),
  how_to_submit: z.string(),
});
