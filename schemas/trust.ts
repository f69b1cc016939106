/**
 * The two trust surfaces: the mainnet gate (`GET /api/agent-economy/mainnet-gate`) and the external
 * review pack (`GET /api/agent-economy/review-pack`). The spec leaves both bodies to us (2.13); the
 * gate says what is missing and what evidence would clear it, the pack hands a reviewer everything
 * needed to produce that evidence.
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';
import { mainnetBlockerIdSchema } from './roadmap.ts';

const id = z.string().regex(/^[a-z0-9-]+$/).describe('Stable id, lower-case kebab-case.');

export const mainnetBlockerSchema = z.object({
  id: mainnetBlockerIdSchema,
  label: z.string().min(1).describe('What is missing.'),
  state: z.literal('missing').describe('`missing`: no accepted evidence exists yet.'),
  owner: z.string().min(1).describe('Who has to produce the evidence.'),
  evidence_required: z.array(z.string().min(1)).min(1).describe('Each piece of evidence that, together, clears the blocker.'),
  closes_when: z.string().min(1).describe('The exact condition under which this blocker is cleared.'),
});

export const mainnetGateSchema = z
  .object({
    ok: z.literal(true).describe('Constant true: the document answered (the gate itself is closed).'),
    type: typeLiteral('agent_economy.mainnet_gate.v0'),
    version: versionV0,
    status: z.literal('closed').describe('Gate status: closed while any blocker is missing.'),
    last_updated: isoDate,
    mainnet_ready: z.literal(false).describe('Constant false while the gate is closed.'),
    summary: z.string().min(1).describe('Why the gate is closed, in one paragraph.'),
    blockers: z.array(mainnetBlockerSchema).length(2).describe('Both blockers: the external review and the audit-bound mainnet script identity.'),
    invariants: z
      .array(
        z.object({
          id,
          statement: z.string().min(1).describe('What stays true while the gate is closed.'),
          enforced_by: z.string().min(1).describe('Where it is enforced.'),
        }),
      )
      .min(1)
      .describe('What holds in every release while the gate is closed.'),
    opening_procedure: z.array(z.string().min(1)).min(1).describe('Ordered steps that open the gate once both blockers are cleared.'),
    links: z
      .object({
        review_pack: absoluteUrl.describe('What an external reviewer receives.'),
        roadmap: absoluteUrl.describe('Where trust-gated work is listed.'),
        current_release: absoluteUrl.describe('The release this gate status belongs to.'),
        release_watchlist: absoluteUrl.describe('Invariants checked before each release.'),
      })
      .describe('Related documents.'),
    posture: postureSchema,
  })
  .describe('Mainnet gate: closed, with each missing blocker and the evidence that would clear it.');

export const REVIEW_ARTIFACT_KINDS = ['openapi', 'schema', 'contract', 'receipts', 'descriptor', 'source'] as const;

export const reviewPackSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.review_pack.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    summary: z.string().min(1).describe('What the reviewer is asked to do.'),
    scope: z
      .object({
        in_scope: z.array(z.string().min(1)).min(1).describe('What the review covers.'),
        out_of_scope: z.array(z.string().min(1)).min(1).describe('What it does not cover, and why.'),
        release: absoluteUrl.describe('Current release: the commit under review.'),
      })
      .describe('Review scope.'),
    artifacts: z
      .array(
        z.object({
          id: z.string().min(1).describe('Artifact id.'),
          kind: z.enum(REVIEW_ARTIFACT_KINDS).describe('What kind of artifact it is.'),
          label: z.string().min(1).describe('What it is.'),
          url: absoluteUrl.describe('Where to fetch it.'),
        }),
      )
      .min(1)
      .describe('Everything the reviewer needs: the OpenAPI document, every published schema, the policy-check contract, receipts and proofs.'),
    threat_model: z
      .array(
        z.object({
          id,
          threat: z.string().min(1).describe('What could go wrong.'),
          asset: z.string().min(1).describe('What it would harm.'),
          mitigation: z.string().min(1).describe('What the service does against it.'),
          reviewer_focus: z.string().min(1).describe('What the reviewer should try to break.'),
        }),
      )
      .min(1)
      .describe('Threats the design addresses, each with its mitigation.'),
    reviewer_questions: z
      .array(
        z.object({
          id,
          area: z.string().min(1).describe('Part of the system the question is about.'),
          question: z.string().min(1).describe('What we ask the reviewer to answer.'),
          why: z.string().min(1).describe('Why the answer matters for the mainnet gate.'),
        }),
      )
      .min(1)
      .describe('Questions the review report should answer.'),
    reproduce: z
      .array(
        z.object({
          id,
          label: z.string().min(1).describe('What the step reproduces.'),
          command: z.string().min(1).describe('Shell command.'),
          expect: z.string().min(1).describe('What a correct run shows.'),
        }),
      )
      .min(1)
      .describe('How to reproduce the build and the evidence, in order.'),
    contacts: z
      .array(
        z.object({
          role: z.string().min(1).describe('Who.'),
          channel: z.string().min(1).describe('How to reach them.'),
          use_for: z.string().min(1).describe('What to use this channel for.'),
        }),
      )
      .min(1)
      .describe('Who to reach during the review.'),
    deliverables: z.array(z.string().min(1)).min(1).describe('What the review must hand back to clear the external-review blocker.'),
    mainnet_gate: absoluteUrl.describe('Mainnet gate status.'),
    posture: postureSchema,
  })
  .describe('External review pack: scope, artifacts, threat model, questions, reproduction steps and contacts.');

export type MainnetGate = z.infer<typeof mainnetGateSchema>;
export type ReviewPack = z.infer<typeof reviewPackSchema>;
