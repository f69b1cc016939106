/**
 * The agents group (spec 2.2, 2.9, 4.1): every static descriptor builds, parses with its zod schema
 * and validates against its published JSON Schema; the fields the spec names carry the values it
 * prescribes; the worked examples of the guides are valid request bodies and meet the checks their
 * guides document; and the well-known paths follow the configured namespace.
 */
import { serializeApiResponse } from '../../src/server/dispatch.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { forbiddenClaimsListSchema } from '../../schemas/agent-common.ts';
import { jobsBoardSchema, type JobsBoard } from '../../schemas/jobs.ts';
import { jobAcceptanceIntentSchema, jobQuoteRequestSchema } from '../../schemas/job-validations.ts';
import { jobAcceptanceGuideSchema, jobQuoteGuideSchema } from '../../schemas/job-guides.ts';
import { economicMcpToolsSchema } from '../../schemas/mcp-tools.ts';
import { ONBOARDING_STEP_IDS, providerOnboardingSchema } from '../../schemas/onboarding.ts';
import { publishGuideSchema, serviceManifestSchema, serviceRegistrySchema, serviceSubmitDraftSchema } from '../../schemas/registry.ts';
import { reputationGraphSchema } from '../../schemas/reputation.ts';
import { walletBoundarySchema } from '../../schemas/wallet-boundary.ts';
import { mcpUrl, schemaUrl, site, siteUrl, typeName } from '../../src/config/site.ts';
import { exampleAcceptanceIntent, exampleQuoteRequest, exampleQuoteResult } from '../../src/descriptors/jobs.ts';
import { buildServiceRegistry, examplePublishResult, exampleServiceManifest } from '../../src/descriptors/registry.ts';
import { paidTurnConfig } from '../../src/config/assistant.ts';
import { formatNanoErg } from '../../src/domain/money.ts';
import { forbiddenClaimsList, submissionContext } from '../../src/descriptors/validation-guides.ts';
import { findClaimsInJson } from '../../src/domain/forbidden-claims.ts';
import { ACCEPTANCE_CODES, QUOTE_CODES } from '../../src/domain/job-validation.ts';
import { PUBLISH_CODES } from '../../src/domain/publish-validation.ts';
import type { ApiRequest } from '../../src/lib/api.ts';
import { routeSchemaUrl, routeUrl } from '../../src/catalogue/lookup.ts';
import { toJsonSchemaDocument } from '../../src/catalogue/published.ts';
import { routeById } from '../../src/routes/table.ts';
import type { PublishedSchema } from '../../src/catalogue/types.ts';
import type { DynamicRoute, Route, StaticRoute } from '../../src/routes/types.ts';


const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));

function route(id: string): Route {
  const found = routeById().get(id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
}
const staticRoute = (id: string) => route(id) as StaticRoute;
const dynamicRoute = (id: string) => route(id) as DynamicRoute;

/** Builds a static route's body and checks it against its zod schema and its published JSON Schema. */
function buildChecked<T>(id: string): T {
  const declared = staticRoute(id);
  const body = declared.build!();
  const parsed = declared.schema!.schema.safeParse(body);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 5), null, 2)).toBe(true);
  expectValidAgainstPublished(declared.schema!, JSON.parse(JSON.stringify(body)));
  return body as T;
}

function expectValidAgainstPublished(published: PublishedSchema, value: unknown) {
  const document = toJsonSchemaDocument(published);
  const validate = ajv.getSchema(document.$id as string) ?? ajv.compile(document);
  const valid = validate(value);
  expect(valid, JSON.stringify(validate.errors?.slice(0, 5), null, 2)).toBe(true);
}

const fold = (text: string) => text.toLowerCase().replace(/[-\s]+/g, ' ');
/** The claims the validators' own matcher finds anywhere in `value`, as `path: claim id`. */
function forbiddenPhrasesIn(value: unknown): string[] {
  return findClaimsInJson(value, submissionContext().matcher).map((finding) => `${finding.path}: ${finding.claimId}`);
}

const AGENT_ROUTE_IDS = [
  'registry',
  'registry-well-known',
  'reputation',
  'mcp-tools',
  'onboarding',
  'publish-guide',
  'publish',
  'jobs',
  'jobs-well-known',
  'jobs-accept-guide',
  'jobs-accept',
  'jobs-quote-guide',
  'jobs-quote',
  'wallet-boundary',
];

describe('route declarations', () => {
  it('declares every route id of the agents group at the paths of spec 4.1', () => {
    const expected: Record<string, [string, string, Route['kind']]> = {
      registry: ['GET', '/api/agents/registry', 'static'],
      'registry-well-known': ['GET', `/.well-known/${site.namespace}-agent-registry.json`, 'static'],
      reputation: ['GET', '/api/agents/reputation', 'dynamic'],
      'mcp-tools': ['GET', '/api/agents/mcp-tools', 'static'],
      onboarding: ['GET', '/api/agents/onboarding', 'static'],
      'publish-guide': ['GET', '/api/agents/publish', 'static'],
      publish: ['POST', '/api/agents/publish', 'dynamic'],
      jobs: ['GET', '/api/jobs', 'static'],
      'jobs-well-known': ['GET', `/.well-known/${site.namespace}-agent-jobs.json`, 'static'],
      'jobs-accept-guide': ['GET', '/api/jobs/accept', 'static'],
      'jobs-accept': ['POST', '/api/jobs/accept', 'dynamic'],
      'jobs-quote-guide': ['GET', '/api/jobs/quote', 'static'],
      'jobs-quote': ['POST', '/api/jobs/quote', 'dynamic'],
      'wallet-boundary': ['GET', `/.well-known/${site.namespace}-connect.json`, 'static'],
    };
    for (const id of AGENT_ROUTE_IDS) {
      const declared = route(id);
      expect([declared.method, declared.path, declared.kind], id).toEqual(expected[id]);
      expect(declared.page, id).toMatch(/^\/.*\/$/);
    }
  });

  it('uses the spec paths and schema file names with the default namespace', () => {
    if (site.namespace !== 'svc') return;
    expect(route('registry-well-known').path).toBe('/.well-known/svc-agent-registry.json');
    expect(route('jobs-well-known').path).toBe('/.well-known/svc-agent-jobs.json');
    expect(route('wallet-boundary').path).toBe('/.well-known/svc-connect.json');
    expect(staticRoute('wallet-boundary').schema!.file).toBe('svc-connect.schema.v0.json');
  });

  it('publishes the schema files spec 4.1 names', () => {
    expect(staticRoute('registry').schema!.file).toBe('agent-service-registry.schema.v0.json');
    expect(dynamicRoute('reputation').responses[200]!.schema!.file).toBe('agent-reputation.schema.v0.json');
    expect(staticRoute('mcp-tools').schema!.file).toBe('economic-mcp-tools.schema.v0.json');
    expect(staticRoute('onboarding').schema!.file).toBe('provider-onboarding.schema.v0.json');
    expect(staticRoute('jobs').schema!.file).toBe('agent-jobs.schema.v0.json');
    expect(staticRoute('wallet-boundary').schema!.file).toBe(`${site.namespace}-connect.schema.v0.json`);
    const results = { publish: 'agent-service-publish.schema.v0.json', 'jobs-accept': 'agent-job-acceptance.schema.v0.json', 'jobs-quote': 'agent-job-quote.schema.v0.json' };
    for (const [id, file] of Object.entries(results)) {
      expect(dynamicRoute(id).responses[200]!.schema!.file, id).toBe(file);
      expect(dynamicRoute(id).responses[400]!.schema!.file, `${id} 400`).toBe(file);
    }
  });

  it('publishes the request bodies as strict input schemas', () => {
    const requests = {
      publish: ['agent-service-manifest.schema.v0.json', serviceManifestSchema],
      'jobs-accept': ['agent-job-acceptance-intent.schema.v0.json', jobAcceptanceIntentSchema],
      'jobs-quote': ['agent-job-quote-request.schema.v0.json', jobQuoteRequestSchema],
    } as const;
    for (const [id, [file, schema]] of Object.entries(requests)) {
      const request = dynamicRoute(id).request!;
      expect(request.file, id).toBe(file);
      expect(request.io, id).toBe('input');
      expect(request.schema, id).toBe(schema);
      expect(toJsonSchemaDocument(request).additionalProperties, id).toBe(false);
    }
  });

  it('spec 2.9: the acceptance intent and quote request require exactly the listed fields', () => {
    const required = (published: PublishedSchema) => (toJsonSchemaDocument(published).required as string[]).toSorted();
    expect(required(dynamicRoute('jobs-accept').request!)).toEqual(
      ['job_id', 'agent_id', 'capabilities', 'proposed_output', 'receipt_expectation', 'posture', 'evidence'].toSorted(),
    );
    expect(required(dynamicRoute('jobs-quote').request!)).toEqual(
      ['job_id', 'agent_id', 'quote_terms', 'receipt_expectation', 'settlement', 'posture', 'evidence'].toSorted(),
    );
    const properties = (published: PublishedSchema) => Object.keys(toJsonSchemaDocument(published).properties as object);
    expect(properties(dynamicRoute('jobs-accept').request!)).toContain('agent_manifest');
    expect(properties(dynamicRoute('jobs-quote').request!)).toContain('acceptance_intent');
  });

  it('mirrors the registry and the jobs board byte for byte', () => {
    expect(staticRoute('registry-well-known').mirrorOf).toBe('registry');
    expect(staticRoute('jobs-well-known').mirrorOf).toBe('jobs');
    expect(staticRoute('registry-well-known').schema).toBe(staticRoute('registry').schema);
  });

  it('every published schema of the group converts to JSON Schema 2020-12', () => {
    for (const id of AGENT_ROUTE_IDS) {
      const declared = route(id);
      const published =
        declared.kind === 'static' ? [declared.schema] : [declared.request, ...Object.values(declared.responses).map((doc) => doc.schema)];
      for (const doc of published.filter((p): p is PublishedSchema => p !== undefined)) {
        const generated = toJsonSchemaDocument(doc);
        expect(generated.$id).toBe(schemaUrl(doc.file));
        expect(generated.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      }
    }
  });
});

describe('service registry', () => {
  let registry: z.infer<typeof serviceRegistrySchema>;
  beforeAll(() => {
    registry = buildChecked('registry');
  });

  it('carries the typed header, the posture and the named fields on every entry', () => {
    expect(registry.type).toBe(typeName('agent_economy.agent_service_registry.v0'));
    expect(registry.posture.mainnet_ready).toBe(false);
    expect(registry.service_manifest_schema).toBe(schemaUrl('agent-service-manifest.schema.v0.json'));
    for (const service of registry.services) {
      for (const field of ['capabilities', 'pricing', 'accepted_payment_rails', 'predicate_requirements', 'evidence', 'posture'] as const) {
        expect(service, `${service.id}.${field}`).toHaveProperty(field);
      }
      expect(service.posture).toEqual({ network: 'ergo_testnet', mainnet_ready: false, production_custody: false });
    }
  });

  it('prices the hosted assistant at the premium price the terms run, read from the configuration', () => {
    const assistant = (services: Array<{ id: string; pricing: { amount: string } }>) => services.find((service) => service.id === 'hosted-assistant')!.pricing;
    expect(assistant(registry.services)).toEqual({ amount: formatNanoErg(paidTurnConfig.priceNanoErg), unit: 'per_answer', currency: 'ERG_testnet' });
    // Another configured price moves the registry with it, and only the assistant's entry.
    const dearer = buildServiceRegistry({ priceNanoErg: 25_000_000n });
    expect(assistant(dearer.services).amount).toBe('0.025000000');
    expect(serviceRegistrySchema.parse(dearer).services.filter((service) => service.id !== 'hosted-assistant')).toEqual(registry.services.filter((service) => service.id !== 'hosted-assistant'));
  });

  it('lists this site’s assistant (Note-paid), policy check, developer tools and faucet proxy at this site', () => {
    const byId = new Map(registry.services.map((service) => [service.id, service]));
    for (const id of ['hosted-assistant', 'wallet-policy-check', 'developer-tools', 'testnet-faucet-proxy']) {
      const service = byId.get(id);
      expect(service, id).toBeDefined();
      expect(service!.listing).toMatchObject({ status: 'live_on_this_site', operated_by: 'this_site' });
      for (const endpoint of service!.endpoints) expect(endpoint.url.startsWith(site.base_url), endpoint.url).toBe(true);
    }
    const assistant = byId.get('hosted-assistant')!;
    expect(assistant.accepted_payment_rails).toContain('ergo_testnet_note');
    expect(assistant.receipt_expectation).toEqual({ required: true, type: 'full_receipt_bundle' });
    expect(assistant.endpoints.map((endpoint) => endpoint.url)).toContain(routeUrl('assistant-verify-payment'));
    expect(assistant.predicate_requirements.map((predicate) => predicate.id)).toContain('note-binds-task-hash');
    expect(BigInt(assistant.pricing.amount.replace('.', ''))).toBeGreaterThan(0n);
    expect(byId.get('wallet-policy-check')!.endpoints.map((endpoint) => endpoint.url)).toContain(routeUrl('policy-check'));
  });

  it('marks third-party listings as listed for operator review, off this site', () => {
    const thirdParty = registry.services.filter((service) => service.listing.operated_by === 'third_party');
    expect(thirdParty.length).toBeGreaterThanOrEqual(1);
    for (const service of thirdParty) {
      expect(service.listing.status).toBe('listed_for_operator_review');
      for (const endpoint of service.endpoints) expect(endpoint.url.startsWith(site.base_url)).toBe(false);
    }
    expect(registry.counts).toEqual({
      services: registry.services.length,
      live_on_this_site: registry.services.length - thirdParty.length,
      listed_for_operator_review: thirdParty.length,
    });
  });

  it('every entry, minus its listing, is a valid service manifest free of forbidden claims', () => {
    for (const { listing: _listing, ...manifest } of registry.services) {
      expect(serviceManifestSchema.safeParse(manifest).success, manifest.id).toBe(true);
      expect(forbiddenPhrasesIn(manifest), manifest.id).toEqual([]);
      const paid = manifest.pricing.amount !== '0.000000000';
      expect(manifest.accepted_payment_rails.includes('ergo_testnet_note'), manifest.id).toBe(paid);
      expect(manifest.accepted_payment_rails.includes('free') || paid, manifest.id).toBe(true);
    }
  });

  it('the service manifest rejects unknown keys and malformed prices', () => {
    const { listing: _listing, ...manifest } = registry.services[0]!;
    expect(serviceManifestSchema.safeParse({ ...manifest, extra: true }).success).toBe(false);
    expect(serviceManifestSchema.safeParse({ ...manifest, pricing: { ...manifest.pricing, amount: '0.01' } }).success).toBe(false);
    expect(serviceManifestSchema.safeParse({ ...manifest, pricing: { ...manifest.pricing, currency: 'ERG' } }).success).toBe(false);
  });
});

describe('reputation graph', () => {
  it('answers 200 with an empty, schema-valid graph while no receipt store feeds it', async () => {
    const declared = dynamicRoute('reputation');
    const request: ApiRequest = { method: 'GET', path: declared.path, params: {}, query: new URLSearchParams(), headers: {}, body: undefined, clientIp: '127.0.0.1' };
    const response = await declared.handler!(request);
    expect(response.status).toBe(200);
    // As sent: the page is serialized once and shared (JsonText).
    const sent = JSON.parse(Buffer.from(serializeApiResponse(response, declared).body).toString()) as unknown;
    const graph = reputationGraphSchema.parse(sent);
    expectValidAgainstPublished(declared.responses[200]!.schema!, sent);
    expect(graph.type).toBe(typeName('agent_economy.agent_reputation.v0'));
    expect(graph.summary.receipt_backed_subjects).toBe(0);
    expect(graph.subjects).toEqual([]);
    expect(graph.posture.mainnet_ready).toBe(false);
    expect(graph.method.proofs_api).toBe(routeUrl('proofs'));
  });
});

describe('economic MCP tools manifest', () => {
  let manifest: z.infer<typeof economicMcpToolsSchema>;
  beforeAll(() => {
    manifest = buildChecked('mcp-tools');
  });

  it('states that no tool signs, broadcasts or holds a key, and names the MCP host', () => {
    expect(manifest.type).toBe(typeName('agent_economy.economic_mcp_tools.v0'));
    expect(manifest.runtime_boundary.mcp_tools_sign_transactions).toBe(false);
    expect(manifest.runtime_boundary.mcp_tools_broadcast_transactions).toBe(false);
    expect(manifest.mcp.health).toBe(mcpUrl('/health'));
    expect(manifest.mcp.endpoint).toBe(mcpUrl('/mcp'));
    expect(manifest.mcp.health_fields).toEqual(['ok', 'service', 'version']);
    expect(manifest.tools.every((tool) => tool.signs_transactions === false)).toBe(true);
    expect(manifest.forbidden_assumptions.length).toBeGreaterThan(0);
    expect(manifest.next_steps.map((step) => step.href)).toContain(mcpUrl('/health'));
  });

  it('lists the planned tools, each backed by a route of the table or run inside the MCP server', () => {
    expect(manifest.tools.map((tool) => tool.name)).toEqual([
      'search_docs',
      'list_jobs',
      'get_job',
      'list_services',
      'policy_check',
      'validate_service_manifest',
      'validate_job_acceptance',
      'validate_job_quote',
      'dev_hash',
      'dev_address',
      'dev_box',
      'dev_tx',
      'dev_receipt',
      'get_receipt',
      'check_receipt_inclusion',
      'ask_assistant',
      'live_status',
    ]);
    for (const tool of manifest.tools) {
      if (tool.http_backed_endpoint === null) {
        expect(tool.name).toBe('search_docs');
        continue;
      }
      const backing = route(tool.http_backed_endpoint.route_id);
      expect(tool.http_backed_endpoint.url).toBe(siteUrl(backing.path));
      expect(tool.http_backed_endpoint.method).toBe(backing.method);
    }
    const byName = new Map(manifest.tools.map((tool) => [tool.name, tool]));
    expect(byName.get('validate_service_manifest')!.input_schema_url).toBe(routeSchemaUrl('publish'));
    expect(byName.get('validate_job_quote')!.input_schema_url).toBe(routeSchemaUrl('jobs-quote'));
    expect(byName.get('dev_hash')!.http_backed_endpoint!.fixed_fields).toEqual({ action: 'hash' });
    expect(byName.get('get_receipt')!.http_backed_endpoint!.route_id).toBe('assistant-receipt');
  });

  it('lists every HTTP-backed endpoint once, with the tools that call it', () => {
    const routeIds = manifest.http_backed_endpoints.map((endpoint) => endpoint.route_id);
    expect(new Set(routeIds).size).toBe(routeIds.length);
    const fromTools = new Set(manifest.tools.flatMap((tool) => (tool.http_backed_endpoint ? [tool.http_backed_endpoint.route_id] : [])));
    expect(new Set(routeIds)).toEqual(fromTools);
    expect(manifest.http_backed_endpoints.find((endpoint) => endpoint.route_id === 'dev-tools')!.tools).toEqual([
      'dev_hash',
      'dev_address',
      'dev_box',
      'dev_tx',
      'dev_receipt',
    ]);
  });
});

describe('provider onboarding path', () => {
  let onboarding: z.infer<typeof providerOnboardingSchema>;
  beforeAll(() => {
    onboarding = buildChecked('onboarding');
  });

  it('orders the path exactly as spec 2.2 prescribes', () => {
    expect(onboarding.type).toBe(typeName('agent_economy.provider_onboarding.v0'));
    expect(onboarding.path.map((step) => step.id)).toEqual([
      'service-manifest',
      'publish-validation',
      'mcp-publish-contract',
      'job-acceptance',
      'quote-scaffold',
      'receipt-expectation',
      'wallet-boundary',
      'operator-review',
    ]);
    expect(onboarding.path.map((step) => step.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(onboarding.path[1]!.href).toBe(routeUrl('publish'));
    expect(onboarding.path[6]!.href).toBe(routeUrl('wallet-boundary'));
  });

  it('rejects a path in another order', () => {
    const swapped = [onboarding.path[1]!, onboarding.path[0]!, ...onboarding.path.slice(2)];
    expect(providerOnboardingSchema.safeParse({ ...onboarding, path: swapped }).success).toBe(false);
    expect(ONBOARDING_STEP_IDS).toHaveLength(8);
  });

  it('requires operator review and gives valid examples, including the submit draft', () => {
    expect(onboarding.safety_boundaries.operator_review_required).toBe(true);
    expect(onboarding.safety_boundaries.signs_transactions).toBe(false);
    expect(serviceSubmitDraftSchema.safeParse(onboarding.examples.submit_draft).success).toBe(true);
    expect(onboarding.examples.submit_draft.service_manifest).toEqual(onboarding.examples.service_manifest);
    expect(onboarding.examples.submit_draft.publishes_automatically).toBe(false);
    expect(serviceManifestSchema.safeParse(onboarding.examples.service_manifest).success).toBe(true);
    expect(jobAcceptanceIntentSchema.safeParse(onboarding.examples.acceptance_intent).success).toBe(true);
    expect(jobQuoteRequestSchema.safeParse(onboarding.examples.quote_request).success).toBe(true);
  });
});

describe('publish guide', () => {
  let guide: z.infer<typeof publishGuideSchema>;
  beforeAll(() => {
    guide = buildChecked('publish-guide');
  });

  it('points at the POST endpoint and its schemas', () => {
    expect(guide.endpoint).toEqual({
      method: 'POST',
      url: routeUrl('publish'),
      request_schema: schemaUrl('agent-service-manifest.schema.v0.json'),
      result_schema: schemaUrl('agent-service-publish.schema.v0.json'),
      content_type: 'application/json',
    });
    expect(guide.schemas.registry).toBe(schemaUrl('agent-service-registry.schema.v0.json'));
    expect(guide.checks.map((check) => check.id)).toEqual(['schema', 'posture', 'payment', 'predicate', 'evidence', 'forbidden-claims']);
    expect(guide.checks.flatMap((check) => check.codes.map((entry) => entry.code)).toSorted()).toEqual(PUBLISH_CODES.map((entry) => entry.code).toSorted());
  });

  it('its example manifest is a valid request body with no forbidden claim, and the example result accepts it for review only', () => {
    expect(serviceManifestSchema.safeParse(guide.example_manifest).success).toBe(true);
    expectValidAgainstPublished(dynamicRoute('publish').request!, guide.example_manifest);
    expect(forbiddenPhrasesIn(guide.example_manifest)).toEqual([]);
    expect(guide.example_validation_result).toMatchObject({
      type: typeName('agent_economy.agent_service_publish.v0'),
      accepted_for_operator_review: true,
      published: false,
      service_id: guide.example_manifest.id,
      errors: [],
    });
    expectValidAgainstPublished(dynamicRoute('publish').responses[200]!.schema!, guide.example_validation_result);
    expect(guide.example_submit_draft.service_manifest).toEqual(guide.example_manifest);
    expect(guide.operator_review.required).toBe(true);
  });

  it('publishes the versioned forbidden-claims list with the phrases the contract rules out', () => {
    const list = forbiddenClaimsListSchema.parse(guide.forbidden_claims);
    expect(list.version).toBeGreaterThanOrEqual(1);
    const phrases = list.claims.map((claim) => fold(claim.phrase));
    for (const phrase of ['mainnet ready', 'audited', 'guaranteed returns', 'custody', 'risk free', 'production ready']) {
      expect(phrases, phrase).toContain(phrase);
    }
    expect(new Set(list.claims.map((claim) => claim.id)).size).toBe(list.claims.length);
  });
});

describe('jobs board', () => {
  let board: JobsBoard;
  let lastUpdated: number;
  beforeAll(() => {
    board = buildChecked('jobs');
    lastUpdated = Date.parse(`${board.last_updated}T00:00:00Z`);
  });

  it('lists open jobs with testnet rewards, capabilities, predicates, receipt requirements and future deadlines', () => {
    expect(board.type).toBe(typeName('agent_economy.agent_jobs.v0'));
    const open = board.jobs.filter((job) => job.status === 'open');
    expect(open.length).toBeGreaterThanOrEqual(5);
    for (const job of open) {
      expect(Date.parse(job.deadline), job.id).toBeGreaterThan(lastUpdated);
      expect(job.required_capabilities.length, job.id).toBeGreaterThan(0);
      expect(job.acceptance_predicates.length, job.id).toBeGreaterThan(0);
      expect(job.receipt_requirements.required, job.id).toBe(true);
    }
    expect(board.counts).toEqual({ open: open.length, closed: board.jobs.length - open.length });
  });

  it('keeps one closed job whose deadline has passed', () => {
    const closed = board.jobs.filter((job) => job.status === 'closed');
    expect(closed.length).toBeGreaterThanOrEqual(1);
    for (const job of closed) expect(Date.parse(job.deadline), job.id).toBeLessThan(lastUpdated);
  });

  it('states each reward in nanoERG and the equal ERG decimal', () => {
    for (const job of board.jobs) {
      const [whole, fraction] = job.reward.erg.split('.');
      expect(BigInt(whole!) * 1_000_000_000n + BigInt(fraction!), job.id).toBe(BigInt(job.reward.nanoerg));
      expect(job.reward.network).toBe('ergo_testnet');
    }
  });

  it('writes acceptance predicates a program can check', () => {
    for (const job of board.jobs) {
      const ids = job.acceptance_predicates.map((predicate) => predicate.id);
      expect(new Set(ids).size, job.id).toBe(ids.length);
      for (const predicate of job.acceptance_predicates) {
        expect(predicate.field, `${job.id}/${predicate.id}`).toMatch(/^\//);
        if (predicate.operator === 'at_least' || predicate.operator === 'at_most') expect(typeof predicate.value).toBe('number');
        if (predicate.operator === 'matches') expect(() => new RegExp(String(predicate.value))).not.toThrow();
        if (predicate.operator === 'exists') expect(typeof predicate.value).toBe('boolean');
      }
    }
  });

  it('links the acceptance and quote validations', () => {
    expect(board.how_to_take_a_job.acceptance_validate).toBe(routeUrl('jobs-accept'));
    expect(board.how_to_take_a_job.acceptance_intent_schema).toBe(schemaUrl('agent-job-acceptance-intent.schema.v0.json'));
    expect(board.how_to_take_a_job.quote_request_schema).toBe(schemaUrl('agent-job-quote-request.schema.v0.json'));
  });
});

describe('acceptance and quote guides', () => {
  let board: JobsBoard;
  let acceptance: z.infer<typeof jobAcceptanceGuideSchema>;
  let quote: z.infer<typeof jobQuoteGuideSchema>;
  beforeAll(() => {
    board = buildChecked('jobs');
    acceptance = buildChecked('jobs-accept-guide');
    quote = buildChecked('jobs-quote-guide');
  });
  const jobOf = (id: string) => board.jobs.find((job) => job.id === id)!;

  it('the example intent is a valid request body that meets every check the guide lists', () => {
    const intent = acceptance.example_intent;
    expect(jobAcceptanceIntentSchema.safeParse(intent).success).toBe(true);
    expectValidAgainstPublished(dynamicRoute('jobs-accept').request!, intent);
    expect(acceptance.checks.map((check) => check.id)).toEqual(['schema', 'job-id', 'capability', 'output', 'receipt', 'posture', 'evidence', 'forbidden-claims']);
    expect(acceptance.checks.flatMap((check) => check.codes.map((entry) => entry.code)).toSorted()).toEqual(ACCEPTANCE_CODES.map((entry) => entry.code).toSorted());
    const job = jobOf(intent.job_id);
    expect(job.status).toBe('open');
    for (const capability of job.required_capabilities) expect(intent.capabilities).toContain(capability);
    expect(intent.proposed_output.format).toBe(job.deliverable.format);
    expect(intent.proposed_output.predicates_addressed.toSorted()).toEqual(job.acceptance_predicates.map((p) => p.id).toSorted());
    expect(intent.receipt_expectation.type).toBe(job.receipt_requirements.type);
    for (const field of job.receipt_requirements.must_include) expect(intent.receipt_expectation.includes).toContain(field);
    expect(intent.posture).toEqual({ network: 'ergo_testnet', mainnet_ready: false, production_custody: false });
    expect(intent.evidence.links.length + intent.evidence.receipt_ids.length).toBeGreaterThan(0);
    expect(forbiddenPhrasesIn(intent)).toEqual([]);
    expect(acceptance.example_result).toMatchObject({ accepted_for_operator_review: true, job_id: job.id, assigned: false, errors: [] });
    expect(acceptance.example_result.accepted_job_id).toMatch(/^[0-9a-f]{64}$/);
    expect(acceptance.example_result.type).toBe(typeName('agent_economy.agent_job_acceptance.v0'));
    expect(acceptance.forbidden_claims.claims.length).toBeGreaterThan(0);
  });

  it('the example quote request is a valid request body within the job’s reward and deadline', () => {
    const request = quote.example_request;
    expect(jobQuoteRequestSchema.safeParse(request).success).toBe(true);
    expectValidAgainstPublished(dynamicRoute('jobs-quote').request!, request);
    expect(quote.checks.map((check) => check.id)).toEqual(['schema', 'job-id', 'quote-terms', 'receipt', 'settlement', 'posture', 'evidence', 'forbidden-claims']);
    expect(quote.checks.flatMap((check) => check.codes.map((entry) => entry.code)).toSorted()).toEqual(QUOTE_CODES.map((entry) => entry.code).toSorted());
    const job = jobOf(request.job_id);
    expect(job.status).toBe('open');
    const amount = BigInt(request.quote_terms.amount.replace('.', ''));
    expect(amount).toBeGreaterThan(0n);
    expect(amount).toBeLessThanOrEqual(BigInt(job.reward.nanoerg));
    expect(Date.parse(request.quote_terms.delivery_deadline)).toBeLessThanOrEqual(Date.parse(job.deadline));
    expect(Date.parse(request.quote_terms.valid_until)).toBeLessThan(Date.parse(request.quote_terms.delivery_deadline));
    expect(request.settlement).toMatchObject({ rail: 'ergo_testnet_note', binds_task_hash: true });
    expect(request.settlement.payee_address).toMatch(/^3[1-9A-HJ-NP-Za-km-z]+$/);
    expect(forbiddenPhrasesIn(request)).toEqual([]);
  });

  it('the example quote result is a scaffold: agreement draft and settlement handoff, nothing assigned or escrowed', () => {
    const result = quote.example_result;
    expect(result.type).toBe(typeName('agent_economy.agent_job_quote.v0'));
    expect(result.quote_scaffold_ready).toBe(true);
    expect(result.job_id).toBe(quote.example_request.job_id);
    expect(result.accepted_job_id).toMatch(/^[0-9a-f]{64}$/);
    expect(result.assigned).toBe(false);
    const { agreement_draft, settlement_handoff } = result.quote!;
    expect(agreement_draft.quoteId).toBe(result.accepted_job_id);
    expect(agreement_draft.price).toBe(quote.example_request.quote_terms.amount);
    expect(agreement_draft.priceNanoErg).toBe(String(BigInt(quote.example_request.quote_terms.amount.replace('.', ''))));
    expect(agreement_draft.terms.acceptance_predicates).toEqual(jobOf(result.job_id!).acceptance_predicates);
    expect(settlement_handoff).toMatchObject({
      signer: 'host_wallet',
      escrowed: false,
      payee_address: quote.example_request.settlement.payee_address,
      amount_nanoerg: agreement_draft.priceNanoErg,
      task_hash: agreement_draft.taskHash,
    });
    expect(settlement_handoff.statement).toMatch(/nothing is escrowed/i);
    expect(settlement_handoff.policy_check).toBe(routeUrl('policy-check'));
    expectValidAgainstPublished(dynamicRoute('jobs-quote').responses[200]!.schema!, result);
  });

  it('the request schemas reject unknown keys and a missing required field', () => {
    expect(jobAcceptanceIntentSchema.safeParse({ ...acceptance.example_intent, reward: '1' }).success).toBe(false);
    const { evidence: _evidence, ...withoutEvidence } = quote.example_request;
    expect(jobQuoteRequestSchema.safeParse(withoutEvidence).success).toBe(false);
  });
});

describe('guide examples are validated by the endpoints’ own checks at build time', () => {
  it('each example result is what the validation computes for the example', () => {
    expect(examplePublishResult().accepted_for_operator_review).toBe(true);
    expect(exampleQuoteResult().quote_scaffold_ready).toBe(true);
  });

  it('a guide whose example the validation rejects fails to build, naming the finding', () => {
    const manifest = { ...exampleServiceManifest(), description: 'A fully audited, production-ready policy check for every wallet.' };
    expect(() => examplePublishResult(manifest)).toThrow(/forbidden_claim at \/description/);
    const request = exampleQuoteRequest();
    expect(() => exampleQuoteResult({ ...request, job_id: 'job-crosscheck-openapi-schemas' })).toThrow(/job_closed at \/job_id/);
    expect(() => exampleQuoteResult({ ...request, settlement: { ...request.settlement, binds_task_hash: false } })).toThrow(/settlement_task_hash_not_bound/);
    expect(exampleAcceptanceIntent().job_id).toBe(request.job_id);
  });
});

describe('wallet boundary manifest', () => {
  let boundary: z.infer<typeof walletBoundarySchema>;
  beforeAll(() => {
    boundary = buildChecked('wallet-boundary');
  });

  it('is a CAIP-native testnet specification, not a wallet or custody claim', () => {
    expect(boundary.type).toBe(typeName('agent_economy.wallet_boundary.v0'));
    expect(boundary.caip.namespace).toBe('ergo');
    expect(boundary.caip.chain_id).toBe('ergo:e7553c9a716bb3983ac8b0c21689a1f3');
    expect(boundary.caip.excluded_chain_ids).toContain('ergo:b0244dfc267baca974a4caee06120321');
    expect(boundary.caip.example_account_id.startsWith(`${boundary.caip.chain_id}:3`)).toBe(true);
    expect(boundary.security_boundary.agents_do_not_hold_private_keys).toBe(true);
    expect(boundary.security_boundary.service_signs_transactions).toBe(false);
    expect(boundary.posture.mainnet_ready).toBe(false);
    expect(boundary.scope).toBe('testnet_specification_not_a_wallet_or_custody_claim');
    expect(boundary.flow.map((step) => step.id)).toEqual(['policy-check', 'simulate', 'sign', 'broadcast', 'retain-receipt']);
    expect(boundary.flow.filter((step) => step.id === 'sign' || step.id === 'broadcast').every((step) => step.owner === 'host_wallet')).toBe(true);
    expect(boundary.links.policy_check).toBe(routeUrl('policy-check'));
  });
});
