/**
 * What each static descriptor is made from, so that its `last_updated` is the day one of them last
 * changed (config/source-dates.ts). A descriptor's sources are its content file, the schema that
 * shapes it, the module that builds it and whatever else its body is derived from (the route table
 * for the documents that list routes). A module that builds several descriptors dates them all when
 * it changes: a day too recent says "look again", a day too old would say "nothing moved".
 * tests/unit/descriptor-sources.test.ts holds every content file and schema a builder imports to this
 * table.
 */
import { projectLastChanged } from '../config/source-dates.ts';

const ROUTE_TABLE = 'src/catalogue';
const TRUST = 'src/descriptors/trust.ts';
const WALLET_AGENT = ['src/descriptors/wallet-agent.ts', 'schemas/wallet-agent.ts', 'schemas/policy-check.ts', 'src/domain/policy-examples.ts', 'content/wallet-agent.json'];
const JOBS = ['src/descriptors/jobs.ts', 'schemas/jobs.ts', 'content/jobs.json'];
const JOB_GUIDES = [...JOBS, 'schemas/job-guides.ts', 'schemas/job-validations.ts', 'src/domain/job-validation.ts'];
const REGISTRY = ['src/descriptors/registry.ts', 'schemas/registry.ts', 'content/registry.json', 'src/config/assistant.ts'];

export const DESCRIPTOR_SOURCES: Readonly<Record<string, readonly string[]>> = {
  'agent_economy.discovery.v0': ['src/descriptors/discovery.ts', 'schemas/discovery.ts', 'src/descriptors/endpoints.ts', ROUTE_TABLE],
  'agent_economy.agent_capabilities.v0': ['src/descriptors/discovery.ts', 'schemas/discovery.ts', 'content/capabilities.json', 'src/descriptors/custody.ts', ROUTE_TABLE],
  'agent_economy.economic_mcp_tools.v0': ['src/descriptors/mcp-tools.ts', 'schemas/mcp-tools.ts', 'content/mcp-tools.json', ROUTE_TABLE],
  'agent_economy.wallet_agent.v0': WALLET_AGENT,
  'agent_economy.wallet_agent_policy_contract.v0': [...WALLET_AGENT, 'schemas/policy-codes.ts'],
  'agent_economy.wallet_agent_reference_flow.v0': [...WALLET_AGENT, 'content/reference-flow.json'],
  'agent_economy.wallet_boundary.v0': ['src/descriptors/wallet-boundary.ts', 'schemas/wallet-boundary.ts', 'content/wallet-boundary.json'],
  'agent_economy.agent_service_registry.v0': REGISTRY,
  'agent_economy.agent_service_publish_guide.v0': [...REGISTRY, 'content/publish-guide.json', 'src/domain/publish-validation.ts'],
  'agent_economy.agent_jobs.v0': JOBS,
  'agent_economy.agent_job_acceptance_guide.v0': JOB_GUIDES,
  'agent_economy.agent_job_quote_guide.v0': JOB_GUIDES,
  'agent_economy.provider_onboarding.v0': ['src/descriptors/onboarding.ts', 'schemas/onboarding.ts', 'content/onboarding.json'],
  'agent_economy.first_receipt_flow.v0': ['src/descriptors/first-receipt.ts', 'schemas/first-receipt.ts', 'content/first-receipt.json'],
  'agent_economy.developer_launch_kit.v0': ['src/descriptors/launch-kit.ts', 'schemas/launch-kit.ts', 'content/launch-kit.json', 'content/mainnet-gate.json', 'src/descriptors/mainnet-blockers.ts'],
  'dev_services_index.v1': ['src/descriptors/developer.ts', 'schemas/dev-services.ts', ROUTE_TABLE],
  'agent_economy.dev_tools_catalogue.v0': ['src/descriptors/developer.ts', 'schemas/dev-tools-catalogue.ts', 'schemas/dev-tools.ts', 'schemas/receipt.ts', 'content/dev-tools.json'],
  'agent_economy.roadmap.v0': [TRUST, 'schemas/roadmap.ts', 'content/roadmap.json', 'src/descriptors/mainnet-blockers.ts', ROUTE_TABLE],
  // The release is the whole tree: it names the commit it was built from.
  'agent_economy.current_release.v0': ['.'],
  'agent_economy.release_watchlist.v0': [TRUST, 'schemas/release.ts', 'content/release-watchlist.json', 'package.json'],
  'agent_economy.mainnet_gate.v0': [TRUST, 'schemas/trust.ts', 'content/mainnet-gate.json', 'src/descriptors/custody.ts', 'src/descriptors/mainnet-blockers.ts'],
  'agent_economy.review_pack.v0': [TRUST, 'schemas/trust.ts', 'content/review-pack.json', 'src/descriptors/custody.ts'],
};

/** The day the descriptor `name` (its type name without the namespace) last changed; throws for a name with no sources. */
export function descriptorLastUpdated(name: string): string {
  const sources = DESCRIPTOR_SOURCES[name];
  if (!sources) throw new Error(`descriptor sources: ${name} has no entry in src/descriptors/sources.ts, so it cannot be dated`);
  return projectLastChanged(sources);
}
