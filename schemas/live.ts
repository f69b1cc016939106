/**
 * Live status (`/api/agent-economy/live`) and the proof explorer (`/api/agent-economy/proofs`):
 * the two runtime truths of the proof surface.
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, hex64, isoDate, isoDateTime, postureSchema, typeLiteral, versionV0 } from './common.ts';

export const probeSchema = z.object({
  ok: z.boolean().describe('The probe passed.'),
  required: z.boolean().describe('Whether a failure of this probe makes the whole status not ok.'),
  status: z.string().describe('Short machine-readable state, e.g. `answering`, `unconfigured`, `timeout`, `closed`.'),
  detail: z.string().describe('What was checked and what was found.'),
  latency_ms: z.int().min(0).optional().describe('Time the probe took, when it made a call.'),
});

export const storageProbeSchema = probeSchema.extend({
  backend: z.enum(['sqlite', 'postgres']).nullable().describe('`sqlite`: the embedded store, one file on this host; `postgres`: PostgreSQL shared by every instance; null when not known.'),
});

export const chainProbeSchema = probeSchema.extend({
  source: z.enum(['testnet', 'sandbox']).nullable().describe('`testnet`: the public Ergo testnet; `sandbox`: the local sandbox chain, whose receipts are never proofs.'),
  height: z.int().min(0).nullable().describe('Height the chain source reported; null when it did not answer.'),
  lag_blocks: z.int().min(0).nullable().describe('Blocks the reported height is behind the highest this instance has seen from the source; null when it did not answer.'),
});

export const rateLimiterProbeSchema = probeSchema.extend({
  mode: z
    .enum(['redis', 'memory', 'memory_fallback'])
    .describe('`redis`: limits shared by every instance; `memory`: one instance, by configuration; `memory_fallback`: Redis configured but unreachable, limits kept per instance meanwhile.'),
});

export const logProbeSchema = probeSchema.extend({
  checkpoint: z
    .object({
      size: z.int().min(0).describe('Tree size.'),
      root_hash: z.string().describe('Root hash, base64.'),
      issued_at: isoDateTime.describe('When it was signed.'),
    })
    .nullable()
    .describe('The newest checkpoint, when its signature verified; else null.'),
});

export const liveStatusSchema = z
  .object({
    ok: z.boolean().describe('True when every required probe passed.'),
    type: typeLiteral('agent_economy.live_status.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate.describe('UTC day of `checked_at`: the probes are run afresh, at most `cached_for_seconds` old.'),
    checked_at: isoDateTime,
    cached_for_seconds: z.int().min(0).describe('Probe results are cached this long so the endpoint stays fast.'),
    summary: z.object({
      gates_live: z.array(z.string()).describe('Surfaces whose probes pass right now.'),
      mainnet_gate_status: z.literal('closed').describe('Closed until external review and an audit-bound script identity exist.'),
      latest_full_receipt_id: hex64.nullable().describe('Receipt id of the latest full receipt bundle settled on the testnet, or null when none exists yet.'),
    }),
    latest_full_receipt_id: hex64.nullable().describe('Same as summary.latest_full_receipt_id.'),
    probes: z
      .object({
        assistant: probeSchema.describe('Assistant model provider configured and answering.'),
        receipt_storage: storageProbeSchema.describe('A real round trip to the receipt store.'),
        chain: chainProbeSchema.describe('The chain source answers with its height and is not lagging.'),
        mcp_dns: probeSchema.describe('The MCP host resolves and its /health answers.'),
        signer: probeSchema.describe('Signer health endpoint.'),
        rate_limiter: rateLimiterProbeSchema.describe('How the assistant’s rate limits are kept (Redis shared, memory, or memory while Redis is unreachable).'),
        payment_widget: probeSchema.describe('The payment widget can run a paid turn (needs assistant, storage and chain).'),
        wallet_agent: probeSchema.describe('The policy engine answers its own example with the expected verdict.'),
        mainnet_gate: probeSchema.describe('The mainnet gate is closed, as it must be.'),
        transparency_log: logProbeSchema.describe(
          'The receipt log: a fresh checkpoint signed by the published key, one receipt per entry, the newest entries matching their leaves.',
        ),
      })
      .describe('Each dependency, probed concurrently with a bounded timeout.'),
    links: z.object({ proofs: absoluteUrl, mainnet_gate: absoluteUrl, openapi: absoluteUrl }),
    posture: postureSchema,
  })
  .describe('Live status of the proof surface.');

export const proofSchema = z.object({
  id: z.string().describe('Proof id: a receipt id or the id of a conformance proof.'),
  kind: z
    .enum(['testnet_receipt', 'sandbox_receipt', 'conformance'])
    .describe('`testnet_receipt`: a stored receipt settled on the Ergo testnet; `conformance`: a built-in check of this deployment; `sandbox_receipt`: a receipt settled on the local sandbox chain, listed apart and never a proof.'),
  subject: z.string().describe('What it proves something about.'),
  checks: z
    .array(z.object({ id: z.string(), ok: z.boolean(), detail: z.string() }))
    .min(1)
    .describe('Each recomputed check and its outcome.'),
  verified_at: isoDateTime,
  links: z.record(z.string(), absoluteUrl).describe('Where to inspect it.'),
  log_index: z.int().min(0).nullable().optional().describe('A receipt\'s entry index in the receipt log; null when none.'),
});

export const proofExplorerSchema = z
  .object({
    ok: z.literal(true),
    type: typeLiteral('agent_economy.proof_explorer.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate.describe('UTC day of `generated_at`: the proofs are read from the store on every request.'),
    generated_at: isoDateTime,
    summary: z.object({
      proof_count: z.int().min(0).describe('Testnet receipts plus conformance proofs listed in `proofs` (sandbox receipts never count).'),
      receipt_proofs: z.int().min(0),
      conformance_proofs: z.int().min(0),
      sandbox_receipts_excluded: z.int().min(0).describe('Receipts checked against the local sandbox chain, listed apart and never counted.'),
      receipts_in_checkpoint: z.int().min(0).describe('Listed receipts proven in the newest checkpoint.'),
      receipts_not_proven_in_log: z.int().min(0).describe('Listed receipts not (yet) proven there.'),
      mainnet_gate_status: z.literal('closed'),
    }),
    receipt_log: z
      .object({
        origin: z.string(),
        verifier_key: z.string().describe('Signed-note verifier key of its checkpoints.'),
        checkpoint_url: absoluteUrl,
        key_url: absoluteUrl,
        tiles_url: absoluteUrl.describe('Prefix of the c2sp.org/tlog-tiles paths.'),
        witnesses: z
          .array(z.object({ verifier_key: z.string(), url: absoluteUrl }))
          .describe('Witnesses the server asks to cosign each checkpoint (c2sp.org/tlog-witness); empty when none.'),
        witness_quorum: z.int().min(0).describe('Cosignatures a checkpoint needs before it is published.'),
        checkpoint: logProbeSchema.shape.checkpoint,
        entries: z.int().min(0).describe('Entries in the log now.'),
        agrees: z.boolean().describe('The transparency_log probe: checkpoint valid, store and log agree.'),
        detail: z.string(),
      })
      .describe('The receipt log each listed receipt is checked against.'),
    proofs: z.array(proofSchema).describe('Testnet receipt proofs (newest first) then conformance proofs; never a sandbox receipt.'),
    sandbox_receipts: z.array(proofSchema).describe('Receipts settled on the sandbox chain (kind `sandbox_receipt`): useful for demos, never proofs.'),
    reconciliation: z.object({ command: z.string(), description: z.string() }),
    posture: postureSchema,
  })
  .refine((board) => board.proofs.every((proof) => proof.kind !== 'sandbox_receipt') && board.sandbox_receipts.every((proof) => proof.kind === 'sandbox_receipt'), {
    message: 'sandbox receipts are listed apart, never among the proofs',
    path: ['sandbox_receipts'],
  })
  .describe('Proof explorer: the evidence board.');

export const mcpHealthSchema = z
  .object({ ok: z.boolean(), service: z.string(), version: z.string() })
  .describe('Health of the MCP host (spec section 1, posture fact 6).');

export type LiveStatus = z.infer<typeof liveStatusSchema>;
export type Probe = z.infer<typeof probeSchema>;
export type StorageProbe = z.infer<typeof storageProbeSchema>;
export type ChainProbe = z.infer<typeof chainProbeSchema>;
export type LogProbe = z.infer<typeof logProbeSchema>;
export type RateLimiterProbe = z.infer<typeof rateLimiterProbeSchema>;
export type ProofExplorer = z.infer<typeof proofExplorerSchema>;
