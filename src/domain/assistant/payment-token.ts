/**
 * Payment tokens: 256 random bits, base64url, shown to the payer once. Only a hash is stored, so a
 * leaked database cannot be replayed as answers; the token is bound to its quote and question and
 * spent once by the store.
 */
import { randomBytes } from 'node:crypto';
import { blake2b256Hex } from '../canonical-hash.ts';

export const PAYMENT_TOKEN_BYTES = 32;

export interface IssuedPaymentToken {
  /** Returned to the payer, never stored. */
  token: string;
  /** What the store keeps. */
  tokenHash: string;
  expiresAt: Date;
}

/** A fresh token valid for `lifetimeSeconds` from `now`; `random` is injectable for tests only. */
export function issuePaymentToken(now: Date, lifetimeSeconds: number, random: (size: number) => Uint8Array = randomBytes): IssuedPaymentToken {
  const bytes = random(PAYMENT_TOKEN_BYTES);
  if (bytes.length < PAYMENT_TOKEN_BYTES) throw new RangeError(`payment token: need ${PAYMENT_TOKEN_BYTES} random bytes, got ${bytes.length}`);
  const token = Buffer.from(bytes).toString('base64url');
  return { token, tokenHash: hashPaymentToken(token), expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000) };
}

/** The stored form of a token. */
export function hashPaymentToken(token: string): string {
  return blake2b256Hex(token);
}

