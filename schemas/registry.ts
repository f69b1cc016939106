/**
 * The service registry (spec 2.2, 4.1) and everything around publishing into it: the service
 * manifest a provider submits (the "service definition" the spec leaves unshown), the publish
 * validation result, the submit draft handed to the operator, and the publish guide.
 */
import { z } from 'zod';
import {
  capabilityIdSchema,
  declaredPostureSchema,
  evidenceLinkSchema,
  forbiddenClaimsListSchema,
  linkRefSchema,
  nextStepSchema,
  operatorReviewSchema,
  paymentRailSchema,
  receiptExpectationSchema,
  slug,
  urlTemplateSchema,
  validationCheckContentSchema,
  validationCheckSchema,
  validationEndpointSchema,
  validationOutcomeShape,
} from './agent-common.ts';
import { absoluteUrl, descriptorStatus, ergDecimal, isoDate, isoDateTime, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';

export const serviceProviderSchema = z
  .strictObject({
    name: z.string().min(2).max(120).describe('Name of the person or organisation operating the service.'),
    contact: z.string().min(3).max(200).describe('E-mail address or URL where the provider answers users of the service.'),
    url: absoluteUrl.describe('Home page of the provider.'),
  })
  .describe('Who operates the service.');

export const serviceEndpointSchema = z
  .strictObject({
    method: z.enum(['GET', 'POST']).describe('HTTP method.'),
    url: urlTemplateSchema.describe('Absolute URL of the endpoint; `{name}` marks a path parameter.'),
    purpose: z.string().min(3).max(200).describe('What a caller gets from this endpoint.'),
  })
  .describe('One HTTP endpoint of the service.');

export const servicePricingSchema = z
  .strictObject({
    amount: ergDecimal.describe('Price per unit in testnet ERG, a decimal with exactly nine fraction digits; `0.000000000` for free services.'),
    unit: z.enum(['per_request', 'per_answer', 'per_job', 'per_verification']).describe('What one payment of `amount` buys.'),
    currency: z.literal('ERG_testnet').describe('Constant `ERG_testnet`: testnet ERG, which has no market value.'),
  })
  .describe('Price of the service.');

export const predicateRequirementSchema = z
  .strictObject({
    id: slug.describe('Stable id of the predicate.'),
    description: z.string().min(3).max(400).describe('The condition a call or payment must satisfy before the service answers.'),
  })
  .describe('A machine-checkable condition the service enforces on callers or payments.');

export const serviceEndpointsSchema = z.array(serviceEndpointSchema).min(1).max(32).describe('HTTP endpoints through which the service is used.');
export const predicateRequirementsSchema = z
  .array(predicateRequirementSchema)
  .max(32)
  .describe('Conditions the service checks on every call or payment (for example the Note binding of a paid call).');

/**
 * The service manifest (the registry's service definition). Providers POST it to the publish
 * validation; every registry entry is one, so what is listed is exactly what a provider can submit.
 */
export const serviceManifestSchema = z
  .strictObject({
    id: slug.describe('Stable service id in lower-case kebab-case; unique in the registry.'),
    name: z.string().min(3).max(80).describe('Display name of the service.'),
    description: z.string().min(20).max(600).describe('What the service does for an agent, in one paragraph.'),
    provider: serviceProviderSchema,
    capabilities: z.array(capabilityIdSchema).min(1).max(32).describe('Capabilities the service offers, in the jobs board vocabulary.'),
    endpoints: serviceEndpointsSchema,
    pricing: servicePricingSchema,
    accepted_payment_rails: z.array(paymentRailSchema).min(1).max(4).describe('How callers may pay; `free` only when the price is zero.'),
    predicate_requirements: predicateRequirementsSchema,
    evidence: z.array(evidenceLinkSchema).max(32).describe('Public evidence that the service works as described; the evidence check requires at least one item.'),
    receipt_expectation: receiptExpectationSchema,
    posture: declaredPostureSchema,
    contact: z.string().min(3).max(200).describe('E-mail address or URL where the operator reviewer reaches the maintainer of this listing.'),
  })
  .describe('Service manifest: the definition of one agent service, as submitted for publication and as listed in the registry.');
export type ServiceManifest = z.infer<typeof serviceManifestSchema>;

export const registryListingSchema = z
  .object({
    status: z
      .enum(['live_on_this_site', 'listed_for_operator_review'])
      .describe('`live_on_this_site`: operated by this site and covered by its live status; `listed_for_operator_review`: third-party listing the operator has not verified yet.'),
    operated_by: z.enum(['this_site', 'third_party']).describe('Who runs the service.'),
    listed_on: isoDate.describe('Date the listing was added or last reviewed.'),
    review_note: z.string().describe('What the operator checked, or what remains to be checked.'),
  })
  .describe('Registry metadata of a listing; not part of what a provider submits.');

export const registryEntrySchema = serviceManifestSchema
  .extend({ listing: registryListingSchema })
  .describe('One registry entry: a service manifest plus its listing metadata.');
export type RegistryEntry = z.infer<typeof registryEntrySchema>;

export const serviceRegistrySchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.agent_service_registry.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    description: z.string().describe('What the registry lists and how listings get in.'),
    posture: postureSchema,
    service_manifest_schema: absoluteUrl.describe('JSON Schema of a service manifest (`agent-service-manifest.schema.v0.json`); every entry satisfies it.'),
    publish: z
      .object({
        guide: absoluteUrl.describe('Publish guide: example manifest, example result, forbidden claims.'),
        validate: absoluteUrl.describe('POST a manifest here to validate it for operator review.'),
        result_schema: absoluteUrl.describe('JSON Schema of the publish validation result.'),
      })
      .describe('How a provider gets listed.'),
    counts: z
      .object({
        services: z.int().min(0).describe('Number of entries.'),
        live_on_this_site: z.int().min(0).describe('Entries operated by this site.'),
        listed_for_operator_review: z.int().min(0).describe('Third-party entries awaiting operator verification.'),
      })
      .describe('Entry counts.'),
    services: z.array(registryEntrySchema).min(1).describe('The listed services.'),
  })
  .describe('Service registry: agent services with capabilities, pricing, accepted payment rails, predicate requirements, evidence and posture.');
export type ServiceRegistry = z.infer<typeof serviceRegistrySchema>;

/** Response of POST /api/agents/publish, for 200 (accepted for review) and 400 (blocked) alike. */
export const publishResultSchema = z
  .object({
    type: typeLiteral('agent_economy.agent_service_publish.v0'),
    version: versionV0,
    accepted_for_operator_review: z.boolean().describe('True when no check blocked the manifest; it is then ready for operator review, never published automatically.'),
    service_id: z.string().nullable().describe('The `id` of the submitted manifest when it is a string; null otherwise.'),
    published: z.literal(false).describe('Constant false: validation never publishes.'),
    checked_at: isoDateTime.describe('When the validation ran.'),
    ...validationOutcomeShape,
  })
  .describe('Publish validation result: accepted for operator review or blocked, with every finding.');
export type PublishResult = z.infer<typeof publishResultSchema>;

/** What a provider sends to the operator once its manifest is accepted for review. */
export const serviceSubmitDraftSchema = z
  .object({
    type: typeLiteral('agent_economy.service_submit_draft.v0'),
    version: versionV0,
    requested_action: z.literal('list_in_registry_after_operator_review').describe('The only action a submission can request.'),
    publishes_automatically: z.literal(false).describe('Constant false: only the operator lists a service.'),
    service_manifest: serviceManifestSchema,
    validation: z
      .object({
        validated_with: absoluteUrl.describe('The publish validation endpoint the manifest passed.'),
        accepted_for_operator_review: z.literal(true).describe('A draft is only sent after acceptance.'),
        warnings_acknowledged: z.array(z.string()).describe('Codes of the warnings the provider has read and keeps.'),
      })
      .describe('Proof that the manifest passed validation.'),
    mcp_publish_contract: z
      .object({
        exposes_mcp_tools: z.boolean().describe('Whether the service also offers MCP tools.'),
        tools_sign_transactions: z.literal(false).describe('Constant false: listed MCP tools never sign or broadcast.'),
        contract: absoluteUrl.describe('The MCP tools manifest whose runtime boundary the tools follow.'),
      })
      .describe('The MCP publish contract the provider accepts.'),
    wallet_boundary: z
      .object({
        agents_do_not_hold_private_keys: z.literal(true).describe('Constant true: the service never asks an agent for keys or seed phrases.'),
        boundary: absoluteUrl.describe('The wallet boundary manifest the provider follows.'),
      })
      .describe('The wallet boundary the provider accepts.'),
    submit_to: operatorReviewSchema,
  })
  .describe('Submit draft: the accepted manifest and the commitments a provider hands to the operator for review.');
export type ServiceSubmitDraft = z.infer<typeof serviceSubmitDraftSchema>;

export const publishGuideSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.agent_service_publish_guide.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    description: z.string().describe('What publishing means here.'),
    posture: postureSchema,
    endpoint: validationEndpointSchema,
    checks: z
      .array(validationCheckSchema)
      .min(1)
      .describe('Checks the validation runs, in order: schema, posture, payment, predicate, evidence, forbidden claims, each with every code it can report.'),
    example_manifest: serviceManifestSchema.describe('A manifest that passes every check: the one this site publishes for its own policy check.'),
    example_validation_result: publishResultSchema.describe('The result the example manifest receives.'),
    example_submit_draft: serviceSubmitDraftSchema.describe('The submit draft built from the example manifest.'),
    forbidden_claims: forbiddenClaimsListSchema,
    schemas: z
      .object({
        service_manifest: absoluteUrl.describe('JSON Schema of the request body.'),
        publish_result: absoluteUrl.describe('JSON Schema of the result.'),
        registry: absoluteUrl.describe('JSON Schema of the registry the service is listed in after review.'),
      })
      .describe('Schema links.'),
    operator_review: operatorReviewSchema,
  })
  .describe('Publish guide: how to validate a service manifest for operator review.');
export type PublishGuide = z.infer<typeof publishGuideSchema>;

/**
 * `content/registry.json`: manifests whose URLs are link references, and whose provider is either
 * `this_site` (filled from the site configuration) or a third party written out.
 */
export const registryContentSchema = z.strictObject({
  description: z.string(),
  services: z.array(
    serviceManifestSchema.omit({ provider: true, endpoints: true, evidence: true, contact: true }).extend({
      provider: z.union([z.literal('this_site'), serviceProviderSchema]),
      contact: z.string().optional(),
      endpoints: z.array(z.strictObject({ method: z.enum(['GET', 'POST']), link: linkRefSchema, purpose: z.string() })),
      evidence: z.array(z.strictObject({ kind: evidenceLinkSchema.shape.kind, link: linkRefSchema })),
      listing: registryListingSchema.omit({ operated_by: true }),
      // The hosted assistant's price is the one its terms run (ASSISTANT_PRICE_NANOERG), read at build.
      pricing: z.union([servicePricingSchema, servicePricingSchema.omit({ amount: true }).extend({ amount_from: z.literal('assistant_terms') })]),
    }),
  ),
});

/** `content/publish-guide.json`. */
export const publishGuideContentSchema = z.strictObject({
  description: z.string(),
  example_service_id: z.string(),
  checks: z.array(validationCheckContentSchema),
  how_to_submit: z.string(),
  accepted_next_steps: z.array(nextStepSchema.omit({ href: true }).extend({ link: linkRefSchema.optional() })),
  blocked_next_steps: z.array(nextStepSchema.omit({ href: true }).extend({ link: linkRefSchema.optional() })),
});
