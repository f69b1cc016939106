/** Spec 4.2, bound: live status and the proof explorer (the MCP host answers its own health). */
import { json } from '../../lib/api.ts';
import { liveStatus } from '../../services/live-status.ts';
import { createProofExplorer, type ProofExplorerService } from '../../services/proof-explorer.ts';
import { readReceiptStore } from '../store-read.ts';
import type { Binding } from '../types.ts';

let proofExplorer: ProofExplorerService | undefined;

/**
 * Made on the first request, over the runtime's store and chain client imported then: loading the
 * route table opens nothing, and the explorer's module (which reads the table) has finished loading.
 */
async function proofsHandler() {
  proofExplorer ??= createProofExplorer(async () => {
    const runtime = await import('../../services/runtime.ts');
    return { store: runtime.getStore(), chain: runtime.getChainClient() };
  });
  return json(200, await readReceiptStore('the proofs cannot be listed', () => proofExplorer!.proofs()));
}

export const liveBindings: Readonly<Record<string, Binding>> = {
  'live': { handler: async () => json(200, await liveStatus()) },
  'proofs': { handler: proofsHandler },
};

