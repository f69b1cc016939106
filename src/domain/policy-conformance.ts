/**
 * The policy engine's conformance proof: the published example request is allowed exactly as spec
 * 4.3 rule 2 says, and each unsafe variant rule 3 names (over-cap amount, wrong recipient, stale
 * expiry, missing receipt expectation) is denied with its own reason code. Computed by the engine
 * itself, so the proof explorer shows what the deployed engine decides, not what a document claims.
 */
import type { PolicyCheckRequest } from '../../schemas/policy-check.ts';
import { formatNanoErg, parseErgDecimal } from './money.ts';
import { checkPolicy } from './policy-engine.ts';
import { examplePolicyCheckRequest } from './policy-examples.ts';
import type { ProofCheck } from './receipt-proof.ts';

type ActionChange = (request: PolicyCheckRequest) => Partial<PolicyCheckRequest['proposed_action']>;

/** Each unsafe variant of the example, and the reason code that must deny it. */
export const UNSAFE_POLICY_VARIANTS: ReadonlyArray<{ id: string; label: string; change: ActionChange; reason: string }> = [
  {
    id: 'over_cap_amount_denied',
    label: 'an amount one nanoERG over per_action_spend_cap',
    change: ({ profile }) => ({ amount: formatNanoErg(parseErgDecimal(profile.per_action_spend_cap) + 1n), human_confirmed: true }),
    reason: 'amount_over_per_action_cap',
  },
  {
    id: 'wrong_recipient_denied',
    label: 'a recipient outside allowed_recipients',
    change: ({ proposed_action }) => ({ recipient: `${proposed_action.recipient}-not-allowed` }),
    reason: 'recipient_not_allowed',
  },
  {
    id: 'stale_expiry_denied',
    label: 'an expiry one block beyond expiry_height_limit',
    change: ({ profile }) => ({ expiry_height_delta: profile.expiry_height_limit + 1 }),
    reason: 'expiry_height_delta_over_limit',
  },
  {
    id: 'missing_receipt_denied',
    label: 'no receipt expected',
    change: () => ({ receipt_expected: false }),
    reason: 'receipt_expectation_missing',
  },
];

/** One request the engine is asked about, and what it must answer. */
export interface PolicyConformanceCase {
  id: string;
  label: string;
  request: PolicyCheckRequest;
  /** `allow`: allowed with no reasons; otherwise the reason code that must deny it. */
  expect: 'allow' | string;
}

/** The example request and its unsafe variants; `example` is the published example request. */
export function policyConformanceCases(example: PolicyCheckRequest = examplePolicyCheckRequest): PolicyConformanceCase[] {
  const request = structuredClone(example) as PolicyCheckRequest;
  return [
    { id: 'example_allowed', label: 'the published example request', request, expect: 'allow' },
    ...UNSAFE_POLICY_VARIANTS.map((variant) => ({
      id: variant.id,
      label: `the example with ${variant.label}`,
      request: { ...request, proposed_action: { ...request.proposed_action, ...variant.change(request) } },
      expect: variant.reason,
    })),
  ];
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Whether a verdict is what its case requires, as a proof check. */
export function judgePolicyCase(testCase: PolicyConformanceCase, verdict: { allowed: boolean; summary: string; reasons: ReadonlyArray<{ code: string }> }): ProofCheck {
  const codes = verdict.reasons.map((reason) => reason.code);
  const label = capitalized(testCase.label);
  if (testCase.expect === 'allow') {
    return verdict.allowed && codes.length === 0 && verdict.summary === 'policy_allows_exact_testnet_action'
      ? { id: testCase.id, ok: true, detail: `${label} is allowed with summary policy_allows_exact_testnet_action and no reasons.` }
      : { id: testCase.id, ok: false, detail: `${label} got allowed=${verdict.allowed}, summary ${verdict.summary}, reasons ${codes.join(', ') || 'none'}.` };
  }
  return !verdict.allowed && codes.includes(testCase.expect)
    ? { id: testCase.id, ok: true, detail: `${label} is denied with ${testCase.expect}.` }
    : { id: testCase.id, ok: false, detail: `${label} got allowed=${verdict.allowed}, reasons ${codes.join(', ') || 'none'}; expected a denial with ${testCase.expect}.` };
}

/** The engine of this process judged on every case. */
export function policyConformanceChecks(now: Date): ProofCheck[] {
  return policyConformanceCases().map((testCase) => judgePolicyCase(testCase, checkPolicy(testCase.request, now)));
}
