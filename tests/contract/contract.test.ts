/**
 * The contract, checked against the built server over HTTP: every endpoint of the spec is in the
 * route table and the OpenAPI document, every GET answers a body that validates against the schema
 * the OpenAPI document declares for it (ajv, JSON Schema 2020-12), and the OpenAPI document itself
 * validates against the official OpenAPI 3.1 schema.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSandboxConfig } from '../../src/config/sandbox.ts';
import { schemaUrl, site } from '../../src/config/site.ts';
import { publishedSchemas } from '../../src/catalogue/schemas-index.ts';
import { allRoutes } from '../../src/routes/table.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { componentValidators } from '../helpers/openapi-components.ts';
import { openApiPath } from '../../src/descriptors/openapi.ts';


/** The OpenAPI document and its aliases: the OAS 3.1 schema governs them, not a published one. */
const isOpenApi = (route: { id: string; kind: string; mirrorOf?: string }) => route.id === 'openapi' || (route.kind === 'static' && route.mirrorOf === 'openapi');
const OPENAPI_PATHS = new Set(allRoutes().filter(isOpenApi).map((route) => route.path));
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ns = site.namespace;

/** Spec section 4, written out from the contract itself (not from our table) as the oracle. */
const SPEC_ENDPOINTS = [
  'GET /.well-known/agent-economy.json',
  'GET /api/agent-economy/discovery',
  'GET /.well-known/agents.json',
  'GET /api/agents',
  'GET /api/agents/registry',
  `GET /.well-known/${ns}-agent-registry.json`,
  'GET /api/agents/reputation',
  'GET /api/agents/mcp-tools',
  'GET /api/agents/onboarding',
  'GET /api/agents/publish',
  'POST /api/agents/publish',
  'GET /api/jobs',
  `GET /.well-known/${ns}-agent-jobs.json`,
  'GET /api/jobs/accept',
  'POST /api/jobs/accept',
  'GET /api/jobs/quote',
  'POST /api/jobs/quote',
  `GET /.well-known/${ns}-connect.json`,
  'GET /api/agent-economy/live',
  'GET /api/agent-economy/proofs',
  'GET /api/agent-economy/launch-kit',
  'GET /api/agent-economy/first-receipt',
  'GET /api/agent-economy/roadmap',
  'GET /api/agent-economy/release/current',
  'GET /agent-economy/release-watchlist.v0.json',
  'GET /agent-economy/openapi.v0.json',
  'GET /api/agent-economy/mainnet-gate',
  'GET /api/agent-economy/review-pack',
  'GET /api/agent-economy/wallet-agent',
  'GET /api/agent-economy/wallet-agent/policy-check',
  'POST /api/agent-economy/wallet-agent/policy-check',
  'GET /api/agent-economy/wallet-agent/reference-flow',
  'GET /api/dev/services',
  'GET /api/dev/tools',
  'POST /api/dev/tools',
  'GET /api/dev/faucet',
  'POST /api/dev/faucet',
  'POST /api/assistant/quote',
  'POST /api/assistant/chat',
  'POST /api/assistant/verify-payment',
  'GET /api/assistant/activity',
  'GET /api/assistant/signer-health',
  'GET /api/assistant/receipt/{id}',
];

/** Schema documents the spec names (section 4), by file name under /agent-economy/. */
const SPEC_SCHEMAS = [
  'discovery.schema.v0.json',
  'agent-capabilities.schema.v0.json',
  'agent-service-registry.schema.v0.json',
  'agent-reputation.schema.v0.json',
  'economic-mcp-tools.schema.v0.json',
  'provider-onboarding.schema.v0.json',
  'agent-service-publish.schema.v0.json',
  'agent-jobs.schema.v0.json',
  'agent-job-acceptance.schema.v0.json',
  'agent-job-quote.schema.v0.json',
  `${ns}-connect.schema.v0.json`,
  'proof-explorer.schema.v0.json',
  'developer-launch-kit.schema.v0.json',
  'first-receipt-flow.schema.v0.json',
  'roadmap.schema.v0.json',
  'wallet-agent-policy-check.schema.v0.json',
];

type OpenApi = {
  openapi: string;
  info: { version: string };
  jsonSchemaDialect: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }>>;
  components: { schemas: Record<string, Record<string, unknown>>; responses?: Record<string, unknown> };
  'x-ergo-posture': Record<string, unknown>;
  servers: Array<{ url: string }>;
};

let server: RunningServer;
let openapi: OpenApi;
let validatorFor: ReturnType<typeof componentValidators>;

type DeclaredResponse = { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> };

/** A declared response, or the shared component it references (413, 415, 4XX). */
const resolvedResponse = (declared: DeclaredResponse | undefined): DeclaredResponse | undefined =>
  declared?.$ref ? (openapi.components.responses?.[declared.$ref.split('/').pop()!] as DeclaredResponse) : declared;

function declaredSchemaRef(path: string, method: string, status: number): string | undefined {
  const response = resolvedResponse(openapi.paths[path]?.[method.toLowerCase()]?.responses[String(status)]);
  const content = response?.content ?? {};
  return Object.values(content)[0]?.schema?.$ref;
}

beforeAll(async () => {
  server = await startBuiltServer();
  openapi = (await (await fetch(`${server.url}/agent-economy/openapi.v0.json`)).json()) as OpenApi;
  validatorFor = componentValidators(openapi);
});
afterAll(async () => server?.stop());

describe('OpenAPI document', () => {
  it('validates against the official OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openapi) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('carries the versions, dialect and posture the spec names', () => {
    expect(openapi.openapi).toBe('3.1.0');
    expect(openapi.info.version).toBe('0.2.0');
    expect(openapi.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(openapi['x-ergo-posture']).toMatchObject({ network: 'ergo_testnet', mainnet_ready: false, production_custody: false });
    expect((openapi['x-ergo-posture'].required_before_mainnet as string[]).length).toBe(2);
    // The hub's short aliases are redirects, listed in x-hub-aliases with their URLs, not a server of operations.
    expect(openapi.servers.map((s) => s.url)).toEqual([site.base_url]);
  });

  it('lists every endpoint of the spec, and nothing the route table lacks', () => {
    const documented = Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.keys(item).filter((key) => ['get', 'post'].includes(key)).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const endpoint of SPEC_ENDPOINTS) expect(documented, endpoint).toContain(endpoint);
    // The MCP host's routes are in its own description (GET {mcp_url}/openapi.json), not the site's.
    const table = allRoutes()
      .filter((route) => route.host !== 'mcp')
      .map((route) => `${route.method} ${openApiPath(route.path)}`);
    expect(new Set(documented)).toEqual(new Set(table));
    expect(documented).not.toContain('GET /health');
  });

  it('documents problem responses with one shared schema', () => {
    for (const [path, item] of Object.entries(openapi.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'servers') continue;
        for (const [status, declared] of Object.entries(operation.responses)) {
          const response = resolvedResponse(declared)!;
          const ownBody = ['/api/agents/publish', '/api/jobs/accept', '/api/jobs/quote'].includes(path) && status === '400';
          if (Number(status) >= 400 && !ownBody) {
            expect(response.content?.['application/problem+json']?.schema?.$ref, `${method} ${path} ${status}`).toBe('#/components/schemas/Problem');
          }
        }
      }
    }
  });
});

/** Routes whose required query names a subject; on this fresh server none has receipts. */
const SUBJECT_QUERY: Record<string, string> = { 'reputation-evidence': '?kind=agent&subject_id=nobody' };

describe('GET routes of the route table', () => {
  const getRoutes = allRoutes().filter((route) => route.method === 'GET' && route.host !== 'mcp');

  it.each(getRoutes.map((route) => [route.id, route.path] as const))('%s (%s) answers a body valid against its declared schema', async (id, path) => {
    // A path parameter names something this fresh server does not have: a receipt, a tile of the empty log.
    const concrete = path.replace('{id}', 'no-such-receipt').replace('{tilePath+}', '0/000');
    // So does a required query parameter: a subject without receipts.
    const query = SUBJECT_QUERY[id];
    const response = await fetch(`${server.url}${concrete}${query ?? ''}`);
    if (query) {
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      return;
    }
    const declaredType = textRoute(id);
    if (declaredType && path.includes('{')) {
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      return;
    }
    if (declaredType) {
      // Plain-text conventions (llms.txt, the log's checkpoint and key): the declared media type and a body.
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(declaredType);
      expect((await response.text()).length).toBeGreaterThan(60);
      return;
    }
    const status = path.includes('{') ? 404 : response.status === 503 ? 503 : 200;
    expect(response.status).toBe(status);
    const body = await response.json();
    const ref = declaredSchemaRef(path, 'GET', status);
    if (OPENAPI_PATHS.has(path)) return; // governed by the OAS 3.1 schema, checked above
    expect(ref, `no schema declared for GET ${path} ${status}`).toBeDefined();
    const validate = validatorFor(ref!);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it('serves every published schema the document names as its own JSON Schema document with its $id, and each compiles', async () => {
    const served: string[] = [];
    for (const published of publishedSchemas().filter((candidate) => candidate.name in openapi.components.schemas)) {
      const id = schemaUrl(published.file);
      expect(id.startsWith(`${site.base_url}/agent-economy/`)).toBe(true);
      const response = await fetch(`${server.url}${new URL(id).pathname}`);
      expect(response.status, id).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/schema+json');
      const document = (await response.json()) as Record<string, unknown>;
      expect(document.$id).toBe(id);
      expect(document.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      addFormats(new Ajv2020({ strict: false })).compile(document);
      // The component is the same schema, its shared shapes referenced instead of written out.
      expect(openapi.components.schemas[published.name]!.title).toBe(published.title);
      served.push(published.file);
    }
    for (const file of SPEC_SCHEMAS) expect(served).toContain(file);
  });
});

describe('pictures of the live proof', () => {
  const descOf = (svg: string) => /<desc[^>]*>([^<]*)<\/desc>/.exec(svg)?.[1];

  it('are documented as SVG and drawn from the store: a reading of live status appears in its timeline', async () => {
    for (const path of ['/api/agent-economy/live/timeline.svg', '/api/agent-economy/proofs/timeline.svg']) {
      expect(Object.keys(resolvedResponse(openapi.paths[path]!.get!.responses['200'])!.content!), path).toEqual(['image/svg+xml']);
    }
    const before = await (await fetch(`${server.url}/api/agent-economy/live/timeline.svg`)).text();
    await (await fetch(`${server.url}/api/agent-economy/live`)).arrayBuffer();
    const response = await fetch(`${server.url}/api/agent-economy/live/timeline.svg`);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const after = await response.text();
    expect(after.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    // Another test of this file may have read live status first: then both already show a run.
    if (descOf(before)!.startsWith('No probe run')) expect(descOf(after)).toMatch(/^Probe results of 1 kept run from /);
    expect(descOf(after)).toMatch(/receipt_storage: (up|down|degraded) since /);
    expect(descOf(await (await fetch(`${server.url}/api/agent-economy/proofs/timeline.svg`)).text())).toMatch(/^Receipts settled per UTC day from /);
  });
});

describe('posture and mirrors', () => {
  const postureKeys = (value: unknown, path: string, out: Array<[string, string, unknown]>) => {
    if (Array.isArray(value)) value.forEach((item, index) => postureKeys(item, `${path}/${index}`, out));
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'mainnet_ready' || key === 'production_custody' || key === 'mcp_tools_sign_transactions') out.push([path, key, child]);
        postureKeys(child, `${path}/${key}`, out);
      }
    }
    return out;
  };

  it('no served JSON body claims mainnet readiness, custody or signing', async () => {
    // Bodies, not schemas: the OpenAPI document describes these keys rather than asserting them.
    const bodies = allRoutes().filter((route) => route.method === 'GET' && route.host !== 'mcp' && !route.path.includes('{') && !isOpenApi(route) && !textRoute(route.id));
    let checked = 0;
    for (const route of bodies) {
      const body = await (await fetch(`${server.url}${route.path}`)).json();
      for (const [path, key, value] of postureKeys(body, '', [])) {
        expect(value, `${route.path} ${path}/${key}`).toBe(false);
        checked++;
      }
      const posture = (body as { posture?: unknown }).posture;
      if (posture) {
        expect(posture).toEqual({
          status: 'testnet_live_proof_not_mainnet_ready',
          network: 'ergo_testnet',
          mainnet_ready: false,
          production_custody: false,
          audit_gate: 'external_review_and_audit_bound_mainnet_script_identity_required',
        });
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('well-known mirrors are byte-identical to their twins', async () => {
    const pairs = allRoutes().filter((route) => route.kind === 'static' && route.mirrorOf);
    expect(pairs.length).toBeGreaterThanOrEqual(4);
    for (const mirror of pairs) {
      if (mirror.kind !== 'static') continue;
      const twin = allRoutes().find((route) => route.id === mirror.mirrorOf)!;
      const [a, b] = await Promise.all([mirror.path, twin.path].map(async (path) => Buffer.from(await (await fetch(`${server.url}${path}`)).arrayBuffer())));
      expect(a.equals(b), `${mirror.path} vs ${twin.path}`).toBe(true);
    }
  });

  it('the discovery twin links its schema', async () => {
    const response = await fetch(`${server.url}/api/agent-economy/discovery`);
    expect(response.headers.get('link')).toBe(`<${site.base_url}/agent-economy/discovery.schema.v0.json>; rel="describedby"`);
  });

  it('the mainnet gate reports closed with both blockers named', async () => {
    const gate = (await (await fetch(`${server.url}/api/agent-economy/mainnet-gate`)).json()) as Record<string, unknown>;
    const text = JSON.stringify(gate);
    expect(text).toContain('external-review');
    expect(text).toContain('mainnet-script-identity');
    expect(gate.mainnet_ready).toBe(false);
  });

  it('no descriptor names a host other than the configured ones', async () => {
    // The sandbox explorer is configured too: the tools catalogue's example receipt was settled there.
    const allowed = [site.base_url, site.agent_hub_url, site.mcp_url, loadSandboxConfig().url].map((url) => new URL(url).host);
    for (const route of allRoutes().filter((r) => r.kind === 'static')) {
      const text = await (await fetch(`${server.url}${route.path}`)).text();
      // A URL inside JSON text that is itself a JSON string ends in an escaped quote: no backslash in hosts.
      for (const [, host] of text.matchAll(/https?:\/\/([^/"\\\s<>]+)/g)) {
        if (allowed.includes(host!)) continue;
        expect(['json-schema.org', 'spec.openapis.org'].some((known) => host!.endsWith(known)) || isExternalReference(host!), `${route.path}: ${host}`).toBe(true);
      }
    }
  });
});

/** The media type of a static route served as something other than JSON, else undefined. */
/** The media type of a route whose body is not JSON (llms.txt, the SVG pictures); undefined for JSON. */
function textRoute(id: string): string | undefined {
  const route = allRoutes().find((r) => r.id === id);
  const contentType = route?.kind === 'static' ? route.contentType : route?.responses[200]?.contentType;
  return contentType && !contentType.includes('json') ? contentType : undefined;
}

/** Third-party hosts a descriptor may cite on purpose (standards, the public testnet faucet fallback). */
function isExternalReference(host: string): boolean {
  return /(^|\.)(ergoplatform\.org|ergohost\.io|ergoplatform\.com|rfc-editor\.org|chainagnostic\.org|modelcontextprotocol\.io|github\.com|npmjs\.com|nodejs\.org|w3\.org|ietf\.org)$/.test(host);
}
