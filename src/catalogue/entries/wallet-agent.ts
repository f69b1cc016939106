/** Spec 4.3: the wallet-agent safety specification, the policy check and its contract, the reference flow. */
import { policyContractDescriptorSchema, referenceFlowSchema, walletAgentSpecSchema } from '../../../schemas/wallet-agent.ts';
import { policyCheckRequestSchema, policyVerdictSchema, walletAgentPolicyProfileSchema } from '../../../schemas/policy-check.ts';
import { POLICY_CHECK_PATH, POLICY_PROFILE_TEMPLATE_PATH, POLICY_SCHEMA_FILES } from '../policy-contract.ts';
import { publish } from '../published.ts';
import type { Entry } from '../types.ts';

const specSchema = publish('wallet-agent-spec.schema.v0.json', 'WalletAgentSpec', 'Wallet-agent safety specification', walletAgentSpecSchema);
const contractSchema = publish(
  'wallet-agent-policy-contract.schema.v0.json',
  'WalletAgentPolicyContract',
  'Wallet-agent policy-check contract',
  policyContractDescriptorSchema,
);
export const policyCheckRequestPublished = publish(
  POLICY_SCHEMA_FILES.request,
  'WalletAgentPolicyCheckRequest',
  'Wallet-agent policy-check request',
  policyCheckRequestSchema,
  'input',
);
export const policyProfilePublished = publish(
  POLICY_SCHEMA_FILES.profile,
  'WalletAgentPolicyProfile',
  'Wallet-agent policy profile',
  walletAgentPolicyProfileSchema,
  'input',
);
export const policyVerdictPublished = publish(POLICY_SCHEMA_FILES.verdict, 'WalletAgentPolicyVerdict', 'Wallet-agent policy verdict', policyVerdictSchema);
const referenceFlowPublished = publish(
  'wallet-agent-reference-flow.schema.v0.json',
  'WalletAgentReferenceFlow',
  'Wallet-agent reference flow',
  referenceFlowSchema,
);

export const WALLET_AGENT_ENTRIES: readonly Entry[] = [
    {
      id: 'wallet-agent',
      kind: 'static',
      method: 'GET',
      path: '/api/agent-economy/wallet-agent',
      tag: 'Wallet agent',
      summary: 'Wallet-agent safety specification',
      description:
        'Who holds wallet authority (the host application), the safety rules an agent follows, the six actions a profile can allow, the checks the policy runs in order, and links to the policy check, its schemas, the profile template and the reference flow.',
      schema: specSchema,
      page: '/wallet-agent/',
    },
    {
      id: 'policy-check-contract',
      kind: 'static',
      method: 'GET',
      path: POLICY_CHECK_PATH,
      tag: 'Wallet agent',
      summary: 'Policy-check contract',
      description:
        'The schemas of the profile, request and verdict, a safe example request and the verdict the engine computes for it, the strict rules of the contract, and every reason and warning code with its meaning.',
      schema: contractSchema,
      page: '/wallet-agent/policy-check/',
    },
    {
      id: 'policy-check',
      kind: 'dynamic',
      method: 'POST',
      path: POLICY_CHECK_PATH,
      tag: 'Wallet agent',
      summary: 'Check a proposed wallet action against a policy profile',
      description:
        'Returns a deterministic allow or deny verdict: deny by default, every failing check named with its own reason code in a fixed order, money compared as exact nanoERG, only the testnet allowed. Never signs, broadcasts or stores keys; an allowed verdict is advice to the host wallet, not authority.',
      request: policyCheckRequestPublished,
      responses: {
        200: { description: 'Policy verdict (allowed or denied, with every reason).', schema: policyVerdictPublished },
        400: {
          description:
            'Invalid policy-check request: missing parts, wrong types, unknown keys, a decimal without exactly nine fraction digits, a wrong type or version, or an unknown action. `errors[]` names each offending field.',
        },
      },
      page: '/wallet-agent/policy-check/',
    },
    {
      id: 'reference-flow',
      kind: 'static',
      method: 'GET',
      path: '/api/agent-economy/wallet-agent/reference-flow',
      tag: 'Wallet agent',
      summary: 'Wallet-agent reference flow',
      description:
        'Ordered steps from quote to retained receipt, the security boundaries between agent, policy check, host wallet and human, and the stop conditions for policy, simulation, host-owned signing, broadcast and receipt retention.',
      schema: referenceFlowPublished,
      page: '/wallet-agent/reference-flow/',
    },
    {
      id: 'policy-profile-template',
      kind: 'static',
      method: 'GET',
      path: POLICY_PROFILE_TEMPLATE_PATH,
      tag: 'Wallet agent',
      summary: 'Policy profile template',
      description:
        'A valid testnet policy profile to copy: replace agent_id, allowed_recipients and allowed_reserves with your own, keep the caps as low as the task allows, and keep receipt retention required.',
      schema: policyProfilePublished,
      page: '/wallet-agent/policy-profile-template/',
    },
];

