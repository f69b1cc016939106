/**
 * The trust and developer groups through the route table: every static body builds, parses with its
 * zod schema and validates against its published JSON Schema, and carries the fields and values the
 * spec names (2.3, 2.4, 2.5, 2.11, 2.12, 4.2, 4.4). Recipes are checked to be commands a shell runs
 * with the exact bodies the endpoints accept; the faucet configuration and descriptor are checked
 * never to publish the backend's secrets.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import firstReceiptContent from '../../content/first-receipt.json' with { type: 'json' };
import { devToolRequestSchema, DEV_TOOL_ACTIONS, DEV_TOOL_MAX_INPUT_CHARACTERS } from '../../schemas/dev-tools.ts';
import { devToolResultSchema } from '../../schemas/dev-tool-results.ts';
import { faucetDescriptorSchema, faucetRequestSchema } from '../../schemas/faucet.ts';
import { FIRST_RECEIPT_STEP_IDS } from '../../schemas/first-receipt.ts';
import { FIVE_MINUTE_STEP_IDS } from '../../schemas/launch-kit.ts';
import { ROADMAP_PHASE_IDS } from '../../schemas/roadmap.ts';
import { CUSTODY, withCustody } from '../../src/descriptors/custody.ts';
import { policyCheckRequestSchema } from '../../schemas/policy-check.ts';
import { resolveCommit } from '../../src/config/build-info.ts';
import { DEFAULT_FAUCET_FALLBACK_URL, loadFaucetConfig } from '../../src/config/faucet.ts';
import { mcpUrl, schemaUrl, site, typeName } from '../../src/config/site.ts';
import { MAINNET_BLOCKERS, POSTURE } from '../../src/descriptors/common.ts';
import { buildFaucetDescriptor } from '../../src/descriptors/faucet.ts';
import { checkPolicy } from '../../src/domain/policy-engine.ts';
import { examplePolicyCheckRequest } from '../../src/domain/policy-examples.ts';
import type { ApiRequest } from '../../src/lib/api.ts';
import { pageUrl, routeSchemaUrl, routeUrl } from '../../src/catalogue/lookup.ts';
import { toJsonSchemaDocument } from '../../src/catalogue/published.ts';
import { allRoutes, routeById } from '../../src/routes/table.ts';
import type { PublishedSchema } from '../../src/catalogue/types.ts';
import type { DynamicRoute, StaticRoute } from '../../src/routes/types.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));

function route(id: string) {
  const found = routeById().get(id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
}

function staticRoute(id: string): StaticRoute {
  const found = route(id);
  if (found.kind !== 'static') throw new Error(`${id} is not static`);
  return found;
}

function dynamicRoute(id: string): DynamicRoute {
  const found = route(id);
  if (found.kind !== 'dynamic') throw new Error(`${id} is not dynamic`);
  return found;
}

function validateAgainstPublished(published: PublishedSchema, body: unknown): void {
  const document = toJsonSchemaDocument(published);
  // A body built twice is checked against the schema compiled the first time.
  const validate = (typeof document.$id === 'string' && ajv.getSchema(document.$id)) || ajv.compile(document);
  if (!validate(body)) throw new Error(`${published.file}: ${ajv.errorsText(validate.errors)}`);
}

/** Builds a static body, parses it with its zod schema and validates it against the published JSON Schema. */
function build(id: string): Record<string, any> {
  const staticOne = staticRoute(id);
  const body = JSON.parse(JSON.stringify(staticOne.build!()));
  staticOne.schema!.schema.parse(body);
  validateAgainstPublished(staticOne.schema!, body);
  return body;
}

/**
 * Runs a published curl command in bash with `curl` replaced by a function that prints its
 * arguments, one per line (JSON bodies are single-line): the shell does the quoting, so this shows
 * exactly what curl would receive.
 */
function curlArguments(command: string): string[] {
  const output = execFileSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }\n${command}`], { encoding: 'utf8' });
  return output.replace(/\n$/, '').split('\n');
}

const isAbsoluteOnOurHosts = (url: string) => url.startsWith(site.base_url + '/') || url.startsWith(site.mcp_url + '/');

describe('trust and developer routes', () => {
  it('declare the fixed ids, methods, paths and schema file names of the spec', () => {
    const expected: Array<[string, string, string, string | undefined]> = [
      ['launch-kit', 'GET', '/api/agent-economy/launch-kit', 'developer-launch-kit.schema.v0.json'],
      ['first-receipt', 'GET', '/api/agent-economy/first-receipt', 'first-receipt-flow.schema.v0.json'],
      ['roadmap', 'GET', '/api/agent-economy/roadmap', 'roadmap.schema.v0.json'],
      ['release-current', 'GET', '/api/agent-economy/release/current', 'current-release.schema.v0.json'],
      ['release-watchlist', 'GET', '/agent-economy/release-watchlist.v0.json', 'release-watchlist.schema.v0.json'],
      ['mainnet-gate', 'GET', '/api/agent-economy/mainnet-gate', 'mainnet-gate.schema.v0.json'],
      ['review-pack', 'GET', '/api/agent-economy/review-pack', 'review-pack.schema.v0.json'],
      ['dev-services', 'GET', '/api/dev/services', 'dev-services-index.schema.v0.json'],
      ['dev-tools-catalogue', 'GET', '/api/dev/tools', 'dev-tools-catalogue.schema.v0.json'],
      ['dev-tools', 'POST', '/api/dev/tools', 'dev-tool-request.schema.v0.json'],
      ['faucet-descriptor', 'GET', '/api/dev/faucet', 'faucet-descriptor.schema.v0.json'],
      ['faucet', 'POST', '/api/dev/faucet', 'faucet-request.schema.v0.json'],
    ];
    for (const [id, method, path, file] of expected) {
      const found = route(id);
      expect([found.method, found.path]).toEqual([method, path]);
      expect(routeSchemaUrl(id)).toBe(schemaUrl(file!));
      expect(found.page, `${id} has a human page`).toBeTruthy();
    }
    expect(dynamicRoute('dev-tools').request?.io).toBe('input');
    expect(dynamicRoute('faucet').request?.io).toBe('input');
  });

  it('document every status the spec names for POST dev tools and the faucet', () => {
    expect(Object.keys(dynamicRoute('dev-tools').responses).map(Number).sort()).toEqual([200, 400]);
    expect(Object.keys(dynamicRoute('faucet').responses).map(Number).sort()).toEqual([200, 400, 429, 502, 503]);
    expect(dynamicRoute('dev-tools').responses[200]?.schema?.file).toBe('dev-tool-result.schema.v0.json');
    expect(dynamicRoute('faucet').responses[200]?.schema?.file).toBe('faucet-payout.schema.v0.json');
  });
});

describe('launch kit (spec 2.4)', () => {
  const kit = build('launch-kit');

  it('carries the typed header and the entrypoints', () => {
    expect(kit.ok).toBe(true);
    expect(kit.type).toBe(typeName('agent_economy.developer_launch_kit.v0'));
    expect(kit.type).toBe(`${site.namespace}.agent_economy.developer_launch_kit.v0`);
    expect(kit.version).toBe('v0');
    expect(kit.status).toBe('testnet_live_proof');
    expect(kit.last_updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(kit.agent_entrypoint).toBe(routeUrl('discovery-well-known'));
    expect(kit.agent_capabilities).toBe(routeUrl('agents-well-known'));
    for (const [name, url] of Object.entries(kit.entrypoints as Record<string, string>)) {
      expect(isAbsoluteOnOurHosts(url), `${name} -> ${url}`).toBe(true);
    }
    expect(kit.entrypoints).toMatchObject({
      start_page: `${site.base_url}/`,
      roadmap_api: routeUrl('roadmap'),
      launch_kit_api: routeUrl('launch-kit'),
      first_receipt_api: routeUrl('first-receipt'),
      policy_check_schema: routeSchemaUrl('policy-check'),
      wallet_boundary_api: routeUrl('wallet-boundary'),
      service_publish_api: routeUrl('publish'),
      onboarding_api: routeUrl('onboarding'),
      reputation_api: routeUrl('reputation'),
      mcp_tools_api: routeUrl('mcp-tools'),
      job_acceptance_api: routeUrl('jobs-accept'),
      job_quote_api: routeUrl('jobs-quote'),
      discovery_api: routeUrl('discovery-well-known'),
      openapi: routeUrl('openapi'),
      proof_explorer_api: routeUrl('proofs'),
      developer_services_api: routeUrl('dev-services'),
      developer_tools_api: routeUrl('dev-tools-catalogue'),
      review_pack_api: routeUrl('review-pack'),
      release_watchlist_api: routeUrl('release-watchlist'),
      current_release_api: routeUrl('release-current'),
      mcp_health: mcpUrl('/health'),
    });
  });

  it('has the seven five-minute steps in order', () => {
    expect(kit.five_minute_path.map((step: { id: string }) => step.id)).toEqual([...FIVE_MINUTE_STEP_IDS]);
    expect(kit.five_minute_path[0].href).toBe(routeUrl('live'));
    expect(kit.five_minute_path[1].href).toBe(pageUrl('proofs'));
    expect(kit.five_minute_path[6].href).toBe(routeUrl('mainnet-gate'));
  });

  it('publishes API recipes whose curl commands run with bodies the endpoints accept', () => {
    const recipes = kit.api_recipes as Array<{ id: string; method: string; url: string; curl: string; checks: string[] }>;
    expect(recipes.length).toBeGreaterThanOrEqual(5);
    for (const recipe of recipes) {
      const args = curlArguments(recipe.curl);
      expect(args).toContain(recipe.url);
      if (recipe.method === 'POST') {
        expect(args.slice(0, 3)).toEqual(['-sS', '-X', 'POST']);
        expect(args).toContain('content-type: application/json');
        const body = JSON.parse(args[args.indexOf('--data-binary') + 1]!);
        if (recipe.url === routeUrl('policy-check')) {
          const request = policyCheckRequestSchema.parse(body);
          expect(request).toEqual(examplePolicyCheckRequest);
          expect(checkPolicy(request, new Date('2026-11-23T00:00:00Z')).allowed).toBe(true);
        } else {
          expect(recipe.url).toBe(routeUrl('dev-tools'));
          expect(devToolRequestSchema.parse(body).action).toBe('hash');
        }
      }
    }
    expect(recipes.some((recipe) => recipe.method === 'POST' && recipe.url === routeUrl('policy-check'))).toBe(true);
  });

  it('describes the assistant widget package truthfully and both open gates', () => {
    expect(kit.npm).toMatchObject({ package: '@agent-economy/assistant-widget', version: '0.1.0', surfaces: ['quote', 'verify-payment', 'chat', 'receipt'] });
    expect(kit.npm.install).toContain('packages/assistant-widget');
    expect(kit.builder_kit.package).toBe(packageJson.name);
    for (const command of kit.builder_kit.commands as Array<{ id: string }>) expect(packageJson.scripts).toHaveProperty(command.id);
    expect(kit.guardrails.length).toBeGreaterThanOrEqual(5);
    expect(kit.open_gates).toEqual(
      MAINNET_BLOCKERS.map(({ id, label }) => ({ id, label, owner: expect.any(String), href: routeUrl('mainnet-gate') })),
    );
    expect(kit.open_gates.map((gate: { id: string }) => gate.id)).toEqual(['external-review', 'mainnet-script-identity']);
  });
});

describe('first-receipt flow (spec 2.5)', () => {
  const flow = build('first-receipt');

  it('repeats the posture at top level and links itself', () => {
    expect(flow.type).toBe(typeName('agent_economy.first_receipt_flow.v0'));
    expect([flow.version, flow.status]).toEqual(['v0', 'testnet_live_proof']);
    expect(flow.posture).toEqual(POSTURE);
    expect([flow.network, flow.mainnet_ready, flow.production_custody]).toEqual(['ergo_testnet', false, false]);
    expect(flow.canonical).toBe(pageUrl('first-receipt'));
    expect(flow.api).toBe(routeUrl('first-receipt'));
    expect(flow.schema).toBe(routeSchemaUrl('first-receipt'));
  });

  it('points the outcome at the live status until the first receipt is recorded', () => {
    expect(flow.outcome.expected_receipt_type).toBe('full_receipt_bundle');
    expect(flow.outcome.expected_status).toBe('settled_on_chain');
    expect(flow.outcome.contains).toEqual(expect.arrayContaining(['agreement', 'verification_receipt', 'settlement_receipt']));
    expect(flow.outcome.receipt_id).toBe(firstReceiptContent.receipt_id);
    if (firstReceiptContent.receipt_id === null) {
      expect(flow.outcome.receipt_api).toBe(routeUrl('live'));
      expect(flow.outcome.receipt_page).toBe(pageUrl('live'));
    }
  });

  it('has the six steps with live and closed_by_design statuses', () => {
    expect(flow.steps.map((step: { id: string }) => step.id)).toEqual([...FIRST_RECEIPT_STEP_IDS]);
    const statuses = Object.fromEntries(flow.steps.map((step: { id: string; status: string }) => [step.id, step.status]));
    expect(statuses).toEqual({
      'live-status': 'live',
      'receipt-json': 'live',
      'policy-check': 'live',
      openapi: 'live',
      'mcp-health': 'live',
      'mainnet-gate': 'closed_by_design',
    });
    const mcpStep = flow.steps.find((step: { id: string }) => step.id === 'mcp-health');
    expect(mcpStep.endpoint).toBe(mcpUrl('/health'));
    for (const step of flow.steps as Array<{ command: string }>) expect(() => curlArguments(step.command.replace(/^RECEIPT_ID=.*&& /, ''))).not.toThrow();
  });

  it('shows the policy check with the engine\'s own example request and verdict', () => {
    expect(flow.policy_check.endpoint).toBe(routeUrl('policy-check'));
    expect(flow.policy_check.example_request).toEqual(examplePolicyCheckRequest);
    expect(flow.policy_check.example_verdict).toMatchObject({ allowed: true, summary: 'policy_allows_exact_testnet_action', reasons: [] });
    const args = curlArguments(flow.policy_check.command);
    expect(JSON.parse(args[args.indexOf('--data-binary') + 1]!)).toEqual(examplePolicyCheckRequest);
    expect(flow.developer_next_actions.length).toBeGreaterThan(0);
    expect(flow.guardrails.length).toBeGreaterThan(0);
  });
});

describe('roadmap, release, watchlist, mainnet gate and review pack', () => {
  const blockerIds = MAINNET_BLOCKERS.map((blocker) => blocker.id);

  it('roadmap has the four phases in order and the pending blockers', () => {
    const roadmap = build('roadmap');
    expect(roadmap.type).toBe(typeName('agent_economy.roadmap.v0'));
    expect(roadmap.posture.mainnet_ready).toBe(false);
    expect(roadmap.phases.map((phase: { id: string }) => phase.id)).toEqual([...ROADMAP_PHASE_IDS]);
    const answering = new Set(allRoutes().filter((entry) => entry.kind === 'static' || entry.handler).map((entry) => routeUrl(entry.id)));
    for (const item of roadmap.phases[0].items as Array<{ id: string; evidence: string[] }>) {
      expect(item.evidence.length, item.id).toBeGreaterThan(0);
      for (const url of item.evidence) expect(answering.has(url), `${item.id}: ${url} answers in this build`).toBe(true);
    }
    expect(roadmap.mainnet_gate.pending_blockers.map((blocker: { id: string }) => blocker.id)).toEqual(blockerIds);
  });

  it('current release names the commit, the deployment URL and a closed gate', () => {
    const release = build('release-current');
    expect(release.release.version).toBe(packageJson.version);
    expect(release.release.deployment_url).toBe(site.base_url);
    expect(release.mainnet_gate.mainnet_ready).toBe(false);
    expect(release.release.route_count).toBe(allRoutes().length);
    if (process.env.SITE_COMMIT) expect(release.release.site_commit).toBe(process.env.SITE_COMMIT.trim().toLowerCase());
    else expect(release.release.site_commit).toBe(execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
    // The release is the whole tree: dated by the newest commit, or today when the tree has changes not committed.
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
    const committed = new Date(Number(execFileSync('git', ['log', '-1', '--format=%ct'], { encoding: 'utf8' }).trim()) * 1000);
    expect(release.last_updated).toBe((dirty ? new Date() : committed).toISOString().slice(0, 10));
  });

  it('resolves the commit from SITE_COMMIT, git, or unknown only without git', () => {
    const commit = 'a'.repeat(40);
    const noGit = () => {
      throw Object.assign(new Error('spawn git ENOENT'), { code: 'ENOENT' });
    };
    expect(resolveCommit({ SITE_COMMIT: commit.toUpperCase() }, noGit)).toEqual({ commit, commitSource: 'env:SITE_COMMIT' });
    expect(() => resolveCommit({ SITE_COMMIT: 'abc123' }, noGit)).toThrow(/SITE_COMMIT must be a full 40-character/);
    expect(resolveCommit({}, () => `${commit}\n`)).toEqual({ commit, commitSource: 'git' });
    expect(resolveCommit({}, noGit)).toEqual({ commit: 'unknown', commitSource: 'unavailable' });
    const notARepository = () => {
      throw Object.assign(new Error('exit 128'), { status: 128, stderr: 'fatal: not a git repository' });
    };
    expect(() => resolveCommit({}, notARepository)).toThrow(/set SITE_COMMIT/);
  });

  it('watchlist carries the baseline, the invariants and real watch targets pinned from package.json', () => {
    const watchlist = build('release-watchlist');
    expect(watchlist.security_baseline.length).toBeGreaterThan(0);
    expect(watchlist.mainnet_gate_invariants.length).toBeGreaterThan(0);
    const byName = new Map<string, any>(watchlist.watch_targets.map((target: { name: string }) => [target.name, target]));
    const declared: Record<string, string> = { ...packageJson.devDependencies, ...packageJson.dependencies };
    for (const name of ['astro', 'zod', '@fleet-sdk/core', 'ergo-lib-wasm-nodejs', 'node']) {
      const target = byName.get(name);
      expect(target, name).toBeDefined();
      expect(target.pinned).toBe(declared[name] ?? null);
      expect(target.in_use).toBe(name in declared);
      expect(target.why.length).toBeGreaterThan(20);
    }
    expect(watchlist.watch_targets.some((target: { kind: string }) => target.kind === 'chain_api')).toBe(true);
  });

  it('states custody in one set of words wherever it is stated, naming the checkpoint key, and never "holds no keys"', () => {
    const gate = build('mainnet-gate');
    expect(gate.summary).toContain(CUSTODY);
    const discovery = build('agents-well-known');
    expect(discovery.claim_boundary.does_not_claim).toContain(`Custody: the service ${CUSTODY}; it never receives, stores or derives a seed phrase.`);
    const pack = build('review-pack');
    expect(pack.threat_model.map((threat: { id: string }) => threat.id)).toEqual(expect.arrayContaining(['log-fork', 'checkpoint-key-exposure', 'cross-transport-payment']));
    expect(pack.scope.in_scope.join(' ')).toMatch(/receipt transparency log.*checkpoint key.*witness/);
    expect(pack.scope.in_scope.join(' ')).toMatch(/x402.*MCP.*A2A/);
    for (const body of [gate, discovery, pack]) expect(JSON.stringify(body)).not.toMatch(/holds no keys|\{custody\}/);
    expect(() => withCustody('holds no keys', 'a test')).toThrow(/states no custody/);
  });

  it('watchlist watches every runtime dependency: each hashes, serializes, parses, verifies or decides what is answered', () => {
    const watched = new Set(build('release-watchlist').watch_targets.map((target: { name: string }) => target.name));
    // It skipped 10 of 18 before, among them the register decoder, ajv and the MCP SDK.
    for (const name of Object.keys(packageJson.dependencies)) expect(watched, name).toContain(name);
  });

  it('watchlist watches every package that computes a hash a receipt, a task or a log entry depends on', () => {
    const watched = new Set(build('release-watchlist').watch_targets.map((target: { name: string }) => target.name));
    // The modules every digest of this service goes through; the packages they import are what "could alter a hash".
    const hashing = ['src/domain/blake2b.ts', 'src/domain/canonical-hash.ts', 'src/domain/receipt-id.ts', 'src/domain/tlog/tree.ts', 'src/domain/tlog/note.ts'];
    const packages = hashing.flatMap((file) =>
      [...readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8').matchAll(/^import [^'"]*['"]([^'"./][^'"]*)['"]/gm)]
        .map((match) => match[1]!)
        .filter((specifier) => !specifier.startsWith('node:'))
        .map((specifier) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!)),
    );
    expect(packages).toEqual(expect.arrayContaining(['hash-wasm', 'canonicalize', '@fleet-sdk/crypto']));
    for (const name of new Set(packages)) expect(watched.has(name), `${name} computes hashes but is not watched`).toBe(true);
  });

  it('mainnet gate is closed with both blockers missing and the evidence that would close them', () => {
    const gate = build('mainnet-gate');
    expect(gate.type).toBe(typeName('agent_economy.mainnet_gate.v0'));
    expect([gate.status, gate.mainnet_ready]).toEqual(['closed', false]);
    expect(gate.blockers.map((blocker: { id: string }) => blocker.id)).toEqual(blockerIds);
    for (const blocker of gate.blockers) {
      expect(blocker.state).toBe('missing');
      expect(blocker.label).toBe(MAINNET_BLOCKERS.find((known) => known.id === blocker.id)!.label);
      expect(blocker.evidence_required.length).toBeGreaterThan(0);
    }
    expect(gate.posture).toEqual(POSTURE);
  });

  it('review pack lists the OpenAPI document, every published schema and the policy-check contract', () => {
    const pack = build('review-pack');
    const urls = new Set(pack.artifacts.map((artifact: { url: string }) => artifact.url));
    expect(urls.has(routeUrl('openapi'))).toBe(true);
    expect(urls.has(routeUrl('policy-check-contract'))).toBe(true);
    expect(urls.has(routeUrl('proofs'))).toBe(true);
    expect(urls.has(schemaUrl('developer-launch-kit.schema.v0.json'))).toBe(true);
    expect(pack.threat_model.length).toBeGreaterThan(3);
    expect(pack.reviewer_questions.length).toBeGreaterThan(3);
    expect(pack.reproduce.map((step: { command: string }) => step.command)).toContain('npm test');
    expect(pack.posture.mainnet_ready).toBe(false);
  });
});

describe('developer services index (spec 2.3)', () => {
  const index = build('dev-services');

  it('is the v1 index generated from the route table', () => {
    expect(index.ok).toBe(true);
    expect(index.type).toBe(typeName('dev_services_index.v1'));
    expect(index.type).toBe(`${site.namespace}.dev_services_index.v1`);
    expect(index.services.map((service: { id: string }) => service.id)).toEqual(allRoutes().map((entry) => entry.id));
    expect(index.counts.total).toBe(allRoutes().length);
    expect(index.counts.static + index.counts.runtime).toBe(index.counts.total);
    expect(index.counts.machine_readable).toBe(index.services.filter((service: any) => service.machine_readable.schema !== null).length);
    const devTools = index.services.find((service: { id: string }) => service.id === 'dev-tools');
    expect(devTools).toMatchObject({ method: 'POST', delivery: 'runtime', available: true });
    // The MCP host's health answers 200 (the MCP host serves it), so it is available, not a 501.
    expect(index.services.find((service: { id: string }) => service.id === 'mcp-health')).toMatchObject({ host: 'mcp', available: true });
    expect(index.counts.available).toBe(index.counts.total);
    expect(devTools.machine_readable.response_schema).toBe(schemaUrl('dev-tool-result.schema.v0.json'));
  });

  it('links the live probe instead of faking a result', () => {
    expect(index.probes.agent_live.url).toBe(routeUrl('live'));
    expect(index.probes.agent_live.checks).toContain('summary.latest_full_receipt_id');
    expect(index.probes.mcp_health.url).toBe(mcpUrl('/health'));
  });
});

describe('developer tools (spec 2.11)', () => {
  const catalogue = build('dev-tools-catalogue');

  it('lists every action with an example body the request schema accepts', () => {
    expect(catalogue.actions.map((entry: { action: string }) => entry.action)).toEqual([...DEV_TOOL_ACTIONS]);
    expect(catalogue.endpoint).toBe(routeUrl('dev-tools'));
    expect(catalogue.request_schema).toBe(routeSchemaUrl('dev-tools'));
    expect(catalogue.boundary).toMatchObject({ signs_transactions: false, broadcasts: false, mutates_chain_state: false });
    const requestDocument = ajv.compile(toJsonSchemaDocument(dynamicRoute('dev-tools').request!));
    for (const entry of catalogue.actions) {
      expect(devToolRequestSchema.parse(entry.example_request).action).toBe(entry.action);
      expect(requestDocument(entry.example_request), `${entry.action}: ${ajv.errorsText(requestDocument.errors)}`).toBe(true);
      expect(Object.keys(entry.example_expected).length).toBeGreaterThan(0);
    }
  });

  it('rejects what the contract refuses', () => {
    const refused = [
      { action: 'sign', input: 'x' },
      { action: 'hash' },
      { action: 'tx', input: '' },
      { action: 'hash', input: 'x', extra: true },
      { action: 'hash', input: 'abc', encoding: 'hex' },
      { action: 'hash', input: '0x00', encoding: 'hex' },
      { action: 'receipt', input: '00', encoding: 'hex' },
      { action: 'hash', input: 'x', network: 'devnet' },
      { action: 'hash', input: 'x'.repeat(DEV_TOOL_MAX_INPUT_CHARACTERS + 1) },
    ];
    for (const body of refused) expect(devToolRequestSchema.safeParse(body).success, JSON.stringify(body).slice(0, 80)).toBe(false);
    expect(devToolRequestSchema.parse({ action: 'hash', input: 'x' })).toEqual({ action: 'hash', input: 'x', encoding: 'utf8', network: 'testnet' });
  });

  it('has a result shape that a hash answer fits', () => {
    const hashVector = catalogue.actions.find((entry: { action: string }) => entry.action === 'hash');
    const result = {
      ok: true,
      type: typeName('agent_economy.dev_tool_result.v0'),
      version: 'v0',
      action: 'hash',
      network: 'testnet',
      result: { algorithm: 'blake2b256', input_encoding: 'utf8', input_bytes: 13, digest: hashVector.example_expected['/result/digest'] },
      warnings: [],
      signs_transactions: false,
      broadcasts: false,
    };
    expect(devToolResultSchema.parse(result)).toEqual(result);
    validateAgainstPublished(dynamicRoute('dev-tools').responses[200]!.schema!, result);
    expect(devToolResultSchema.safeParse({ ...result, action: 'address' }).success).toBe(false);
  });
});

describe('faucet (spec 2.12, 4.4)', () => {
  it('reads defaults when nothing is configured: payouts guarded, public fallback', () => {
    const config = loadFaucetConfig({});
    expect(config).toMatchObject({ enabled: false, backendUrl: null, amountNanoErg: 1_000_000_000n, powBits: 18, fallbackUrl: DEFAULT_FAUCET_FALLBACK_URL });
    const descriptor = buildFaucetDescriptor(config, new Date('2026-11-23T12:00:00Z'));
    faucetDescriptorSchema.parse(descriptor);
    expect(descriptor).toMatchObject({
      enabled: false,
      configured: false,
      status: 'payouts_guarded',
      amount: { nanoerg: '1000000000', erg: '1.000000000' },
      public_fallback_url: 'https://tn-faucet.ergohost.io',
      backend: { configured: false, host: null, site_holds_signing_keys: false },
    });
    expect(descriptor.anti_abuse).toMatchObject({ scheme: 'proof_of_work_blake2b256', difficulty_bits: 18, required: true });
    expect(descriptor.anti_abuse.challenge.current_epoch).toBe(Math.floor(Date.parse('2026-11-23T12:00:00Z') / 1000 / 600));
    expect(descriptor.request.endpoint).toBe(routeUrl('faucet'));
  });

  it('never publishes the backend URL\'s credentials, path or query', () => {
    const secretUrl = 'https://payout:s3cret-pass@faucet-backend.internal:8443/pay/v1?token=abcdef123';
    const config = loadFaucetConfig({ FAUCET_ENABLED: 'true', FAUCET_BACKEND_URL: secretUrl, FAUCET_AMOUNT_NANOERG: '2500000000', FAUCET_POW_BITS: '0' });
    const descriptor = buildFaucetDescriptor(config, new Date());
    const text = JSON.stringify(descriptor);
    for (const secret of ['s3cret-pass', 'payout:', '/pay/v1', 'token=', 'abcdef123']) expect(text).not.toContain(secret);
    expect(descriptor).toMatchObject({ enabled: true, configured: true, status: 'payouts_enabled', amount: { erg: '2.500000000' } });
    expect(descriptor.backend.host).toBe('faucet-backend.internal:8443');
    expect(descriptor.anti_abuse.required).toBe(false);
  });

  it('fails with the variable named when the configuration is wrong, without echoing the backend URL', () => {
    expect(() => loadFaucetConfig({ FAUCET_ENABLED: 'true' })).toThrow(/FAUCET_BACKEND_URL is not set/);
    expect(() => loadFaucetConfig({ FAUCET_ENABLED: 'yes' })).toThrow(/FAUCET_ENABLED must be true, false, 1 or 0/);
    expect(() => loadFaucetConfig({ FAUCET_AMOUNT_NANOERG: '1.5' })).toThrow(/FAUCET_AMOUNT_NANOERG/);
    expect(() => loadFaucetConfig({ FAUCET_AMOUNT_NANOERG: '500000000000' })).toThrow(/at most 100000000000/);
    expect(() => loadFaucetConfig({ FAUCET_POW_BITS: '40' })).toThrow(/FAUCET_POW_BITS/);
    let message = '';
    try {
      loadFaucetConfig({ FAUCET_BACKEND_URL: 'ftp://user:hunter2@backend' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/FAUCET_BACKEND_URL/);
    expect(message).not.toContain('hunter2');
  });

  it('answers the descriptor at run time and accepts only strict payout requests', async () => {
    const handler = dynamicRoute('faucet-descriptor').handler!;
    const request: ApiRequest = { method: 'GET', path: '/api/dev/faucet', params: {}, query: new URLSearchParams(), headers: {}, body: undefined, clientIp: '127.0.0.1' };
    const response = await handler(request);
    expect(response.status).toBe(200);
    validateAgainstPublished(dynamicRoute('faucet-descriptor').responses[200]!.schema!, JSON.parse(JSON.stringify(response.body)));

    const address = '3WwXpssaZwcNzaGMv3AgxBdTPJQBt5gCmqBsg3DykQ39bYdhJBsN';
    expect(faucetRequestSchema.safeParse({ address }).success).toBe(true);
    expect(faucetRequestSchema.safeParse({ address, challengeToken: '2937600:k3x9' }).success).toBe(true);
    expect(faucetRequestSchema.safeParse({}).success).toBe(false);
    expect(faucetRequestSchema.safeParse({ address, amount: '5' }).success).toBe(false);
    expect(faucetRequestSchema.safeParse({ address, challengeToken: 'no-colon' }).success).toBe(false);
    expect(faucetRequestSchema.safeParse({ address: '0x1234' }).success).toBe(false);
  });
});
