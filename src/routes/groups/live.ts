/** Spec 4.2, bound: live status and the proof explorer (the MCP host answers its own health). */
import { liveStatusSchema } from '../../../schemas/live.ts';
import { SVG_CONTENT_TYPE } from '../../catalogue/entries/live.ts';
import { PROBE_CACHE_SECONDS, PROBE_HISTORY_RUNS, PROOFS_CACHE_SECONDS } from '../../config/limits.ts';
import { probeTimelineSvg, receiptTimelineSvg } from '../../descriptors/timelines.ts';
import { json, JsonText, text, type ApiRequest } from '../../lib/api.ts';
import { answerEvery } from '../../lib/shared-answers.ts';
import { liveStatus } from '../../services/live-status.ts';
import { createProofExplorer, type ProofExplorerService } from '../../services/proof-explorer.ts';
import { readReceiptStore } from '../store-read.ts';
import type { Binding } from '../types.ts';
import { runtimeModule } from '../lazy-runtime.ts';

let proofExplorer: ProofExplorerService | undefined;

/** The proofs as sent, by the answer the explorer shares: up to 200 receipts' proofs are serialized once, not per request. */
const proofsText = new WeakMap<object, JsonText>();

/**
 * Made on the first request, over the runtime's store and chain client imported then: loading the
 * route table opens nothing, and the explorer's module (which reads the table) has finished loading.
 */
async function proofsHandler(request: ApiRequest) {
  proofExplorer ??= createProofExplorer(async () => {
    const runtime = await runtimeModule();
    return { store: runtime.getStore(), chain: runtime.getChainClient(), receiptLog: runtime.getReceiptLog() };
  });
  const proofs = await readReceiptStore('the proofs cannot be listed', () => proofExplorer!.proofs(request.requestId));
  let sent = proofsText.get(proofs);
  if (!sent) proofsText.set(proofs, (sent = new JsonText(JSON.stringify(proofs))));
  return json(200, sent);
}

/** The live status's own gate order, for the rows of its timeline. */
const GATES = Object.keys(liveStatusSchema.shape.probes.shape);

/**
 * The two pictures are drawn at most once per interval, as live status and the proofs are, and every
 * request in between shares the drawing: each reads rows of the store (up to 1 440 probe runs, a row
 * per day of receipts), and its drawing changes only when a run is kept or a checkpoint is folded.
 */
const liveTimeline = answerEvery(PROBE_CACHE_SECONDS, async (now) => {
  const { getStore } = await runtimeModule();
  const runs = await readReceiptStore('the probe history cannot be drawn', () => getStore().listProbeRuns(PROBE_HISTORY_RUNS));
  return probeTimelineSvg(runs, GATES, new Date(now));
});

/** Drawn from the receipts per day kept with the reputation aggregates: a row per day read, whatever the store holds. */
const proofsTimeline = answerEvery(PROOFS_CACHE_SECONDS, async (now) => {
  const { getReputationReader } = await runtimeModule();
  const days = await readReceiptStore('the receipts cannot be drawn', () => getReputationReader().receiptDays());
  return receiptTimelineSvg(days, new Date(now));
});

export const liveBindings: Readonly<Record<string, Binding>> = {
  'live': { handler: async (request) => json(200, await liveStatus(request.requestId)) },
  'live-timeline': { handler: async () => text(200, SVG_CONTENT_TYPE, await liveTimeline()) },
  'proofs': { handler: proofsHandler },
  'proofs-timeline': { handler: async () => text(200, SVG_CONTENT_TYPE, await proofsTimeline()) },
};

