/**
 * The payer's retry key: one rule for both doors (x402's payment-identifier id and verify-payment's
 * Idempotency-Key), stored only as a hash, and declared in PAYMENT-REQUIRED exactly as x402's own
 * helper declares the extension.
 */
import { declarePaymentIdentifierExtension, generatePaymentId, isValidPaymentId } from '@x402/extensions/payment-identifier';
import { describe, expect, it } from 'vitest';
import { hashPaymentToken } from '../../src/domain/assistant/payment-token.ts';
import { hashRetryKey, paymentIdentifierDeclaration, paymentIdentifierOf, RETRY_KEY_PATTERN } from '../../src/domain/assistant/retry-key.ts';

describe('retry key', () => {
  it('declares payment-identifier as @x402/extensions does, optional', () => {
    expect(paymentIdentifierDeclaration()).toEqual(declarePaymentIdentifierExtension(false));
  });

  it('accepts exactly the ids x402 accepts', () => {
    for (const id of [generatePaymentId(), generatePaymentId(''), 'a'.repeat(16), 'A_b-c'.repeat(25).slice(0, 128)]) {
      expect(isValidPaymentId(id)).toBe(true);
      expect(RETRY_KEY_PATTERN.test(id)).toBe(true);
    }
    for (const id of ['a'.repeat(15), 'a'.repeat(129), 'has space 0123456789', 'dot.in.it.0123456789', 'ключ-0123456789abcdef', '']) {
      expect(isValidPaymentId(id)).toBe(false);
      expect(RETRY_KEY_PATTERN.test(id)).toBe(false);
    }
  });

  it('reads the id from a payload\'s extensions: absent, valid, or invalid by name', () => {
    const id = generatePaymentId();
    expect(paymentIdentifierOf(undefined)).toBeUndefined();
    expect(paymentIdentifierOf({ bazaar: {} })).toBeUndefined();
    expect(paymentIdentifierOf({ 'payment-identifier': { info: { required: false } } })).toBeUndefined();
    expect(paymentIdentifierOf({ 'payment-identifier': { info: { required: false, id } } })).toBe(id);
    for (const bad of ['short', 42, null, { id }]) {
      expect(paymentIdentifierOf({ 'payment-identifier': { info: { id: bad } } })).toEqual({ invalid: expect.stringContaining('payment-identifier') });
    }
    expect(paymentIdentifierOf({ 'payment-identifier': null })).toBeUndefined();
  });

  it('stores a hash that is not the key, differs per key, and never equals a token\'s hash of the same text', () => {
    const key = generatePaymentId();
    expect(hashRetryKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRetryKey(key)).not.toContain(key);
    expect(hashRetryKey(key)).toBe(hashRetryKey(key));
    expect(hashRetryKey(key)).not.toBe(hashRetryKey(generatePaymentId()));
    expect(hashRetryKey(key)).not.toBe(hashPaymentToken(key));
  });
});
