/**
 * Every file the build writes from the route table: static descriptors (and their byte-identical
 * mirrors), the published JSON Schemas and the OpenAPI document. A body that its schema does not
 * accept, or that carries a key its schema does not declare, fails the build here.
 */
import { isDeepStrictEqual } from 'node:util';
import { schemaUrl } from '../config/site.ts';
import { toJsonSchemaDocument } from '../catalogue/published.ts';
import { publishedSchemas } from '../catalogue/schemas-index.ts';
import { allRoutes } from '../routes/table.ts';
import type { StaticRoute } from '../routes/types.ts';

export interface StaticDocument {
  /** URL path it answers, e.g. `/api/agents`. */
  path: string;
  /** File under `dist/client`, e.g. `api/agents/index.json`. */
  file: string;
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const SCHEMA_CONTENT_TYPE = 'application/schema+json; charset=utf-8';

/** Pretty JSON with a final newline: readable by people, compressed for machines; compact when `compact`. */
export const serialize = (value: unknown, compact = false): string => JSON.stringify(value, null, compact ? undefined : 2) + '\n';

/**
 * Extensionless paths become `<path>/index.json`, because `/api/agents` and `/api/agents/registry`
 * cannot both be files; the server and the CDN rules map the path back.
 */
export const fileForPath = (path: string): string =>
  /\.[a-z0-9]+$/i.test(path) ? path.slice(1) : `${path.slice(1)}/index.json`;

function buildStaticBody(route: StaticRoute): unknown {
  if (!route.build) throw new Error(`static route ${route.id} has neither build() nor mirrorOf`);
  const body = route.build();
  if (!route.schema) return body;
  const parsed = route.schema.schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new Error(`static route ${route.id} (${route.path}) does not match ${route.schema.file}: ${issues}`);
  }
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), JSON.parse(JSON.stringify(body)))) {
    throw new Error(`static route ${route.id} (${route.path}) carries keys that ${route.schema.file} does not declare`);
  }
  return parsed.data;
}

let cached: StaticDocument[] | undefined;

export function staticDocuments(): StaticDocument[] {
  if (cached) return cached;
  const staticRoutes = allRoutes().filter((route): route is StaticRoute => route.kind === 'static' && route.host !== 'mcp');
  const bodies = new Map<string, string>();
  for (const route of staticRoutes.filter((r) => !r.mirrorOf)) {
    const body = buildStaticBody(route);
    // Text documents (llms.txt) are written as built; everything else is JSON.
    bodies.set(route.id, typeof body === 'string' && route.contentType && !route.contentType.includes('json') ? body : serialize(body, route.compact));
  }
  const documents: StaticDocument[] = staticRoutes.map((route) => {
    const body = bodies.get(route.mirrorOf ?? route.id);
    if (body === undefined) throw new Error(`static route ${route.id} mirrors unknown route ${route.mirrorOf}`);
    const headers: Record<string, string> = {};
    if (route.describedBy && route.schema) headers.link = `<${schemaUrl(route.schema.file)}>; rel="describedby"`;
    return { path: route.path, file: fileForPath(route.path), contentType: route.contentType ?? JSON_CONTENT_TYPE, body, headers };
  });
  for (const published of publishedSchemas()) {
    const path = `/agent-economy/${published.file}`;
    documents.push({ path, file: fileForPath(path), contentType: SCHEMA_CONTENT_TYPE, body: serialize(toJsonSchemaDocument(published)), headers: {} });
  }
  cached = documents;
  return documents;
}
