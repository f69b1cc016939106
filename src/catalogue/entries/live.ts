/** Spec 4.2: live status, the proof explorer, and the MCP host's health (served by the MCP host). */
import { liveStatusSchema, mcpHealthSchema, proofExplorerSchema } from '../../../schemas/live.ts';
import { PROBE_CACHE_SECONDS, PROBE_HISTORY_INTERVAL_SECONDS, PROBE_HISTORY_RUNS, PROBE_TIMEOUT_MS, RECEIPT_TIMELINE_DAYS, PROOF_CHAIN_BUDGET_MS, PROOF_RECEIPT_LIMIT, PROOFS_CACHE_SECONDS } from '../../config/limits.ts';
import { site } from '../../config/site.ts';
import { publish } from '../published.ts';
import type { Entry, ResponseDoc } from '../types.ts';

const liveSchema = publish('live-status.schema.v0.json', 'LiveStatus', 'Live status', liveStatusSchema);
const proofsSchema = publish('proof-explorer.schema.v0.json', 'ProofExplorer', 'Proof explorer', proofExplorerSchema);
const healthSchema = publish('mcp-health.schema.v0.json', 'McpHealth', 'MCP host health', mcpHealthSchema);

const receiptStoreUnreadable: ResponseDoc = { name: 'ReceiptStoreUnreadable', description: 'The receipt store cannot be read (code `receipt_storage_unavailable`).' };

/** The pictures of the live proof are SVG documents drawn per request. */
export const SVG_CONTENT_TYPE = 'image/svg+xml; charset=utf-8';

export const LIVE_ENTRIES: readonly Entry[] = [
    {
      id: 'live',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/agent-economy/live',
      tag: 'Live proof',
      summary: 'Live status',
      description:
        `Probes every dependency at once, each within ${PROBE_TIMEOUT_MS} ms (shared for ${PROBE_CACHE_SECONDS} s): \`assistant\` (the model provider), \`receipt_storage\` (a store round trip), ` +
        '`chain` (height and lag), `mcp_dns` (the MCP host\'s DNS and health), `signer`, `rate_limiter` (Redis or memory), `payment_widget` (a paid turn can run), ' +
        '`wallet_agent` (the policy engine), `mainnet_gate` and `transparency_log` (the receipt log signs). `ok` is false when a required probe fails; `latest_full_receipt_id` is the newest full receipt bundle settled on the testnet.',
      responses: { 200: { description: 'Live status, whatever the probes found.', schema: liveSchema } },
      page: '/live/',
    },
    {
      id: 'live-timeline',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/agent-economy/live/timeline.svg',
      tag: 'Live proof',
      summary: 'Live status over time (SVG)',
      description:
        `The kept probe runs of live status as a timeline: a row per gate, coloured up, degraded (an optional probe failed) or down (a required one failed), bar height the probe's latency, and each gate's state now and since when. ` +
        `A reading of live status is kept at most once every ${PROBE_HISTORY_INTERVAL_SECONDS} s, the newest ${PROBE_HISTORY_RUNS} runs. The image's \`<desc>\` says the same in words. Drawn at most every ${PROBE_CACHE_SECONDS} s and shared.`,
      responses: {
        200: { description: 'The timeline, drawn from the stored history at most a few seconds ago.', contentType: SVG_CONTENT_TYPE },
        503: receiptStoreUnreadable,
      },
      page: '/live/',
    },
    {
      id: 'proofs',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/agent-economy/proofs',
      tag: 'Live proof',
      summary: 'Proof explorer',
      description:
        `One proof per stored testnet receipt bundle (the newest ${PROOF_RECEIPT_LIMIT}), its checks recomputed: the receipt id hash, every agreement between its parts, the Note binding, ` +
        `the task hash, and the settlement transaction re-read from the chain source (all chain reads of one answer share ${PROOF_CHAIN_BUDGET_MS} ms). Then the conformance proofs: the policy engine ` +
        `on its published example and each unsafe variant, and the published schemas validating the served descriptors (checked at build). Sandbox receipts are listed apart and never counted. Shared for ${PROOFS_CACHE_SECONDS} s.`,
      responses: {
        200: { description: 'The evidence board.', schema: proofsSchema },
        503: { description: 'The receipt store cannot be read (code `receipt_storage_unavailable`): the proofs cannot be listed.' },
      },
      page: '/proofs/',
    },
    {
      id: 'proofs-timeline',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/agent-economy/proofs/timeline.svg',
      tag: 'Live proof',
      summary: 'Receipts over time (SVG)',
      description: `Settled receipts per UTC day over the last ${RECEIPT_TIMELINE_DAYS} days, testnet and sandbox in separate rows. The image's \`<desc>\` says the same in words. Drawn at most every ${PROOFS_CACHE_SECONDS} s and shared.`,
      responses: {
        200: { description: 'The chart, from the signed receipt log.', contentType: SVG_CONTENT_TYPE },
        503: receiptStoreUnreadable,
      },
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
      description: `Served by the MCP host at \`${site.mcp_url}/health\`; a client checks it before connecting to \`${site.mcp_url}/mcp\`.`,
      responses: { 200: { description: 'The MCP host is up.', schema: healthSchema } },
    },
];

