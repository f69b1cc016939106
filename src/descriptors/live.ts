/**
 * Live status and proof explorer bodies, assembled from probe results and stored proofs. The
 * handlers own the I/O; these functions only shape what was found.
 */
import type { LiveStatus, Probe, ProofExplorer } from '../../schemas/live.ts';
import { site, typeName } from '../config/site.ts';
import { routeUrl } from '../catalogue/lookup.ts';
import { LOG_INCLUSION_CHECK } from '../domain/tlog/audit.ts';
import { POSTURE } from './common.ts';

export function buildLiveStatus(
  probes: LiveStatus['probes'],
  latestFullReceiptId: string | null,
  checkedAt: Date,
  cachedForSeconds: number,
): LiveStatus {
  const entries = Object.entries(probes) as Array<[string, Probe]>;
  return {
    ok: entries.every(([, probe]) => probe.ok || !probe.required),
    type: typeName('agent_economy.live_status.v0'),
    version: 'v0',
    status: 'testnet_live_proof',
    last_updated: checkedAt.toISOString().slice(0, 10),
    checked_at: checkedAt.toISOString(),
    cached_for_seconds: cachedForSeconds,
    summary: {
      gates_live: entries.filter(([name, probe]) => probe.ok && name !== 'mainnet_gate').map(([name]) => name),
      mainnet_gate_status: 'closed',
      latest_full_receipt_id: latestFullReceiptId,
    },
    latest_full_receipt_id: latestFullReceiptId,
    probes,
    links: { proofs: routeUrl('proofs'), mainnet_gate: routeUrl('mainnet-gate'), openapi: routeUrl('openapi') },
    posture: POSTURE,
  };
}

export function buildProofExplorer(
  proofs: ProofExplorer['proofs'],
  sandboxReceipts: ProofExplorer['sandbox_receipts'],
  receiptLog: ProofExplorer['receipt_log'],
  generatedAt: Date,
): ProofExplorer {
  const receipts = [...proofs, ...sandboxReceipts].filter((proof) => proof.kind !== 'conformance');
  const proven = (proof: (typeof receipts)[number]) => proof.checks.some((check) => check.id === LOG_INCLUSION_CHECK && check.ok);
  const inCheckpoint = receipts.filter(proven).length;
  // Not proven though the checkpoint covers its entry, or with no entry at all: the log and the store
  // disagree, whatever their counts say. A receipt past the checkpoint is only waiting for the next one.
  const signedSize = receiptLog.checkpoint?.size ?? 0;
  const unproven = receipts.filter((proof) => !proven(proof) && (proof.log_index == null || proof.log_index < signedSize)).map((proof) => proof.id);
  const log = unproven.length === 0 ? receiptLog : {
    ...receiptLog,
    agrees: false,
    detail: `${receiptLog.detail} ${receiptLog.agrees ? 'But' : 'Also,'} ${unproven.length === 1 ? 'a listed receipt is' : `${unproven.length} listed receipts are`} not proven in the log: ${unproven.slice(0, 5).join(', ')}${unproven.length > 5 ? ', ...' : ''}.`,
  };
  return {
    ok: true,
    type: typeName('agent_economy.proof_explorer.v0'),
    version: 'v0',
    status: 'testnet_live_proof',
    last_updated: generatedAt.toISOString().slice(0, 10),
    generated_at: generatedAt.toISOString(),
    summary: {
      proof_count: proofs.length,
      receipt_proofs: proofs.filter((proof) => proof.kind === 'testnet_receipt').length,
      conformance_proofs: proofs.filter((proof) => proof.kind === 'conformance').length,
      sandbox_receipts_excluded: sandboxReceipts.length,
      receipts_in_checkpoint: inCheckpoint,
      receipts_not_proven_in_log: receipts.length - inCheckpoint,
      mainnet_gate_status: 'closed',
    },
    receipt_log: log,
    proofs,
    sandbox_receipts: sandboxReceipts,
    reconciliation: {
      command: `npx agent-economy reconcile --base ${site.base_url}`,
      description: 'Re-verifies every proof listed here: receipt id hashes, Note bindings, task hashes and settlement transactions.',
    },
    posture: POSTURE,
  };
}
