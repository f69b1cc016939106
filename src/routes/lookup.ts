/**
 * URLs of other routes by id, read from the route table at call time. Descriptors link to each
 * other through these, so a path is written once (in the table) and every link follows it.
 * Call them only inside builders: the table is complete only after every module has loaded.
 */
import { hubUrl, schemaUrl, siteUrl } from '../config/site.ts';
import { routeById } from './table.ts';
import type { PublishedSchema, Route } from './types.ts';

function find(id: string): Route {
  const route = routeById().get(id);
  if (!route) throw new Error(`route table: no route with id "${id}"`);
  return route;
}

/** Absolute URL of a route (its path; `{param}` segments stay as written). */
export function routeUrl(id: string): string {
  return siteUrl(find(id).path);
}

/** Path of a route, e.g. `/api/agents`. */
export function routePath(id: string): string {
  return find(id).path;
}

/** Absolute URL of the human page of a route; throws when the route has none. */
export function pageUrl(id: string): string {
  const route = find(id);
  if (!route.page) throw new Error(`route table: route "${id}" has no human page`);
  return siteUrl(route.page);
}

/** Absolute URL of the published schema of a route's body (the request schema for POST routes). */
export function routeSchemaUrl(id: string): string {
  const route = find(id);
  const published = bodySchemaOf(route);
  if (!published) throw new Error(`route table: route "${id}" has no published schema`);
  return schemaUrl(published.file);
}

export { hubUrl };

/** The schema a client meets first: the body of a static route, the request of a POST, else the 200 body. */
export function bodySchemaOf(route: Route): PublishedSchema | undefined {
  return route.kind === 'static' ? route.schema : (route.request ?? route.responses[200]?.schema);
}
