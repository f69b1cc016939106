/**
 * Builders of the service registry, the publish guide, the submit draft and the publish validation
 * result, from `content/registry.json`, `content/publish-guide.json` and the site configuration.
 * The guide's worked example is a real registry entry, validated by the same checks the endpoint
 * runs, so the example can never drift from what is listed or from what is accepted.
 */
import type { z } from 'zod';
import publishGuideContent from '../../content/publish-guide.json' with { type: 'json' };
import registryContent from '../../content/registry.json' with { type: 'json' };
import { paidTurnConfig, type PaidTurnConfig } from '../config/assistant.ts';
import { formatNanoErg } from '../domain/money.ts';
import {
  publishGuideContentSchema,
  registryContentSchema,
  type PublishGuide,
  type PublishResult,
  type RegistryEntry,
  type ServiceManifest,
  type ServiceRegistry,
  type ServiceSubmitDraft,
} from '../../schemas/registry.ts';
import { site, siteUrl } from '../config/site.ts';
import { checkServiceManifest, PUBLISH_CODES } from '../domain/publish-validation.ts';
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
  resultSchemaUrl,
  submissionContext,
  validationEndpoint,
  validationOutcome,
} from './validation-guides.ts';

type RegistryContent = z.infer<typeof registryContentSchema>;
type PublishGuideContent = z.infer<typeof publishGuideContentSchema>;
let parsedRegistry: RegistryContent | undefined;
let parsedGuide: PublishGuideContent | undefined;
const registryText = (): RegistryContent => (parsedRegistry ??= registryContentSchema.parse(registryContent));
const guideText = (): PublishGuideContent => (parsedGuide ??= publishGuideContentSchema.parse(publishGuideContent));

/**
 * Every listing with its links resolved; this site's own services get the site as provider, and a
 * price the content takes from the assistant's terms is the one `terms` runs (the build's
 * configuration, as the terms it serves).
 */
export function registryEntries(terms: Pick<PaidTurnConfig, 'priceNanoErg'> = paidTurnConfig): RegistryEntry[] {
  return registryText().services.map(({ provider, contact, endpoints, evidence, listing, pricing, ...manifest }) => {
    const ownService = provider === 'this_site';
    return {
      ...manifest,
      pricing: 'amount_from' in pricing ? { amount: formatNanoErg(terms.priceNanoErg), unit: pricing.unit, currency: pricing.currency } : pricing,
      provider: ownService ? { name: site.name, contact: routeUrl('review-pack'), url: siteUrl('/') } : provider,
      endpoints: endpoints.map(({ method, link, purpose }) => ({ method, url: resolveLink(link), purpose })),
      evidence: evidence.map(({ kind, link }) => ({ kind, url: resolveLink(link) })),
      contact: contact ?? routeUrl('review-pack'),
      listing: { ...listing, operated_by: ownService ? ('this_site' as const) : ('third_party' as const) },
    };
  });
}

export function buildServiceRegistry(terms: Pick<PaidTurnConfig, 'priceNanoErg'> = paidTurnConfig): ServiceRegistry {
  const services = registryEntries(terms);
  // What is listed must pass what a provider's submission must pass.
  for (const { listing: _listing, ...manifest } of services) {
    assertExampleAccepted(`content/registry.json service "${manifest.id}"`, checkServiceManifest(manifest, submissionContext()).errors);
  }
  return {
    ok: true,
    ...descriptorHeader('agent_economy.agent_service_registry.v0'),
    description: registryText().description,
    posture: POSTURE,
    service_manifest_schema: routeSchemaUrl('publish'),
    publish: { guide: routeUrl('publish-guide'), validate: routeUrl('publish'), result_schema: resultSchemaUrl('publish') },
    counts: {
      services: services.length,
      live_on_this_site: services.filter((service) => service.listing.status === 'live_on_this_site').length,
      listed_for_operator_review: services.filter((service) => service.listing.status === 'listed_for_operator_review').length,
    },
    services,
  };
}

/** The manifest the publish guide and the onboarding path show: a listed service, minus its listing. */
export function exampleServiceManifest(): ServiceManifest {
  const { example_service_id } = guideText();
  const entry = registryEntries().find((service) => service.id === example_service_id);
  if (!entry) throw new Error(`content/publish-guide.json: example_service_id "${example_service_id}" is not in content/registry.json`);
  const { listing: _listing, ...manifest } = entry;
  return manifest;
}

/**
 * POST /api/agents/publish: the publish checks on `body` (the JSON as received) as a result
 * document, the same shape whether the manifest is accepted for review or blocked.
 */
export function publishValidation(body: unknown, now: Date): PublishResult {
  const content = guideText();
  const outcome = checkServiceManifest(body, submissionContext());
  const accepted = outcome.errors.length === 0;
  return {
    ...payloadHeader('agent_economy.agent_service_publish.v0'),
    accepted_for_operator_review: accepted,
    service_id: outcome.serviceId,
    published: false,
    checked_at: now.toISOString(),
    ...validationOutcome(outcome, { passed: content.accepted_next_steps, blocked: content.blocked_next_steps }),
  };
}

/** The result the publish validation gives the example manifest; the build fails if it is not accepted. */
export function examplePublishResult(manifest: ServiceManifest = exampleServiceManifest()): PublishResult {
  const result = publishValidation(manifest, new Date(exampleCheckedAt()));
  assertExampleAccepted('content/publish-guide.json example manifest', result.errors);
  return result;
}

/** The draft a provider sends to the operator once `manifest` is accepted for review. */
export function buildSubmitDraft(manifest: ServiceManifest, warningsAcknowledged: string[] = []): ServiceSubmitDraft {
  const content = guideText();
  return {
    ...payloadHeader('agent_economy.service_submit_draft.v0'),
    requested_action: 'list_in_registry_after_operator_review',
    publishes_automatically: false,
    service_manifest: manifest,
    validation: {
      validated_with: routeUrl('publish'),
      accepted_for_operator_review: true,
      warnings_acknowledged: warningsAcknowledged,
    },
    mcp_publish_contract: { exposes_mcp_tools: false, tools_sign_transactions: false, contract: routeUrl('mcp-tools') },
    wallet_boundary: { agents_do_not_hold_private_keys: true, boundary: routeUrl('wallet-boundary') },
    submit_to: operatorReview(content.how_to_submit),
  };
}

export function buildPublishGuide(): PublishGuide {
  const content = guideText();
  const manifest = exampleServiceManifest();
  return {
    ok: true,
    ...descriptorHeader('agent_economy.agent_service_publish_guide.v0'),
    description: content.description,
    posture: POSTURE,
    endpoint: validationEndpoint('publish'),
    checks: checksWithCodes(content.checks, PUBLISH_CODES, 'content/publish-guide.json'),
    example_manifest: manifest,
    example_validation_result: examplePublishResult(manifest),
    example_submit_draft: buildSubmitDraft(manifest),
    forbidden_claims: forbiddenClaimsList(),
    schemas: {
      service_manifest: routeSchemaUrl('publish'),
      publish_result: resultSchemaUrl('publish'),
      registry: routeSchemaUrl('registry'),
    },
    operator_review: operatorReview(content.how_to_submit),
  };
}
