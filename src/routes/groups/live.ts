/** Spec 4.2: live status, the proof explorer, and the MCP host's health (served by the MCP host). */
import { liveStatusSchema, mcpHealthSchema, proofExplorerSchema, type LiveStatus } from '../../../schemas/live.ts';
import { buildLiveStatus, buildProofExplorer } from '../../descriptors/live.ts';
import { json } from '../../lib/api.ts';
import { notRunning, PROBE_CACHE_SECONDS, probeMainnetGate, probeMcp, probeSigner, probeWalletAgent } from '../../services/live-probes.ts';
import { publish } from '../published.ts';
import type { Route } from '../types.ts';

const liveSchema = publish('live-status.schema.v0.json', 'LiveStatus', 'Live status', liveStatusSchema);
const proofsSchema = publish('proof-explorer.schema.v0.json', 'ProofExplorer', 'Proof explorer', proofExplorerSchema);
const healthSchema = publish('mcp-health.schema.v0.json', 'McpHealth', 'MCP host health', mcpHealthSchema);

let cachedLive: { at: number; body: LiveStatus } | undefined;

async function liveStatus(): Promise<LiveStatus> {
  const now = Date.now();
  if (cachedLive && now - cachedLive.at < PROBE_CACHE_SECONDS * 1000) return cachedLive.body;
  const [assistant, receipt_storage, chain, mcp_dns, signer, wallet_agent, mainnet_gate] = await Promise.all([
    notRunning(true, 'The assistant model provider is not part of this release yet.'),
    notRunning(true, 'The receipt store is not part of this release yet.'),
    notRunning(true, 'The chain client is not part of this release yet.'),
    probeMcp(),
    probeSigner(),
    probeWalletAgent(),
    probeMainnetGate(),
  ]);
  const payment_widget = {
    ok: assistant.ok && receipt_storage.ok && chain.ok,
    required: false,
    status: assistant.ok && receipt_storage.ok && chain.ok ? 'ready' : 'blocked',
    detail: 'A paid turn needs the assistant, the receipt store and the chain source.',
  };
  const body = buildLiveStatus({ assistant, receipt_storage, chain, mcp_dns, signer, payment_widget, wallet_agent, mainnet_gate }, null, new Date(now), PROBE_CACHE_SECONDS);
  cachedLive = { at: now, body };
  return body;
}

export function liveRoutes(): Route[] {
  return [
    {
      id: 'live',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/agent-economy/live',
      tag: 'Live proof',
      summary: 'Live status',
      description: `Probes every dependency concurrently with bounded timeouts (results cached ${PROBE_CACHE_SECONDS} s). \`ok\` is false when a required probe fails.`,
      responses: { 200: { description: 'Live status, whatever the probes found.', schema: liveSchema } },
      handler: async () => json(200, await liveStatus()),
      page: '/live/',
    },
    {
      id: 'proofs',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/agent-economy/proofs',
      tag: 'Live proof',
      summary: 'Proof explorer',
      description: 'Every stored testnet receipt bundle and conformance proof with its recomputed checks; sandbox receipts listed apart and never counted.',
      responses: { 200: { description: 'The evidence board.', schema: proofsSchema } },
      // No receipt store exists in this release: the board is honestly empty until one does.
      handler: () => json(200, buildProofExplorer([], [], new Date())),
      page: '/proofs/',
    },
    {
      id: 'mcp-health',
      kind: 'dynamic',
      method: 'GET',
      path: '/health',
      host: 'mcp',
      tag: 'MCP',
      summary: 'MCP host health',
      description: 'Served by the MCP host at `{mcp_url}/health`; a client checks it before connecting to `{mcp_url}/mcp`.',
      responses: { 200: { description: 'The MCP host is up.', schema: healthSchema } },
    },
  ];
}
