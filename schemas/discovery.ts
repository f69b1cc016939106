/**
 * The discovery descriptor (`/.well-known/agent-economy.json`) and the capability manifest
 * (`/.well-known/agents.json`): the two documents an agent reads first.
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, isoDate, postureSchema, typeLiteral, versionV0 } from './common.ts';
import { ed25519JwkSchema } from './did.ts';

export const endpointEntrySchema = z.object({
  id: z.string().describe('Route id, stable across versions.'),
  method: z.enum(['GET', 'POST']),
  url: z.string().describe('Absolute URL; `{id}` marks a path parameter.'),
  summary: z.string(),
  host: z.enum(['site', 'mcp']).describe('Which host answers it.'),
  delivery: z.enum(['static', 'runtime']).describe('`static`: a file, CDN-cacheable; `runtime`: answered per request.'),
  schema: absoluteUrl.optional().describe('Published JSON Schema of the body (request body for POST).'),
  page: absoluteUrl.optional().describe('Human page showing the same data.'),
});

export const discoveryDescriptorSchema = z
  .object({
    ok: z.literal(true),
    type: typeLiteral('agent_economy.discovery.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    name: z.string(),
    description: z.string(),
    posture: postureSchema,
    hosts: z.object({
      base_url: absoluteUrl.describe('Canonical site.'),
      schema_base: absoluteUrl.describe('Schema documents live under `{schema_base}/agent-economy/`.'),
      agent_hub_url: absoluteUrl.describe('Host of the short aliases.'),
      mcp_url: absoluteUrl.describe('Host of the MCP server.'),
    }),
    surfaces: z
      .object({
        start_page: absoluteUrl,
        capabilities: absoluteUrl,
        registry_api: absoluteUrl,
        jobs_api: absoluteUrl,
        reputation_api: absoluteUrl,
        mcp_tools_api: absoluteUrl,
        onboarding_api: absoluteUrl,
        wallet_boundary: absoluteUrl,
        live_status_api: absoluteUrl,
        proof_explorer_api: absoluteUrl.describe('Evidence board of receipts and conformance proofs.'),
        launch_kit_api: absoluteUrl,
        first_receipt_api: absoluteUrl,
        policy_check_api: absoluteUrl,
        developer_services_api: absoluteUrl,
        mainnet_gate_api: absoluteUrl,
        review_pack_api: absoluteUrl,
        openapi: absoluteUrl,
        mcp_health: absoluteUrl,
        mcp_endpoint: absoluteUrl,
      })
      .describe('Where each surface lives.'),
    endpoints: z.array(endpointEntrySchema).describe('Every endpoint of the contract, from the route table.'),
    schemas: z.array(z.object({ name: z.string(), title: z.string(), url: absoluteUrl })).describe('Every published schema document.'),
    short_aliases: z
      .array(z.object({ alias: z.string().describe('Absolute URL on the hub host.'), canonical: z.string(), status: z.literal(308) }))
      .describe('Short aliases on the agent hub host; each answers 308 to its canonical URL.'),
    verification: z.object({
      proof_reconciliation: z.object({
        command: z.string().describe('Command that re-verifies every proof of the proof explorer.'),
        proofs_api: absoluteUrl,
        description: z.string(),
      }),
      receipt_verification: z.object({
        command: z.string(),
        receipt_api: z.string(),
        description: z.string(),
      }),
      receipt_log: z
        .object({
          origin: z.string(),
          checkpoint_api: absoluteUrl,
          verifier_key_api: absoluteUrl,
          verifier_key: z
            .string()
            .nullable()
            .describe('The log\'s verifier key; null when the build did not know it.'),
          tile_url_template: z.string(),
          receipt_proof_api: z.string().describe('URL template of a receipt\'s tlog-proof.'),
          witnesses: z
            .array(z.object({ verifier_key: z.string().describe('The witness\'s verifier key (type 0x04, c2sp.org/tlog-cosignature).'), url: absoluteUrl.describe('Its c2sp.org/tlog-witness submission prefix.') }))
            .describe('Witnesses whose cosignatures each published checkpoint carries, as the build was configured (LOG_WITNESSES); empty when none.'),
          witness_quorum: z.int().min(0).describe('How many of them cosign every published checkpoint at least.'),
          monitor_command: z.string(),
          description: z.string(),
        })
        .describe('The receipt transparency log.'),
      x402_signing: z
        .object({
          extension: z.literal('offer-receipt'),
          kid: z.string().describe('The `kid` of every signed offer and receipt: a did:web key id.'),
          did_document: absoluteUrl.describe('The did:web document the `kid` resolves through.'),
          algorithm: z.literal('EdDSA'),
          public_key_jwk: ed25519JwkSchema.nullable().describe('The signing key as the build knew it; null when it did not (the DID document always names it).'),
          description: z.string(),
        })
        .describe('The key that signs x402 offers and receipts.'),
    }),
  })
  .describe('Discovery descriptor: what this service is, its posture, and where everything lives.');

export const capabilityManifestSchema = z
  .object({
    ok: z.literal(true),
    type: typeLiteral('agent_economy.agent_capabilities.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    name: z.string(),
    description: z.string(),
    posture: postureSchema,
    capabilities: z
      .array(
        z.object({
          id: z.string(),
          label: z.string(),
          description: z.string(),
          endpoints: z.array(z.string()).describe('Absolute URLs of the endpoints that deliver it.'),
          payment: z.enum(['free', 'testnet_note']).describe('How it is paid for.'),
          signs_transactions: z.literal(false).describe('No capability signs or broadcasts.'),
        }),
      )
      .min(1),
    endpoints: z.array(endpointEntrySchema),
    claim_boundary: z
      .object({
        claims: z.array(z.string()).min(1).describe('What this service does claim.'),
        does_not_claim: z.array(z.string()).min(1).describe('What it explicitly does not claim.'),
      })
      .describe('The line between what is proven here and what is not.'),
    recommended_path: z
      .array(z.object({ step: z.int().min(1), label: z.string(), href: absoluteUrl, why: z.string() }))
      .min(1)
      .describe('Ordered first steps for an agent.'),
  })
  .describe('Capability manifest: what an agent can do here, through which endpoints, within which claims.');

export type DiscoveryDescriptor = z.infer<typeof discoveryDescriptorSchema>;
export type CapabilityManifest = z.infer<typeof capabilityManifestSchema>;
