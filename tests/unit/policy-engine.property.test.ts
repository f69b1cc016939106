/**
 * Property tests of the policy engine (fast-check): determinism, "one field outside the profile
 * denies with that field's reason", and "nothing well-formed or malformed makes it throw".
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PolicyCheckRequest, POLICY_ACTIONS, policyCheckRequestSchema, policyVerdictSchema, RECEIPT_RETENTION_MODES } from '../../schemas/policy-check.ts';
import { typeName } from '../../src/config/site.ts';
import { formatNanoErg, parseErgDecimal } from '../../src/domain/money.ts';
import type { PolicyReasonCode } from '../../schemas/policy-codes.ts';
import { checkPolicy } from '../../src/domain/policy-engine.ts';
import { examplePolicyCheckRequest } from '../../src/domain/policy-examples.ts';
import { invalidRequest } from '../../src/lib/problem-error.ts';

/** Largest amount the schema accepts: 99999999999.999999999 ERG. */
const MAX_NANOERG = 10n ** 20n - 1n;
const NANOERG_PER_ERG = 1_000_000_000n;
const PROFILE_TYPE = typeName('agent_economy.wallet_agent_policy_profile.v0');

const instant = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms));
const taskHash = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((bytes) => Buffer.from(bytes).toString('hex'))
  .filter((hex) => !/^0+$/.test(hex));
const label = fc.string({ minLength: 1, maxLength: 40 });
const seed = fc.bigInt({ min: 0n, max: MAX_NANOERG });

/** Requests the engine must allow: every value drawn inside the limits of its own profile. */
const allowedRequest: fc.Arbitrary<PolicyCheckRequest> = fc
  .record({
    agentId: label,
    dailyCap: fc.bigInt({ min: 1n, max: MAX_NANOERG }),
    perActionSeed: seed,
    amountSeed: seed,
    spentSeed: seed,
    thresholdSeed: seed,
    maxFee: fc.bigInt({ min: 0n, max: 10n * NANOERG_PER_ERG }),
    feeSeed: seed,
    expiryLimit: fc.integer({ min: 1, max: 1_000_000 }),
    expirySeed: fc.nat(),
    actions: fc.subarray([...POLICY_ACTIONS], { minLength: 1 }),
    actionIndex: fc.nat(),
    recipients: fc.uniqueArray(label, { minLength: 1, maxLength: 5 }),
    recipientIndex: fc.nat(),
    reserves: fc.uniqueArray(label, { minLength: 1, maxLength: 5 }),
    reserveIndex: fc.nat(),
    taskHash,
    upperCaseHash: fc.boolean(),
    retentionRequired: fc.boolean(),
    retentionMode: fc.constantFrom(...RECEIPT_RETENTION_MODES),
    confirmedAnyway: fc.boolean(),
    receiptAnyway: fc.boolean(),
  })
  .map((s) => {
    const perActionCap = 1n + (s.perActionSeed % s.dailyCap);
    const amount = 1n + (s.amountSeed % perActionCap);
    const spentToday = s.spentSeed % (s.dailyCap - amount + 1n);
    const threshold = s.thresholdSeed % (2n * perActionCap + 1n);
    const fee = s.feeSeed % (s.maxFee + 1n);
    return {
      profile: {
        type: PROFILE_TYPE,
        version: 'v0' as const,
        agent_id: s.agentId,
        network: 'testnet',
        daily_spend_cap: formatNanoErg(s.dailyCap),
        per_action_spend_cap: formatNanoErg(perActionCap),
        max_fee: formatNanoErg(s.maxFee),
        allowed_recipients: s.recipients,
        allowed_reserves: s.reserves,
        allowed_actions: s.actions,
        requires_human_confirmation_above: formatNanoErg(threshold),
        expiry_height_limit: s.expiryLimit,
        receipt_retention: { required: s.retentionRequired, mode: s.retentionMode },
      },
      proposed_action: {
        network: 'testnet',
        action: s.actions[s.actionIndex % s.actions.length]!,
        amount: formatNanoErg(amount),
        spent_today: formatNanoErg(spentToday),
        fee: formatNanoErg(fee),
        recipient: s.recipients[s.recipientIndex % s.recipients.length]!,
        reserve: s.reserves[s.reserveIndex % s.reserves.length]!,
        expiry_height_delta: 1 + (s.expirySeed % s.expiryLimit),
        task_hash: s.upperCaseHash ? s.taskHash.toUpperCase() : s.taskHash,
        human_confirmed: amount > threshold ? true : s.confirmedAnyway,
        receipt_expected: s.retentionRequired ? true : s.receiptAnyway,
      },
    };
  });

/** Inputs a mutation may draw on. */
interface Draw {
  over: bigint; // at least one nanoERG
  text: string;
  blocks: number; // at least one block
  position: number;
}
const draw: fc.Arbitrary<Draw> = fc.record({
  // One nanoERG or one block past the limit is drawn often: the boundary is where a check breaks.
  over: fc.oneof(fc.constant(1n), fc.bigInt({ min: 1n, max: MAX_NANOERG })),
  text: fc.string({ minLength: 1, maxLength: 32 }),
  blocks: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 1_000_000 })),
  position: fc.nat({ max: 63 }),
});

const nano = parseErgDecimal;
const capped = (value: bigint) => (value > MAX_NANOERG ? MAX_NANOERG : value);
/** A string that is not in `list`. */
const outside = (list: string[], text: string) => {
  let candidate = text;
  while (list.includes(candidate)) candidate += '~';
  return candidate;
};

/**
 * For each reason code, how to move exactly one checked field of an allowed request outside its
 * profile. `undefined` when this request leaves no room (e.g. the cap is already the largest
 * accepted amount). `Record` over the codes makes a new code without a mutation a type error.
 */
const MUTATIONS: Record<PolicyReasonCode, (request: PolicyCheckRequest, d: Draw) => PolicyCheckRequest | undefined> = {
  profile_network_not_testnet: (r, d) => ({ ...r, profile: { ...r.profile, network: d.text === 'testnet' ? 'mainnet' : d.text } }),
  action_network_not_testnet: (r, d) => ({ ...r, proposed_action: { ...r.proposed_action, network: d.text === 'testnet' ? 'mainnet' : d.text } }),
  action_not_allowed: (r) => {
    const missing = POLICY_ACTIONS.find((action) => !r.profile.allowed_actions.includes(action));
    return missing
      ? { ...r, proposed_action: { ...r.proposed_action, action: missing } }
      : { ...r, profile: { ...r.profile, allowed_actions: POLICY_ACTIONS.filter((action) => action !== r.proposed_action.action) } };
  },
  recipient_not_allowed: (r, d) => ({ ...r, proposed_action: { ...r.proposed_action, recipient: outside(r.profile.allowed_recipients, d.text) } }),
  reserve_not_allowed: (r, d) => ({ ...r, proposed_action: { ...r.proposed_action, reserve: outside(r.profile.allowed_reserves, d.text) } }),
  amount_not_positive: (r) => ({ ...r, proposed_action: { ...r.proposed_action, amount: '0.000000000' } }),
  amount_over_per_action_cap: (r, d) => {
    const cap = nano(r.profile.per_action_spend_cap);
    if (cap === MAX_NANOERG) return undefined;
    return { ...r, proposed_action: { ...r.proposed_action, amount: formatNanoErg(capped(cap + d.over)) } };
  },
  daily_spend_cap_exceeded: (r, d) => {
    const room = nano(r.profile.daily_spend_cap) - nano(r.proposed_action.amount);
    return { ...r, proposed_action: { ...r.proposed_action, spent_today: formatNanoErg(capped(room + d.over)) } };
  },
  human_confirmation_required: (r) => {
    const needsConfirmation = nano(r.proposed_action.amount) > nano(r.profile.requires_human_confirmation_above);
    return needsConfirmation ? { ...r, proposed_action: { ...r.proposed_action, human_confirmed: false } } : undefined;
  },
  fee_over_max_fee: (r, d) => ({ ...r, proposed_action: { ...r.proposed_action, fee: formatNanoErg(capped(nano(r.profile.max_fee) + d.over)) } }),
  expiry_height_delta_not_positive: (r, d) => ({ ...r, proposed_action: { ...r.proposed_action, expiry_height_delta: 1 - d.blocks } }),
  expiry_height_delta_over_limit: (r, d) => ({
    ...r,
    proposed_action: { ...r.proposed_action, expiry_height_delta: r.profile.expiry_height_limit + d.blocks },
  }),
  task_hash_missing: (r) => ({ ...r, proposed_action: { ...r.proposed_action, task_hash: '' } }),
  task_hash_not_hexadecimal: (r, d) => {
    const hash = r.proposed_action.task_hash;
    return { ...r, proposed_action: { ...r.proposed_action, task_hash: `${hash.slice(0, d.position)}g${hash.slice(d.position + 1)}` } };
  },
  task_hash_wrong_length: (r, d) => {
    const hash = r.proposed_action.task_hash;
    const changed = d.blocks % 2 === 0 ? hash.slice(0, d.position) || 'a' : hash + hash.slice(0, 1 + d.position);
    return { ...r, proposed_action: { ...r.proposed_action, task_hash: changed } };
  },
  task_hash_all_zero: (r) => ({ ...r, proposed_action: { ...r.proposed_action, task_hash: '0'.repeat(64) } }),
  receipt_expectation_missing: (r) => {
    if (r.profile.receipt_retention.required) return { ...r, proposed_action: { ...r.proposed_action, receipt_expected: false } };
    if (!r.proposed_action.receipt_expected) return { ...r, profile: { ...r.profile, receipt_retention: { ...r.profile.receipt_retention, required: true } } };
    return undefined;
  },
};
const REASON_CODES = Object.keys(MUTATIONS) as PolicyReasonCode[];

describe('policy engine properties', () => {
  it('allows every request that lies inside its own profile', () => {
    fc.assert(
      fc.property(allowedRequest, instant, (request, now) => {
        expect(policyCheckRequestSchema.safeParse(request).success).toBe(true);
        const verdict = checkPolicy(request, now);
        expect(verdict.reasons).toEqual([]);
        expect(verdict.allowed).toBe(true);
        expect(verdict.summary).toBe('policy_allows_exact_testnet_action');
      }),
      { numRuns: 500 },
    );
  });

  it('keeps an allowed verdict identical when only checked_at changes', () => {
    fc.assert(
      fc.property(allowedRequest, instant, instant, (request, first, second) => {
        const a = checkPolicy(request, first);
        const b = checkPolicy(request, second);
        expect(a.allowed).toBe(true);
        expect(b.checked_at).toBe(second.toISOString());
        expect({ ...a, checked_at: second.toISOString() }).toEqual(b);
      }),
    );
  });

  it('denies with the field\'s own reason when any single checked field leaves the profile', () => {
    fc.assert(
      fc.property(allowedRequest, fc.constantFrom(...REASON_CODES), draw, (request, code, d) => {
        const mutated = MUTATIONS[code](request, d);
        fc.pre(mutated !== undefined);
        expect(policyCheckRequestSchema.safeParse(mutated).success).toBe(true);
        const verdict = checkPolicy(mutated!, new Date(0));
        expect(verdict.allowed).toBe(false);
        expect(verdict.ok).toBe(false);
        expect(verdict.reasons.map((reason) => reason.code)).toContain(code);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on a well-typed request and always returns a verdict that matches its schema', () => {
    const amount = fc.bigInt({ min: 0n, max: MAX_NANOERG }).map(formatNanoErg);
    const anyText = fc.string({ maxLength: 80, unit: 'binary' });
    const wellTyped = fc.record({
      profile: fc.record({
        type: fc.constant(PROFILE_TYPE),
        version: fc.constant('v0' as const),
        agent_id: fc.string({ minLength: 1, maxLength: 128 }),
        network: fc.oneof(fc.constant('testnet'), fc.string({ minLength: 1, maxLength: 32 })),
        daily_spend_cap: amount,
        per_action_spend_cap: amount,
        max_fee: amount,
        allowed_recipients: fc.array(fc.string({ minLength: 1, maxLength: 40 }), { maxLength: 4 }),
        allowed_reserves: fc.array(fc.string({ minLength: 1, maxLength: 40 }), { maxLength: 4 }),
        allowed_actions: fc.array(fc.constantFrom(...POLICY_ACTIONS), { maxLength: 8 }),
        requires_human_confirmation_above: amount,
        expiry_height_limit: fc.maxSafeInteger(),
        receipt_retention: fc.record({ required: fc.boolean(), mode: fc.constantFrom(...RECEIPT_RETENTION_MODES) }),
      }),
      proposed_action: fc.record({
        network: fc.oneof(fc.constant('testnet'), fc.string({ minLength: 1, maxLength: 32 })),
        action: fc.constantFrom(...POLICY_ACTIONS),
        amount,
        spent_today: amount,
        fee: amount,
        recipient: anyText,
        reserve: anyText,
        expiry_height_delta: fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        task_hash: fc.oneof(taskHash, anyText),
        human_confirmed: fc.boolean(),
        receipt_expected: fc.boolean(),
      }),
    });
    fc.assert(
      fc.property(wellTyped, instant, (request, now) => {
        const parsed = policyCheckRequestSchema.parse(request);
        const verdict = policyVerdictSchema.parse(checkPolicy(parsed, now));
        expect(verdict.allowed).toBe(verdict.reasons.length === 0);
        expect(verdict.ok).toBe(verdict.allowed);
        expect(verdict.checks.every((check) => check.passed)).toBe(verdict.allowed);
        expect(BigInt(verdict.normalized_action.daily_total_nanoerg)).toBe(
          BigInt(verdict.normalized_action.amount_nanoerg) + BigInt(verdict.normalized_action.spent_today_nanoerg),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('answers any JSON body with either a verdict or a 400 naming the fields, never an exception', () => {
    const nearExample = fc
      .record({ path: fc.constantFrom('profile', 'proposed_action', ''), key: fc.string({ maxLength: 24 }), value: fc.jsonValue() })
      .map(({ path, key, value }) => {
        const body = structuredClone(examplePolicyCheckRequest) as unknown as Record<string, Record<string, unknown>>;
        if (path === '') (body as Record<string, unknown>)[key] = value;
        else body[path]![key] = value;
        return body as unknown;
      });
    fc.assert(
      fc.property(fc.oneof(nearExample, fc.jsonValue()), (body) => {
        const parsed = policyCheckRequestSchema.safeParse(body);
        if (parsed.success) {
          expect(policyVerdictSchema.safeParse(checkPolicy(parsed.data, new Date(0))).success).toBe(true);
        } else {
          const problem = invalidRequest(parsed.error, 'policy-check request');
          expect(problem.status).toBe(400);
          expect(problem.errors?.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
