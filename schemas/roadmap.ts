/**
 * The roadmap (`GET /api/agent-economy/roadmap`): what is live on the testnet today, what comes
 * next, what waits on the mainnet gate, and what comes later. Spec 2.2 names `type`,
 * `posture.mainnet_ready`, `phases` (live, next, trust-gated, later) and
 * `mainnet_gate.pending_blockers`; the item fields are our decision (spec 2.13).
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';

export const ROADMAP_PHASE_IDS = ['live', 'next', 'trust-gated', 'later'] as const;
export const ROADMAP_PROOF_KINDS = ['route', 'command', 'mcp_protocol_version', 'x402_extension'] as const;
export type RoadmapProofKind = (typeof ROADMAP_PROOF_KINDS)[number];
export const MAINNET_BLOCKER_IDS = ['external-review', 'mainnet-script-identity'] as const;

export const mainnetBlockerIdSchema = z.enum(MAINNET_BLOCKER_IDS).describe('Mainnet gate blocker id.');

export const roadmapItemSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/).describe('Item id, stable across versions.'),
  title: z.string().min(1).describe('What the item delivers.'),
  description: z.string().min(1).describe('What it is and why it matters to an agent builder.'),
  evidence: z
    .array(absoluteUrl)
    .describe('Where a live item can be checked right now (APIs, schemas); empty for items not yet live.'),
  gated_by: z
    .array(mainnetBlockerIdSchema)
    .describe('Mainnet gate blockers this item waits for; empty when it does not depend on the gate.'),
  proven_by: z
    .array(
      z.object({
        kind: z.enum(ROADMAP_PROOF_KINDS),
        id: z.string().min(1).max(100),
      }),
    )
    .describe('What would prove a `next` item shipped; none exists yet. Empty elsewhere.'),
});

export const roadmapPhaseSchema = z.object({
  id: z.enum(ROADMAP_PHASE_IDS).describe('`live`: served now on the testnet; `next`: being built; `trust-gated`: waits for the mainnet gate; `later`: planned after it.'),
  label: z.string().min(1).describe('Phase name.'),
  description: z.string().min(1).describe('What the phase means.'),
  items: z.array(roadmapItemSchema).min(1).describe('Items of this phase.'),
});

export const pendingBlockerSchema = z.object({
  id: mainnetBlockerIdSchema,
  label: z.string().min(1).describe('What is missing.'),
  href: absoluteUrl.describe('Mainnet gate status, where the evidence that closes it will be linked.'),
});

export const roadmapSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.roadmap.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    summary: z.string().min(1).describe('The roadmap in one paragraph.'),
    posture: postureSchema,
    phases: z.array(roadmapPhaseSchema).length(ROADMAP_PHASE_IDS.length).describe('The four phases, in order: live, next, trust-gated, later.'),
    mainnet_gate: z
      .object({
        status: z.literal('closed').describe('Closed until every pending blocker is cleared.'),
        mainnet_ready: z.literal(false).describe('Constant false while blockers are pending.'),
        pending_blockers: z.array(pendingBlockerSchema).min(1).describe('What must exist before mainnet.'),
        href: absoluteUrl.describe('Mainnet gate status.'),
      })
      .describe('The mainnet gate as the roadmap sees it.'),
  })
  .describe('Roadmap: live, next, trust-gated and later work, and the blockers of the mainnet gate.');

export type Roadmap = z.infer<typeof roadmapSchema>;
export type RoadmapPhaseId = (typeof ROADMAP_PHASE_IDS)[number];
