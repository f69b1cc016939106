/**
 * Where the policy-check contract lives: the paths of the check endpoint and the profile template,
 * and the file names of its published schemas. The catalogue (src/catalogue/entries/wallet-agent.ts)
 * declares its routes and schemas with these constants, and the engine builds every verdict's
 * `policy_contract` links from them, so the links cannot drift from the routes.
 */
import type { PolicyContractLinks } from '../../schemas/policy-check.ts';
import { schemaUrl, siteUrl } from '../config/site.ts';

export const POLICY_CHECK_PATH = '/api/agent-economy/wallet-agent/policy-check';
export const POLICY_PROFILE_TEMPLATE_PATH = '/agent-economy/wallet-agent-policy-profile.template.v0.json';

export const POLICY_SCHEMA_FILES = Object.freeze({
  profile: 'wallet-agent-policy-profile.schema.v0.json',
  request: 'wallet-agent-policy-check.schema.v0.json',
  verdict: 'wallet-agent-policy-verdict.schema.v0.json',
});

let cached: PolicyContractLinks | undefined;

/** Absolute URLs of the contract, from the site configuration; computed once, copied per verdict. */
export function policyContractLinks(): PolicyContractLinks {
  cached ??= Object.freeze({
    schema: schemaUrl(POLICY_SCHEMA_FILES.profile),
    request_schema: schemaUrl(POLICY_SCHEMA_FILES.request),
    verdict_schema: schemaUrl(POLICY_SCHEMA_FILES.verdict),
    template: siteUrl(POLICY_PROFILE_TEMPLATE_PATH),
    check_api: siteUrl(POLICY_CHECK_PATH),
  });
  return { ...cached };
}
