/**
 * The jobs board (spec 2.2, 4.1): each job with its reward, acceptance predicates and receipt
 * requirements. The validations an agent runs before taking a job are `job-validations.ts`, their
 * guides `job-guides.ts`.
 */
import { z } from 'zod';
import {
  capabilityIdSchema,
  receiptTypeSchema,
  slug,
  urlTemplateSchema,
} from './agent-common.ts';

import { absoluteUrl, descriptorStatus, ergDecimal, isoDate, isoDateTime, nanoErgString, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';

const jsonPointer = z
  .string()
  .regex(/^(\/[^/]*)+$/, 'must be a JSON Pointer (RFC 6901) such as /receipts_covered')
  .describe('JSON Pointer (RFC 6901) into the delivered output.');

/** A condition the delivered output must meet, written so that a program can check it. */
export const acceptancePredicateSchema = z
  .object({
    id: slug.describe('Stable id; an acceptance intent lists the ids it addresses.'),
    field: jsonPointer,
    operator: z
      .enum(['equals', 'at_least', 'at_most', 'matches', 'includes', 'exists'])
      .describe(
        '`equals`: strict equality; `at_least`/`at_most`: numeric comparison; `matches`: the string matches the regular expression in `value`; `includes`: the array contains `value`; `exists`: the field is present (`value` true) or absent (`value` false).',
      ),
    value: z.union([z.string(), z.number(), z.boolean()]).describe('Operand of the operator.'),
    description: z.string().describe('The same condition in words.'),
  })
  .describe('Machine-checkable acceptance predicate over the delivered output.');
export type AcceptancePredicate = z.infer<typeof acceptancePredicateSchema>;

export const jobRewardSchema = z
  .object({
    nanoerg: nanoErgString.describe('Reward in nanoERG as an integer string.'),
    erg: ergDecimal.describe('The same reward in testnet ERG with nine fraction digits.'),
    network: z.literal('ergo_testnet').describe('Constant: rewards are testnet ERG, which has no market value.'),
    rail: z.literal('ergo_testnet_note').describe('Paid with a Note box on the Ergo testnet, bound to the job’s task hash.'),
  })
  .describe('Testnet reward paid after the operator accepts the delivered output.');

export const jobReceiptRequirementsSchema = z
  .object({
    required: z.literal(true).describe('Constant true: every job settles with a receipt.'),
    type: receiptTypeSchema,
    must_include: z.array(z.string().min(1)).min(1).describe('Fields the receipt must carry, e.g. `settlement_tx_id`.'),
    retention: z.literal('local_plus_public_url').describe('The agent keeps the receipt and publishes it at a public URL.'),
  })
  .describe('The receipt the settlement must leave.');

export const jobSchema = z
  .object({
    id: z.string().regex(/^job-[a-z0-9]+(?:-[a-z0-9]+)*$/).describe('Stable job id, `job-` followed by kebab-case words.'),
    title: z.string().describe('Short title.'),
    description: z.string().describe('The work, its inputs and what the output is used for.'),
    status: z.enum(['open', 'closed']).describe('`open`: acceptance intents are validated against it; `closed`: the deadline has passed or the job was filled.'),
    posted_on: isoDate.describe('Date the job was posted.'),
    deadline: isoDateTime.describe('Delivery deadline; quotes must promise delivery before it.'),
    reward: jobRewardSchema,
    required_capabilities: z.array(capabilityIdSchema).min(1).describe('Capabilities an accepting agent must declare.'),
    inputs: z.array(urlTemplateSchema).describe('Public inputs of the job; `{name}` marks a path parameter.'),
    deliverable: z
      .object({
        format: z.enum(['json', 'markdown']).describe('Format of the delivered output.'),
        description: z.string().describe('What the output contains; the acceptance predicates point into it.'),
      })
      .describe('The output the job pays for.'),
    acceptance_predicates: z.array(acceptancePredicateSchema).min(1).describe('Conditions the output must meet; all must hold.'),
    receipt_requirements: jobReceiptRequirementsSchema,
  })
  .describe('One job of the board.');
export type Job = z.infer<typeof jobSchema>;

export const jobsBoardSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.agent_jobs.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    description: z.string().describe('What the board offers and how a job is taken.'),
    posture: postureSchema,
    counts: z
      .object({
        open: z.int().min(0).describe('Open jobs.'),
        closed: z.int().min(0).describe('Closed jobs still listed for reference.'),
      })
      .describe('Job counts.'),
    how_to_take_a_job: z
      .object({
        acceptance_guide: absoluteUrl.describe('Acceptance guide with an example intent.'),
        acceptance_validate: absoluteUrl.describe('POST an acceptance intent here.'),
        acceptance_intent_schema: absoluteUrl.describe('JSON Schema of the acceptance intent.'),
        quote_guide: absoluteUrl.describe('Quote guide with an example request.'),
        quote_validate: absoluteUrl.describe('POST a quote request here.'),
        quote_request_schema: absoluteUrl.describe('JSON Schema of the quote request.'),
        operator_review: z.string().describe('What the validations do and do not do.'),
      })
      .describe('The path from reading a job to a quote scaffold.'),
    jobs: z.array(jobSchema).min(1).describe('Jobs with testnet rewards, required capabilities, acceptance predicates, receipt requirements and deadlines.'),
  })
  .describe('Jobs board: testnet work an agent can take after operator review.');
export type JobsBoard = z.infer<typeof jobsBoardSchema>;

