/**
 * The route catalogue: every method and path of the contract, once, as data. Each entries file
 * describes one area of the spec; this module only joins them and checks that ids and method+path
 * pairs are unique, so a duplicate fails at load instead of shadowing a route. It imports schemas
 * and configuration only; the route table (src/routes/table.ts) binds handlers and builders to it.
 */
import { AGENT_CONVENTION_ENTRIES } from './entries/agent-conventions.ts';
import { AGENTS_ENTRIES } from './entries/agents.ts';
import { ASSISTANT_ENTRIES } from './entries/assistant.ts';
import { DEVELOPER_ENTRIES } from './entries/developer.ts';
import { DISCOVERY_ENTRIES } from './entries/discovery.ts';
import { LIVE_ENTRIES } from './entries/live.ts';
import { RECEIPT_LOG_ENTRIES } from './entries/receipt-log.ts';
import { TRUST_ENTRIES } from './entries/trust.ts';
import { WALLET_AGENT_ENTRIES } from './entries/wallet-agent.ts';
import type { Entry } from './types.ts';

let cached: readonly Entry[] | undefined;

/** Every entry in a stable order (discovery first, as the spec lists them). */
export function catalogue(): readonly Entry[] {
  if (cached) return cached;
  const entries = [
    ...DISCOVERY_ENTRIES,
    ...AGENTS_ENTRIES,
    ...LIVE_ENTRIES,
    ...RECEIPT_LOG_ENTRIES,
    ...TRUST_ENTRIES,
    ...WALLET_AGENT_ENTRIES,
    ...DEVELOPER_ENTRIES,
    ...ASSISTANT_ENTRIES,
    ...AGENT_CONVENTION_ENTRIES,
  ];
  const ids = new Set<string>();
  const endpoints = new Set<string>();
  for (const entry of entries) {
    if (ids.has(entry.id)) throw new Error(`route catalogue: duplicate id "${entry.id}"`);
    const endpoint = `${entry.host ?? 'site'} ${entry.method} ${entry.path}`;
    if (endpoints.has(endpoint)) throw new Error(`route catalogue: duplicate endpoint ${endpoint}`);
    ids.add(entry.id);
    endpoints.add(endpoint);
  }
  cached = entries;
  return entries;
}

let byId: Map<string, Entry> | undefined;
export function entryById(): Map<string, Entry> {
  byId ??= new Map(catalogue().map((entry) => [entry.id, entry]));
  return byId;
}
