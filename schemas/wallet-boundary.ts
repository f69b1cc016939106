/**
 * The wallet boundary manifest (`/.well-known/svc-connect.json`, spec 2.2 and 4.1): a CAIP-native
 * statement of who may do what with a wallet on the Ergo testnet. It is a specification of a
 * boundary, not a wallet and not a custody claim.
 */
import { z } from 'zod';
import { linkRefSchema } from './agent-common.ts';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';

const caipChainId = z
  .string()
  .regex(/^ergo:[0-9a-f]{32}$/, 'must be ergo:<first 32 hex characters of the genesis block id>')
  .describe('CAIP-2 chain id: `ergo:` and the first 32 hexadecimal characters of the genesis block id.');

const roleId = z.enum(['agent', 'host_wallet', 'service']).describe('`agent`: the autonomous agent; `host_wallet`: the wallet of the host application that embeds the agent; `service`: this site.');

export const walletBoundarySchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.wallet_boundary.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    description: z.string().describe('What the manifest specifies.'),
    scope: z
      .literal('testnet_specification_not_a_wallet_or_custody_claim')
      .describe('Constant: this is a test-network specification of a boundary; it is not a wallet and claims no custody.'),
    posture: postureSchema,
    caip: z
      .object({
        namespace: z.literal('ergo').describe('CAIP namespace of the Ergo blockchain.'),
        chain_id: caipChainId.describe('CAIP-2 chain id of the Ergo testnet, the only chain this boundary covers.'),
        reference: z.string().regex(/^[0-9a-f]{32}$/).describe('The chain reference: first 32 hexadecimal characters of the testnet genesis block id.'),
        network: z.literal('ergo_testnet').describe('Constant.'),
        account_id_format: z.string().describe('CAIP-10 account id format for testnet addresses.'),
        example_account_id: z.string().describe('A CAIP-10 account id of a testnet P2PK address.'),
        excluded_chain_ids: z.array(caipChainId).min(1).describe('Chains this boundary refuses, mainnet first.'),
        specifications: z.array(absoluteUrl).min(1).describe('The CAIP documents the identifiers follow.'),
      })
      .describe('Chain-agnostic identifiers (CAIP-2, CAIP-10) of the chain and accounts.'),
    security_boundary: z
      .object({
        agents_do_not_hold_private_keys: z.literal(true).describe('Constant true: agents never hold raw private keys.'),
        service_receives_private_keys: z.literal(false).describe('Constant false: this service never receives private keys or seed phrases.'),
        service_signs_transactions: z.literal(false).describe('Constant false.'),
        service_broadcasts_transactions: z.literal(false).describe('Constant false.'),
        policy_check_grants_wallet_authority: z.literal(false).describe('Constant false: an allow verdict is advice to the host, not authority.'),
        wallet_authority: z.literal('host_application').describe('Signing authority belongs to the host application’s wallet.'),
        statements: z.array(z.string()).min(1).describe('The boundary in words.'),
      })
      .describe('Who holds keys and who signs.'),
    roles: z
      .array(
        z.object({
          role: roleId,
          may: z.array(z.string()).min(1).describe('What the role may do.'),
          must_not: z.array(z.string()).min(1).describe('What the role must never do.'),
        }),
      )
      .length(3)
      .describe('The three roles and their limits.'),
    flow: z
      .array(
        z.object({
          step: z.int().min(1).describe('Position, from 1.'),
          id: z.string().describe('Stable step id.'),
          label: z.string().describe('What happens.'),
          owner: roleId.describe('Who performs the step.'),
          href: absoluteUrl.optional().describe('Endpoint or document of the step.'),
        }),
      )
      .min(1)
      .describe('Order of a wallet action: policy check, simulation, host-owned signing, host broadcast, receipt retention.'),
    links: z
      .object({
        policy_check_contract: absoluteUrl.describe('Policy-check contract.'),
        policy_check: absoluteUrl.describe('Policy-check endpoint.'),
        reference_flow: absoluteUrl.describe('Wallet-agent reference flow.'),
        mcp_tools: absoluteUrl.describe('MCP tools manifest and its runtime boundary.'),
      })
      .describe('Related surfaces.'),
  })
  .describe('Wallet boundary manifest: a CAIP-native testnet specification of key custody and signing authority; not a wallet or custody claim.');
export type WalletBoundary = z.infer<typeof walletBoundarySchema>;

/** `content/wallet-boundary.json`. */
export const walletBoundaryContentSchema = z.strictObject({
  description: z.string(),
  caip: z.strictObject({
    testnet_reference: z.string().regex(/^[0-9a-f]{32}$/),
    mainnet_reference: z.string().regex(/^[0-9a-f]{32}$/),
    example_address: z.string(),
    specifications: z.array(absoluteUrl),
  }),
  statements: z.array(z.string()),
  roles: z.array(z.strictObject({ role: roleId, may: z.array(z.string()), must_not: z.array(z.string()) })),
  flow: z.array(z.strictObject({ id: z.string(), label: z.string(), owner: roleId, link: linkRefSchema.optional() })),
});
