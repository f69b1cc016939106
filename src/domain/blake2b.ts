/**
 * BLAKE2b-256, the hash Ergo uses for box ids, transaction ids and addresses, and this service for
 * task hashes and receipt ids. hash-wasm's WebAssembly build takes about 0.8 us for a premium
 * quote's 368 bytes where the JavaScript one Fleet SDK uses (@noble/hashes) takes about 10, and the
 * quote route hashes twice per request. Its hasher is made asynchronously, once; a hash asked for
 * in the millisecond before it is ready is computed by Fleet SDK's, which gives the same digest
 * (tests/unit/blake2b.test.ts compares the two).
 */
import { blake2b256 as blake2b256Js } from '@fleet-sdk/crypto';
import { createBLAKE2b, type IHasher } from 'hash-wasm';

let hasher: IHasher | undefined;

/** Whether the WebAssembly hasher is in use, once it is (false if it could not be made: the JavaScript one stays). */
export const blake2bReady: Promise<boolean> = createBLAKE2b(256).then(
  (made) => {
    hasher = made;
    return true;
  },
  () => false,
);

/** BLAKE2b with a 32-byte digest of `input` (text is hashed as its UTF-8 bytes). */
export function blake2b256(input: Uint8Array | string): Uint8Array {
  if (!hasher) return blake2b256Js(typeof input === 'string' ? new TextEncoder().encode(input) : input);
  // One hasher, used start to end within this synchronous call: nothing else can interleave.
  return hasher.init().update(input).digest('binary');
}
