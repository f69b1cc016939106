/**
 * The policy check (spec 2.6-2.8): the policy profile an agent's host supplies, the action it
 * proposes, the check request joining them, and the verdict. Request parts are strict: an unknown
 * key is a 400 naming it, never silently ignored by a check that decides money.
 */
import { z } from 'zod';
import {
  POLICY_CHECKS,
  POLICY_REASON_CODE_VALUES,
  POLICY_WARNING_CODE_VALUES,
  TASK_HASH_HEX_LENGTH,
} from './policy-codes.ts';
import { absoluteUrl, ergDecimal, isoDateTime, nanoErgString, typeLiteral, versionV0 } from './common.ts';

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

/** A code that denies an action; the contract lists each with the field it points at and its meaning. */
export const policyReasonCodeSchema = z.enum(POLICY_REASON_CODE_VALUES);
/** A code that flags a weak profile or action; listed in the contract like the reason codes. */
export const policyWarningCodeSchema = z.enum(POLICY_WARNING_CODE_VALUES);

const policyReasonSchema = z.object({
  code: policyReasonCodeSchema.describe('Stable reason code; the contract lists each with its meaning.'),
  field: z.string().describe('JSON Pointer (RFC 6901) into the request, to the field that failed.'),
  message: z.string().describe('What failed, with the exact values compared.'),
});

const policyWarningSchema = z.object({
  code: policyWarningCodeSchema.describe('Stable warning code; the contract lists each with its meaning.'),
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
