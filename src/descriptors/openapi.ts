/**
 * The OpenAPI 3.1.0 document, generated from the route table and the published zod schemas. Nothing
 * in it is written by hand: a route added to the table appears here with its schemas and statuses.
 */
import { z } from 'zod';
import { runtimeApart, site } from '../config/site.ts';
import { MAINNET_BLOCKERS, POSTURE } from './common.ts';
import { MAX_BODY_BYTES } from '../config/limits.ts';
import { MCP_MAX_BATCH_MESSAGES, type McpConfig } from '../config/mcp.ts';
import { PROBLEM_CONTENT_TYPE } from '../lib/problem-error.ts';
import { HUB_ALIASES } from '../catalogue/hub-aliases.ts';
import { catalogue } from '../catalogue/index.ts';
import { publishedSchemas } from '../catalogue/schemas-index.ts';
import type { DynamicEntry, Entry, ResponseDoc, Tag } from '../catalogue/types.ts';
import { componentRef, openApiComponents } from './openapi-components.ts';
import { withSharedParts } from './openapi-shared-parts.ts';
import { ACCESS_CONTROL_ALLOW_ORIGIN, MCP_ACCESS_CONTROL_ALLOW_ORIGIN, withCorsHeader, withSchemaBounds } from './openapi-transport.ts';
import { openApiRequestExample } from './request-examples.ts';
import { routeUrl as siteUrlOf, templatePath } from '../catalogue/lookup.ts';

export const OPENAPI_VERSION = '3.1.0';
export const DESCRIPTION_VERSION = '0.2.0';
/** The project's licence (LICENSE), as OpenAPI 3.1 names it: an SPDX identifier. */
export const LICENSE = { name: 'MIT', identifier: 'MIT' } as const;

const TAG_DESCRIPTIONS: Record<Tag, string> = {
  Discovery: 'Descriptors, capability manifest, registry, jobs board, reputation and the wallet boundary.',
  Jobs: 'The jobs board and the acceptance and quote validations for operator review.',
  'Live proof': 'Live status and the proof explorer.',
  Developer: 'Launch kit, developer services, stateless tools and the guarded faucet proxy.',
  Trust: 'Roadmap, releases, review pack and the mainnet gate.',
  'Wallet agent': 'Deterministic policy checks before anything is signed.',
  Assistant: 'The hosted assistant and its paid turn settled with a testnet Note.',
  MCP: 'The MCP host.',
};

/**
 * Every operation can answer a problem the route does not name itself: a method it does not allow
 * (405), a request line or headers the server refuses. Documented once, as the 4XX range.
 */
const ANY_PROBLEM: ResponseDoc = { description: 'A problem (RFC 9457) this operation does not list by status, such as 405 for a method the path does not allow.' };

/** Statuses every POST can answer before its handler runs, from the shared JSON body reader, by their component names. */
const BODY_READER_RESPONSES: Record<number, { name: string; doc: ResponseDoc }> = {
  413: { name: 'PayloadTooLarge', doc: { description: `Body larger than ${MAX_BODY_BYTES} bytes (code \`payload_too_large\`).` } },
  415: { name: 'UnsupportedMediaType', doc: { description: 'Body not sent as `application/json` (code `unsupported_media_type`).' } },
};

const NOT_MODIFIED: ResponseDoc = { description: 'Not modified (the `If-None-Match` validator matched).' };
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const DESCRIBED_BY = { Link: { $ref: '#/components/headers/DescribedBy' } };


/** A catalogue path as OpenAPI writes it: `{name+}` (the rest of the path, slashes included) is `{name}`, described as such. */
export const openApiPath = templatePath;

/** The operation's parameters: each `{name}` of its path, its query parameters, then the optional headers it reads. */
function parameters(route: Entry) {
  const inPath = [...route.path.matchAll(/\{([^}+]+)\+?\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string', minLength: 1 },
  }));
  const inHeaders = Object.entries((route.kind === 'dynamic' && route.requestHeaders) || {}).map(([name, { description, pattern }]) => ({
    name,
    in: 'header',
    required: false,
    description,
    schema: { type: 'string', ...(pattern ? { pattern } : {}) },
  }));
  const query = route.kind === 'dynamic' ? route.query : undefined;
  const inQuery = Object.entries(query?.shape ?? {}).map(([name, field]) => {
    const { description, ...schema } = z.toJSONSchema(field as z.ZodType, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
    delete schema.$schema;
    return { name, in: 'query', required: !(field as z.ZodType).safeParse(undefined).success, ...(description ? { description } : {}), schema };
  });
  return [...inPath, ...inQuery, ...inHeaders];
}

function responseObject(status: number, doc: ResponseDoc, alsoProblem = false) {
  const headers = Object.fromEntries(
    Object.entries(doc.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
  );
  // A 4xx that declares its own schema (the validation results of publish, accept and quote) keeps
  // it; every other error is the shared Problem.
  const content = doc.contentType
    ? { [doc.contentType.split(';')[0]!]: { schema: { type: 'string' } } }
    : doc.schema
    ? {
        'application/json': { schema: componentRef(doc.schema.name) },
        // A route that validates its own body still answers unreadable JSON with the shared problem.
        ...(alsoProblem ? { [PROBLEM_CONTENT_TYPE]: { schema: componentRef('Problem') } } : {}),
      }
    : status >= 400
      ? { [PROBLEM_CONTENT_TYPE]: { schema: componentRef('Problem') } }
      : undefined;
  return {
    description: doc.description,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(content ? { content } : {}),
  };
}

/** Response objects' JSON text -> the component name their catalogue entry gives them (ResponseDoc.name). */
type ResponseNames = Map<string, string>;

function operation(route: Entry, responseNames: ResponseNames) {
  const common = {
    operationId: route.id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    // Public: no credential is asked of anyone (the MCP host's optional bearer key is not part of this API);
    // a route that reads an optional one offers it beside none, as OpenAPI writes an optional credential.
    security: route.kind === 'dynamic' && route.optionalBearer ? [{}, { [route.optionalBearer.scheme]: [] }] : [],
    ...(parameters(route).length ? { parameters: parameters(route) } : {}),
  };
  if (route.kind === 'static') {
    const ok: ResponseDoc = {
      description: 'The document.',
      ...(route.schema ? { schema: route.schema } : {}),
    };
    const okObject = {
      ...responseObject(200, ok),
      ...(route.describedBy ? { headers: DESCRIBED_BY } : {}),
      ...(route.schema ? {} : { content: { [route.contentType?.split(';')[0] ?? 'application/json']: {} } }),
    };
    return { ...common, responses: { 200: okObject, 304: responseRef('NotModified'), '4XX': responseRef('Problem') } };
  }
  // Where the runtime answers apart from the static half (SITE_RUNTIME_URL), its operations say so.
  const servers = runtimeApart() ? { servers: [{ url: site.runtime_url!, description: 'The runtime, apart from the static documents (SITE_RUNTIME_URL)', 'x-internal': false }] } : {};
  return { ...common, ...servers, ...dynamicParts(route, responseNames) };
}

function dynamicParts(route: DynamicEntry, responseNames: ResponseNames) {
  const responses: Record<number, ResponseDoc | { $ref: string }> = { ...route.responses };
  if (route.method === 'POST') {
    for (const [status, { name }] of Object.entries(BODY_READER_RESPONSES)) responses[Number(status)] ??= responseRef(name);
  }
  const example = openApiRequestExample(route.id);
  const documented = Object.entries(responses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, doc]) => {
      if ('$ref' in doc) return [status, doc] as const;
      const object = responseObject(Number(status), doc, route.validatesOwnBody && status === '400');
      if (doc.name) responseNames.set(JSON.stringify(object), doc.name);
      return [status, object] as const;
    });
  const namesA4xx = documented.some(([status]) => status.startsWith('4'));
  return {
    ...(route.request
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              ['application/json', ...(route.requestMediaTypes ?? [])].map((mediaType, index) => [
                mediaType,
                { schema: componentRef(route.request!.name), ...(example && index === 0 ? { examples: { published: example } } : {}) },
              ]),
            ),
          },
        }
      : {}),
    responses: Object.fromEntries([...documented, ...(namesA4xx ? [] : [['4XX', responseRef('Problem')] as const])]),
  };
}

/** Published schemas an operation of `entries` names (body, request or response). */
function schemasOf(entries: readonly Entry[]): Set<string> {
  const names = new Set<string>();
  for (const entry of entries) {
    if (entry.kind === 'static') {
      if (entry.schema) names.add(entry.schema.name);
      continue;
    }
    if (entry.request) names.add(entry.request.name);
    for (const response of Object.values(entry.responses)) if (response.schema) names.add(response.schema.name);
  }
  return names;
}

/** The components of a description of `entries`: each published schema they name and the shapes those share. */
const componentSchemas = (entries: readonly Entry[], withProblem: boolean) => openApiComponents(new Set([...schemasOf(entries), ...(withProblem ? ['Problem'] : [])]), publishedSchemas());

/** The optional bearer credentials the routes read, as OpenAPI security schemes. */
function securitySchemesOf(entries: readonly Entry[]) {
  const schemes = entries.flatMap((route) => (route.kind === 'dynamic' && route.optionalBearer ? [route.optionalBearer] : []));
  return schemes.length ? { securitySchemes: Object.fromEntries(schemes.map(({ scheme, description }) => [scheme, { type: 'http', scheme: 'bearer', description }])) } : {};
}

/** The site's operations; the MCP host's own routes are in its own description (buildMcpHostOpenApiDocument). */
export function buildOpenApiDocument() {
  const entries = catalogue().filter((route) => route.host !== 'mcp');
  const written: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  const responseNames: ResponseNames = new Map();
  for (const route of entries) (written[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route, responseNames);
  const { paths, components: shared } = withSharedParts(written, responseNames);
  const schemas = componentSchemas(entries, true);

  const document = {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `${site.name} API`,
      version: DESCRIPTION_VERSION,
      summary: 'Testnet proof surface of an agent economy on Ergo.',
      contact: { name: site.name, url: site.base_url },
      license: LICENSE,
      description:
        `${site.description}\n\nErrors are RFC 9457 \`application/problem+json\` bodies with a stable \`code\` ` +
        'and `errors[]` naming each offending field (JSON Pointer). The validation results of publish, accept and ' +
        'quote keep their own documented shapes. Static GET documents carry a strong ETag ' +
        '(304 on a matching `If-None-Match`) and are compressed (brotli, gzip) when accepted. ' +
        'Hub aliases answer 308 to their canonical URLs.',
    },
    // The agent hub's short aliases (x-hub-aliases) are redirects to these operations, not operations of their own.
    // Public, on the Ergo testnet: a test environment (x-internal and the description say so to linters).
    servers: [{ url: site.base_url, description: 'Canonical site, on the Ergo testnet (a test network; the mainnet gate is closed)', 'x-internal': false }],
    tags: (Object.keys(TAG_DESCRIPTIONS) as Tag[]).filter((name) => entries.some((route) => route.tag === name)).map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: {
      schemas,
      responses: {
        Problem: responseObject(400, ANY_PROBLEM),
        NotModified: NOT_MODIFIED,
        ...Object.fromEntries(Object.values(BODY_READER_RESPONSES).map(({ name, doc }) => [name, responseObject(400, doc)])),
        ...shared.responses,
      },
      headers: { 'Access-Control-Allow-Origin': ACCESS_CONTROL_ALLOW_ORIGIN, DescribedBy: { description: 'The schema of this body: `<schema URL>; rel="describedby"`.', schema: { type: 'string' } }, ...shared.headers },
      ...(Object.keys(shared.requestBodies).length ? { requestBodies: shared.requestBodies } : {}),
      ...securitySchemesOf(entries),
    },
    'x-ergo-posture': {
      network: POSTURE.network,
      mainnet_ready: POSTURE.mainnet_ready,
      production_custody: POSTURE.production_custody,
      required_before_mainnet: MAINNET_BLOCKERS.map((blocker) => blocker.label),
    },
    'x-hub-aliases': HUB_ALIASES.map(({ alias, routeId }) => ({
      alias,
      alias_url: `${site.agent_hub_url}${alias}`,
      canonical: catalogue().find((route) => route.id === routeId)?.path,
      status: 308,
    })),
  };
  return withSchemaBounds(withCorsHeader(document));
}

/**
 * The MCP host's own description (served by it at `/openapi.json`): its health check, from the
 * catalogue, and the MCP endpoint, which speaks JSON-RPC over Streamable HTTP (the MCP SDK's
 * clients, not this document, are how to call it). Its limits are the ones the serving host runs.
 */
export function buildMcpHostOpenApiDocument(limits: Pick<McpConfig, 'maxSessions' | 'maxSessionsPerClient'>) {
  const entries = catalogue().filter((route) => route.host === 'mcp');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of entries) {
    if (route.kind !== 'dynamic') continue;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
      summary: route.summary,
      description: route.description,
      tags: ['MCP'],
      security: [],
      responses: {
        ...Object.fromEntries(Object.entries(route.responses).map(([status, doc]) => [status, { description: doc.description, ...(doc.schema ? { content: { 'application/json': { schema: componentRef(doc.schema.name) } } } : {}) }])),
        '4XX': { description: 'A Host or Origin this host does not serve (403), or a method the path does not allow (405).' },
      },
    };
  }
  const rpc = { type: 'object', description: 'A JSON-RPC 2.0 message of the Model Context Protocol.', required: ['jsonrpc'], properties: { jsonrpc: { const: '2.0' } } };
  paths['/mcp'] = {
    post: {
      operationId: 'mcp',
      summary: 'MCP endpoint (Streamable HTTP)',
      description: `JSON-RPC 2.0 messages of the Model Context Protocol: \`initialize\`, then \`tools/*\` and \`resources/*\` within the session its \`Mcp-Session-Id\` header names. The tools and resources are listed in ${siteUrlOf('mcp-tools')}. A bearer token is required when the host is configured with one.`,
      tags: ['MCP'],
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: rpc } } },
      responses: {
        200: { description: 'The JSON-RPC answer, as JSON or as a server-sent event stream.', content: { 'application/json': { schema: rpc }, 'text/event-stream': { schema: { type: 'string' } } } },
        400: {
          description: `A body that is not JSON-RPC, a request before \`initialize\`, or a JSON-RPC batch this host refuses (error code -32600): batches are accepted only under protocol version 2025-03-26, which has them, and with at most ${MCP_MAX_BATCH_MESSAGES} messages.`,
        },
        '4XX': { description: 'No bearer token where one is required (401), a Host or Origin not served (403), an unknown or evicted session (404), a request whose headers or body did not arrive in time (408), a body over the size limit (413).' },
        429: {
          description: `This client address holds ${limits.maxSessionsPerClient} sessions, the most one client may, and every one is answering a call (an idle one would have made room for the new session); retry once one has answered.`,
          headers: { 'Retry-After': { description: 'Seconds before retrying.', schema: { type: 'string' } } },
        },
        503: {
          description: `All ${limits.maxSessions} sessions are answering a call right now; otherwise a new session takes the place of the one idle the longest, whose next request answers 404. Retry after the \`Retry-After\` seconds.`,
          headers: { 'Retry-After': { description: 'Seconds until a session may be free.', schema: { type: 'string' } } },
        },
      },
    },
  };
  const schemas = componentSchemas(entries, false);
  const document = {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `${site.name} MCP host`,
      version: DESCRIPTION_VERSION,
      summary: 'The MCP host of the testnet proof surface: its health check and its MCP endpoint.',
      description: 'Nothing here signs, broadcasts or holds a key. The site itself is described at its own `/openapi.json`.',
      contact: { name: site.name, url: site.base_url },
      license: LICENSE,
    },
    servers: [{ url: site.mcp_url, description: 'MCP host, on the Ergo testnet (a test network; the mainnet gate is closed)', 'x-internal': false }],
    tags: [{ name: 'MCP', description: TAG_DESCRIPTIONS.MCP }],
    paths,
    components: { schemas, headers: { 'Access-Control-Allow-Origin': MCP_ACCESS_CONTROL_ALLOW_ORIGIN } },
  };
  return withSchemaBounds(withCorsHeader(document));
}
