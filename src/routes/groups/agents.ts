/**
 * Spec 4.1 (agent discovery part): the service registry, the reputation graph, the MCP tools
 * manifest, the provider onboarding path, publishing, the jobs board with its acceptance and quote
 * validations, and the wallet boundary manifest. Well-known paths carry the configured namespace.
 */
import { acceptanceValidation, buildAcceptanceGuide, buildJobsBoard, buildQuoteGuide, quoteValidation } from '../../descriptors/jobs.ts';
import { buildMcpToolsManifest } from '../../descriptors/mcp-tools.ts';
import { buildProviderOnboarding } from '../../descriptors/onboarding.ts';
import { buildPublishGuide, buildServiceRegistry, publishValidation } from '../../descriptors/registry.ts';
import { buildReputationGraph } from '../../descriptors/reputation.ts';
import { buildWalletBoundary } from '../../descriptors/wallet-boundary.ts';
import { hex } from '@fleet-sdk/crypto';
import { routeUrl } from '../../catalogue/lookup.ts';
import { deriveReputationGraph } from '../../domain/reputation.ts';
import { encodeBase64 } from '../../domain/tlog/base64.ts';
import { json, type ApiResponse } from '../../lib/api.ts';
import { readReceiptStore } from '../store-read.ts';
import { buildMcpRegistryServer } from '../../descriptors/mcp-registry.ts';
import type { Binding } from '../types.ts';
import { runtimeModule } from '../lazy-runtime.ts';

/**
 * The three validations answer one result document: 200 when it is accepted for operator review
 * (or the quote scaffold is ready), 400 with the same shape when any error blocks it.
 */
function validationAnswer(result: { errors: unknown[] }): ApiResponse {
  return json(result.errors.length === 0 ? 200 : 400, result);
}

/**
 * Derived on every request from the receipts of the receipt log's newest checkpoint (the runtime is
 * imported then, so loading the table opens nothing): entries below a signed size never change, so
 * anyone holding the log can recompute exactly this graph (`agent-economy reputation --from-log`).
 */
async function reputationHandler(): Promise<ApiResponse> {
  const { getStore, getReceiptLog } = await runtimeModule();
  const { receipts, checkpoint, origin } = await readReceiptStore('the reputation graph cannot be derived', async () => {
    const log = getReceiptLog();
    const signed = await log.checkpoint();
    return { receipts: await getStore().listReceiptSummaries(signed?.size ?? 0), checkpoint: signed, origin: log.origin };
  });
  const named = checkpoint ? { size: checkpoint.size, root_hash: encodeBase64(hex.decode(checkpoint.rootHex)), origin, checkpoint_api: routeUrl('receipt-log-checkpoint') } : null;
  return json(200, buildReputationGraph(deriveReputationGraph(receipts), new Date(), named));
}

export const agentsBindings: Readonly<Record<string, Binding>> = {
  'registry': { build: buildServiceRegistry },
  'reputation': { handler: reputationHandler },
  'mcp-tools': { build: buildMcpToolsManifest },
  'mcp-registry-server': { build: buildMcpRegistryServer },
  'onboarding': { build: buildProviderOnboarding },
  'publish-guide': { build: buildPublishGuide },
  'publish': { handler: (request) => validationAnswer(publishValidation(request.body, new Date())) },
  'jobs': { build: buildJobsBoard },
  'jobs-accept-guide': { build: buildAcceptanceGuide },
  'jobs-accept': { handler: (request) => validationAnswer(acceptanceValidation(request.body, new Date())) },
  'jobs-quote-guide': { build: buildQuoteGuide },
  'jobs-quote': { handler: (request) => validationAnswer(quoteValidation(request.body, new Date())) },
  'wallet-boundary': { build: buildWalletBoundary },
};

