/**
 * The route table: every method and path of the contract, once. Each group file owns the routes of
 * one area of the spec; this module only joins them and checks that ids and method+path pairs are
 * unique, so a duplicate fails at load instead of shadowing a route.
 */
import { agentConventionRoutes } from './groups/agent-conventions.ts';
import { agentsRoutes } from './groups/agents.ts';
import { assistantRoutes } from './groups/assistant.ts';
import { developerRoutes } from './groups/developer.ts';
import { discoveryRoutes } from './groups/discovery.ts';
import { liveRoutes } from './groups/live.ts';
import { trustRoutes } from './groups/trust.ts';
import { walletAgentRoutes } from './groups/wallet-agent.ts';
import type { Route } from './types.ts';

let cached: Route[] | undefined;

/** All routes in a stable order (discovery first, as the spec lists them). */
export function allRoutes(): Route[] {
  if (cached) return cached;
  const routes = [
    ...discoveryRoutes(),
    ...agentsRoutes(),
    ...liveRoutes(),
    ...trustRoutes(),
    ...walletAgentRoutes(),
    ...developerRoutes(),
    ...assistantRoutes(),
    ...agentConventionRoutes(),
  ];
  const ids = new Set<string>();
  const endpoints = new Set<string>();
  for (const route of routes) {
    if (ids.has(route.id)) throw new Error(`route table: duplicate id "${route.id}"`);
    const endpoint = `${route.host ?? 'site'} ${route.method} ${route.path}`;
    if (endpoints.has(endpoint)) throw new Error(`route table: duplicate endpoint ${endpoint}`);
    ids.add(route.id);
    endpoints.add(endpoint);
  }
  cached = routes;
  return routes;
}

let byId: Map<string, Route> | undefined;
export function routeById(): Map<string, Route> {
  byId ??= new Map(allRoutes().map((route) => [route.id, route]));
  return byId;
}
