/**
 * The wallet-agent surface (spec 2.6-2.8, 4.3): the policy profile an agent's host supplies, the
 * action it proposes, the check request joining them, the verdict, and the three descriptors that
 * explain them (safety specification, policy-check contract, reference flow). Request parts are
 * strict: an unknown key is a 400 naming it, never silently ignored by a check that decides money.
 */
import { z } from 'zod';
import {
  POLICY_CHECKS,
  POLICY_REASON_CODE_VALUES,
  POLICY_WARNING_CODE_VALUES,
  TASK_HASH_HEX_LENGTH,
} from '../src/domain/policy-codes.ts';
import {
  absoluteUrl,
  descriptorStatus,
  ergDecimal,
  isoDate,
  isoDateTime,
  nanoErgString,
  postureSchema,
  typeLiteral,
  versionV0,
} from './common.ts';

/** The six actions the contract knows, in the order of the reference flow. */
export const POLICY_ACTIONS = [
  'quote',
  'simulate',
  'sign_specific_transaction',
  'broadcast_simulated_transaction',
  'verify_note',
  'fetch_receipt',
] as const;

export const policyActionSchema = z
  .enum(POLICY_ACTIONS)
  .describe('One of the six wallet-agent actions: quote, simulate, sign_specific_transaction, broadcast_simulated_transaction, verify_note, fetch_receipt.');
export type PolicyAction = z.infer<typeof policyActionSchema>;

/**
 * Longest accepted decimal: 11 integer digits and 9 fraction digits. An Ergo box value is a signed
 * 64-bit count of nanoERG (at most 9223372036.854775807 ERG), so nothing longer can be a real amount.
 */
export const ERG_AMOUNT_MAX_LENGTH = 21;
const ergAmount = (what: string) =>
  ergDecimal
    .max(ERG_AMOUNT_MAX_LENGTH, `must have at most 11 integer digits (${ERG_AMOUNT_MAX_LENGTH} characters)`)
    .describe(`${what} Decimal ERG string with exactly nine fraction digits, e.g. \`0.050000000\`; compared exactly as nanoERG.`);

const networkField = (whose: string) =>
  z
    .string()
    .min(1)
    .max(32)
    .describe(`Network of ${whose}. Only \`testnet\` can be allowed; any other value (e.g. \`mainnet\`) is accepted by the schema and denied by the check while the mainnet gate is closed.`);

export const RECEIPT_RETENTION_MODES = ['local_plus_public_url', 'local_only', 'public_url_only'] as const;

/** Spec 2.6. */
export const walletAgentPolicyProfileSchema = z
  .strictObject({
    type: typeLiteral('agent_economy.wallet_agent_policy_profile.v0'),
    version: versionV0,
    agent_id: z.string().min(1).max(128).describe('Identifier of the agent this profile governs; the verdict repeats it as `profile_id`.'),
    network: networkField('the profile'),
    daily_spend_cap: ergAmount('Most the agent may spend in one day: `spent_today + amount` must not exceed it.'),
    per_action_spend_cap: ergAmount('Most one action may move: `amount` must not exceed it.'),
    max_fee: ergAmount('Highest transaction fee the agent may pay for one action.'),
    allowed_recipients: z
      .array(z.string().min(1).max(1024).describe('A testnet address or payment endpoint URL, matched exactly (case-sensitive).'))
      .max(256)
      .describe('Recipients the agent may pay; anything else is denied. An empty list denies every action.'),
    allowed_reserves: z
      .array(z.string().min(1).max(256).describe('A reserve box id or an alias the host wallet resolves, matched exactly.'))
      .max(256)
      .describe('Reserves (funding boxes or their aliases) the agent may spend from; anything else is denied.'),
    allowed_actions: z.array(policyActionSchema).describe('Actions this agent may take; anything else is denied.'),
    requires_human_confirmation_above: ergAmount('Amounts strictly above this need `human_confirmed: true`.'),
    expiry_height_limit: z
      .int()
      .describe('Furthest expiry, in blocks ahead of the current height, an action may carry (about two minutes per testnet block).'),
    receipt_retention: z
      .strictObject({
        required: z.boolean().describe('When true, every action must expect a receipt (`receipt_expected: true`).'),
        mode: z
          .enum(RECEIPT_RETENTION_MODES)
          .describe('Where receipts are kept: `local_plus_public_url` (host storage and the public receipt URL), `local_only`, or `public_url_only`.'),
      })
      .describe('What the host keeps as evidence of each paid action.'),
  })
  .describe('Wallet-agent policy profile (spec 2.6): the limits a host wallet applies to one agent on testnet.');
export type WalletAgentPolicyProfile = z.infer<typeof walletAgentPolicyProfileSchema>;

/** Spec 2.7. */
export const proposedActionSchema = z
  .strictObject({
    network: networkField('the action'),
    action: policyActionSchema,
    amount: ergAmount('Value this action moves (the payment it belongs to). Must be above zero.'),
    spent_today: ergAmount('What the agent has already spent today, before this action.'),
    fee: ergAmount('Transaction fee of this action.'),
    recipient: z.string().max(1024).describe('Who is paid: a testnet address or payment endpoint; must be in `allowed_recipients`.'),
    reserve: z.string().max(256).describe('Reserve box id or alias the value comes from; must be in `allowed_reserves`.'),
    expiry_height_delta: z
      .int()
      .describe('Blocks from the current height until the action expires; must be positive and at most `expiry_height_limit`.'),
    task_hash: z
      .string()
      .max(256)
      .describe(`Hash binding the action to its task: ${TASK_HASH_HEX_LENGTH} hexadecimal characters (blake2b256 of the RFC 8785 canonical task JSON). Checked by the policy, not the schema.`),
    human_confirmed: z.boolean().describe('Whether a human confirmed this action in the host application.'),
    receipt_expected: z.boolean().describe('Whether the action will produce a receipt the host keeps.'),
  })
  .describe('Proposed wallet action (spec 2.7): what the agent wants to do, described exactly, before anything is signed.');
export type ProposedAction = z.infer<typeof proposedActionSchema>;

/** Spec 4.3: the POST body. */
export const policyCheckRequestSchema = z
  .strictObject({
    profile: walletAgentPolicyProfileSchema,
    proposed_action: proposedActionSchema,
  })
  .describe('Policy-check request: a policy profile and the action to check against it. No other keys.');
export type PolicyCheckRequest = z.infer<typeof policyCheckRequestSchema>;

const policyReasonSchema = z.object({
  code: z.enum(POLICY_REASON_CODE_VALUES).describe('Stable reason code; the contract lists each with its meaning.'),
  field: z.string().describe('JSON Pointer (RFC 6901) into the request, to the field that failed.'),
  message: z.string().describe('What failed, with the exact values compared.'),
});

const policyWarningSchema = z.object({
  code: z.enum(POLICY_WARNING_CODE_VALUES).describe('Stable warning code; the contract lists each with its meaning.'),
  field: z.string().describe('JSON Pointer (RFC 6901) into the request, to the field concerned.'),
  message: z.string().describe('What is weak or inconsistent, with the values involved.'),
});

export const policyCheckIdSchema = z.enum(POLICY_CHECKS).describe('One of the checks, in the order they run.');

export const normalizedActionSchema = z
  .object({
    network: z.string().describe('As proposed.'),
    action: policyActionSchema,
    amount: z.number().min(0).describe('Amount in ERG as a JSON number, derived from the exact value; for display only, never for comparison.'),
    spent_today: z.number().min(0).describe('Spent today in ERG as a JSON number, derived from the exact value; display only.'),
    fee: z.number().min(0).describe('Fee in ERG as a JSON number, derived from the exact value; display only.'),
    recipient: z.string().describe('As proposed.'),
    reserve: z.string().describe('As proposed.'),
    expiry_height_delta: z.int().describe('As proposed.'),
    task_hash: z.string().describe('As proposed, hexadecimal letters in lower case.'),
    human_confirmed: z.boolean().describe('As proposed.'),
    receipt_expected: z.boolean().describe('As proposed.'),
    amount_nanoerg: nanoErgString.describe('Exact amount in nanoERG.'),
    spent_today_nanoerg: nanoErgString.describe('Exact spent-today in nanoERG.'),
    fee_nanoerg: nanoErgString.describe('Exact fee in nanoERG.'),
    daily_total_nanoerg: nanoErgString.describe('Exact `spent_today + amount` in nanoERG, the value compared with `daily_spend_cap`.'),
  })
  .describe('The proposed action with its money read exactly: the same keys, amounts as ERG numbers, plus exact nanoERG strings.');

export const policyContractLinksSchema = z
  .object({
    schema: absoluteUrl.describe('JSON Schema of the policy profile.'),
    request_schema: absoluteUrl.describe('JSON Schema of the policy-check request body.'),
    verdict_schema: absoluteUrl.describe('JSON Schema of this verdict.'),
    template: absoluteUrl.describe('A valid policy profile to copy and adapt.'),
    check_api: absoluteUrl.describe('The policy-check endpoint (POST the request, GET the contract).'),
  })
  .describe('Where the contract of this verdict is published.');
export type PolicyContractLinks = z.infer<typeof policyContractLinksSchema>;

export const POLICY_SUMMARIES = ['policy_allows_exact_testnet_action', 'policy_denies_action'] as const;

/** Spec 2.8. */
export const policyVerdictSchema = z
  .object({
    type: typeLiteral('agent_economy.wallet_agent_policy_verdict.v0'),
    version: versionV0,
    ok: z.boolean().describe('Equal to `allowed`, so a client that reads only `ok` also fails closed.'),
    allowed: z.boolean().describe('True only when every check passed. Anything else denies.'),
    profile_id: z.string().describe('The profile `agent_id`.'),
    checked_at: isoDateTime.describe('When the check ran (ISO 8601, UTC); the only field that varies between identical requests.'),
    summary: z
      .enum(POLICY_SUMMARIES)
      .describe('`policy_allows_exact_testnet_action` when allowed, `policy_denies_action` otherwise.'),
    reasons: z.array(policyReasonSchema).describe('Every failing check, in the fixed check order; empty exactly when allowed.'),
    warnings: z.array(policyWarningSchema).describe('Profile inconsistencies and action oddities that do not by themselves deny.'),
    checks: z
      .array(z.object({ check: policyCheckIdSchema, passed: z.boolean().describe('Whether this check passed.') }))
      .describe('Every check that ran, in order, with its outcome.'),
    normalized_action: normalizedActionSchema,
    policy_contract: policyContractLinksSchema,
    signing_boundary: z.string().describe('What the policy check never does: sign, broadcast, store private keys or grant wallet authority.'),
  })
  .describe('Policy verdict (spec 2.8): a deterministic allow or deny, with every failing check named.');
export type PolicyVerdict = z.infer<typeof policyVerdictSchema>;
export type PolicyReason = z.infer<typeof policyReasonSchema>;
export type PolicyWarning = z.infer<typeof policyWarningSchema>;

const reasonCodeEntrySchema = z.object({
  code: z.enum(POLICY_REASON_CODE_VALUES).describe('Reason code.'),
  check: policyCheckIdSchema,
  field: z.string().describe('JSON Pointer of the field a reason with this code points at.'),
  meaning: z.string().describe('When this reason is given.'),
});

const warningCodeEntrySchema = z.object({
  code: z.enum(POLICY_WARNING_CODE_VALUES).describe('Warning code.'),
  check: z.enum(['profile', 'action']).describe('Whether the warning is about the profile or the proposed action.'),
  field: z.string().describe('JSON Pointer of the field a warning with this code points at.'),
  meaning: z.string().describe('When this warning is given.'),
});

/** The GET twin of the policy-check endpoint: everything a client needs to call it correctly. */
export const policyContractDescriptorSchema = z
  .object({
    ok: z.literal(true).describe('Constant true.'),
    type: typeLiteral('agent_economy.wallet_agent_policy_contract.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    posture: postureSchema,
    summary: z.string().describe('What the policy check does and does not do.'),
    check_api: z
      .object({
        method: z.literal('POST').describe('Method of the check.'),
        url: absoluteUrl.describe('Endpoint of the check.'),
        content_type: z.literal('application/json').describe('Media type of the request body.'),
      })
      .describe('How to call the check.'),
    schema: absoluteUrl.describe('JSON Schema of the policy profile (spec 2.6).'),
    request_schema: absoluteUrl.describe('JSON Schema of the request body `{profile, proposed_action}`.'),
    verdict_schema: absoluteUrl.describe('JSON Schema of the verdict (spec 2.8).'),
    template: absoluteUrl.describe('A valid policy profile to copy and adapt.'),
    example_request: policyCheckRequestSchema.describe('A safe testnet request that the check allows.'),
    example_task: z
      .object({
        task: z.record(z.string(), z.string()).describe('The task the example action pays for.'),
        canonical_json: z.string().describe('The task as RFC 8785 canonical JSON.'),
        task_hash: z.string().describe('blake2b256 of the canonical JSON, hex: the example `task_hash`.'),
      })
      .describe('How the example task hash was made, so a client can reproduce it.'),
    example_verdict: policyVerdictSchema.describe('The verdict of `example_request`, computed by the same engine (with a fixed `checked_at`).'),
    strict_contract: z
      .object({
        unknown_keys: z.literal('rejected').describe('Unknown keys anywhere in the request answer 400.'),
        invalid_request: z
          .object({
            status: z.literal(400).describe('Status of a malformed request.'),
            content_type: z.literal('application/problem+json').describe('Media type of the error body.'),
            code: z.literal('invalid_request').describe('Problem `code`.'),
            errors: z.string().describe('How offending fields are named.'),
          })
          .describe('What a malformed request gets back.'),
        decimal_pattern: z.string().describe('Regular expression every decimal amount must match.'),
        decimal_max_length: z.int().describe('Longest accepted decimal string.'),
        money: z.literal('exact_integer_nanoerg').describe('Amounts are compared as exact integers of nanoERG, never as floats.'),
        default_decision: z.literal('deny').describe('Anything not explicitly allowed by every check is denied.'),
        reasons_reported: z.literal('all_failing_checks_in_fixed_order').describe('A denial lists every failing check, not only the first.'),
        deterministic: z.literal(true).describe('The verdict is a pure function of the request; only `checked_at` varies.'),
        allowed_networks: z.array(z.literal('testnet')).describe('Networks that can be allowed while the mainnet gate is closed.'),
        actions: z.array(policyActionSchema).describe('The actions the contract knows; any other value answers 400.'),
        task_hash_hex_length: z.int().describe('Required length of `task_hash` in hexadecimal characters.'),
        signs_transactions: z.literal(false).describe('The check never signs.'),
        broadcasts_transactions: z.literal(false).describe('The check never broadcasts.'),
        stores_private_keys: z.literal(false).describe('The check never receives or stores keys.'),
        grants_wallet_authority: z.literal(false).describe('An allowed verdict is advice to the host wallet, not authority to spend.'),
      })
      .describe('The strict rules of the contract.'),
    checks: z
      .array(
        z.object({
          order: z.int().min(1).describe('Position in the fixed check order.'),
          check: policyCheckIdSchema,
          reason_codes: z.array(z.enum(POLICY_REASON_CODE_VALUES)).describe('Codes this check can report.'),
        }),
      )
      .describe('The checks in the order they run.'),
    reason_codes: z.array(reasonCodeEntrySchema).describe('Every reason code that denies, with its meaning.'),
    warning_codes: z.array(warningCodeEntrySchema).describe('Every warning code, with its meaning.'),
    rules: z.array(z.string()).min(1).describe('The rules of the policy check (spec 4.3).'),
    signing_boundary: z.string().describe('What the policy check never does.'),
  })
  .describe('Policy-check contract: schemas, an example request and its verdict, the strict rules and every code.');
export type PolicyContractDescriptor = z.infer<typeof policyContractDescriptorSchema>;

/** One safety rule of the wallet-agent specification. */
const safetyRuleSchema = z.object({
  id: z.string().describe('Stable rule id.'),
  rule: z.string().describe('The rule.'),
  why: z.string().describe('What it protects against.'),
  enforced_by: z.string().describe('Who or what enforces it.'),
});

const actionEntrySchema = z.object({
  action: policyActionSchema,
  meaning: z.string().describe('What the action is.'),
  moves_value: z.boolean().describe('Whether the action itself moves value on chain.'),
  performed_by: z.enum(['agent', 'host_wallet']).describe('Who performs it: the agent, or the host wallet that owns signing.'),
});

/** Content of `content/wallet-agent.json` (validated at build). */
export const walletAgentContentSchema = z.strictObject({
  last_updated: isoDate,
  name: z.string(),
  summary: z.string(),
  contract_summary: z.string(),
  safety_rules: z.array(safetyRuleSchema).min(1),
  actions: z.array(actionEntrySchema).length(POLICY_ACTIONS.length),
  policy_rules: z.array(z.string()).min(1),
  example_task: z.record(z.string(), z.string()),
  example_task_hash: z.string().regex(/^[0-9a-f]{64}$/),
  example_proposed_action: proposedActionSchema,
});

/** GET /api/agent-economy/wallet-agent: the safety specification (spec 4.3; body "not shown", decided here). */
export const walletAgentSpecSchema = z
  .object({
    ok: z.literal(true).describe('Constant true.'),
    type: typeLiteral('agent_economy.wallet_agent.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    posture: postureSchema,
    name: z.string().describe('Name of the specification.'),
    summary: z.string().describe('What a wallet agent may and may not do here.'),
    network: z.literal('testnet').describe('The only network a policy can allow.'),
    signing_boundary: z.string().describe('What the service never does with a wallet.'),
    authority: z
      .object({
        wallet_authority: z.literal('host_application').describe('Who holds signing authority: the host application embedding the agent.'),
        agent_holds_private_keys: z.literal(false).describe('Agents never hold raw private keys.'),
        service_receives_private_keys: z.literal(false).describe('The service never receives seed phrases or private keys.'),
        service_signs_transactions: z.literal(false).describe('No endpoint signs.'),
        service_broadcasts_transactions: z.literal(false).describe('No endpoint broadcasts.'),
        policy_check_grants_wallet_authority: z.literal(false).describe('An allowed verdict is not authority to spend.'),
      })
      .describe('Who may do what with the wallet.'),
    safety_rules: z.array(safetyRuleSchema).min(1).describe('The rules a wallet agent follows.'),
    actions: z.array(actionEntrySchema).describe('The six actions a profile can allow.'),
    policy_checks: z
      .array(
        z.object({
          order: z.int().min(1).describe('Position in the fixed check order.'),
          check: policyCheckIdSchema,
          reason_codes: z.array(z.enum(POLICY_REASON_CODE_VALUES)).describe('Codes this check can report.'),
        }),
      )
      .describe('What the policy check verifies, in order.'),
    policy: z
      .object({
        check_api: absoluteUrl.describe('POST a request here for a verdict.'),
        contract_api: absoluteUrl.describe('GET the contract: schemas, example, codes.'),
        profile_schema: absoluteUrl.describe('JSON Schema of the policy profile.'),
        request_schema: absoluteUrl.describe('JSON Schema of the check request.'),
        verdict_schema: absoluteUrl.describe('JSON Schema of the verdict.'),
        profile_template: absoluteUrl.describe('A valid policy profile to copy.'),
        reference_flow: absoluteUrl.describe('The reference flow from quote to retained receipt.'),
      })
      .describe('Policy links.'),
    related: z
      .object({
        wallet_boundary: absoluteUrl.describe('Wallet boundary manifest (CAIP).'),
        mainnet_gate: absoluteUrl.describe('Mainnet gate status.'),
        first_receipt: absoluteUrl.describe('First-receipt flow, which runs a policy check.'),
      })
      .describe('Neighbouring surfaces.'),
    mainnet_gate: z
      .object({
        status: z.literal('closed').describe('Closed: no policy allows mainnet.'),
        blockers: z.array(z.object({ id: z.string().describe('Blocker id.'), label: z.string().describe('What must exist.') })).describe('What must exist before mainnet.'),
      })
      .describe('Why mainnet is denied.'),
  })
  .describe('Wallet-agent safety specification: authority, rules, actions, checks and policy links.');
export type WalletAgentSpec = z.infer<typeof walletAgentSpecSchema>;

export const REFERENCE_FLOW_STAGES = ['policy', 'simulation', 'host_owned_signing', 'broadcast', 'receipt_retention'] as const;
const flowStageSchema = z
  .enum(REFERENCE_FLOW_STAGES)
  .describe('Stage of the flow: policy, simulation, host_owned_signing, broadcast or receipt_retention.');

const flowStepBase = z.object({
  id: z.string().describe('Stable step id.'),
  label: z.string().describe('Short name.'),
  stage: flowStageSchema,
  actor: z.enum(['agent', 'host_wallet', 'human']).describe('Who performs the step.'),
  policy_action: policyActionSchema.optional().describe('The proposed-action `action` this step is checked as, when it is one.'),
  description: z.string().describe('What happens.'),
  method: z.enum(['GET', 'POST']).optional().describe('HTTP method, when the step calls an endpoint of this service.'),
  expect: z.string().describe('What must be true before the next step.'),
  stop_conditions: z.array(z.string()).describe('Ids of the stop conditions checked at this step.'),
});

const securityBoundarySchema = z.object({
  id: z.string().describe('Stable boundary id.'),
  stage: flowStageSchema,
  owner: z.enum(['agent', 'host_wallet', 'policy_check', 'human']).describe('Who owns this side of the boundary.'),
  boundary: z.string().describe('The boundary.'),
  never: z.string().describe('What must never cross it.'),
});

const stopConditionSchema = z.object({
  id: z.string().describe('Stable stop-condition id.'),
  stage: flowStageSchema,
  condition: z.string().describe('When to stop.'),
  then: z.string().describe('What to do instead of continuing.'),
});

/** Content of `content/reference-flow.json`; steps name routes by id, the builder turns them into URLs. */
export const referenceFlowContentSchema = z.strictObject({
  summary: z.string(),
  steps: z.array(flowStepBase.extend({ route: z.string().optional() }).strict()).min(1),
  security_boundaries: z.array(securityBoundarySchema.strict()).min(1),
  stop_conditions: z.array(stopConditionSchema.strict()).min(1),
});

/** GET /api/agent-economy/wallet-agent/reference-flow (spec 2.2; fields beyond the named ones decided here). */
export const referenceFlowSchema = z
  .object({
    ok: z.literal(true).describe('Constant true.'),
    type: typeLiteral('agent_economy.wallet_agent_reference_flow.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    posture: postureSchema,
    summary: z.string().describe('What the flow achieves.'),
    steps: z
      .array(
        flowStepBase.extend({
          order: z.int().min(1).describe('Position in the flow.'),
          endpoint: z
            .string()
            .optional()
            .describe('Absolute URL of the endpoint of this service the step calls, when it calls one; `{id}` marks a path parameter.'),
        }),
      )
      .min(1)
      .describe('Ordered steps from quote to retained receipt.'),
    security_boundaries: z.array(securityBoundarySchema).min(1).describe('Who owns what, and what never crosses.'),
    stop_conditions: z
      .array(stopConditionSchema)
      .min(1)
      .describe('When the flow stops; covers policy, simulation, host-owned signing, broadcast and receipt retention.'),
    links: z
      .object({
        wallet_agent: absoluteUrl.describe('Safety specification.'),
        policy_check: absoluteUrl.describe('Policy-check endpoint and contract.'),
        request_schema: absoluteUrl.describe('JSON Schema of the check request.'),
        profile_template: absoluteUrl.describe('A valid policy profile to copy.'),
      })
      .describe('Where the pieces of the flow are specified.'),
  })
  .describe('Wallet-agent reference flow: steps, security boundaries and stop conditions.');
export type ReferenceFlow = z.infer<typeof referenceFlowSchema>;
