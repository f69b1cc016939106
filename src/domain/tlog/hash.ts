/**
 * What every part of the receipt log knows of its hash without computing one: RFC 6962's SHA-256,
 * 32 bytes, and the byte strings a leaf and an interior node hash. Platform-free, so the server
 * (node:crypto, in tree.ts) and the receipt page (WebCrypto) hash exactly the same inputs.
 */

export const HASH_SIZE = 32;

export type Hash = Uint8Array;

export const LEAF_PREFIX = Uint8Array.of(0x00);
export const NODE_PREFIX = Uint8Array.of(0x01);

/** RFC 6962: a leaf hashes 0x00 || entry. */
export const leafHashInput = (entry: Uint8Array): Uint8Array => concatBytes(LEAF_PREFIX, entry);

/** RFC 6962: an interior node hashes 0x01 || left || right. */
export const nodeHashInput = (left: Hash, right: Hash): Uint8Array => concatBytes(NODE_PREFIX, left, right);

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
