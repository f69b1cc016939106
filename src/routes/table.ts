/**
 * The route table: each entry of the catalogue bound to what answers it, the builder of a static
 * body or the handler of a dynamic route. Bindings are keyed by catalogue id; a binding without an
 * entry, a dynamic entry of this site without a handler, or a static one with neither a builder nor a mirror
 * fails at load.
 */
import { catalogue } from '../catalogue/index.ts';
import { agentConventionBindings } from './groups/agent-conventions.ts';
import { agentsBindings } from './groups/agents.ts';
import { assistantBindings } from './groups/assistant.ts';
import { developerBindings } from './groups/developer.ts';
import { discoveryBindings } from './groups/discovery.ts';
import { liveBindings } from './groups/live.ts';
import { receiptLogBindings } from './groups/receipt-log.ts';
import { trustBindings } from './groups/trust.ts';
import { walletAgentBindings } from './groups/wallet-agent.ts';
import type { Binding, Route } from './types.ts';

let cached: Route[] | undefined;

/** All routes, in the catalogue's order. */
export function allRoutes(): Route[] {
  if (cached) return cached;
  const bindings = new Map<string, Binding>();
  for (const group of [discoveryBindings, agentsBindings, liveBindings, receiptLogBindings, trustBindings, walletAgentBindings, developerBindings, assistantBindings, agentConventionBindings]) {
    for (const [id, binding] of Object.entries(group)) {
      if (bindings.has(id)) throw new Error(`route table: "${id}" is bound twice`);
      bindings.set(id, binding);
    }
  }
  const routes = catalogue().map((entry): Route => {
    const binding = bindings.get(entry.id);
    bindings.delete(entry.id);
    if (entry.kind === 'dynamic') {
      // Routes of the MCP host are answered there, not by this table.
      if (!binding && entry.host === 'mcp') return { ...entry };
      if (!binding || !('handler' in binding)) throw new Error(`route table: dynamic route "${entry.id}" has no handler`);
      return { ...entry, handler: binding.handler };
    }
    if (binding && !('build' in binding)) throw new Error(`route table: static route "${entry.id}" is bound to a handler`);
    if (!binding && !entry.mirrorOf) throw new Error(`route table: static route "${entry.id}" has neither a builder nor a mirror`);
    return binding ? { ...entry, build: binding.build } : { ...entry };
  });
  if (bindings.size > 0) throw new Error(`route table: bindings without a catalogue entry: ${[...bindings.keys()].join(', ')}`);
  cached = routes;
  return routes;
}

let byId: Map<string, Route> | undefined;
export function routeById(): Map<string, Route> {
  byId ??= new Map(allRoutes().map((route) => [route.id, route]));
  return byId;
}
