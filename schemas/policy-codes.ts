/**
 * The vocabulary of the policy check: the ordered checks, every reason code that denies an action
 * and every warning code that flags a weak profile, each with the field it points at and what it
 * means. This one list feeds the engine (reasons carry exactly these codes and fields), the verdict
 * schema (the codes are enums in the published JSON Schema), the contract descriptor and the human
 * page. A code, once published, keeps its meaning; a new failure mode gets a new code.
 */

/** The checks in the fixed order in which the engine runs them and reports their reasons. */
export const POLICY_CHECKS = [
  'network',
  'action',
  'recipient',
  'reserve',
  'amount',
  'daily_spend',
  'human_confirmation',
  'fee',
  'expiry',
  'task_hash',
  'receipt',
] as const;
export type PolicyCheck = (typeof POLICY_CHECKS)[number];

/** The task hash is a blake2b256 (or other 32-byte) digest: 64 hexadecimal characters. */
export const TASK_HASH_HEX_LENGTH = 64;

/** Fee that default Ergo nodes require before they relay a transaction (0.001 ERG). */
export const NETWORK_MINIMUM_FEE_NANOERG = 1_000_000n;

interface CodeEntry<Check extends string> {
  readonly code: string;
  readonly check: Check;
  readonly field: string;
  readonly meaning: string;
}

/** Reasons that deny an action, in report order. `field` is the JSON Pointer every such reason carries. */
export const POLICY_REASON_CODES = [
  {
    code: 'profile_network_not_testnet',
    check: 'network',
    field: '/profile/network',
    meaning: 'The profile is not a testnet profile. Only `testnet` is accepted while the mainnet gate is closed; any other network is denied.',
  },
  {
    code: 'action_network_not_testnet',
    check: 'network',
    field: '/proposed_action/network',
    meaning: 'The proposed action is not on testnet. Only `testnet` is accepted while the mainnet gate is closed; any other network is denied.',
  },
  {
    code: 'action_not_allowed',
    check: 'action',
    field: '/proposed_action/action',
    meaning: 'The action is not listed in the profile `allowed_actions`.',
  },
  {
    code: 'recipient_not_allowed',
    check: 'recipient',
    field: '/proposed_action/recipient',
    meaning: 'The recipient is not in the profile `allowed_recipients` (exact, case-sensitive match; an empty list allows no recipient).',
  },
  {
    code: 'reserve_not_allowed',
    check: 'reserve',
    field: '/proposed_action/reserve',
    meaning: 'The reserve is not in the profile `allowed_reserves` (exact, case-sensitive match; an empty list allows no reserve).',
  },
  {
    code: 'amount_not_positive',
    check: 'amount',
    field: '/proposed_action/amount',
    meaning: 'The amount is zero. Every checked action belongs to a payment, and its amount must be at least one nanoERG.',
  },
  {
    code: 'amount_over_per_action_cap',
    check: 'amount',
    field: '/proposed_action/amount',
    meaning: 'The amount is above the profile `per_action_spend_cap`. An amount equal to the cap is allowed.',
  },
  {
    code: 'daily_spend_cap_exceeded',
    check: 'daily_spend',
    field: '/proposed_action/spent_today',
    meaning: '`spent_today + amount` is above the profile `daily_spend_cap`. A sum equal to the cap is allowed; one nanoERG more is denied.',
  },
  {
    code: 'human_confirmation_required',
    check: 'human_confirmation',
    field: '/proposed_action/human_confirmed',
    meaning: 'The amount is above the profile `requires_human_confirmation_above` and `human_confirmed` is false.',
  },
  {
    code: 'fee_over_max_fee',
    check: 'fee',
    field: '/proposed_action/fee',
    meaning: 'The fee is above the profile `max_fee`. A fee equal to the maximum is allowed. Fees are capped here, not counted in the spend caps.',
  },
  {
    code: 'expiry_height_delta_not_positive',
    check: 'expiry',
    field: '/proposed_action/expiry_height_delta',
    meaning: 'The expiry is zero or negative: the action would already be expired (stale) when it reaches the chain.',
  },
  {
    code: 'expiry_height_delta_over_limit',
    check: 'expiry',
    field: '/proposed_action/expiry_height_delta',
    meaning: 'The expiry is further ahead than the profile `expiry_height_limit` blocks allow, so the action could stay valid long after the agent meant it (stale expiry).',
  },
  {
    code: 'task_hash_missing',
    check: 'task_hash',
    field: '/proposed_action/task_hash',
    meaning: 'The task hash is empty: the action is not bound to a task.',
  },
  {
    code: 'task_hash_not_hexadecimal',
    check: 'task_hash',
    field: '/proposed_action/task_hash',
    meaning: 'The task hash contains characters other than 0-9, a-f, A-F.',
  },
  {
    code: 'task_hash_wrong_length',
    check: 'task_hash',
    field: '/proposed_action/task_hash',
    meaning: `The task hash is not ${TASK_HASH_HEX_LENGTH} hexadecimal characters, the length of a 32-byte digest such as blake2b256.`,
  },
  {
    code: 'task_hash_all_zero',
    check: 'task_hash',
    field: '/proposed_action/task_hash',
    meaning: 'The task hash is all zeros, which no real digest is: the action is not bound to a real task.',
  },
  {
    code: 'receipt_expectation_missing',
    check: 'receipt',
    field: '/proposed_action/receipt_expected',
    meaning: 'The profile requires receipt retention (`receipt_retention.required`) and the action does not expect a receipt.',
  },
] as const satisfies ReadonlyArray<CodeEntry<PolicyCheck>>;
export type PolicyReasonCode = (typeof POLICY_REASON_CODES)[number]['code'];

/** Warnings: the verdict stands, but the profile or the action is weaker or stranger than intended. */
export const POLICY_WARNING_CODES = [
  {
    code: 'per_action_cap_above_daily_cap',
    check: 'profile',
    field: '/profile/per_action_spend_cap',
    meaning: 'The per-action cap is above the daily cap, so the daily cap is the real limit on a single action.',
  },
  {
    code: 'confirmation_threshold_above_per_action_cap',
    check: 'profile',
    field: '/profile/requires_human_confirmation_above',
    meaning: 'The human-confirmation threshold is above the per-action cap, so no allowed action ever asks a human.',
  },
  {
    code: 'allowed_actions_empty',
    check: 'profile',
    field: '/profile/allowed_actions',
    meaning: 'The profile allows no action: every check will be denied.',
  },
  {
    code: 'allowed_recipients_empty',
    check: 'profile',
    field: '/profile/allowed_recipients',
    meaning: 'The profile allows no recipient: every check will be denied.',
  },
  {
    code: 'allowed_reserves_empty',
    check: 'profile',
    field: '/profile/allowed_reserves',
    meaning: 'The profile allows no reserve: every check will be denied.',
  },
  {
    code: 'expiry_height_limit_not_positive',
    check: 'profile',
    field: '/profile/expiry_height_limit',
    meaning: 'The expiry height limit is zero or negative: every check will be denied for stale expiry.',
  },
  {
    code: 'receipt_retention_not_required',
    check: 'profile',
    field: '/profile/receipt_retention/required',
    meaning: 'The profile does not require receipt retention, so actions may leave no evidence of what was paid for.',
  },
  {
    code: 'fee_below_network_minimum',
    check: 'action',
    field: '/proposed_action/fee',
    meaning: `The action signs or broadcasts a transaction whose fee is below ${NETWORK_MINIMUM_FEE_NANOERG} nanoERG (0.001 ERG), the minimum default Ergo nodes relay; it may never be mined.`,
  },
] as const satisfies ReadonlyArray<CodeEntry<'profile' | 'action'>>;
export type PolicyWarningCode = (typeof POLICY_WARNING_CODES)[number]['code'];

export const POLICY_REASON_CODE_VALUES = POLICY_REASON_CODES.map((entry) => entry.code);
export const POLICY_WARNING_CODE_VALUES = POLICY_WARNING_CODES.map((entry) => entry.code);

const reasonFields = new Map<string, string>(POLICY_REASON_CODES.map((entry) => [entry.code, entry.field]));
const warningFields = new Map<string, string>(POLICY_WARNING_CODES.map((entry) => [entry.code, entry.field]));

/** JSON Pointer of the field a reason code points at. */
export const reasonField = (code: PolicyReasonCode): string => reasonFields.get(code)!;
/** JSON Pointer of the field a warning code points at. */
export const warningField = (code: PolicyWarningCode): string => warningFields.get(code)!;
