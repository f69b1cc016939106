/**
 * The service's BLAKE2b-256 (hash-wasm's WebAssembly build, src/domain/blake2b.ts) gives the digest
 * of the JavaScript one Fleet SDK uses, which it falls back to until it is ready: on published
 * vectors, on any bytes, and on any text (lone surrogates included, hashed as their UTF-8 replacement).
 */
import { blake2b256 as fleetBlake2b256, hex } from '@fleet-sdk/crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { blake2b256, blake2bReady } from '../../src/domain/blake2b.ts';

describe('blake2b256', () => {
  beforeAll(async () => {
    // Otherwise every comparison below would compare the JavaScript implementation with itself.
    expect(await blake2bReady).toBe(true);
  });

  it('matches the BLAKE2b-256 vectors', () => {
    // RFC 7693's BLAKE2b parameters with a 32-byte digest: the empty input and "abc".
    expect(hex.encode(blake2b256(new Uint8Array()))).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
    expect(hex.encode(blake2b256('abc'))).toBe('bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319');
  });

  it('gives the digest the JavaScript implementation gives, for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        expect(hex.encode(blake2b256(bytes))).toBe(hex.encode(fleetBlake2b256(bytes)));
      }),
      { numRuns: 500 },
    );
  });

  it('hashes text as its UTF-8 bytes, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 512 }), (text) => {
        expect(hex.encode(blake2b256(text))).toBe(hex.encode(fleetBlake2b256(new TextEncoder().encode(text))));
      }),
      { numRuns: 500 },
    );
  });

  it('returns a digest of its own, which the next hash does not overwrite', () => {
    const first = blake2b256('first');
    const copy = hex.encode(first);
    blake2b256('second');
    expect(hex.encode(first)).toBe(copy);
  });
});
