/**
 * Short aliases on `agent_hub_url` (spec 4.6 leaves them to us): the APIs an agent calls most, each a
 * short path on the hub host that answers `308 Permanent Redirect` to the canonical URL. 308 keeps
 * the method and body, so a POST to the alias reaches the canonical POST unchanged.
 */
import { entryById } from './index.ts';
import { routeUrl } from './lookup.ts';

/** alias path on the hub host -> route id whose path it stands for. */
export const HUB_ALIASES: ReadonlyArray<{ alias: string; routeId: string }> = [
  { alias: '/discovery', routeId: 'discovery' },
  { alias: '/jobs', routeId: 'jobs' },
  { alias: '/registry', routeId: 'registry' },
  { alias: '/reputation', routeId: 'reputation' },
  { alias: '/mcp-tools', routeId: 'mcp-tools' },
  { alias: '/policy-check', routeId: 'policy-check' },
  { alias: '/receipt/{id}', routeId: 'assistant-receipt' },
  { alias: '/live', routeId: 'live' },
];

/** Canonical URL for a request path on the hub host, or undefined when it is no alias. */
export function resolveHubAlias(path: string): string | undefined {
  for (const { alias, routeId } of HUB_ALIASES) {
    if (!entryById().has(routeId)) continue;
    // The route's absolute URL: the runtime's for a dynamic route, where it answers apart.
    const canonical = routeUrl(routeId);
    if (!alias.includes('{')) {
      if (path === alias) return canonical;
      continue;
    }
    const prefix = alias.slice(0, alias.indexOf('{'));
    const rest = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    if (rest && !rest.includes('/')) return canonical.replace(/\{[^}]+\}/, rest);
  }
  return undefined;
}
