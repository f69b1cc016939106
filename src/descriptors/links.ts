/**
 * Resolving the link references of `content/*.json` (see `linkRefSchema`) into absolute URLs. Content
 * names routes, pages and schemas; hosts come from the site configuration at build time, so content
 * never carries one (third-party URLs excepted).
 */
import type { LinkRef } from '../../schemas/agent-common.ts';
import { mcpUrl, schemaUrl, siteUrl } from '../config/site.ts';
import { pageUrl, routeSchemaUrl, routeUrl } from '../catalogue/lookup.ts';

export function resolveLink(link: LinkRef): string {
  if ('route' in link) return routeUrl(link.route);
  if ('page' in link) return pageUrl(link.page);
  if ('schema_of' in link) return routeSchemaUrl(link.schema_of);
  if ('schema_file' in link) return schemaUrl(link.schema_file);
  if ('site' in link) return siteUrl(link.site);
  if ('mcp' in link) return mcpUrl(link.mcp);
  return link.external;
}

/** A content step `{id, label, link?}` as a published next step `{id, label, href?}`. */
export function resolveStep<T extends { link?: LinkRef | undefined }>({ link, ...rest }: T): Omit<T, 'link'> & { href?: string } {
  return link ? { ...rest, href: resolveLink(link) } : rest;
}
