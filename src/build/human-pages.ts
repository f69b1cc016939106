/**
 * The human pages the route table asks for: one per `page` path, with the routes that share it, the
 * links to their JSON and schemas, and the parsed bytes of the same static documents the build writes
 * as JSON. Pages render from these bodies only, so a page can never show other data than its JSON.
 */
import { schemaUrl } from '../config/site.ts';
import { answersJson, bodySchemaOf } from '../catalogue/lookup.ts';
import { pageHeading } from '../catalogue/page-titles.ts';
import { allRoutes, routeById } from '../routes/table.ts';
import type { Route } from '../routes/types.ts';
import { staticDocuments } from './static-documents.ts';

export interface PageRoute {
  route: Route;
  /** Site path of the JSON, for a GET on this host without path parameters. */
  json?: string;
  /** Absolute URL of the published schema of its body (the request body for a POST). */
  schema?: string;
  /** The static document this route serves, parsed; absent for mirrors, runtime routes and text. */
  body?: Record<string, unknown>;
}

export interface HumanPage {
  path: string;
  title: string;
  description: string;
  routes: PageRoute[];
}

const parsedBodies = new Map<string, unknown>();

/** The body of a static route exactly as the build serves it, parsed from the served bytes. */
export function staticBody<T = Record<string, unknown>>(routeId: string): T {
  const cached = parsedBodies.get(routeId);
  if (cached !== undefined) return cached as T;
  const route = routeById().get(routeId);
  if (!route || route.kind !== 'static') throw new Error(`human pages: "${routeId}" is not a static route`);
  const document = staticDocuments().find((doc) => doc.path === route.path);
  if (!document) throw new Error(`human pages: no static document for ${route.path}`);
  const parsed = document.contentType.includes('json') ? (JSON.parse(document.body) as unknown) : document.body;
  parsedBodies.set(routeId, parsed);
  return parsed as T;
}

function pageRoute(route: Route): PageRoute {
  const schema = bodySchemaOf(route);
  const isJsonGet = route.method === 'GET' && route.host !== 'mcp' && !route.path.includes('{') && answersJson(route);
  const ownBody = route.kind === 'static' && !route.mirrorOf && (route.contentType ?? 'application/json').includes('json');
  return {
    route,
    ...(isJsonGet ? { json: route.path } : {}),
    ...(schema ? { schema: schemaUrl(schema.file) } : {}),
    ...(ownBody ? { body: staticBody(route.id) } : {}),
  };
}

let cached: HumanPage[] | undefined;

export function humanPages(): HumanPage[] {
  if (cached) return cached;
  const pages = new Map<string, HumanPage>();
  for (const route of allRoutes()) {
    if (!route.page) continue;
    const page = pages.get(route.page) ?? { path: route.page, ...pageHeading(route.page, route), routes: [] };
    page.routes.push(pageRoute(route));
    pages.set(route.page, page);
  }
  cached = [...pages.values()];
  return cached;
}

/** The page of a path, for pages that add their own parts around the route-table page. */
export function humanPage(path: string): HumanPage {
  const page = humanPages().find((candidate) => candidate.path === path);
  if (!page) throw new Error(`human pages: the route table has no page ${path}`);
  return page;
}

/** The page that also names the routes of a tag that have no page of their own. */
const PAGE_OF_TAG: Readonly<Record<string, string>> = { Assistant: '/assistant/' };

/**
 * The routes a page's machine-readable box names: its own, then, on the page of a tag, every route of
 * that tag with no page of its own (the assistant's chat, verify-payment, receipts and A2A endpoint),
 * so a reader finds each of them from the page about them. The page's text (and the assistant's
 * corpus, built from the page's own routes) stays as it was.
 */
export function machineRoutes(page: HumanPage): PageRoute[] {
  const pageless = allRoutes().filter((route) => !route.page && route.host !== 'mcp' && PAGE_OF_TAG[route.tag] === page.path);
  return [...page.routes, ...pageless.map(pageRoute)];
}
