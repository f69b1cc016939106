/**
 * Builders of the trust documents: the roadmap, the current release, the release watchlist, the
 * mainnet gate and the external review pack. Text comes from `content/`; blocker ids and labels
 * only from MAINNET_BLOCKERS; versions from package.json; the commit from the build info; every
 * URL from the route table. Nothing reads the clock: `last_updated` is the day their sources last changed.
 */
import mainnetGateContent from '../../content/mainnet-gate.json' with { type: 'json' };
import { withCustody } from './custody.ts';
import reviewPackContent from '../../content/review-pack.json' with { type: 'json' };
import roadmapContent from '../../content/roadmap.json' with { type: 'json' };
import watchlistJson from '../../content/release-watchlist.json' with { type: 'json' };
import packageJson from '../../package.json' with { type: 'json' };
import { releaseWatchlistContentSchema, type CurrentRelease, type ReleaseWatchlist } from '../../schemas/release.ts';
import { ROADMAP_PROOF_KINDS, type Roadmap, type RoadmapPhaseId, type RoadmapProofKind } from '../../schemas/roadmap.ts';
import type { MainnetGate, ReviewPack } from '../../schemas/trust.ts';
import { buildInfo } from '../config/build-info.ts';
import { schemaUrl, site, typeName } from '../config/site.ts';
import { examplePolicyCheckRequest } from '../domain/policy-examples.ts';
import { routeUrl } from '../catalogue/lookup.ts';
import { publishedSchemas } from '../catalogue/schemas-index.ts';
import { catalogue, entryById } from '../catalogue/index.ts';
import { curlGet, curlPostJson } from './commands.ts';
import { descriptorHeader, MAINNET_BLOCKERS, POSTURE } from './common.ts';
import { descriptorLastUpdated } from './sources.ts';

type BlockerId = (typeof MAINNET_BLOCKERS)[number]['id'];

/** Both blockers as the roadmap and the release show them: id, label, link to the gate. */
function pendingBlockers() {
  return MAINNET_BLOCKERS.map(({ id, label }) => ({ id, label, href: routeUrl('mainnet-gate') }));
}

function closedGateSummary() {
  return { status: 'closed' as const, mainnet_ready: false as const, pending_blockers: pendingBlockers(), href: routeUrl('mainnet-gate') };
}

function blockerIds(ids: readonly string[], where: string): BlockerId[] {
  const known = new Set<string>(MAINNET_BLOCKERS.map((blocker) => blocker.id));
  for (const id of ids) if (!known.has(id)) throw new Error(`${where}: unknown mainnet blocker "${id}"`);
  return ids as BlockerId[];
}

function proofKind(kind: string, item: string): RoadmapProofKind {
  if (!(ROADMAP_PROOF_KINDS as readonly string[]).includes(kind)) throw new Error(`content/roadmap.json item "${item}": unknown proof kind "${kind}"`);
  return kind as RoadmapProofKind;
}

/** A route answers in this build: a static file, or a runtime route of this site (the route table binds each to its handler; the MCP host answers its own). */
function answers(routeId: string): boolean {
  const found = entryById().get(routeId);
  if (!found) throw new Error(`content/roadmap.json: unknown route "${routeId}"`);
  return found.kind === 'static' || found.host !== 'mcp';
}

/**
 * Content says which phase an item belongs to; the route catalogue says whether it is served. A
 * `live` item whose endpoints do not all answer in this build is published at the top of `next`
 * without evidence, so the roadmap never calls something live that is not.
 */
export function buildRoadmap(): Roadmap {
  const items = (phase: (typeof roadmapContent.phases)[number]) =>
    phase.items.map((item) => {
      const evidenceRoutes: string[] = 'evidence_routes' in item ? item.evidence_routes : [];
      return {
        id: item.id,
        title: item.title,
        description: item.description,
        evidence: evidenceRoutes.map(routeUrl),
        gated_by: blockerIds('gated_by' in item ? item.gated_by : [], `content/roadmap.json item "${item.id}"`),
        proven_by: ('proven_by' in item ? item.proven_by : []).map(({ kind, id }) => ({ kind: proofKind(kind, item.id), id })),
        served: evidenceRoutes.length > 0 && evidenceRoutes.every(answers),
      };
    });
  const phases = roadmapContent.phases.map((phase) => ({
    id: phase.id as RoadmapPhaseId,
    label: phase.label,
    description: phase.description,
    items: items(phase),
  }));
  const live = phases.find((phase) => phase.id === 'live')!;
  const next = phases.find((phase) => phase.id === 'next')!;
  const notYetServed = live.items.filter((item) => !item.served);
  live.items = live.items.filter((item) => item.served);
  next.items = [...notYetServed.map((item) => ({ ...item, evidence: [] })), ...next.items];
  return {
    ok: true,
    ...descriptorHeader('agent_economy.roadmap.v0'),
    summary: roadmapContent.summary,
    posture: POSTURE,
    phases: phases.map((phase) => ({ ...phase, items: phase.items.map(({ served: _served, ...item }) => item) })),
    mainnet_gate: closedGateSummary(),
  };
}

export function buildCurrentRelease(): CurrentRelease {
  const build = buildInfo();
  return {
    ok: true,
    ...descriptorHeader('agent_economy.current_release.v0'),
    release: {
      version: build.version,
      site_commit: build.commit,
      commit_source: build.commitSource,
      deployment_url: site.base_url,
      built_from: { repository: site.repository, commit: build.commit, package: build.packageName },
      openapi: routeUrl('openapi'),
      schema_count: publishedSchemas().length,
      route_count: catalogue().length,
    },
    mainnet_gate: closedGateSummary(),
    links: { watchlist: routeUrl('release-watchlist'), roadmap: routeUrl('roadmap'), review_pack: routeUrl('review-pack') },
    posture: POSTURE,
  };
}

/** Version range of an npm package in package.json, or null when the release does not depend on it. */
function pinnedVersion(name: string): string | null {
  const all: Record<string, string> = { ...packageJson.devDependencies, ...packageJson.dependencies };
  return all[name] ?? null;
}

export function buildReleaseWatchlist(): ReleaseWatchlist {
  const watchlistContent = releaseWatchlistContentSchema.parse(watchlistJson);
  return {
    ok: true,
    ...descriptorHeader('agent_economy.release_watchlist.v0'),
    summary: watchlistContent.summary,
    security_baseline: watchlistContent.security_baseline,
    mainnet_gate_invariants: watchlistContent.mainnet_gate_invariants,
    watch_targets: watchlistContent.watch_targets.map(({ in_use, pinned, ...target }) => {
      if (target.kind === 'npm_dependency' || target.kind === 'runtime') {
        // Read from package.json, so the watchlist cannot drift from what the release installs; the
        // runtime is pinned by the `node` devDependency that npm scripts run.
        const declared = pinnedVersion(target.name);
        return { ...target, in_use: declared !== null, pinned: declared };
      }
      return { ...target, in_use: in_use ?? true, pinned: pinned ?? null };
    }),
    current_release: routeUrl('release-current'),
    posture: POSTURE,
  };
}

export function buildMainnetGate(): MainnetGate {
  const blockers = mainnetGateContent.blockers;
  return {
    ok: true,
    type: typeName('agent_economy.mainnet_gate.v0'),
    version: 'v0',
    status: 'closed',
    last_updated: descriptorLastUpdated('agent_economy.mainnet_gate.v0'),
    mainnet_ready: false,
    summary: withCustody(mainnetGateContent.summary, 'content/mainnet-gate.json summary'),
    blockers: MAINNET_BLOCKERS.map(({ id, label }) => ({ id, label, state: 'missing' as const, ...blockers[id] })),
    invariants: mainnetGateContent.invariants,
    opening_procedure: mainnetGateContent.opening_procedure,
    links: {
      review_pack: routeUrl('review-pack'),
      roadmap: routeUrl('roadmap'),
      current_release: routeUrl('release-current'),
      release_watchlist: routeUrl('release-watchlist'),
    },
    posture: POSTURE,
  };
}

export function buildReviewPack(): ReviewPack {
  const artifacts: ReviewPack['artifacts'] = [
    { id: 'openapi', kind: 'openapi', label: 'OpenAPI 3.1.0 description of every endpoint', url: routeUrl('openapi') },
    ...publishedSchemas().map((published) => ({
      id: published.file,
      kind: 'schema' as const,
      label: `JSON Schema: ${published.title}`,
      url: schemaUrl(published.file),
    })),
    ...reviewPackContent.extra_artifacts.map(({ route, kind, ...artifact }) => ({
      ...artifact,
      kind: kind as ReviewPack['artifacts'][number]['kind'],
      url: routeUrl(route),
    })),
  ];
  return {
    ok: true,
    ...descriptorHeader('agent_economy.review_pack.v0'),
    summary: reviewPackContent.summary,
    scope: { ...reviewPackContent.scope, release: routeUrl('release-current') },
    artifacts,
    threat_model: reviewPackContent.threat_model,
    reviewer_questions: reviewPackContent.reviewer_questions,
    reproduce: [
      ...reviewPackContent.reproduce,
      {
        id: 'policy-check-example',
        label: 'Run the published policy-check example against the deployment',
        command: curlPostJson(routeUrl('policy-check'), examplePolicyCheckRequest),
        expect: 'allowed true, summary policy_allows_exact_testnet_action, reasons empty.',
      },
      {
        id: 'proofs',
        label: 'Fetch the evidence board of the deployment',
        command: curlGet(routeUrl('proofs')),
        expect: 'summary.mainnet_gate_status closed; every listed proof has all checks ok; sandbox receipts listed apart.',
      },
      {
        id: 'release-commit',
        label: 'Confirm the deployed commit is the one reviewed',
        command: curlGet(routeUrl('release-current')),
        expect: 'release.site_commit equals the commit of the checkout you built and tested.',
      },
    ],
    contacts: reviewPackContent.contacts,
    deliverables: reviewPackContent.deliverables,
    mainnet_gate: routeUrl('mainnet-gate'),
    posture: POSTURE,
  };
}
