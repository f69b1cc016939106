/**
 * The payer's retry key: a secret the client chooses and sends with its first verification of a
 * Note (the `Idempotency-Key` header of verify-payment, or x402's `payment-identifier` id in the
 * payment payload). Everything else a retry names (quote id, question, Note box id) is public once
 * the turn settled (receipts, activity, the task hash in R6), so only this key proves the retry
 * comes from the client that paid. Only its hash is stored, never published.
 */
import { blake2b256Hex } from '../canonical-hash.ts';

/** x402's payment-identifier id: 16 to 128 letters, digits, `-` and `_` (the same rule for both doors). */
export const RETRY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

export const RETRY_KEY_RULE = '16 to 128 characters, each a letter, a digit, "-" or "_"';

/** x402's extension name for the payer's idempotency key. */
export const PAYMENT_IDENTIFIER = 'payment-identifier';

/** The stored form of a retry key; domain-separated so it never equals a token's hash. */
export function hashRetryKey(key: string): string {
  return blake2b256Hex(`agent-economy retry key v0:${key}`);
}

/**
 * The id a PaymentPayload carries under `extensions["payment-identifier"].info.id`: undefined when
 * the payload carries none, `invalid` when it carries one that breaks the rule.
 */
export function paymentIdentifierOf(extensions: Record<string, unknown> | undefined): string | undefined | { invalid: string } {
  const extension = extensions?.[PAYMENT_IDENTIFIER];
  if (extension === undefined) return undefined;
  const id = (extension as { info?: { id?: unknown } } | null)?.info?.id;
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || !RETRY_KEY_PATTERN.test(id)) return { invalid: `extensions["${PAYMENT_IDENTIFIER}"].info.id must be ${RETRY_KEY_RULE}` };
  return id;
}

/**
 * How this service declares the extension in PAYMENT-REQUIRED: optional, so a client without it
 * still pays, but only a client that sent an id can recover a settled turn. The object x402's own
 * `declarePaymentIdentifierExtension(false)` builds (a test compares them).
 */
export function paymentIdentifierDeclaration(): Record<string, unknown> {
  return {
    info: { required: false },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        required: { type: 'boolean' },
        id: { type: 'string', minLength: 16, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' },
      },
      required: ['required'],
    },
  };
}
