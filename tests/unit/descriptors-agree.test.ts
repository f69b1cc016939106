/**
 * The descriptors agree with one another and with the code (issue 37, item 4): the roadmap calls
 * live what the registry lists as served here and nothing it lists as next or later; the registry's
 * claims about the live status name probes the live status runs. Read from content/, which the
 * descriptors are built from, and from the live status schema, which the probes are built against.
 */
import { describe, expect, it } from 'vitest';
import registry from '../../content/registry.json' with { type: 'json' };
import roadmap from '../../content/roadmap.json' with { type: 'json' };
import { liveStatusSchema } from '../../schemas/live.ts';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { entryById } from '../../src/catalogue/index.ts';
import { COMMAND_NAMES } from '../../src/cli/main.ts';
import { X402_EXTENSIONS } from '../../src/domain/assistant/x402.ts';
import { buildRoadmap } from '../../src/descriptors/trust.ts';
import type { RoadmapProofKind } from '../../schemas/roadmap.ts';

type Link = { route?: string; schema_of?: string; external?: string };
const services = registry.services as Array<{ id: string; provider: unknown; endpoints: Array<{ link: Link }>; evidence: Array<{ kind: string; link: Link }>; listing: { review_note?: string } }>;
const ours = services.filter((service) => service.provider === 'this_site');
type Proof = { kind: RoadmapProofKind; id: string };
const phases = roadmap.phases as Array<{ id: string; items: Array<{ id: string; title: string; evidence_routes?: string[]; proven_by?: Proof[] }> }>;
const phase = (id: string) => phases.find((entry) => entry.id === id)!.items;
const probes = Object.keys(liveStatusSchema.shape.probes.shape);

/** Whether what would prove a roadmap item shipped exists in this build. */
function exists({ kind, id }: Proof): boolean {
  switch (kind) {
    case 'route':
      return entryById().has(id);
    case 'command':
      return COMMAND_NAMES.includes(id);
    case 'mcp_protocol_version':
      return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(id);
    case 'x402_extension':
      return (X402_EXTENSIONS as readonly string[]).includes(id);
  }
}

/** The probe of the live status that covers each service the registry says it probes. */
const PROBE_OF: Record<string, string> = { 'hosted-assistant': 'assistant', 'wallet-policy-check': 'wallet_agent' };

describe('the roadmap and the registry', () => {
  it('calls live every service the registry lists as served here: one of its routes is evidence of a live item', () => {
    const live = new Set(phase('live').flatMap((item) => item.evidence_routes ?? []));
    for (const service of ours) {
      const routes = [...service.endpoints, ...service.evidence].map(({ link }) => link.route).filter((route): route is string => route !== undefined);
      expect(routes.some((route) => live.has(route)), `${service.id}: none of ${routes.join(', ')} is evidence of a live roadmap item`).toBe(true);
    }
  });

  it('lists nothing as next or later that is live: such items have no evidence, and name no service the registry lists', () => {
    const ids = new Set(services.map((service) => service.id));
    const live = new Set(phase('live').flatMap((item) => item.evidence_routes ?? []));
    for (const id of ['next', 'trust-gated', 'later']) {
      for (const item of phase(id)) {
        expect(item.evidence_routes ?? [], `${id}/${item.id}`).toEqual([]);
        expect(ids.has(item.id), `${id}/${item.id} is a registry service`).toBe(false);
      }
    }
    expect(live.size).toBeGreaterThan(0);
  });

  it('names for each next item what would prove it shipped, none of which exists yet: shipping it turns this red until the item moves to live', () => {
    expect(phase('next').length).toBeGreaterThan(0);
    for (const item of phase('next')) {
      expect(item.proven_by?.length, `next/${item.id} names no proof`).toBeGreaterThan(0);
      for (const proof of item.proven_by!) expect(exists(proof), `next/${item.id}: ${proof.kind} ${proof.id} exists: move the item to live`).toBe(false);
    }
    // What each kind reads is this build's: each of these exists, so an item naming one would be refused.
    for (const proof of [
      { kind: 'route', id: 'a2a' },
      { kind: 'command', id: 'witness serve' },
      { kind: 'mcp_protocol_version', id: '2025-06-18' },
      { kind: 'x402_extension', id: 'payment-identifier' },
    ] as const) {
      expect(exists(proof), `${proof.kind} ${proof.id}`).toBe(true);
    }
    // The roadmap publishes them as content says, and only for next items.
    const built = buildRoadmap();
    for (const built_phase of built.phases) {
      for (const item of built_phase.items) expect(item.proven_by, `${built_phase.id}/${item.id}`).toEqual(phase(built_phase.id).find((entry) => entry.id === item.id)?.proven_by ?? []);
    }
  });
});

describe('the registry and the live status', () => {
  it('links the live status only for a service one of its probes covers, and says which in its description', () => {
    const linked = ours.filter((service) => service.evidence.some(({ kind, link }) => kind === 'live_status' && link.route === 'live'));
    expect(linked.map((service) => service.id).sort()).toEqual(Object.keys(PROBE_OF).sort());
    for (const service of linked) expect(probes, service.id).toContain(PROBE_OF[service.id]);
    expect(registry.description).toMatch(/the live status probes the hosted assistant and the wallet-agent policy check/);
  });

  it('says the chain probe reads the Explorer API it lists, as the live status does', () => {
    const explorer = services.find((service) => service.id === 'ergo-testnet-explorer-api')!;
    expect(explorer.listing.review_note).toMatch(/live status reads it \(the chain probe/);
    expect(probes).toContain('chain');
  });
});
