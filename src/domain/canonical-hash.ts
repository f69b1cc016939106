/**
 * blake2b256 over RFC 8785 canonical JSON: the one way this service turns a JSON value into a digest
 * (task hashes, receipt ids). Canonical JSON fixes key order, number form and string escaping, so
 * anyone holding the same value computes the same hash in any language.
 */
import { hex } from '@fleet-sdk/crypto';
import { blake2b256 } from './blake2b.ts';
import canonicalize from 'canonicalize';

/** RFC 8785 text of a JSON value. Throws on values JSON cannot carry (undefined, functions, BigInt). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('canonical JSON: the value has no JSON form (undefined or a function)');
  return text;
}

/** blake2b256 of UTF-8 text or of bytes, as 64 lower-case hex characters. */
export function blake2b256Hex(input: string | Uint8Array): string {
  return hex.encode(blake2b256(input));
}

/** blake2b256 of the canonical JSON of `value`. */
export function canonicalHash(value: unknown): string {
  return blake2b256Hex(canonicalJson(value));
}
