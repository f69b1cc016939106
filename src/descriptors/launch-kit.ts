/**
 * Builder of the developer launch kit (spec 2.4). Text comes from `content/launch-kit.json`; every
 * URL from the route table; recipe bodies from the same examples the endpoints publish (the policy
 * check's example request, the developer tools' hash example), so a recipe always works.
 */
import launchKitContent from '../../content/launch-kit.json' with { type: 'json' };
import mainnetGateContent from '../../content/mainnet-gate.json' with { type: 'json' };
import packageJson from '../../package.json' with { type: 'json' };
import widgetPackage from '../../packages/assistant-widget/package.json' with { type: 'json' };
import type { DeveloperLaunchKit, FiveMinuteStepId } from '../../schemas/launch-kit.ts';
import { mcpUrl, site, siteUrl } from '../config/site.ts';
import { examplePolicyCheckRequest } from '../domain/policy-examples.ts';
import { pageUrl, routeSchemaUrl, routeUrl } from '../catalogue/lookup.ts';
import { entryById } from '../catalogue/index.ts';
import { curlGet, curlPostJson, hostedRouteUrl } from './commands.ts';
import { descriptorHeader, MAINNET_BLOCKERS } from './common.ts';
import { devToolEntry } from './developer.ts';

/** Request bodies that recipes may name in content; each is the example its endpoint publishes. */
const RECIPE_BODIES: Record<string, () => unknown> = {
  'policy-check-example': () => examplePolicyCheckRequest,
  'dev-tools-hash-example': () => devToolEntry('hash').example_request,
};

function entrypoints(): DeveloperLaunchKit['entrypoints'] {
  return {
    start_page: siteUrl('/'),
    roadmap_page: pageUrl('roadmap'),
    roadmap_api: routeUrl('roadmap'),
    roadmap_schema: routeSchemaUrl('roadmap'),
    launch_kit_page: pageUrl('launch-kit'),
    launch_kit_api: routeUrl('launch-kit'),
    launch_kit_schema: routeSchemaUrl('launch-kit'),
    first_receipt_page: pageUrl('first-receipt'),
    first_receipt_api: routeUrl('first-receipt'),
    first_receipt_schema: routeSchemaUrl('first-receipt'),
    policy_check_page: pageUrl('policy-check-contract'),
    policy_check_contract_api: routeUrl('policy-check-contract'),
    policy_check_api: routeUrl('policy-check'),
    policy_check_schema: routeSchemaUrl('policy-check'),
    wallet_boundary_page: pageUrl('wallet-boundary'),
    wallet_boundary_api: routeUrl('wallet-boundary'),
    wallet_boundary_schema: routeSchemaUrl('wallet-boundary'),
    service_publish_page: pageUrl('publish'),
    service_publish_guide_api: routeUrl('publish-guide'),
    service_publish_api: routeUrl('publish'),
    service_publish_schema: routeSchemaUrl('publish'),
    onboarding_page: pageUrl('onboarding'),
    onboarding_api: routeUrl('onboarding'),
    onboarding_schema: routeSchemaUrl('onboarding'),
    reputation_page: pageUrl('reputation'),
    reputation_api: routeUrl('reputation'),
    reputation_schema: routeSchemaUrl('reputation'),
    mcp_tools_page: pageUrl('mcp-tools'),
    mcp_tools_api: routeUrl('mcp-tools'),
    mcp_tools_schema: routeSchemaUrl('mcp-tools'),
    job_acceptance_page: pageUrl('jobs-accept'),
    job_acceptance_guide_api: routeUrl('jobs-accept-guide'),
    job_acceptance_api: routeUrl('jobs-accept'),
    job_acceptance_schema: routeSchemaUrl('jobs-accept'),
    job_quote_page: pageUrl('jobs-quote'),
    job_quote_guide_api: routeUrl('jobs-quote-guide'),
    job_quote_api: routeUrl('jobs-quote'),
    job_quote_schema: routeSchemaUrl('jobs-quote'),
    discovery_page: pageUrl('discovery-well-known'),
    discovery_api: routeUrl('discovery-well-known'),
    discovery_schema: routeSchemaUrl('discovery-well-known'),
    openapi: routeUrl('openapi'),
    api_reference_page: pageUrl('openapi'),
    proof_explorer_page: pageUrl('proofs'),
    proof_explorer_api: routeUrl('proofs'),
    proof_explorer_schema: routeSchemaUrl('proofs'),
    developer_services_page: pageUrl('dev-services'),
    developer_services_api: routeUrl('dev-services'),
    developer_services_schema: routeSchemaUrl('dev-services'),
    developer_tools_page: pageUrl('dev-tools-catalogue'),
    developer_tools_api: routeUrl('dev-tools-catalogue'),
    developer_tools_schema: routeSchemaUrl('dev-tools'),
    review_pack_page: pageUrl('review-pack'),
    review_pack_api: routeUrl('review-pack'),
    review_pack_schema: routeSchemaUrl('review-pack'),
    release_watchlist_page: pageUrl('release-watchlist'),
    release_watchlist_api: routeUrl('release-watchlist'),
    release_watchlist_schema: routeSchemaUrl('release-watchlist'),
    current_release_page: pageUrl('release-current'),
    current_release_api: routeUrl('release-current'),
    current_release_schema: routeSchemaUrl('release-current'),
    mainnet_gate_api: routeUrl('mainnet-gate'),
    live_status_api: routeUrl('live'),
    mcp_health: hostedRouteUrl('mcp-health'),
    mcp_endpoint: mcpUrl('/mcp'),
  };
}

function apiRecipes(): DeveloperLaunchKit['api_recipes'] {
  return launchKitContent.api_recipes.map((recipe) => {
    const route = entryById().get(recipe.route);
    if (!route) throw new Error(`content/launch-kit.json: recipe "${recipe.id}" names unknown route "${recipe.route}"`);
    const url = hostedRouteUrl(recipe.route);
    const bodyName = 'body' in recipe ? recipe.body : undefined;
    if (route.method === 'POST') {
      const body = bodyName ? RECIPE_BODIES[bodyName] : undefined;
      if (!body) throw new Error(`content/launch-kit.json: POST recipe "${recipe.id}" needs a known body, got "${bodyName}"`);
      return { id: recipe.id, label: recipe.label, method: 'POST' as const, url, curl: curlPostJson(url, body()), checks: recipe.checks };
    }
    return { id: recipe.id, label: recipe.label, method: 'GET' as const, url, curl: curlGet(url), checks: recipe.checks };
  });
}

function builderKit(): DeveloperLaunchKit['builder_kit'] {
  const { scripts, ...kit } = launchKitContent.builder_kit;
  const known = packageJson.scripts as Record<string, string>;
  return {
    repo: site.repository,
    package: packageJson.name,
    status: kit.status as 'source_checkout',
    install: kit.install,
    commands: Object.entries(scripts).map(([id, description]) => {
      if (!(id in known)) throw new Error(`content/launch-kit.json: builder_kit names npm script "${id}", which package.json does not define`);
      return { id, command: id === 'test' || id === 'start' ? `npm ${id}` : `npm run ${id}`, description };
    }),
    surfaces: kit.surfaces,
  };
}

export function buildLaunchKit(): DeveloperLaunchKit {
  const owners = mainnetGateContent.blockers;
  return {
    ok: true,
    ...descriptorHeader('agent_economy.developer_launch_kit.v0'),
    recommended_summary: launchKitContent.recommended_summary,
    public_claim: launchKitContent.public_claim,
    agent_entrypoint: routeUrl('discovery-well-known'),
    agent_capabilities: routeUrl('agents-well-known'),
    entrypoints: entrypoints(),
    five_minute_path: launchKitContent.five_minute_path.map(({ route, face, ...step }) => ({
      ...step,
      id: step.id as FiveMinuteStepId,
      href: face === 'page' ? pageUrl(route) : hostedRouteUrl(route),
    })),
    api_recipes: apiRecipes(),
    // Name and version come from the widget's own package.json, so the kit describes what is in the repository.
    npm: {
      package: widgetPackage.name,
      version: widgetPackage.version,
      install: launchKitContent.npm.install,
      surfaces: launchKitContent.npm.surfaces as DeveloperLaunchKit['npm']['surfaces'],
    },
    builder_kit: builderKit(),
    guardrails: launchKitContent.guardrails,
    open_gates: MAINNET_BLOCKERS.map(({ id, label }) => ({ id, label, owner: owners[id].owner, href: routeUrl('mainnet-gate') })),
  };
}
