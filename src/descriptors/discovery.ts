/**
 * Builders of the discovery descriptor and the capability manifest. Both are derived from the route
 * table, the site configuration and `content/capabilities.json`; nothing here names a host.
 */
import capabilitiesContent from '../../content/capabilities.json' with { type: 'json' };
import { withCustody } from './custody.ts';
import type { CapabilityManifest, DiscoveryDescriptor } from '../../schemas/discovery.ts';
import { hubUrl, mcpUrl, schemaUrl, site, siteUrl } from '../config/site.ts';
import { HUB_ALIASES } from '../catalogue/hub-aliases.ts';
import { routeUrl } from '../catalogue/lookup.ts';
import { publishedSchemas } from '../catalogue/schemas-index.ts';
import { RECEIPT_LOG_PATH, receiptLogOrigin } from '../config/receipt-log.ts';
import { OFFER_RECEIPT, OFFER_RECEIPT_ALGORITHM, offerReceiptKeyId } from '../domain/assistant/offer-receipt.ts';
import { descriptorHeader, POSTURE } from './common.ts';
import { endpointEntries } from './endpoints.ts';

/**
 * `verifierKey`: the receipt log's verifier key as the build knows it (src/services/log-signing-key.ts,
 * publishedVerifierKey); `witnesses`: the witnesses it is configured with (LOG_WITNESSES) and their quorum;
 * `x402Key`: the public key that signs x402 offers and receipts as the build knows it (publishedX402Key).
 */
export function buildDiscoveryDescriptor(
  verifierKey?: string,
  witnesses: { list: ReadonlyArray<{ verifierKey: string; url: string }>; quorum: number } = { list: [], quorum: 0 },
  x402Key?: string,
): DiscoveryDescriptor {
  return {
    ok: true,
    ...descriptorHeader('agent_economy.discovery.v0'),
    name: site.name,
    description: site.description,
    posture: POSTURE,
    hosts: {
      base_url: site.base_url,
      schema_base: site.base_url,
      agent_hub_url: site.agent_hub_url,
      mcp_url: site.mcp_url,
    },
    surfaces: {
      start_page: siteUrl('/'),
      capabilities: routeUrl('agents-well-known'),
      registry_api: routeUrl('registry'),
      jobs_api: routeUrl('jobs'),
      reputation_api: routeUrl('reputation'),
      mcp_tools_api: routeUrl('mcp-tools'),
      onboarding_api: routeUrl('onboarding'),
      wallet_boundary: routeUrl('wallet-boundary'),
      live_status_api: routeUrl('live'),
      proof_explorer_api: routeUrl('proofs'),
      launch_kit_api: routeUrl('launch-kit'),
      first_receipt_api: routeUrl('first-receipt'),
      policy_check_api: routeUrl('policy-check'),
      developer_services_api: routeUrl('dev-services'),
      mainnet_gate_api: routeUrl('mainnet-gate'),
      review_pack_api: routeUrl('review-pack'),
      openapi: routeUrl('openapi'),
      mcp_health: mcpUrl('/health'),
      mcp_endpoint: mcpUrl('/mcp'),
    },
    endpoints: endpointEntries(),
    schemas: publishedSchemas().map((published) => ({ name: published.file, title: published.title, url: schemaUrl(published.file) })),
    short_aliases: HUB_ALIASES.map(({ alias, routeId }) => ({ alias: hubUrl(alias), canonical: routeUrl(routeId), status: 308 as const })),
    verification: {
      proof_reconciliation: {
        command: `npx agent-economy reconcile --base ${site.base_url}`,
        proofs_api: routeUrl('proofs'),
        description: 'Fetches the proof explorer and re-verifies every proof: receipt id hashes, Note bindings, task hashes and settlement transactions against the chain.',
      },
      receipt_verification: {
        command: `npx agent-economy verify-receipt <receiptId|txId> --base ${site.base_url}`,
        receipt_api: routeUrl('assistant-receipt'),
        description: 'Fetches one receipt bundle, recomputes every hash and re-checks its Note on the chain.',
      },
      receipt_log: {
        origin: receiptLogOrigin(site.base_url),
        checkpoint_api: routeUrl('receipt-log-checkpoint'),
        verifier_key_api: routeUrl('receipt-log-key'),
        verifier_key: verifierKey ?? null,
        tile_url_template: `${site.base_url}${RECEIPT_LOG_PATH}/tile/{tilePath}`,
        receipt_proof_api: routeUrl('assistant-receipt-proof'),
        witnesses: witnesses.list.map(({ verifierKey: key, url }) => ({ verifier_key: key, url })),
        witness_quorum: witnesses.quorum,
        monitor_command: `npx agent-economy monitor --state monitor-state.json --base ${site.base_url}`,
        description:
          'Every stored receipt is an entry of an append-only Merkle log (RFC 6962 hashing) served as c2sp.org/tlog-tiles, with an Ed25519-signed checkpoint and a c2sp.org/tlog-proof per receipt. The key signs checkpoints only; pin it and run the monitor.',
      },
      x402_signing: {
        extension: OFFER_RECEIPT,
        kid: offerReceiptKeyId(site.base_url),
        did_document: routeUrl('did-web'),
        algorithm: OFFER_RECEIPT_ALGORITHM,
        public_key_jwk: x402Key ? { kty: 'OKP', crv: 'Ed25519', x: x402Key } : null,
        description:
          'Every 402 carries a signed offer (x402 offer-receipt extension, JWS) for each accepts entry, and every paid answer a signed receipt naming its receipt and the offer it paid. Their kid resolves through the DID document to this Ed25519 key, which signs offers and receipts only (not the receipt log\'s key).',
      },
    },
  };
}

export function buildCapabilityManifest(): CapabilityManifest {
  return {
    ok: true,
    ...descriptorHeader('agent_economy.agent_capabilities.v0'),
    name: site.name,
    description: capabilitiesContent.description,
    posture: POSTURE,
    capabilities: capabilitiesContent.capabilities.map(({ routes, payment, ...capability }) => ({
      ...capability,
      endpoints: routes.map(routeUrl),
      payment: payment as 'free' | 'testnet_note',
      signs_transactions: false as const,
    })),
    endpoints: endpointEntries(),
    claim_boundary: {
      ...capabilitiesContent.claim_boundary,
      does_not_claim: capabilitiesContent.claim_boundary.does_not_claim.map((claim) => (claim.startsWith('Custody:') ? withCustody(claim, 'content/capabilities.json custody claim') : claim)),
    },
    recommended_path: capabilitiesContent.recommended_path.map(({ route, label, why }, index) => ({
      step: index + 1,
      label,
      href: routeUrl(route),
      why,
    })),
  };
}
