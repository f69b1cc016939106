/**
 * Spec 4.2 (developer and trust part): the launch kit (2.4), the first-receipt flow (2.5), the
 * roadmap, the current release, the release watchlist, the mainnet gate and the review pack. All are
 * static: their truth is fixed when the release is built.
 */
import { buildFirstReceiptFlow } from '../../descriptors/first-receipt.ts';
import { buildLaunchKit } from '../../descriptors/launch-kit.ts';
import { buildCurrentRelease, buildMainnetGate, buildReleaseWatchlist, buildReviewPack, buildRoadmap } from '../../descriptors/trust.ts';
import type { Binding } from '../types.ts';

export const trustBindings: Readonly<Record<string, Binding>> = {
  'launch-kit': { build: buildLaunchKit },
  'first-receipt': { build: buildFirstReceiptFlow },
  'roadmap': { build: buildRoadmap },
  'release-current': { build: buildCurrentRelease },
  'release-watchlist': { build: buildReleaseWatchlist },
  'mainnet-gate': { build: buildMainnetGate },
  'review-pack': { build: buildReviewPack },
};

