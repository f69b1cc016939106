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

/**
 * The RFC 8785 text of an object, and of the same object without `member`, canonicalizing each
 * member once: a receipt is identified without its id and logged with it, and its members are most
 * of a paid turn's serialization work. Equal to `canonicalJson` of each, by construction (members
 * sorted by UTF-16 code units, names as JSON strings, undefined members left out).
 */
export function canonicalJsonWithAndWithout(object: Readonly<Record<string, unknown>>, member: string): { whole: string; without: string } {
  const members: Array<[string, string]> = [];
  for (const name of Object.keys(object).sort()) {
    const text = canonicalize(object[name]);
    if (text !== undefined) members.push([name, `${canonicalize(name)}:${text}`]);
  }
  const join = (list: Array<[string, string]>) => `{${list.map(([, text]) => text).join(',')}}`;
  return { whole: join(members), without: join(members.filter(([name]) => name !== member)) };
}

/** blake2b256 of UTF-8 text or of bytes, as 64 lower-case hex characters. */
export function blake2b256Hex(input: string | Uint8Array): string {
  return hex.encode(blake2b256(input));
}

/** blake2b256 of the canonical JSON of `value`. */
export function canonicalHash(value: unknown): string {
  return blake2b256Hex(canonicalJson(value));
}
