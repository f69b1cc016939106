/**
 * The `hash` tool: blake2b256 of text or bytes, the hash Ergo uses for box ids, transaction ids,
 * task hashes and receipt ids. The bytes hashed are exactly the UTF-8 encoding of the text or the
 * decoded hex, so anyone can reproduce the digest with any blake2b implementation.
 */
import { hex, utf8 } from '@fleet-sdk/crypto';
import { blake2b256 } from '../blake2b.ts';

export interface HashResult {
  algorithm: 'blake2b256';
  input_encoding: 'utf8' | 'hex';
  input_bytes: number;
  digest: string;
}

/** Bytes of a tool input; `hex` must already be whole bytes (the request schema checks that). */
export function inputBytes(input: string, encoding: 'utf8' | 'hex'): Uint8Array {
  return encoding === 'hex' ? hex.decode(input.toLowerCase()) : utf8.decode(input);
}

export function hashInput(input: string, encoding: 'utf8' | 'hex'): HashResult {
  const bytes = inputBytes(input, encoding);
  return { algorithm: 'blake2b256', input_encoding: encoding, input_bytes: bytes.length, digest: hex.encode(blake2b256(bytes)) };
}
