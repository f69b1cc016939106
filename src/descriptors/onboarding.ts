/**
 * Builder of the provider onboarding path from `content/onboarding.json`. Its examples are the same
 * worked examples the publish, acceptance and quote guides publish, so every example on the site is
 * one value.
 */
import onboardingContent from '../../content/onboarding.json' with { type: 'json' };
import { onboardingContentSchema, type ProviderOnboarding } from '../../schemas/onboarding.ts';
import { descriptorHeader, POSTURE } from './common.ts';
import { exampleAcceptanceIntent, exampleQuoteRequest } from './jobs.ts';
import { resolveLink } from './links.ts';
import { buildSubmitDraft, exampleServiceManifest } from './registry.ts';

export function buildProviderOnboarding(): ProviderOnboarding {
  const content = onboardingContentSchema.parse(onboardingContent);
  const manifest = exampleServiceManifest();
  return {
    ok: true,
    ...descriptorHeader('agent_economy.provider_onboarding.v0'),
    description: content.description,
    posture: POSTURE,
    path: content.path.map(({ link, schema, ...step }, index) => ({
      step: index + 1,
      id: step.id,
      label: step.label,
      description: step.description,
      href: resolveLink(link),
      ...(schema ? { schema: resolveLink(schema) } : {}),
      done_when: step.done_when,
    })),
    examples: {
      service_manifest: manifest,
      submit_draft: buildSubmitDraft(manifest),
      acceptance_intent: exampleAcceptanceIntent(),
      quote_request: exampleQuoteRequest(),
    },
    safety_boundaries: {
      operator_review_required: true,
      publishes_automatically: false,
      assigns_jobs_automatically: false,
      escrows_value: false,
      signs_transactions: false,
      holds_private_keys: false,
      statements: content.safety_statements,
    },
  };
}
