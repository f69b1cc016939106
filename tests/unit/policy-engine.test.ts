import { describe, expect, it } from 'vitest';
import { type PolicyCheckRequest, type PolicyVerdict, type ProposedAction, type WalletAgentPolicyProfile, policyCheckRequestSchema, policyVerdictSchema, walletAgentPolicyProfileSchema } from '../../schemas/policy-check.ts';
import { POLICY_CHECKS, POLICY_REASON_CODES, POLICY_WARNING_CODES } from '../../schemas/policy-codes.ts';
import { checkPolicy, SIGNING_BOUNDARY } from '../../src/domain/policy-engine.ts';
import { EXAMPLE_CHECKED_AT, examplePolicyCheckRequest, examplePolicyVerdict, policyProfileTemplate } from '../../src/domain/policy-examples.ts';
import { fieldErrorsFromZod, invalidRequest } from '../../src/lib/problem-error.ts';
import { site } from '../../src/config/site.ts';

const NOW = new Date('2026-11-23T12:34:56.789Z');

/** The example request with parts of the profile and the action replaced. */
function variant(action: Partial<ProposedAction> = {}, profile: Partial<WalletAgentPolicyProfile> = {}): PolicyCheckRequest {
  const base = structuredClone(examplePolicyCheckRequest) as PolicyCheckRequest;
  return { profile: { ...base.profile, ...profile }, proposed_action: { ...base.proposed_action, ...action } };
}

/** Checks the request against the schema first, as the endpoint does, then runs the engine. */
function verdictOf(request: PolicyCheckRequest): PolicyVerdict {
  const parsed = policyCheckRequestSchema.parse(request);
  return policyVerdictSchema.parse(checkPolicy(parsed, NOW));
}

const codesOf = (verdict: PolicyVerdict) => verdict.reasons.map((reason) => reason.code);
const warningCodesOf = (verdict: PolicyVerdict) => verdict.warnings.map((warning) => warning.code);
const OTHER_TESTNET_ADDRESS = '3WxTzV4MNKeeX2MHFVPXsugKUNrMrto5DeCMctSEW8e2UATdZ99G';
const HASH = examplePolicyCheckRequest.proposed_action.task_hash;

describe('the example request', () => {
  it('is allowed with the exact summary, no reasons and no warnings', () => {
    const verdict = verdictOf(examplePolicyCheckRequest as PolicyCheckRequest);
    expect(verdict).toMatchObject({
      type: `${site.namespace}.agent_economy.wallet_agent_policy_verdict.v0`,
      version: 'v0',
      ok: true,
      allowed: true,
      summary: 'policy_allows_exact_testnet_action',
      reasons: [],
      warnings: [],
      profile_id: examplePolicyCheckRequest.profile.agent_id,
      checked_at: NOW.toISOString(),
      signing_boundary: SIGNING_BOUNDARY,
    });
    expect(verdict.checks).toEqual(POLICY_CHECKS.map((check) => ({ check, passed: true })));
  });

  it('normalizes money from the exact values', () => {
    const { normalized_action: normalized } = verdictOf(examplePolicyCheckRequest as PolicyCheckRequest);
    expect(normalized).toMatchObject({
      amount: 0.05,
      spent_today: 0.15,
      fee: 0.0011,
      amount_nanoerg: '50000000',
      spent_today_nanoerg: '150000000',
      fee_nanoerg: '1100000',
      daily_total_nanoerg: '200000000',
      recipient: examplePolicyCheckRequest.proposed_action.recipient,
      action: 'sign_specific_transaction',
    });
    const proposedKeys = Object.keys(examplePolicyCheckRequest.proposed_action);
    expect(Object.keys(normalized)).toEqual(expect.arrayContaining(proposedKeys));
  });

  it('links the contract', () => {
    const { policy_contract: links } = verdictOf(examplePolicyCheckRequest as PolicyCheckRequest);
    expect(links.schema).toBe(`${site.base_url}/agent-economy/wallet-agent-policy-profile.schema.v0.json`);
    expect(links.request_schema).toBe(`${site.base_url}/agent-economy/wallet-agent-policy-check.schema.v0.json`);
    expect(links.verdict_schema).toBe(`${site.base_url}/agent-economy/wallet-agent-policy-verdict.schema.v0.json`);
    expect(links.template).toBe(`${site.base_url}/agent-economy/wallet-agent-policy-profile.template.v0.json`);
    expect(links.check_api).toBe(`${site.base_url}/api/agent-economy/wallet-agent/policy-check`);
  });

  it('has a published verdict with the fixed checked_at', () => {
    const verdict = examplePolicyVerdict();
    expect(verdict.checked_at).toBe(EXAMPLE_CHECKED_AT.toISOString());
    expect(verdict.allowed).toBe(true);
    expect(examplePolicyVerdict()).toEqual(verdict);
  });

  it('uses the template profile, which is a valid profile', () => {
    expect(walletAgentPolicyProfileSchema.parse(policyProfileTemplate)).toEqual(examplePolicyCheckRequest.profile);
  });

  it('is deterministic apart from checked_at', () => {
    const first = checkPolicy(examplePolicyCheckRequest, new Date('2026-01-01T00:00:00Z'));
    const second = checkPolicy(examplePolicyCheckRequest, new Date('2031-06-30T23:59:59Z'));
    expect({ ...first, checked_at: '' }).toEqual({ ...second, checked_at: '' });
    expect(first.checked_at).not.toBe(second.checked_at);
  });
});

/** One variant per reason code that fails exactly that check. */
const SINGLE_REASON_CASES: Array<[string, PolicyCheckRequest]> = [
  ['profile_network_not_testnet', variant({}, { network: 'mainnet' })],
  ['action_network_not_testnet', variant({ network: 'mainnet' })],
  ['action_not_allowed', variant({}, { allowed_actions: ['quote', 'simulate'] })],
  ['recipient_not_allowed', variant({ recipient: OTHER_TESTNET_ADDRESS })],
  ['reserve_not_allowed', variant({ reserve: 'testnet-savings-reserve' })],
  ['amount_not_positive', variant({ amount: '0.000000000' })],
  ['amount_over_per_action_cap', variant({ amount: '0.250000001', human_confirmed: true })],
  ['daily_spend_cap_exceeded', variant({ spent_today: '0.950000001' })],
  ['human_confirmation_required', variant({ amount: '0.100000001' })],
  ['fee_over_max_fee', variant({ fee: '0.002000001' })],
  ['expiry_height_delta_not_positive', variant({ expiry_height_delta: 0 })],
  ['expiry_height_delta_over_limit', variant({ expiry_height_delta: 721 })],
  ['task_hash_missing', variant({ task_hash: '' })],
  ['task_hash_not_hexadecimal', variant({ task_hash: `g${HASH.slice(1)}` })],
  ['task_hash_wrong_length', variant({ task_hash: HASH.slice(2) })],
  ['task_hash_all_zero', variant({ task_hash: '0'.repeat(64) })],
  ['receipt_expectation_missing', variant({ receipt_expected: false })],
];

describe('reason codes', () => {
  it('every documented reason code has a case here', () => {
    expect(SINGLE_REASON_CASES.map(([code]) => code).sort()).toEqual(POLICY_REASON_CODES.map((entry) => entry.code).sort());
  });

  it.each(SINGLE_REASON_CASES)('%s denies with exactly that reason and its documented field', (code, request) => {
    const verdict = verdictOf(request);
    expect(verdict.allowed).toBe(false);
    expect(verdict.ok).toBe(false);
    expect(verdict.summary).toBe('policy_denies_action');
    expect(codesOf(verdict)).toEqual([code]);
    const entry = POLICY_REASON_CODES.find((candidate) => candidate.code === code)!;
    expect(verdict.reasons[0]!.field).toBe(entry.field);
    expect(verdict.reasons[0]!.message.length).toBeGreaterThan(10);
    expect(verdict.checks.filter((check) => !check.passed).map((check) => check.check)).toEqual([entry.check]);
  });

  it('spec 4.3 names: over-cap amount, wrong recipient, stale expiry and missing receipt expectation are each denied', () => {
    expect(verdictOf(variant({ amount: '0.300000000', human_confirmed: true })).allowed).toBe(false);
    expect(verdictOf(variant({ recipient: OTHER_TESTNET_ADDRESS })).allowed).toBe(false);
    expect(verdictOf(variant({ expiry_height_delta: -5 })).allowed).toBe(false);
    expect(verdictOf(variant({ receipt_expected: false })).allowed).toBe(false);
  });

  it('reports every failing check, in the fixed order', () => {
    const verdict = verdictOf(
      variant(
        {
          network: 'mainnet',
          action: 'broadcast_simulated_transaction',
          recipient: OTHER_TESTNET_ADDRESS,
          reserve: 'unknown-reserve',
          amount: '5.000000000',
          spent_today: '0.500000000',
          fee: '0.100000000',
          expiry_height_delta: 0,
          task_hash: 'not a hash',
          receipt_expected: false,
        },
        { network: 'mainnet', allowed_actions: ['quote'] },
      ),
    );
    expect(codesOf(verdict)).toEqual([
      'profile_network_not_testnet',
      'action_network_not_testnet',
      'action_not_allowed',
      'recipient_not_allowed',
      'reserve_not_allowed',
      'amount_over_per_action_cap',
      'daily_spend_cap_exceeded',
      'human_confirmation_required',
      'fee_over_max_fee',
      'expiry_height_delta_not_positive',
      'task_hash_not_hexadecimal',
      'task_hash_wrong_length',
      'receipt_expectation_missing',
    ]);
    const order = POLICY_REASON_CODES.map((entry) => entry.code as string);
    const positions = codesOf(verdict).map((code) => order.indexOf(code));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(verdict.checks.every((check) => !check.passed)).toBe(true);
  });

  it('denies any network other than testnet, whatever it is called', () => {
    for (const network of ['mainnet', 'Testnet', 'ergo_testnet', 'devnet', ' testnet']) {
      const verdict = verdictOf(variant({ network }, { network }));
      expect(codesOf(verdict), network).toEqual(['profile_network_not_testnet', 'action_network_not_testnet']);
    }
  });

  it('matches recipients exactly and case-sensitively', () => {
    const recipient = examplePolicyCheckRequest.proposed_action.recipient;
    expect(codesOf(verdictOf(variant({ recipient: recipient.toLowerCase() })))).toEqual(['recipient_not_allowed']);
    expect(codesOf(verdictOf(variant({ recipient: `${recipient} ` })))).toEqual(['recipient_not_allowed']);
    expect(codesOf(verdictOf(variant({ recipient: '' })))).toEqual(['recipient_not_allowed']);
  });

  it('accepts an upper-case task hash and normalizes it to lower case', () => {
    const verdict = verdictOf(variant({ task_hash: HASH.toUpperCase() }));
    expect(verdict.allowed).toBe(true);
    expect(verdict.normalized_action.task_hash).toBe(HASH);
  });
});

describe('boundaries, exact to the nanoERG', () => {
  it('allows spent_today + amount equal to the daily cap, denies one nanoERG over', () => {
    expect(verdictOf(variant({ spent_today: '0.950000000' })).allowed).toBe(true);
    const over = verdictOf(variant({ spent_today: '0.950000001' }));
    expect(codesOf(over)).toEqual(['daily_spend_cap_exceeded']);
    expect(over.reasons[0]!.message).toContain('by 0.000000001 ERG');
  });

  it('allows an amount equal to the per-action cap, denies one nanoERG over', () => {
    expect(verdictOf(variant({ amount: '0.250000000', human_confirmed: true })).allowed).toBe(true);
    expect(codesOf(verdictOf(variant({ amount: '0.250000001', human_confirmed: true })))).toEqual(['amount_over_per_action_cap']);
  });

  it('allows the smallest positive amount, denies zero', () => {
    expect(verdictOf(variant({ amount: '0.000000001' })).allowed).toBe(true);
    expect(codesOf(verdictOf(variant({ amount: '0.000000000' })))).toEqual(['amount_not_positive']);
  });

  it('allows a fee equal to max_fee, denies one nanoERG over', () => {
    expect(verdictOf(variant({ fee: '0.002000000' })).allowed).toBe(true);
    expect(codesOf(verdictOf(variant({ fee: '0.002000001' })))).toEqual(['fee_over_max_fee']);
  });

  it('needs no confirmation at the threshold, needs it one nanoERG above, and accepts it when given', () => {
    expect(verdictOf(variant({ amount: '0.100000000' })).allowed).toBe(true);
    expect(codesOf(verdictOf(variant({ amount: '0.100000001' })))).toEqual(['human_confirmation_required']);
    expect(verdictOf(variant({ amount: '0.100000001', human_confirmed: true })).allowed).toBe(true);
  });

  it('allows expiry from one block up to the limit', () => {
    expect(verdictOf(variant({ expiry_height_delta: 1 })).allowed).toBe(true);
    expect(verdictOf(variant({ expiry_height_delta: 720 })).allowed).toBe(true);
    expect(codesOf(verdictOf(variant({ expiry_height_delta: 721 })))).toEqual(['expiry_height_delta_over_limit']);
    expect(codesOf(verdictOf(variant({ expiry_height_delta: -1 })))).toEqual(['expiry_height_delta_not_positive']);
  });

  it('decides beyond 2^53 nanoERG where floats cannot tell the values apart', () => {
    const profile = { daily_spend_cap: '9007199.254740992', per_action_spend_cap: '9007199.254740993', requires_human_confirmation_above: '0.000000000' };
    expect(Number('9007199.254740993')).toBe(Number('9007199.254740992'));
    const over = verdictOf(variant({ amount: '9007199.254740993', spent_today: '0.000000000', human_confirmed: true }, profile));
    expect(codesOf(over)).toEqual(['daily_spend_cap_exceeded']);
    expect(over.normalized_action.amount_nanoerg).toBe('9007199254740993');
    expect(verdictOf(variant({ amount: '9007199.254740992', spent_today: '0.000000000', human_confirmed: true }, profile)).allowed).toBe(true);
  });

  it('allows 0.1 + 0.2 against a cap of 0.3, which float addition would exceed', () => {
    expect(0.1 + 0.2 > 0.3).toBe(true);
    const request = variant(
      { spent_today: '0.100000000', amount: '0.200000000', human_confirmed: true },
      { daily_spend_cap: '0.300000000' },
    );
    const verdict = verdictOf(request);
    expect(verdict.allowed).toBe(true);
    expect(verdict.normalized_action.daily_total_nanoerg).toBe('300000000');
  });

  it('accepts the largest amounts the schema allows without losing a digit', () => {
    const max = '99999999999.999999999';
    const verdict = verdictOf(
      variant({ amount: max, spent_today: '0.000000000', fee: '0.001000000', human_confirmed: true }, { daily_spend_cap: max, per_action_spend_cap: max }),
    );
    expect(verdict.allowed).toBe(true);
    expect(verdict.normalized_action.amount_nanoerg).toBe('99999999999999999999');
    expect(Number.isFinite(verdict.normalized_action.amount)).toBe(true);
  });
});

/** One variant per warning code. */
const WARNING_CASES: Array<[string, PolicyCheckRequest, boolean]> = [
  ['per_action_cap_above_daily_cap', variant({}, { per_action_spend_cap: '2.000000000' }), true],
  ['confirmation_threshold_above_per_action_cap', variant({}, { requires_human_confirmation_above: '0.300000000' }), true],
  ['allowed_actions_empty', variant({}, { allowed_actions: [] }), false],
  ['allowed_recipients_empty', variant({}, { allowed_recipients: [] }), false],
  ['allowed_reserves_empty', variant({}, { allowed_reserves: [] }), false],
  ['expiry_height_limit_not_positive', variant({}, { expiry_height_limit: 0 }), false],
  ['receipt_retention_not_required', variant({}, { receipt_retention: { required: false, mode: 'local_only' } }), true],
  ['fee_below_network_minimum', variant({ fee: '0.000999999' }), true],
];

describe('warning codes', () => {
  it('every documented warning code has a case here', () => {
    expect(WARNING_CASES.map(([code]) => code).sort()).toEqual(POLICY_WARNING_CODES.map((entry) => entry.code).sort());
  });

  it.each(WARNING_CASES)('%s is reported at its documented field and does not by itself allow', (code, request, stillAllowed) => {
    const verdict = verdictOf(request);
    expect(warningCodesOf(verdict)).toEqual([code]);
    expect(verdict.warnings[0]!.field).toBe(POLICY_WARNING_CODES.find((entry) => entry.code === code)!.field);
    expect(verdict.allowed).toBe(stillAllowed);
  });

  it('warns of a cap or a threshold only above the other, never at it', () => {
    const profile = examplePolicyCheckRequest.profile;
    // The per-action cap equal to the daily cap, and the confirmation threshold equal to the per-action cap, are consistent.
    expect(warningCodesOf(verdictOf(variant({}, { per_action_spend_cap: profile.daily_spend_cap, requires_human_confirmation_above: profile.daily_spend_cap })))).toEqual([]);
    expect(warningCodesOf(verdictOf(variant({}, { requires_human_confirmation_above: profile.per_action_spend_cap })))).toEqual([]);
  });

  it('empty allowlists warn and deny', () => {
    const verdict = verdictOf(variant({}, { allowed_recipients: [], allowed_reserves: [], allowed_actions: [] }));
    expect(codesOf(verdict)).toEqual(['action_not_allowed', 'recipient_not_allowed', 'reserve_not_allowed']);
    expect(warningCodesOf(verdict)).toEqual(['allowed_actions_empty', 'allowed_recipients_empty', 'allowed_reserves_empty']);
  });

  it('warns about a low fee only for actions that sign or broadcast a transaction', () => {
    expect(warningCodesOf(verdictOf(variant({ fee: '0.000000000', action: 'broadcast_simulated_transaction' })))).toEqual(['fee_below_network_minimum']);
    expect(warningCodesOf(verdictOf(variant({ fee: '0.000000000', action: 'quote' })))).toEqual([]);
    expect(warningCodesOf(verdictOf(variant({ fee: '0.001000000' })))).toEqual([]);
  });
});

describe('malformed requests are rejected before the engine (400)', () => {
  const example = () => structuredClone(examplePolicyCheckRequest) as unknown as Record<string, Record<string, unknown>>;
  const cases: Array<[string, () => unknown, string]> = [
    ['a missing profile', () => ({ proposed_action: example().proposed_action }), '/profile'],
    ['an unknown top-level key', () => ({ ...example(), signature: 'x' }), '/signature'],
    ['an unknown profile key', () => { const body = example(); body.profile!.owner = 'x'; return body; }, '/profile/owner'],
    ['an unknown action key', () => { const body = example(); body.proposed_action!.private_key = 'x'; return body; }, '/proposed_action/private_key'],
    ['an unknown receipt_retention key', () => { const body = example(); (body.profile!.receipt_retention as Record<string, unknown>).days = 30; return body; }, '/profile/receipt_retention/days'],
    ['a decimal with two fraction digits', () => { const body = example(); body.proposed_action!.amount = '0.05'; return body; }, '/proposed_action/amount'],
    ['a decimal with a leading zero', () => { const body = example(); body.proposed_action!.fee = '00.001100000'; return body; }, '/proposed_action/fee'],
    ['an amount as a JSON number', () => { const body = example(); body.proposed_action!.amount = 0.05; return body; }, '/proposed_action/amount'],
    ['a negative decimal', () => { const body = example(); body.profile!.max_fee = '-0.001000000'; return body; }, '/profile/max_fee'],
    ['a decimal with more than 11 integer digits', () => { const body = example(); body.profile!.daily_spend_cap = '100000000000.000000000'; return body; }, '/profile/daily_spend_cap'],
    ['a wrong type', () => { const body = example(); body.profile!.type = 'svc.agent_economy.wallet_agent_policy_profile.v1'; return body; }, '/profile/type'],
    ['a wrong version', () => { const body = example(); body.profile!.version = 'v1'; return body; }, '/profile/version'],
    ['an unknown action', () => { const body = example(); body.proposed_action!.action = 'transfer'; return body; }, '/proposed_action/action'],
    ['an unknown allowed action', () => { const body = example(); body.profile!.allowed_actions = ['quote', 'sign_anything']; return body; }, '/profile/allowed_actions/1'],
    ['a fractional expiry', () => { const body = example(); body.proposed_action!.expiry_height_delta = 1.5; return body; }, '/proposed_action/expiry_height_delta'],
    ['a string boolean', () => { const body = example(); body.proposed_action!.human_confirmed = 'true'; return body; }, '/proposed_action/human_confirmed'],
    ['an unknown retention mode', () => { const body = example(); (body.profile!.receipt_retention as Record<string, unknown>).mode = 'forever'; return body; }, '/profile/receipt_retention/mode'],
  ];

  it.each(cases)('%s is a 400 naming the field', (_label, build, pointer) => {
    const result = policyCheckRequestSchema.safeParse(build());
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrorsFromZod(result.error).map((error) => error.path)).toContain(pointer);
    const problem = invalidRequest(result.error, 'policy-check request');
    expect(problem.status).toBe(400);
    expect(problem.message).toContain(pointer);
  });

  it('accepts any network name in the schema, so the engine can deny it with a reason', () => {
    const body = variant({ network: 'mainnet' }, { network: 'mainnet' });
    expect(policyCheckRequestSchema.safeParse(body).success).toBe(true);
  });
});
