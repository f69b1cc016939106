/**
 * Builder of the wallet boundary manifest (`/.well-known/<namespace>-connect.json`) from
 * `content/wallet-boundary.json`: CAIP identifiers of the Ergo testnet, the key and signing boundary,
 * the three roles and the order of a wallet action.
 */
import walletBoundaryContent from '../../content/wallet-boundary.json' with { type: 'json' };
import { walletBoundaryContentSchema, type WalletBoundary } from '../../schemas/wallet-boundary.ts';
import { routeUrl } from '../catalogue/lookup.ts';
import { descriptorHeader, POSTURE } from './common.ts';
import { resolveLink } from './links.ts';

export function buildWalletBoundary(): WalletBoundary {
  const content = walletBoundaryContentSchema.parse(walletBoundaryContent);
  const testnetChainId = `ergo:${content.caip.testnet_reference}`;
  return {
    ok: true,
    ...descriptorHeader('agent_economy.wallet_boundary.v0'),
    description: content.description,
    scope: 'testnet_specification_not_a_wallet_or_custody_claim',
    posture: POSTURE,
    caip: {
      namespace: 'ergo',
      chain_id: testnetChainId,
      reference: content.caip.testnet_reference,
      network: 'ergo_testnet',
      account_id_format: `${testnetChainId}:<base58 Ergo testnet address>`,
      example_account_id: `${testnetChainId}:${content.caip.example_address}`,
      excluded_chain_ids: [`ergo:${content.caip.mainnet_reference}`],
      specifications: content.caip.specifications,
    },
    security_boundary: {
      agents_do_not_hold_private_keys: true,
      service_receives_private_keys: false,
      service_signs_transactions: false,
      service_broadcasts_transactions: false,
      policy_check_grants_wallet_authority: false,
      wallet_authority: 'host_application',
      statements: content.statements,
    },
    roles: content.roles,
    flow: content.flow.map(({ link, ...step }, index) => ({ step: index + 1, ...step, ...(link ? { href: resolveLink(link) } : {}) })),
    links: {
      policy_check_contract: routeUrl('policy-check-contract'),
      policy_check: routeUrl('policy-check'),
      reference_flow: routeUrl('reference-flow'),
      mcp_tools: routeUrl('mcp-tools'),
    },
  };
}
