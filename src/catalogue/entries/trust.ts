/**
 * Spec 4.2 (developer and trust part): the launch kit (2.4), the first-receipt flow (2.5), the
 * roadmap, the current release, the release watchlist, the mainnet gate and the review pack. All are
 * static: their truth is fixed when the release is built.
 */
import { firstReceiptFlowSchema } from '../../../schemas/first-receipt.ts';
import { developerLaunchKitSchema } from '../../../schemas/launch-kit.ts';
import { currentReleaseSchema, releaseWatchlistSchema } from '../../../schemas/release.ts';
import { roadmapSchema } from '../../../schemas/roadmap.ts';
import { mainnetGateSchema, reviewPackSchema } from '../../../schemas/trust.ts';
import { publish } from '../published.ts';
import type { Entry } from '../types.ts';

const launchKitSchema = publish('developer-launch-kit.schema.v0.json', 'DeveloperLaunchKit', 'Developer launch kit', developerLaunchKitSchema);
const firstReceiptSchema = publish('first-receipt-flow.schema.v0.json', 'FirstReceiptFlow', 'First-receipt flow', firstReceiptFlowSchema);
const roadmapPublished = publish('roadmap.schema.v0.json', 'Roadmap', 'Roadmap', roadmapSchema);
const currentReleasePublished = publish('current-release.schema.v0.json', 'CurrentRelease', 'Current release', currentReleaseSchema);
const watchlistPublished = publish('release-watchlist.schema.v0.json', 'ReleaseWatchlist', 'Release watchlist', releaseWatchlistSchema);
const mainnetGatePublished = publish('mainnet-gate.schema.v0.json', 'MainnetGate', 'Mainnet gate', mainnetGateSchema);
const reviewPackPublished = publish('review-pack.schema.v0.json', 'ReviewPack', 'External review pack', reviewPackSchema);

export const TRUST_ENTRIES: readonly Entry[] = [
    {
      id: 'launch-kit',
      kind: 'static',
      method: 'GET',
      path: '/api/agent-economy/launch-kit',
      tag: 'Developer',
      summary: 'Developer launch kit',
      description:
        'Every entrypoint (page, API and schema), a seven-step five-minute path, copy-paste API recipes with what to check, the assistant widget package, the builder kit, guardrails and the two open gates.',
      schema: launchKitSchema,
      describedBy: true,
      page: '/launch-kit/',
    },
    {
      id: 'first-receipt',
      kind: 'static',
      method: 'GET',
      path: '/api/agent-economy/first-receipt',
      tag: 'Developer',
      summary: 'First-receipt flow',
      description:
        'Six steps from the live status to a re-verified full receipt bundle settled on the testnet, with the policy check before signing and the mainnet gate closed by design. `outcome.receipt_id` is null until the first receipt is recorded; the live status names the latest one.',
      schema: firstReceiptSchema,
      describedBy: true,
      page: '/first-receipt/',
    },
    {
      id: 'roadmap',
      kind: 'static',
      method: 'GET',
      path: '/api/agent-economy/roadmap',
      tag: 'Trust',
      summary: 'Roadmap',
      description: 'Phases live, next, trust-gated and later, each item with its evidence links or the blockers it waits for, and the pending blockers of the mainnet gate.',
      schema: roadmapPublished,
      describedBy: true,
      page: '/roadmap/',
    },
    {
      id: 'release-current',
      kind: 'static',
      method: 'GET',
      path: '/api/agent-economy/release/current',
      tag: 'Trust',
      summary: 'Current release',
      description:
        'Version, git commit (`release.site_commit`) and deployment URL (`release.deployment_url`) of the build that answers, with the mainnet gate (`mainnet_gate.mainnet_ready` false).',
      schema: currentReleasePublished,
      describedBy: true,
      page: '/release/',
    },
    {
      id: 'release-watchlist',
      kind: 'static',
      method: 'GET',
      path: '/agent-economy/release-watchlist.v0.json',
      tag: 'Trust',
      summary: 'Release watchlist',
      description: 'The security baseline every release meets, the mainnet gate invariants no release may change, and the dependencies, runtimes, Ergo APIs and standards watched between releases.',
      schema: watchlistPublished,
      describedBy: true,
      page: '/release/watchlist/',
    },
    {
      id: 'mainnet-gate',
      kind: 'static',
      method: 'GET',
      path: '/api/agent-economy/mainnet-gate',
      tag: 'Trust',
      summary: 'Mainnet gate status',
      description:
        'Closed while the external review and the audit-bound mainnet script identity are missing: each blocker with its owner, the evidence that would clear it and when it closes, the invariants held meanwhile and the opening procedure.',
      schema: mainnetGatePublished,
      describedBy: true,
      page: '/mainnet-gate/',
    },
    {
      id: 'review-pack',
      kind: 'static',
      method: 'GET',
      path: '/api/agent-economy/review-pack',
      tag: 'Trust',
      summary: 'External reviewer handoff pack',
      description:
        'Scope, every artifact (OpenAPI, each published schema, the policy-check contract, receipts and proofs), the threat model, questions for the reviewer, reproduction commands, contacts and deliverables.',
      schema: reviewPackPublished,
      describedBy: true,
      page: '/review-pack/',
    },
];

