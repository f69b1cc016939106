/**
 * What the transport guarantees of every operation, stated where integrators' linters look for it
 * (Spectral's OWASP ruleset). Every answer carries `Access-Control-Allow-Origin: *`
 * (src/lib/response-headers.ts), declared wherever an answer declares its headers. And the bounds
 * they ask every schema of an OpenAPI document to state (Spectral's OWASP
 * ruleset, API4:2023 "unrestricted resource consumption"): a string its longest length, an array its
 * most items, an integer its width. Each is one this service keeps whatever the schema says: no
 * request body is larger than MAX_BODY_BYTES and no answer larger than MAX_ANSWER_BYTES, so no
 * string in either is longer, nor an array longer than half as many items (each takes a value and
 * a comma); an integer is int32 when its bounds fit 32 bits and int64 otherwise (every integer here
 * is a safe JavaScript integer). A schema that says less about itself than that gets the bound;
 * one with its own (`maxLength`, `enum`, `const`, `maxItems`, `format`) keeps it.
 */
import { MAX_ANSWER_BYTES, MAX_BODY_BYTES } from '../config/limits.ts';
import { CORS_HEADERS } from '../lib/response-headers.ts';

/** The site's: every answer may be read by a page of any origin. */
export const ACCESS_CONTROL_ALLOW_ORIGIN = {
  description: 'Every answer may be read by a page of any origin.',
  schema: { type: 'string', const: CORS_HEADERS['access-control-allow-origin'] },
};

/** The MCP host's (src/mcp/server.ts): only the origins it is configured to allow. */
export const MCP_ACCESS_CONTROL_ALLOW_ORIGIN = {
  description: 'The request\'s Origin, sent back when it is one of MCP_ALLOWED_ORIGINS; a request from any other Origin is refused 403.',
  schema: { type: 'string', maxLength: 2048 },
};

/** `document` with `Access-Control-Allow-Origin` among the headers of every answer that declares headers. */
export function withCorsHeader<T extends { paths: Record<string, Record<string, unknown>>; components: object }>(document: T): T {
  const declared = (response: unknown) => {
    const { headers } = response as { headers?: Record<string, unknown> };
    return headers ? { ...(response as object), headers: { ...headers, 'Access-Control-Allow-Origin': { $ref: '#/components/headers/Access-Control-Allow-Origin' } } } : response;
  };
  const eachResponse = (responses: Record<string, unknown>) => Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, declared(response)]));
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => {
          const { responses } = operation as { responses?: Record<string, unknown> };
          return [method, responses ? { ...(operation as object), responses: eachResponse(responses) } : operation];
        }),
      ),
    ]),
  );
  const { responses } = document.components as { responses?: Record<string, unknown> };
  return { ...document, paths, components: { ...document.components, ...(responses ? { responses: eachResponse(responses) } : {}) } };
}

/** Nothing this service reads or writes in JSON is longer. */
const LONGEST = Math.max(MAX_BODY_BYTES, MAX_ANSWER_BYTES);
const MOST_ITEMS = LONGEST / 2;
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

type Json = unknown;

const typesOf = (schema: Record<string, unknown>): unknown[] => (Array.isArray(schema.type) ? schema.type : [schema.type]);

function bound(schema: Record<string, unknown>): Record<string, unknown> {
  const types = typesOf(schema);
  const extra: Record<string, unknown> = {};
  if (types.includes('string') && !('maxLength' in schema || 'enum' in schema || 'const' in schema)) extra.maxLength = LONGEST;
  if (types.includes('array') && !('maxItems' in schema)) extra.maxItems = MOST_ITEMS;
  if (types.includes('integer') && !('format' in schema)) {
    const fits = typeof schema.minimum === 'number' && typeof schema.maximum === 'number' && schema.minimum >= INT32.min && schema.maximum <= INT32.max;
    extra.format = fits ? 'int32' : 'int64';
  }
  return Object.keys(extra).length ? { ...schema, ...extra } : schema;
}

/**
 * `document` with every schema bounded. Examples and values are left alone: a `type` member is a
 * schema's only where the object is one (its `type` a JSON type name).
 */
export function withSchemaBounds<T>(document: T): T {
  const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
  const isSchema = (value: Record<string, unknown>) => typesOf(value).some((type) => typeof type === 'string' && JSON_TYPES.has(type));
  // Keywords whose values are data (examples, constants), not schemas; under `properties` the same words are names.
  const DATA = new Set(['example', 'examples', 'const', 'default', 'enum']);
  const walk = (value: Json, key: string | undefined, named: boolean): Json => {
    if (!named && key !== undefined && DATA.has(key)) return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined, false));
    if (!value || typeof value !== 'object') return value;
    const walked = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, child]) => [name, walk(child, name, key === 'properties' && !named)]));
    return isSchema(walked) ? bound(walked) : walked;
  };
  return walk(document, undefined, false) as T;
}
