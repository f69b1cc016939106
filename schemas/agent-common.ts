/**
 * Pieces shared by the agents group: what an agent or provider declares about itself (posture,
 * evidence, receipt expectation, payment rail), the vocabulary of the three validation results
 * (publish, job acceptance, job quote) and of their guides, and the link references that
 * `content/*.json` uses instead of writing a host.
 */
import { z } from 'zod';
import { absoluteUrl, isoDate, postureSchema } from './common.ts';

/** Lower-case kebab-case identifier, the form of service ids, capability ids and predicate ids. */
export const slug = z
  .string()
  .min(2)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case kebab-case, e.g. receipt-verification');

/**
 * An absolute http(s) URL in which `{name}` may mark a path parameter. Not JSON Schema `format: uri`,
 * because braces are not allowed in a URI.
 */
export const urlTemplateSchema = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/, 'must be an absolute http(s) URL; {name} may mark a path parameter')
  .describe('Absolute http(s) URL; `{name}` marks a path parameter.');

export const capabilityIdSchema = slug.describe(
  'Capability id in lower-case kebab-case, e.g. `receipt-verification`; jobs name the capabilities they require in the same vocabulary.',
);

export const paymentRailSchema = z
  .enum(['ergo_testnet_note', 'free'])
  .describe('`ergo_testnet_note`: paid with a Note box on the Ergo testnet, bound to the task; `free`: no payment.');
export type PaymentRail = z.infer<typeof paymentRailSchema>;

export const receiptTypeSchema = z
  .enum(['full_receipt_bundle', 'settlement_receipt', 'verification_receipt', 'none'])
  .describe(
    '`full_receipt_bundle`: agreement, verification receipt and settlement receipt together; `settlement_receipt` or `verification_receipt`: that part alone; `none`: no receipt (only for free calls).',
  );

export const receiptExpectationSchema = z
  .strictObject({
    required: z.boolean().describe('Whether every paid call leaves a receipt the payer can fetch and re-check.'),
    type: receiptTypeSchema,
  })
  .describe('The receipt a caller can expect.');

/**
 * What a provider or agent says about its own posture. Deliberately open (string and booleans) so
 * that a non-testnet or mainnet-ready declaration reaches the posture check and is reported there
 * as a validation error, instead of failing as a malformed body.
 */
export const declaredPostureSchema = z
  .strictObject({
    network: z.string().min(1).max(64).describe('Network the material applies to; the posture check accepts only `ergo_testnet`.'),
    mainnet_ready: z.boolean().describe('Must be false: nothing listed or quoted here is ready for mainnet.'),
    production_custody: z.boolean().describe('Must be false: no listed service or agent holds funds or keys for others.'),
  })
  .describe('Posture declared by the submitter; checked against the service posture (testnet, not mainnet ready, no custody).');
export type DeclaredPosture = z.infer<typeof declaredPostureSchema>;

export const evidenceKindSchema = z
  .enum(['receipt', 'proof_explorer', 'live_status', 'schema', 'openapi', 'source', 'conformance_report', 'documentation'])
  .describe('What the linked evidence is.');

export const evidenceLinkSchema = z
  .strictObject({
    kind: evidenceKindSchema,
    url: absoluteUrl.describe('Where anyone can fetch and re-check the evidence.'),
  })
  .describe('One piece of publicly checkable evidence.');

/** One finding of a validation, in zod's `{code, path, message}` vocabulary. */
export const validationIssueSchema = z
  .object({
    code: z.string().regex(/^[a-z][a-z0-9_]*$/).describe('Stable machine-readable reason, e.g. `forbidden_claim`, `posture_mainnet_ready`.'),
    path: z.string().describe('JSON Pointer (RFC 6901) into the submitted body; empty for the body as a whole.'),
    message: z.string().describe('What is wrong and what would be accepted.'),
  })
  .describe('One validation finding.');

export const nextStepSchema = z
  .object({
    id: slug.describe('Stable id of the step.'),
    label: z.string().describe('What to do.'),
    href: absoluteUrl.optional().describe('Where to do it, when it is a URL.'),
  })
  .describe('A recommended next action.');

export const nextStepsSchema = z.array(nextStepSchema).describe('What to do next: the following step when nothing blocks, how to fix the submission otherwise.');

/**
 * The fields every validation result (publish, job acceptance, job quote) ends with, in this order,
 * on 200 and on 400 alike: the findings, what to do next and the site's posture.
 */
export const validationOutcomeShape = {
  errors: z.array(validationIssueSchema).describe('Blocking findings; empty when no check blocks the submission.'),
  warnings: z.array(validationIssueSchema).describe('Non-blocking findings the operator will also see.'),
  next_steps: nextStepsSchema,
  posture: postureSchema,
};

export const validationCodeSchema = z
  .object({
    code: z.string().regex(/^[a-z][a-z0-9_]*$/).describe('The stable code, as it appears in `errors[].code` or `warnings[].code`.'),
    severity: z.enum(['error', 'warning']).describe('`error`: blocks the submission (answered with 400); `warning`: reported, does not block.'),
    meaning: z.string().describe('What the finding means.'),
  })
  .describe('One finding a check can report.');

export const validationCheckSchema = z
  .object({
    id: slug.describe('Check id; errors it raises carry codes starting with the same words.'),
    label: z.string().describe('Short name of the check.'),
    description: z.string().describe('What the check verifies and what blocks the submission.'),
    codes: z.array(validationCodeSchema).min(1).describe('Every code the check can report.'),
  })
  .describe('One check that the validation endpoint runs.');

/** A check as `content/*.json` writes it; its codes come from the validators' catalog. */
export const validationCheckContentSchema = validationCheckSchema.omit({ codes: true });

export const forbiddenClaimSchema = z
  .object({
    id: slug.describe('Stable id of the claim.'),
    phrase: z.string().min(1).describe('The phrase that blocks a submission wherever it appears in a string of the submission, unless negated as `matching` describes.'),
    variants: z.array(z.string().min(1)).describe('Other wordings of the same claim, matched the same way.'),
    why: z.string().describe('Why the claim cannot be made on this testnet surface.'),
  })
  .describe('A claim no manifest, acceptance intent or quote may make.');

/** `content/forbidden-claims.json`: one versioned list for publish, accept and quote. */
export const forbiddenClaimsListSchema = z
  .object({
    version: z.int().min(1).describe('Increases by one whenever the list changes.'),
    updated: isoDate.describe('Date of the last change to the list.'),
    matching: z.string().describe('How the strings of a submission are folded and matched against the phrases, and which negations make a match a disclaimer.'),
    claims: z.array(forbiddenClaimSchema).min(1).describe('The forbidden claims.'),
  })
  .describe('Versioned list of forbidden claims.');
export type ForbiddenClaimsList = z.infer<typeof forbiddenClaimsListSchema>;

export const validationEndpointSchema = z
  .object({
    method: z.literal('POST').describe('Method of the validation endpoint.'),
    url: absoluteUrl.describe('Validation endpoint.'),
    request_schema: absoluteUrl.describe('JSON Schema of the request body.'),
    result_schema: absoluteUrl.describe('JSON Schema of the result, for 200 (accepted for review) and 400 (blocked) alike.'),
    content_type: z.literal('application/json').describe('Media type of the request body.'),
  })
  .describe('The validation endpoint this guide is for.');

export const operatorReviewSchema = z
  .object({
    required: z.literal(true).describe('Constant true: a human operator reviews every accepted submission.'),
    automatic_effect: z.literal('none').describe('Constant `none`: validation publishes, assigns and escrows nothing.'),
    how_to_submit: z.string().describe('How accepted material reaches the operator.'),
    review_pack: absoluteUrl.describe('Reviewer handoff pack: who reviews and what they check.'),
  })
  .describe('What happens after a submission is accepted for operator review.');

/**
 * A link written in `content/*.json` without a host: a route id, the human page or published schema
 * of a route, a schema file, a path on the site or the MCP host, or (only for third parties) an
 * absolute external URL. The descriptor builders resolve it through the route table and the site
 * configuration.
 */
export const linkRefSchema = z.union([
  z.strictObject({ route: z.string().min(1).describe('Route id; resolves to its URL.') }),
  z.strictObject({ page: z.string().min(1).describe('Route id; resolves to its human page.') }),
  z.strictObject({ schema_of: z.string().min(1).describe('Route id; resolves to the published schema of its body.') }),
  z.strictObject({ schema_file: z.string().min(1).describe('Published schema file name.') }),
  z.strictObject({ site: z.string().regex(/^\//, 'must start with /').describe('Path on the canonical site.') }),
  z.strictObject({ mcp: z.string().regex(/^\//, 'must start with /').describe('Path on the MCP host.') }),
  z.strictObject({ external: absoluteUrl.describe('Third-party URL (never this site).') }),
]);
export type LinkRef = z.infer<typeof linkRefSchema>;
