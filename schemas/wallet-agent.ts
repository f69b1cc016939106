/**
 * The wallet-agent descriptors (spec 4.3): the three documents that explain the policy check of
 * `policy-check.ts` (safety specification, policy-check contract, reference flow).
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';
import {
  POLICY_ACTIONS,
  policyActionSchema,
  policyCheckIdSchema,
  policyCheckRequestSchema,
  policyReasonCodeSchema,
  policyVerdictSchema,
  policyWarningCodeSchema,
  proposedActionSchema,
} from './policy-check.ts';


const reasonCodeEntrySchema = z.object({
  code: policyReasonCodeSchema.describe('Reason code.'),
  check: policyCheckIdSchema,
  field: z.string().describe('JSON Pointer of the field a reason with this code points at.'),
  meaning: z.string().describe('When this reason is given.'),
});

const warningCodeEntrySchema = z.object({
  code: policyWarningCodeSchema.describe('Warning code.'),
  check: z.enum(['profile', 'action']).describe('Whether the warning is about the profile or the proposed action.'),
  field: z.string().describe('JSON Pointer of the field a warning with this code points at.'),
  meaning: z.string().describe('When this warning is given.'),
});

/** The GET twin of the policy-check endpoint: everything a client needs to call it correctly. */
/** One check of the policy check: its place in the fixed order and the codes it can report. */
export const policyCheckEntrySchema = z.object({
  order: z.int().min(1).describe('Position in the fixed check order.'),
  check: policyCheckIdSchema,
  reason_codes: z.array(policyReasonCodeSchema).describe('Codes this check can report.'),
});

export const policyContractDescriptorSchema = z
  .object({
    ok: okTrue,
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
      .array(policyCheckEntrySchema)
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
  example_checked_at: z.iso.datetime({ precision: 3 }).describe('The instant the published example verdict is evaluated at, fixed so that builds are reproducible.'),
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
    ok: okTrue,
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
      .array(policyCheckEntrySchema)
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
export const flowStageSchema = z
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
    ok: okTrue,
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
