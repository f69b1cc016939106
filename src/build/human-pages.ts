/**
 * The human pages the route table asks for: one per `page` path, showing the routes that share it,
 * links to their JSON and schemas, and (for static routes) the same body the JSON file carries.
 */
import { schemaUrl } from '../config/site.ts';
import { bodySchemaOf } from '../routes/lookup.ts';
import { allRoutes } from '../routes/table.ts';
import type { Route } from '../routes/types.ts';
import { staticDocuments } from './static-documents.ts';

export interface HumanPage {
  path: string;
  title: string;
  description: string;
  routes: Array<{ route: Route; schema?: string; body?: string }>;
}

export function humanPages(): HumanPage[] {
  const pages = new Map<string, HumanPage>();
  const documents = new Map(staticDocuments().map((doc) => [doc.path, doc]));
  for (const route of allRoutes()) {
    if (!route.page) continue;
    const page = pages.get(route.page) ?? { path: route.page, title: route.summary.replace(/ \(.*\)$/, ''), description: route.description, routes: [] };
    const schema = bodySchemaOf(route);
    page.routes.push({
      route,
      ...(schema ? { schema: schemaUrl(schema.file) } : {}),
      ...(route.kind === 'static' && !route.mirrorOf ? { body: documents.get(route.path)?.body } : {}),
    });
    pages.set(route.page, page);
  }
  return [...pages.values()];
}
