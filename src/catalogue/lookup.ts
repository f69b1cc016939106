/**
 * URLs of other routes by id, read from the route catalogue. Descriptors link to each other
 * through these, so a path is written once (in the catalogue) and every link follows it.
 */
import { hubUrl, mcpUrl, runtimeHref, runtimeUrl, schemaUrl, siteUrl } from '../config/site.ts';
import { catalogue, entryById } from './index.ts';
import type { Entry, PublishedSchema } from './types.ts';

function find(id: string): Entry {
  const route = entryById().get(id);
  if (!route) throw new Error(`route catalogue: no route with id "${id}"`);
  return route;
}

/** Absolute URL of a route (its path; `{param}` segments stay as written). */
/**
 * A catalogue path as every published document writes it: `{name+}` (the rest of the path, slashes
 * included) is `{name}`, as OpenAPI writes it, so a descriptor and the OpenAPI document name one
 * template the same way.
 */
export const templatePath = (path: string): string => path.replace(/\{([^}+]+)\+\}/g, '{$1}');

/** A route's absolute URL: on the MCP host, on the runtime (a dynamic route of the site: SITE_RUNTIME_URL where it answers apart), or on the site. */
export function entryUrl(route: Entry): string {
  const path = templatePath(route.path);
  if (route.host === 'mcp') return mcpUrl(path);
  return route.kind === 'dynamic' ? runtimeUrl(path) : siteUrl(path);
}

export const routeUrl = (id: string): string => entryUrl(find(id));

/**
 * What a page fetches a route at: its path, on the origin that serves the page, unless the runtime
 * answers apart (SITE_RUNTIME_URL), where a dynamic route's absolute URL there.
 */
export function fetchHref(id: string): string {
  const route = find(id);
  return route.kind === 'dynamic' ? runtimeHref(templatePath(route.path)) : templatePath(route.path);
}

/** A receipt's URL, by its receipt id or settlement transaction id. */
export const receiptUrl = (id: string): string => routeUrl('assistant-receipt').replace('{id}', encodeURIComponent(id));

/** The URL of a receipt's tlog-proof. */
export const receiptProofUrl = (id: string): string => routeUrl('assistant-receipt-proof').replace('{id}', encodeURIComponent(id));

/** Path of a route, e.g. `/api/agents`. */
export function routePath(id: string): string {
  return find(id).path;
}

/** Absolute URL of the human page of a route; throws when the route has none. */
export function pageUrl(id: string): string {
  const route = find(id);
  if (!route.page) throw new Error(`route catalogue: route "${id}" has no human page`);
  return siteUrl(route.page);
}

/** Absolute URL of the published schema of a route's body (the request schema for POST routes). */
export function routeSchemaUrl(id: string): string {
  const route = find(id);
  const published = bodySchemaOf(route);
  if (!published) throw new Error(`route catalogue: route "${id}" has no published schema`);
  return schemaUrl(published.file);
}

export { hubUrl };

/** The schema a client meets first: the body of a static route, the request of a POST, else the 200 body. */
export function bodySchemaOf(route: Entry): PublishedSchema | undefined {
  return route.kind === 'static' ? route.schema : (route.request ?? route.responses[200]?.schema);
}

/** Whether a GET of this route answers JSON (not an SVG picture or a text document). */
export function answersJson(route: Entry): boolean {
  const contentType = route.kind === 'static' ? route.contentType : route.responses[200]?.contentType;
  return contentType === undefined || contentType.includes('json');
}

/** The section of the API reference page that documents a route. */
/** The anchor of an operation's section in the API reference. */
export const operationAnchor = (routeId: string): string => `op-${routeId}`;
export const referenceHref = (id: string): string => `/api-reference/#${operationAnchor(id)}`;

/**
 * Where a page links a path of this site: the path itself, unless only POST answers there (a browser
 * following the link would get a 405 in JSON), in which case the route's API reference section.
 */
export function pageLinkOf(path: string): string {
  const routes = catalogue().filter((route) => route.path === path);
  return routes.length > 0 && routes.every((route) => route.method !== 'GET') ? referenceHref(routes[0]!.id) : path;
}
