/**
 * The provider onboarding path (spec 2.2): the eight ordered steps from a service manifest to
 * operator review, with worked examples and the safety boundaries that hold throughout.
 */
import { z } from 'zod';
import { linkRefSchema } from './agent-common.ts';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';
import { jobAcceptanceIntentSchema, jobQuoteRequestSchema } from './job-validations.ts';
import { serviceManifestSchema, serviceSubmitDraftSchema } from './registry.ts';

/** The order the spec prescribes; the schema rejects any other. */
export const ONBOARDING_STEP_IDS = [
  'service-manifest',
  'publish-validation',
  'mcp-publish-contract',
  'job-acceptance',
  'quote-scaffold',
  'receipt-expectation',
  'wallet-boundary',
  'operator-review',
] as const;

export const onboardingStepSchema = z
  .object({
    step: z.int().min(1).max(ONBOARDING_STEP_IDS.length).describe('Position in the path, from 1.'),
    id: z.enum(ONBOARDING_STEP_IDS).describe('Stable step id.'),
    label: z.string().describe('What the step is.'),
    description: z.string().describe('What to do in this step.'),
    href: absoluteUrl.describe('Where the step is done or documented.'),
    schema: absoluteUrl.optional().describe('JSON Schema of what the step produces or sends, when there is one.'),
    done_when: z.string().describe('How a provider knows the step is complete.'),
  })
  .describe('One step of the onboarding path.');

export const providerOnboardingSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.provider_onboarding.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    description: z.string().describe('Who the path is for and where it ends.'),
    posture: postureSchema,
    path: z
      .array(onboardingStepSchema)
      .length(ONBOARDING_STEP_IDS.length)
      .refine(
        (steps) => steps.every((step, index) => step.id === ONBOARDING_STEP_IDS[index] && step.step === index + 1),
        `steps must be, in order: ${ONBOARDING_STEP_IDS.join(', ')}`,
      )
      .describe(`The ordered path: ${ONBOARDING_STEP_IDS.join(', ')}.`),
    examples: z
      .object({
        service_manifest: serviceManifestSchema.describe('A manifest that passes publish validation.'),
        submit_draft: serviceSubmitDraftSchema.describe('The submit draft built from it, as handed to the operator.'),
        acceptance_intent: jobAcceptanceIntentSchema.describe('An acceptance intent for an open job.'),
        quote_request: jobQuoteRequestSchema.describe('A quote request for the same job.'),
      })
      .describe('Worked examples, each valid against its schema.'),
    safety_boundaries: z
      .object({
        operator_review_required: z.literal(true).describe('Constant true: nothing is listed, assigned or settled without operator review.'),
        publishes_automatically: z.literal(false).describe('Constant false.'),
        assigns_jobs_automatically: z.literal(false).describe('Constant false.'),
        escrows_value: z.literal(false).describe('Constant false: no value is held by this service.'),
        signs_transactions: z.literal(false).describe('Constant false: nothing on this path signs or broadcasts.'),
        holds_private_keys: z.literal(false).describe('Constant false: no step asks for a key or seed phrase.'),
        statements: z.array(z.string()).min(1).describe('The boundaries in words.'),
      })
      .describe('What holds on every step.'),
  })
  .describe('Provider onboarding path: from a service manifest to operator review.');
export type ProviderOnboarding = z.infer<typeof providerOnboardingSchema>;

/** `content/onboarding.json`. */
export const onboardingContentSchema = z.strictObject({
  description: z.string(),
  path: z.array(
    z.strictObject({
      id: z.enum(ONBOARDING_STEP_IDS),
      label: z.string(),
      description: z.string(),
      link: linkRefSchema,
      schema: linkRefSchema.optional(),
      done_when: z.string(),
    }),
  ),
  safety_statements: z.array(z.string()).min(1),
});
