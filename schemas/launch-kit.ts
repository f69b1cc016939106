/**
 * The developer launch kit (spec 2.4, `GET /api/agent-economy/launch-kit`): the one document a
 * builder reads to go from "what is this" to a policy-checked, receipt-backed testnet flow in five
 * minutes, with every link, recipe and open gate in one place.
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, typeLiteral, versionV0 } from './common.ts';

const url = (what: string) => absoluteUrl.describe(what);

/**
 * Spec 2.4 `entrypoints`: a name -> URL map. Every surface the spec names is a key here; the
 * suffix says which face it is (`_page` human page, `_api` JSON, `_schema` JSON Schema), so an
 * agent picks the face it needs without guessing.
 */
export const launchKitEntrypointsSchema = z
  .object({
    start_page: url('Start page of the site.'),
    roadmap_page: url('Roadmap, human page.'),
    roadmap_api: url('Roadmap JSON.'),
    roadmap_schema: url('JSON Schema of the roadmap.'),
    launch_kit_page: url('This launch kit, human page.'),
    launch_kit_api: url('This launch kit as JSON.'),
    launch_kit_schema: url('JSON Schema of this launch kit.'),
    first_receipt_page: url('First-receipt flow, human page.'),
    first_receipt_api: url('First-receipt flow JSON.'),
    first_receipt_schema: url('JSON Schema of the first-receipt flow.'),
    policy_check_page: url('Policy-check contract, human page.'),
    policy_check_contract_api: url('Policy-check contract (GET): schemas, example request and verdict.'),
    policy_check_api: url('Policy-check endpoint (POST).'),
    policy_check_schema: url('JSON Schema of the policy-check request body.'),
    wallet_boundary_page: url('Wallet boundary manifest, human page.'),
    wallet_boundary_api: url('Wallet boundary manifest JSON.'),
    wallet_boundary_schema: url('JSON Schema of the wallet boundary manifest.'),
    service_publish_page: url('Service publish guide, human page.'),
    service_publish_guide_api: url('Service publish guide (GET) with an example manifest.'),
    service_publish_api: url('Service publish validation (POST).'),
    service_publish_schema: url('JSON Schema of the service manifest accepted by the publish validation.'),
    onboarding_page: url('Provider onboarding path, human page.'),
    onboarding_api: url('Provider onboarding path JSON.'),
    onboarding_schema: url('JSON Schema of the onboarding path.'),
    reputation_page: url('Reputation graph, human page.'),
    reputation_api: url('Reputation graph JSON.'),
    reputation_schema: url('JSON Schema of the reputation graph.'),
    mcp_tools_page: url('Economic MCP tools manifest, human page.'),
    mcp_tools_api: url('Economic MCP tools manifest JSON.'),
    mcp_tools_schema: url('JSON Schema of the MCP tools manifest.'),
    job_acceptance_page: url('Job acceptance guide, human page.'),
    job_acceptance_guide_api: url('Job acceptance guide (GET) with an example intent.'),
    job_acceptance_api: url('Job acceptance validation (POST).'),
    job_acceptance_schema: url('JSON Schema of the job acceptance intent.'),
    job_quote_page: url('Job quote guide, human page.'),
    job_quote_guide_api: url('Job quote guide (GET) with an example request.'),
    job_quote_api: url('Job quote scaffold (POST).'),
    job_quote_schema: url('JSON Schema of the job quote request.'),
    discovery_page: url('Discovery descriptor, human page.'),
    discovery_api: url('Discovery descriptor JSON (`/.well-known` form).'),
    discovery_schema: url('JSON Schema of the discovery descriptor.'),
    openapi: url('OpenAPI 3.1.0 description of the whole API.'),
    api_reference_page: url('Human API reference generated from the same OpenAPI document.'),
    proof_explorer_page: url('Proof explorer, human page.'),
    proof_explorer_api: url('Proof explorer JSON.'),
    proof_explorer_schema: url('JSON Schema of the proof explorer.'),
    developer_services_page: url('Developer services index, human page.'),
    developer_services_api: url('Developer services index JSON.'),
    developer_services_schema: url('JSON Schema of the developer services index.'),
    developer_tools_page: url('Developer tools, human page.'),
    developer_tools_api: url('Developer tools catalogue (GET) with example request bodies.'),
    developer_tools_schema: url('JSON Schema of a developer tool request (POST body).'),
    review_pack_page: url('External review pack, human page.'),
    review_pack_api: url('External review pack JSON.'),
    review_pack_schema: url('JSON Schema of the review pack.'),
    release_watchlist_page: url('Release watchlist, human page.'),
    release_watchlist_api: url('Release watchlist JSON.'),
    release_watchlist_schema: url('JSON Schema of the release watchlist.'),
    current_release_page: url('Current release, human page.'),
    current_release_api: url('Current release JSON (commit, deployment URL, gate).'),
    current_release_schema: url('JSON Schema of the current release.'),
    mainnet_gate_api: url('Mainnet gate status JSON.'),
    live_status_api: url('Live status JSON.'),
    mcp_health: url('Health of the MCP host; check it before connecting to `mcp_endpoint`.'),
    mcp_endpoint: url('The MCP endpoint (Streamable HTTP).'),
  })
  .describe('Every entrypoint by name. Suffix `_page`: human page; `_api`: JSON; `_schema`: JSON Schema of that JSON.');

export const FIVE_MINUTE_STEP_IDS = [
  'check-live-state',
  'open-latest-receipt',
  'inspect-receipt-json',
  'run-policy-check',
  'inspect-wallet-boundary',
  'build-same-flow',
  'read-mainnet-gate',
] as const;

export const fiveMinuteStepSchema = z.object({
  id: z.enum(FIVE_MINUTE_STEP_IDS).describe('Step id, stable across versions.'),
  label: z.string().min(1).describe('What to do, in a few words.'),
  href: z
    .string()
    .min(1)
    .describe('Absolute URL to open; `{id}` in a path marks a receipt id or transaction id to substitute.'),
  goal: z.string().min(1).describe('Why this step matters.'),
  expected: z.string().min(1).describe('What you should see when it worked.'),
});

export const apiRecipeSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/).describe('Recipe id.'),
  label: z.string().min(1).describe('What the recipe does.'),
  method: z.enum(['GET', 'POST']).describe('HTTP method.'),
  url: absoluteUrl.describe('Endpoint the recipe calls.'),
  curl: z
    .string()
    .regex(/^curl /, 'must be a curl command')
    .describe('A complete shell command (POSIX shell quoting); POST recipes carry a real JSON body that the endpoint accepts.'),
  checks: z.array(z.string().min(1)).min(1).describe('What to verify in the answer, field by field.'),
});

export const launchKitNpmSchema = z
  .object({
    package: z.string().min(1).describe('npm package name of the assistant payment widget.'),
    version: z.string().regex(/^\d+\.\d+\.\d+$/).describe('Package version (semver).'),
    install: z.string().min(1).describe('How to install it, exactly; says where the package comes from.'),
    surfaces: z
      .array(z.enum(['quote', 'verify-payment', 'chat', 'receipt']))
      .min(1)
      .describe('Assistant endpoints the widget drives: quote, verify-payment, chat and receipt.'),
  })
  .describe('Client package for the assistant payment widget.');

export const builderKitSchema = z
  .object({
    repo: z.string().min(1).describe('Repository that holds this service; the builder kit is a checkout of it.'),
    package: z.string().min(1).describe('Package name in that repository\'s package.json.'),
    status: z
      .enum(['source_checkout', 'published'])
      .describe('`source_checkout`: used from a clone of the repository (not published to a registry); `published`: installable by name.'),
    install: z.string().min(1).describe('Install command run in the checkout (Node 24 or later).'),
    commands: z
      .array(
        z.object({
          id: z.string().min(1).describe('npm script name.'),
          command: z.string().regex(/^npm /, 'must be an npm command').describe('Command to run in the checkout.'),
          description: z.string().min(1).describe('What it does.'),
        }),
      )
      .min(1)
      .describe('Commands of the kit; every one is a script of the repository\'s package.json.'),
    surfaces: z.array(z.string().min(1)).min(1).describe('What a local run of the kit serves.'),
  })
  .describe('Run this whole service locally to build the same flow against your own instance.');

export const openGateSchema = z.object({
  id: z.enum(['external-review', 'mainnet-script-identity']).describe('Blocker id, as in the mainnet gate.'),
  label: z.string().min(1).describe('What is missing.'),
  owner: z.string().min(1).describe('Who has to produce it.'),
  href: absoluteUrl.describe('Mainnet gate status, where the blocker is tracked.'),
});

export const developerLaunchKitSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.developer_launch_kit.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    recommended_summary: z.string().min(1).describe('One paragraph an agent can quote to describe this service accurately.'),
    public_claim: z.string().min(1).describe('The claim this service makes in public, and its limits.'),
    agent_entrypoint: absoluteUrl.describe('The first document an agent reads: the discovery descriptor.'),
    agent_capabilities: absoluteUrl.describe('The capability manifest.'),
    entrypoints: launchKitEntrypointsSchema,
    five_minute_path: z.array(fiveMinuteStepSchema).length(FIVE_MINUTE_STEP_IDS.length).describe('Seven steps, in order, from live state to the mainnet gate.'),
    api_recipes: z.array(apiRecipeSchema).min(1).describe('Copy-paste calls with what to check in each answer.'),
    npm: launchKitNpmSchema,
    builder_kit: builderKitSchema,
    guardrails: z.array(z.string().min(1)).min(1).describe('Rules every integration must keep.'),
    open_gates: z.array(openGateSchema).length(2).describe('The two blockers of the mainnet gate.'),
  })
  .describe('Developer launch kit: entrypoints, a five-minute path, API recipes, packages, guardrails and open gates.');

export type DeveloperLaunchKit = z.infer<typeof developerLaunchKitSchema>;
export type FiveMinuteStepId = (typeof FIVE_MINUTE_STEP_IDS)[number];
