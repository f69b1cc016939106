/**
 * The current release (`GET /api/agent-economy/release/current`) and the release watchlist
 * (`GET /agent-economy/release-watchlist.v0.json`). Spec 2.2 names `release.site_commit`, a
 * deployment URL field (ours: `release.deployment_url`), `mainnet_gate.mainnet_ready`, and the
 * watchlist's `security_baseline`, `mainnet_gate_invariants` and `watch_targets`; the rest is our
 * decision (spec 2.13).
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';
import { pendingBlockerSchema } from './roadmap.ts';

/** Where the commit id came from, so a reader knows how much to trust it. */
export const COMMIT_SOURCES = ['env:SITE_COMMIT', 'git', 'unavailable'] as const;

export const currentReleaseSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.current_release.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    release: z
      .object({
        version: z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/).describe('Version of this service (its package.json `version`).'),
        site_commit: z
          .union([z.string().regex(/^[0-9a-f]{40}$/), z.literal('unknown')])
          .describe('Full git commit id the build was made from; `unknown` only when the build machine had no git and no SITE_COMMIT.'),
        commit_source: z
          .enum(COMMIT_SOURCES)
          .describe('`env:SITE_COMMIT`: given by the deployment; `git`: read with `git rev-parse HEAD` at build; `unavailable`: neither was possible.'),
        deployment_url: absoluteUrl.describe('Base URL of the deployment that serves this build.'),
        built_from: z
          .object({
            repository: z.string().min(1).describe('Repository the build was made from.'),
            commit: z.string().min(1).describe('Same as `site_commit`.'),
            package: z.string().min(1).describe('Package name in that repository.'),
          })
          .describe('The source of this build.'),
        openapi: absoluteUrl.describe('OpenAPI description served by this build.'),
        schema_count: z.int().min(1).describe('Number of JSON Schema documents this build publishes.'),
        route_count: z.int().min(1).describe('Number of endpoints in this build\'s route table.'),
      })
      .describe('What is deployed.'),
    mainnet_gate: z
      .object({
        status: z.literal('closed').describe('Closed for this release.'),
        mainnet_ready: z.literal(false).describe('Constant false: this release is testnet only.'),
        pending_blockers: z.array(pendingBlockerSchema).min(1).describe('What must exist before mainnet.'),
        href: absoluteUrl.describe('Mainnet gate status.'),
      })
      .describe('The mainnet gate for this release.'),
    links: z
      .object({
        watchlist: absoluteUrl.describe('Release watchlist: what is checked before each release.'),
        roadmap: absoluteUrl.describe('Roadmap.'),
        review_pack: absoluteUrl.describe('External review pack for this release.'),
      })
      .describe('Related documents.'),
    posture: postureSchema,
  })
  .describe('Current release: version, git commit and deployment URL of the build that answers, and the mainnet gate.');

export const securityBaselineItemSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/).describe('Baseline item id.'),
  requirement: z.string().min(1).describe('What every release must satisfy.'),
  check: z.string().min(1).describe('How it is checked (a command, a test or a review step).'),
});

export const mainnetGateInvariantSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/).describe('Invariant id.'),
  invariant: z.string().min(1).describe('What stays true in every release while the gate is closed.'),
  enforced_by: z.string().min(1).describe('Where it is enforced (schema, test, route) so a change that breaks it fails.'),
});

export const WATCH_TARGET_KINDS = ['npm_dependency', 'runtime', 'chain_api', 'standard'] as const;

export const watchTargetSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/).describe('Watch target id.'),
  name: z.string().min(1).describe('Package, runtime, API or standard watched.'),
  kind: z
    .enum(WATCH_TARGET_KINDS)
    .describe('`npm_dependency`: a package this service uses or plans; `runtime`: the JavaScript runtime; `chain_api`: an Ergo API the service reads; `standard`: a specification the contract follows.'),
  in_use: z.boolean().describe('True when this release depends on it; false when it is planned and not yet a dependency.'),
  pinned: z
    .string()
    .nullable()
    .describe('Version this release pins (from package.json for npm dependencies), or null when not yet a dependency.'),
  source: absoluteUrl.describe('Where its releases and advisories are published.'),
  why: z.string().min(1).describe('Why it is watched: what in this service depends on it.'),
  watch_for: z.array(z.string().min(1)).min(1).describe('Changes that would require action.'),
});

export const releaseWatchlistSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.release_watchlist.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    summary: z.string().min(1).describe('What the watchlist is for.'),
    security_baseline: z.array(securityBaselineItemSchema).min(1).describe('Requirements every release must meet.'),
    mainnet_gate_invariants: z.array(mainnetGateInvariantSchema).min(1).describe('What no release may change while the gate is closed.'),
    watch_targets: z.array(watchTargetSchema).min(1).describe('Dependencies, runtimes, chain APIs and standards watched between releases.'),
    current_release: absoluteUrl.describe('Current release.'),
    posture: postureSchema,
  })
  .describe('Release watchlist: security baseline, mainnet gate invariants and watch targets.');

export type CurrentRelease = z.infer<typeof currentReleaseSchema>;
export type ReleaseWatchlist = z.infer<typeof releaseWatchlistSchema>;

/** `content/release-watchlist.json`; npm and runtime targets take `pinned` and `in_use` from package.json. */
export const releaseWatchlistContentSchema = z.strictObject({
  summary: z.string().min(1),
  security_baseline: z.array(securityBaselineItemSchema.strict()).min(1),
  mainnet_gate_invariants: z.array(mainnetGateInvariantSchema.strict()).min(1),
  watch_targets: z
    .array(
      watchTargetSchema
        .omit({ in_use: true, pinned: true })
        .extend({ in_use: z.boolean().optional(), pinned: z.string().nullable().optional() })
        .strict(),
    )
    .min(1),
});
