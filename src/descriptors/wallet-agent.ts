/**
 * Builders of the wallet-agent descriptors (spec 4.3): the safety specification, the policy-check
 * contract, the reference flow and the profile template. Text comes from `content/`, codes from
 * src/domain/policy-codes.ts, the example verdict from the engine, links from the route table.
 */
import canonicalize from 'canonicalize';
import referenceFlowJson from '../../content/reference-flow.json' with { type: 'json' };
import { type PolicyContractDescriptor, type ReferenceFlow, referenceFlowContentSchema, type WalletAgentSpec } from '../../schemas/wallet-agent.ts';
import { POLICY_ACTIONS, type WalletAgentPolicyProfile, ERG_AMOUNT_MAX_LENGTH } from '../../schemas/policy-check.ts';
import { ERG_DECIMAL_PATTERN } from '../domain/money.ts';
import {
  POLICY_CHECKS,
  POLICY_REASON_CODES,
  POLICY_WARNING_CODES,
  TASK_HASH_HEX_LENGTH,
} from '../../schemas/policy-codes.ts';
import { policyContractLinks } from '../catalogue/policy-contract.ts';
import { ALLOWED_NETWORK, SIGNING_BOUNDARY } from '../domain/policy-engine.ts';
import {
  examplePolicyCheckRequest,
  examplePolicyVerdict,
  policyProfileTemplate,
  walletAgentContent,
} from '../domain/policy-examples.ts';
import { routeUrl } from '../catalogue/lookup.ts';
import { descriptorHeader, MAINNET_BLOCKERS, POSTURE } from './common.ts';

/** The checks in order, each with the reason codes it can report. */
function orderedChecks() {
  return POLICY_CHECKS.map((check, index) => ({
    order: index + 1,
    check,
    reason_codes: POLICY_REASON_CODES.filter((entry) => entry.check === check).map((entry) => entry.code),
  }));
}


/** GET /api/agent-economy/wallet-agent: who may do what with the wallet, and where the policy lives. */
export function buildWalletAgentSpec(): WalletAgentSpec {
  const links = policyContractLinks();
  return {
    ok: true,
    ...descriptorHeader('agent_economy.wallet_agent.v0'),
    posture: POSTURE,
    name: walletAgentContent.name,
    summary: walletAgentContent.summary,
    network: ALLOWED_NETWORK,
    signing_boundary: SIGNING_BOUNDARY,
    authority: {
      wallet_authority: 'host_application',
      agent_holds_private_keys: false,
      service_receives_private_keys: false,
      service_signs_transactions: false,
      service_broadcasts_transactions: false,
      policy_check_grants_wallet_authority: false,
    },
    safety_rules: walletAgentContent.safety_rules.map((rule) => ({ ...rule })),
    actions: walletAgentContent.actions.map((entry) => ({ ...entry })),
    policy_checks: orderedChecks(),
    policy: {
      check_api: routeUrl('policy-check'),
      contract_api: routeUrl('policy-check-contract'),
      profile_schema: links.schema,
      request_schema: links.request_schema,
      verdict_schema: links.verdict_schema,
      profile_template: routeUrl('policy-profile-template'),
      reference_flow: routeUrl('reference-flow'),
    },
    related: {
      wallet_boundary: routeUrl('wallet-boundary'),
      mainnet_gate: routeUrl('mainnet-gate'),
      first_receipt: routeUrl('first-receipt'),
    },
    mainnet_gate: {
      status: 'closed',
      blockers: MAINNET_BLOCKERS.map(({ id, label }) => ({ id, label })),
    },
  };
}

/** GET /api/agent-economy/wallet-agent/policy-check: the contract, with the engine's own example verdict. */
export function buildPolicyContract(): PolicyContractDescriptor {
  const links = policyContractLinks();
  const canonicalTask = canonicalize(walletAgentContent.example_task);
  if (canonicalTask === undefined) throw new Error('content/wallet-agent.json: example_task cannot be canonicalized');
  return {
    ok: true,
    ...descriptorHeader('agent_economy.wallet_agent_policy_contract.v0'),
    posture: POSTURE,
    summary: walletAgentContent.contract_summary,
    check_api: { method: 'POST', url: routeUrl('policy-check'), content_type: 'application/json' },
    schema: links.schema,
    request_schema: links.request_schema,
    verdict_schema: links.verdict_schema,
    template: routeUrl('policy-profile-template'),
    example_request: structuredClone(examplePolicyCheckRequest),
    example_task: {
      task: { ...walletAgentContent.example_task },
      canonical_json: canonicalTask,
      task_hash: walletAgentContent.example_task_hash,
    },
    example_verdict: examplePolicyVerdict(),
    strict_contract: {
      unknown_keys: 'rejected',
      invalid_request: {
        status: 400,
        content_type: 'application/problem+json',
        code: 'invalid_request',
        errors: 'errors[] names each offending field as a JSON Pointer (path), with a code and a message',
      },
      decimal_pattern: ERG_DECIMAL_PATTERN.source,
      decimal_max_length: ERG_AMOUNT_MAX_LENGTH,
      money: 'exact_integer_nanoerg',
      default_decision: 'deny',
      reasons_reported: 'all_failing_checks_in_fixed_order',
      deterministic: true,
      allowed_networks: [ALLOWED_NETWORK],
      actions: [...POLICY_ACTIONS],
      task_hash_hex_length: TASK_HASH_HEX_LENGTH,
      signs_transactions: false,
      broadcasts_transactions: false,
      stores_private_keys: false,
      grants_wallet_authority: false,
    },
    checks: orderedChecks(),
    reason_codes: POLICY_REASON_CODES.map((entry) => ({ ...entry })),
    warning_codes: POLICY_WARNING_CODES.map((entry) => ({ ...entry })),
    rules: [...walletAgentContent.policy_rules],
    signing_boundary: SIGNING_BOUNDARY,
  };
}

/** GET /api/agent-economy/wallet-agent/reference-flow: steps, boundaries and stop conditions. */
export function buildReferenceFlow(): ReferenceFlow {
  const content = referenceFlowContentSchema.parse(referenceFlowJson);
  const stopIds = new Set(content.stop_conditions.map((condition) => condition.id));
  return {
    ok: true,
    ...descriptorHeader('agent_economy.wallet_agent_reference_flow.v0'),
    posture: POSTURE,
    summary: content.summary,
    steps: content.steps.map(({ route, ...step }, index) => {
      const unknown = step.stop_conditions.filter((id) => !stopIds.has(id));
      if (unknown.length > 0) {
        throw new Error(`content/reference-flow.json: step "${step.id}" names unknown stop conditions ${unknown.join(', ')}`);
      }
      return { order: index + 1, ...step, ...(route ? { endpoint: routeUrl(route) } : {}) };
    }),
    security_boundaries: content.security_boundaries,
    stop_conditions: content.stop_conditions,
    links: {
      wallet_agent: routeUrl('wallet-agent'),
      policy_check: routeUrl('policy-check'),
      request_schema: policyContractLinks().request_schema,
      profile_template: routeUrl('policy-profile-template'),
    },
  };
}

/** GET /agent-economy/wallet-agent-policy-profile.template.v0.json: a valid profile to copy. */
export function buildPolicyProfileTemplate(): WalletAgentPolicyProfile {
  return structuredClone(policyProfileTemplate) as WalletAgentPolicyProfile;
}
