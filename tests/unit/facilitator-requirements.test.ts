/**
 * The facilitator's comparison of the requirements it is sent with the ones issued for the quote:
 * the requirements as the chat offered them, every field that differs named (values, missing and
 * added keys, JSON types), and a foreign scheme or network refused as such.
 */
import { describe, expect, it } from 'vitest';
import type { X402Requirements } from '../../schemas/x402.ts';
import { issuedRequirementsOf, requirementsMismatch, unsupportedRequirements } from '../../src/domain/assistant/facilitator-requirements.ts';
import { premiumQuoteBody, premiumQuoteTerms } from '../../src/domain/assistant/pricing.ts';
import { x402RequirementsOf } from '../../src/domain/assistant/x402.ts';
import type { StoredQuote } from '../../src/domain/ports.ts';
import { TEST_RECEIVER_ADDRESS, TEST_RESERVE_BOX_ID } from '../helpers/fakes.ts';

const issuedAt = new Date('2026-11-23T12:00:00.000Z');
const terms = premiumQuoteTerms({
  quoteId: 'q_7Hc2kR9mXw4pLzQ1vN8sTb',
  question: 'Which registers must a Note carry?',
  history: undefined,
  terms: { receiverAddress: TEST_RECEIVER_ADDRESS, reserveBoxId: TEST_RESERVE_BOX_ID, priceNanoErg: 10_000_000n, quoteLifetimeSeconds: 600, minConfirmations: 2, noteExpiryMarginBlocks: 30 },
  height: 1_000,
  now: issuedAt,
});
const stored: StoredQuote = { ...terms, questionHash: 'cd'.repeat(32), issuedAt };
const TESTNET = 'ergo:testnet' as const;
const issued = issuedRequirementsOf(stored, TESTNET);

const copy = (): X402Requirements => structuredClone(issued);
const request = (paymentRequirements: unknown, accepted: unknown = paymentRequirements) => ({ paymentRequirements, accepted });

describe('issuedRequirementsOf', () => {
  it('is the requirements the chat offers for the quote, with the lifetime the quote was issued with', () => {
    expect(issued).toEqual(x402RequirementsOf(premiumQuoteBody(stored), 600, TESTNET));
    expect(issued).toMatchObject({ scheme: 'exact', network: 'ergo:testnet', asset: 'ERG', amount: '10000000', payTo: TEST_RECEIVER_ADDRESS, maxTimeoutSeconds: 600 });
    expect(issued.extra).toEqual({ paymentFlow: 'upfront', quoteId: stored.quoteId, taskHash: stored.taskHash, reserveBoxId: TEST_RESERVE_BOX_ID, noteExpiryMinHeight: 1_030, minConfirmations: 2 });
  });

  it('names the sandbox network on a server reading the sandbox chain, never the testnet', () => {
    expect(issuedRequirementsOf(stored, 'ergo:sandbox')).toEqual({ ...issued, network: 'ergo:sandbox' });
  });
});

describe('requirementsMismatch', () => {
  it('accepts the issued requirements sent twice, keys in any order', () => {
    const reordered = Object.fromEntries(Object.entries(copy()).reverse());
    expect(requirementsMismatch(issued, request(copy(), reordered))).toBeUndefined();
  });

  it('compares arrays by their items, not by identity: two copies of one list are the same list, a changed item is named', () => {
    const withList = (items: unknown[]) => ({ ...copy(), extra: { ...copy().extra, listed: items } });
    expect(requirementsMismatch(withList(['a', 'b']) as X402Requirements, request(withList(['a', 'b']), withList(['a', 'b'])))).toBeUndefined();
    expect(requirementsMismatch(withList(['a', 'b']) as X402Requirements, request(withList(['a', 'b']), withList(['a', 'c'])))?.fields).toEqual(['paymentPayload.accepted.extra.listed.1']);
  });

  it('names a field both copies changed alike (the price x100), and only that one', () => {
    const dearer = { ...copy(), amount: '1000000000' };
    expect(requirementsMismatch(issued, request(dearer))).toMatchObject({ reason: 'requirements_mismatch', fields: ['paymentRequirements.amount'] });
  });

  it.each([
    ['a changed value', (r: Record<string, any>) => (r.payTo = '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw'), 'payTo'],
    ['another JSON type', (r: Record<string, any>) => (r.maxTimeoutSeconds = '600'), 'maxTimeoutSeconds'],
    ['a nested value', (r: Record<string, any>) => (r.extra.taskHash = 'ee'.repeat(32)), 'extra.taskHash'],
    ['a missing key', (r: Record<string, any>) => delete r.extra.minConfirmations, 'extra.minConfirmations'],
    ['an added key', (r: Record<string, any>) => (r.extra.discount = 0), 'extra.discount'],
    ['an object replaced by null', (r: Record<string, any>) => (r.extra = null), 'extra'],
  ])('names %s in the accepted copy alone', (_, change, field) => {
    const accepted: Record<string, any> = copy();
    change(accepted);
    expect(requirementsMismatch(issued, request(copy(), accepted))?.fields).toEqual([`paymentPayload.accepted.${field}`]);
  });

  it('names the requirements and the accepted copy when only the requirements changed', () => {
    const requirements = { ...copy(), asset: 'USDC' };
    const refusal = requirementsMismatch(issued, request(requirements, copy()));
    expect(refusal?.fields).toEqual(['paymentRequirements.asset', 'paymentPayload.accepted.asset']);
    expect(refusal?.message).toContain(`quote ${stored.quoteId}: paymentRequirements.asset, paymentPayload.accepted.asset.`);
  });

  it('lists at most twelve fields and says how many more differ', () => {
    const extra = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, index]));
    const refusal = requirementsMismatch(issued, request({ ...copy(), ...extra }));
    expect(refusal?.fields).toHaveLength(20);
    expect(refusal?.message).toContain('paymentRequirements.k11 and 8 more.');
  });

  it('refuses what is no object at all', () => {
    expect(requirementsMismatch(issued, request([], copy()))?.fields).toEqual(['paymentRequirements', 'paymentPayload.accepted']);
  });
});

describe('unsupportedRequirements', () => {
  it('accepts the scheme and network this facilitator settles', () => {
    expect(unsupportedRequirements(request(copy()), TESTNET)).toBeUndefined();
  });

  it('refuses another scheme or network by the field that names it', () => {
    expect(unsupportedRequirements(request({ ...copy(), scheme: 'upto' }, copy()), TESTNET)).toEqual({
      reason: 'unsupported_scheme',
      fields: ['paymentRequirements.scheme'],
      message: 'This facilitator settles scheme "exact" on "ergo:testnet" only: paymentRequirements.scheme is "upto".',
    });
    expect(unsupportedRequirements(request({ ...copy(), network: 'ergo:mainnet' }), TESTNET)?.fields).toEqual(['paymentRequirements.network', 'paymentPayload.accepted.network']);
  });

  it('refuses requirements of the testnet on a sandbox server, and of the sandbox on a testnet one', () => {
    expect(unsupportedRequirements(request(copy()), 'ergo:sandbox')).toMatchObject({ fields: ['paymentRequirements.network', 'paymentPayload.accepted.network'] });
    expect(unsupportedRequirements(request({ ...copy(), network: 'ergo:sandbox' }), TESTNET)?.message).toContain('on "ergo:testnet" only: paymentRequirements.network is "ergo:sandbox"');
  });

  it('leaves a missing or non-string scheme to the comparison', () => {
    const { scheme: _, ...schemeless } = copy();
    expect(unsupportedRequirements(request(schemeless, { ...copy(), network: 7 }), TESTNET)).toBeUndefined();
  });
});
