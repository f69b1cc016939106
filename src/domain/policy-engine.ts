/**
 * The wallet-agent policy engine: the one implementation of the policy check. The HTTP endpoint,
 * the published examples, the MCP tool and the CLI all call `checkPolicy`.
 *
 * It denies by default: `allowed` is true only when every check in POLICY_CHECKS ran and none
 * reported a reason. Every failing check reports its own code, all of them, in the fixed order.
 * Money is compared as exact nanoERG BigInts; the ERG numbers in `normalized_action` are read
 * from the exact wire decimals for display and decide nothing. Pure: no I/O, and the verdict depends
 * only on the request, except `checked_at`, which is `now`.
 */
import type { PolicyCheckRequest, PolicyReason, PolicyVerdict, PolicyWarning, ProposedAction, WalletAgentPolicyProfile } from '../../schemas/policy-check.ts';
import { typeName } from '../config/site.ts';
import { ergNumber, formatNanoErg, parseErgDecimal } from './money.ts';
import {
  NETWORK_MINIMUM_FEE_NANOERG,
  POLICY_CHECKS,
  type PolicyCheck,
  type PolicyReasonCode,
  type PolicyWarningCode,
  reasonField,
  TASK_HASH_HEX_LENGTH,
  warningField,
} from '../../schemas/policy-codes.ts';
import { policyContractLinks } from '../catalogue/policy-contract.ts';

/** The only network a policy can allow while the mainnet gate is closed. */
export const ALLOWED_NETWORK = 'testnet';

/** What the policy check never does; every verdict carries it. */
export const SIGNING_BOUNDARY =
  'This verdict is advice to the host wallet, not authority to spend: the policy check never signs, never broadcasts, never receives or stores private keys or seed phrases, never changes chain state and grants no wallet authority. Signing stays with the wallet of the host application.';

/** Actions whose fee pays for a transaction the network must relay. */
const TRANSACTION_ACTIONS: ReadonlySet<string> = new Set(['sign_specific_transaction', 'broadcast_simulated_transaction']);

const HEXADECIMAL = /^[0-9a-fA-F]*$/;
const ALL_ZERO = /^0+$/;

/** The request's money, read once into exact nanoERG. */
interface ExactMoney {
  dailySpendCap: bigint;
  perActionSpendCap: bigint;
  maxFee: bigint;
  humanConfirmationAbove: bigint;
  amount: bigint;
  spentToday: bigint;
  fee: bigint;
  dailyTotal: bigint;
}

interface CheckContext {
  profile: WalletAgentPolicyProfile;
  action: ProposedAction;
  money: ExactMoney;
  deny: (code: PolicyReasonCode, message: string) => void;
}

const erg = (nanoErg: bigint): string => `${formatNanoErg(nanoErg)} ERG`;
const quoted = (text: string): string => JSON.stringify(text);

/**
 * One runner per check; `Record<PolicyCheck, ...>` makes the compiler refuse a check without a
 * runner, and the loop below runs them in POLICY_CHECKS order.
 */
const CHECK_RUNNERS: Record<PolicyCheck, (context: CheckContext) => void> = {
  network({ profile, action, deny }) {
    if (profile.network !== ALLOWED_NETWORK) {
      deny('profile_network_not_testnet', `profile network is ${quoted(profile.network)}; only "testnet" can be allowed while the mainnet gate is closed`);
    }
    if (action.network !== ALLOWED_NETWORK) {
      deny('action_network_not_testnet', `proposed action network is ${quoted(action.network)}; only "testnet" can be allowed while the mainnet gate is closed`);
    }
  },
  action({ profile, action, deny }) {
    if (!profile.allowed_actions.includes(action.action)) {
      deny('action_not_allowed', `action ${quoted(action.action)} is not in allowed_actions [${profile.allowed_actions.join(', ')}]`);
    }
  },
  recipient({ profile, action, deny }) {
    if (!profile.allowed_recipients.includes(action.recipient)) {
      deny('recipient_not_allowed', `recipient ${quoted(action.recipient)} is not in allowed_recipients (${profile.allowed_recipients.length} entries, exact match)`);
    }
  },
  reserve({ profile, action, deny }) {
    if (!profile.allowed_reserves.includes(action.reserve)) {
      deny('reserve_not_allowed', `reserve ${quoted(action.reserve)} is not in allowed_reserves (${profile.allowed_reserves.length} entries, exact match)`);
    }
  },
  amount({ money, deny }) {
    if (money.amount <= 0n) deny('amount_not_positive', `amount is ${erg(money.amount)}; it must be at least 0.000000001 ERG`);
    if (money.amount > money.perActionSpendCap) {
      deny(
        'amount_over_per_action_cap',
        `amount ${erg(money.amount)} is above per_action_spend_cap ${erg(money.perActionSpendCap)} by ${erg(money.amount - money.perActionSpendCap)}`,
      );
    }
  },
  daily_spend({ money, deny }) {
    if (money.dailyTotal > money.dailySpendCap) {
      deny(
        'daily_spend_cap_exceeded',
        `spent_today ${erg(money.spentToday)} + amount ${erg(money.amount)} = ${erg(money.dailyTotal)} is above daily_spend_cap ${erg(money.dailySpendCap)} by ${erg(money.dailyTotal - money.dailySpendCap)}`,
      );
    }
  },
  human_confirmation({ action, money, deny }) {
    if (money.amount > money.humanConfirmationAbove && !action.human_confirmed) {
      deny(
        'human_confirmation_required',
        `amount ${erg(money.amount)} is above requires_human_confirmation_above ${erg(money.humanConfirmationAbove)} and human_confirmed is false`,
      );
    }
  },
  fee({ money, deny }) {
    if (money.fee > money.maxFee) {
      deny('fee_over_max_fee', `fee ${erg(money.fee)} is above max_fee ${erg(money.maxFee)} by ${erg(money.fee - money.maxFee)}`);
    }
  },
  expiry({ profile, action, deny }) {
    const delta = action.expiry_height_delta;
    if (delta <= 0) {
      deny('expiry_height_delta_not_positive', `expiry_height_delta is ${delta}; the action must expire at least one block ahead`);
    }
    if (delta > profile.expiry_height_limit) {
      deny('expiry_height_delta_over_limit', `expiry_height_delta ${delta} is above expiry_height_limit ${profile.expiry_height_limit} blocks`);
    }
  },
  task_hash({ action, deny }) {
    const hash = action.task_hash;
    if (hash.length === 0) {
      deny('task_hash_missing', 'task_hash is empty; bind the action to its task with the blake2b256 hex digest of the canonical task JSON');
      return;
    }
    if (!HEXADECIMAL.test(hash)) deny('task_hash_not_hexadecimal', 'task_hash contains characters other than 0-9, a-f, A-F');
    if (hash.length !== TASK_HASH_HEX_LENGTH) {
      deny('task_hash_wrong_length', `task_hash has ${hash.length} characters; a 32-byte digest has ${TASK_HASH_HEX_LENGTH}`);
    }
    if (ALL_ZERO.test(hash)) deny('task_hash_all_zero', 'task_hash is all zeros, which is no real digest');
  },
  receipt({ profile, action, deny }) {
    if (profile.receipt_retention.required && !action.receipt_expected) {
      deny(
        'receipt_expectation_missing',
        `the profile requires receipt retention (mode ${profile.receipt_retention.mode}) and receipt_expected is false`,
      );
    }
  },
};

/** Each check's two possible entries in `checks`, made once and shared by every verdict (they are never changed). */
const CHECK_RESULTS = Object.fromEntries(
  POLICY_CHECKS.map((check) => [check, [Object.freeze({ check, passed: false }), Object.freeze({ check, passed: true })] as const]),
) as Record<PolicyCheck, readonly [PolicyVerdict['checks'][number], PolicyVerdict['checks'][number]]>;

function readMoney(profile: WalletAgentPolicyProfile, action: ProposedAction): ExactMoney {
  const amount = parseErgDecimal(action.amount);
  const spentToday = parseErgDecimal(action.spent_today);
  return {
    dailySpendCap: parseErgDecimal(profile.daily_spend_cap),
    perActionSpendCap: parseErgDecimal(profile.per_action_spend_cap),
    maxFee: parseErgDecimal(profile.max_fee),
    humanConfirmationAbove: parseErgDecimal(profile.requires_human_confirmation_above),
    amount,
    spentToday,
    fee: parseErgDecimal(action.fee),
    dailyTotal: spentToday + amount,
  };
}

/** Inconsistent or weak profiles, and actions that will probably fail on chain. They never allow or deny. */
function collectWarnings(profile: WalletAgentPolicyProfile, action: ProposedAction, money: ExactMoney): PolicyWarning[] {
  const warnings: PolicyWarning[] = [];
  const warn = (code: PolicyWarningCode, message: string) => warnings.push({ code, field: warningField(code), message });
  if (money.perActionSpendCap > money.dailySpendCap) {
    warn('per_action_cap_above_daily_cap', `per_action_spend_cap ${erg(money.perActionSpendCap)} is above daily_spend_cap ${erg(money.dailySpendCap)}`);
  }
  if (money.humanConfirmationAbove > money.perActionSpendCap) {
    warn(
      'confirmation_threshold_above_per_action_cap',
      `requires_human_confirmation_above ${erg(money.humanConfirmationAbove)} is above per_action_spend_cap ${erg(money.perActionSpendCap)}, so no allowed action asks a human`,
    );
  }
  if (profile.allowed_actions.length === 0) warn('allowed_actions_empty', 'allowed_actions is empty: every action is denied');
  if (profile.allowed_recipients.length === 0) warn('allowed_recipients_empty', 'allowed_recipients is empty: every action is denied');
  if (profile.allowed_reserves.length === 0) warn('allowed_reserves_empty', 'allowed_reserves is empty: every action is denied');
  if (profile.expiry_height_limit <= 0) {
    warn('expiry_height_limit_not_positive', `expiry_height_limit is ${profile.expiry_height_limit}: every action is denied for stale expiry`);
  }
  if (!profile.receipt_retention.required) {
    warn('receipt_retention_not_required', 'receipt_retention.required is false: actions may leave no receipt of what was paid for');
  }
  if (TRANSACTION_ACTIONS.has(action.action) && money.fee < NETWORK_MINIMUM_FEE_NANOERG) {
    warn('fee_below_network_minimum', `fee ${erg(money.fee)} is below the ${erg(NETWORK_MINIMUM_FEE_NANOERG)} that default Ergo nodes relay`);
  }
  return warnings;
}

const VERDICT_TYPE = typeName('agent_economy.wallet_agent_policy_verdict.v0');

/** The last `checked_at` written and its millisecond: under load, many verdicts share one. */
let lastCheckedAt = { at: Number.NaN, text: '' };
function checkedAtText(now: Date): string {
  const at = now.getTime();
  // Stryker disable next-line ConditionalExpression: a memo; writing the text again gives the same text.
  if (at !== lastCheckedAt.at) lastCheckedAt = { at, text: now.toISOString() };
  return lastCheckedAt.text;
}

/**
 * The verdict on one well-formed request (validate it with `policyCheckRequestSchema` first; a
 * malformed one is a 400, not a verdict). Deterministic apart from `checked_at = now`.
 */
export function checkPolicy(request: PolicyCheckRequest, now: Date): PolicyVerdict {
  const { profile, proposed_action: action } = request;
  const money = readMoney(profile, action);
  const reasons: PolicyReason[] = [];
  const deny = (code: PolicyReasonCode, message: string) => reasons.push({ code, field: reasonField(code), message });

  const context: CheckContext = { profile, action, money, deny };
  const checks: PolicyVerdict['checks'] = [];
  for (const check of POLICY_CHECKS) {
    const before = reasons.length;
    CHECK_RUNNERS[check](context);
    checks.push(CHECK_RESULTS[check][reasons.length === before ? 1 : 0]);
  }
  // Deny by default: allowed needs every check to have run and passed, not merely "no reason seen".
  // Each of the three says the same of a correct engine (a check that fails adds a reason), so no
  // test can remove one alone: they stand against a future check that forgets to give its reason.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,MethodExpression: defence in depth, each condition implied by the others
  const allowed = reasons.length === 0 && checks.length === POLICY_CHECKS.length && checks.every((entry) => entry.passed);

  return {
    type: VERDICT_TYPE,
    version: 'v0',
    ok: allowed,
    allowed,
    profile_id: profile.agent_id,
    checked_at: checkedAtText(now),
    summary: allowed ? 'policy_allows_exact_testnet_action' : 'policy_denies_action',
    reasons,
    warnings: collectWarnings(profile, action, money),
    checks,
    normalized_action: {
      network: action.network,
      action: action.action,
      amount: ergNumber(action.amount),
      spent_today: ergNumber(action.spent_today),
      fee: ergNumber(action.fee),
      recipient: action.recipient,
      reserve: action.reserve,
      expiry_height_delta: action.expiry_height_delta,
      task_hash: action.task_hash.toLowerCase(),
      human_confirmed: action.human_confirmed,
      receipt_expected: action.receipt_expected,
      amount_nanoerg: money.amount.toString(),
      spent_today_nanoerg: money.spentToday.toString(),
      fee_nanoerg: money.fee.toString(),
      daily_total_nanoerg: money.dailyTotal.toString(),
    },
    policy_contract: policyContractLinks(),
    signing_boundary: SIGNING_BOUNDARY,
  };
}
