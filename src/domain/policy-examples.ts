/**
 * The published examples of the policy check: the profile template an agent copies, a safe testnet
 * request the engine allows, and that request's verdict computed by the engine itself (never
 * written by hand). The contract descriptor, the first-receipt flow, the launch kit, the MCP tool
 * and the CLI show these, so every surface shows the same example and it stays true to the engine.
 */
import profileTemplateContent from '../../content/policy-profile-template.json' with { type: 'json' };
import walletAgentJson from '../../content/wallet-agent.json' with { type: 'json' };
import { walletAgentContentSchema } from '../../schemas/wallet-agent.ts';
import { type PolicyCheckRequest, type PolicyVerdict, type WalletAgentPolicyProfile, policyCheckRequestSchema, walletAgentPolicyProfileSchema } from '../../schemas/policy-check.ts';
import { typeName } from '../config/site.ts';
import { checkPolicy } from './policy-engine.ts';
import { deepFreeze } from '../lib/deep-freeze.ts';

/** `content/wallet-agent.json`, validated when this module loads, so broken content fails the build. */
export const walletAgentContent = deepFreeze(walletAgentContentSchema.parse(walletAgentJson));

/**
 * The profile template: `content/policy-profile-template.json` plus the `type`, which carries the
 * configured namespace and so cannot be written in the content file. Frozen; clone before editing.
 */
export const policyProfileTemplate: Readonly<WalletAgentPolicyProfile> = deepFreeze(
  walletAgentPolicyProfileSchema.parse({
    type: typeName('agent_economy.wallet_agent_policy_profile.v0'),
    ...profileTemplateContent,
  }),
);

/** A safe testnet request that the engine allows: the template profile and an action within it. Frozen. */
export const examplePolicyCheckRequest: Readonly<PolicyCheckRequest> = deepFreeze(
  policyCheckRequestSchema.parse({
    profile: policyProfileTemplate,
    proposed_action: walletAgentContent.example_proposed_action,
  }),
);

/** Fixed `checked_at` of the published example verdict, so static files are reproducible. */
export const EXAMPLE_CHECKED_AT = new Date(walletAgentContent.example_checked_at);

/** The example request's verdict, computed by the engine with the fixed EXAMPLE_CHECKED_AT. */
export function examplePolicyVerdict(): PolicyVerdict {
  return checkPolicy(examplePolicyCheckRequest, EXAMPLE_CHECKED_AT);
}
