/**
 * The receipt log's base64 (src/domain/tlog/base64.ts), now on atob/btoa so the receipt page shares
 * it: it writes what Node's encoder writes and reads back only that one spelling, refusing what
 * atob alone would forgive (whitespace, missing padding, stray low bits, base64url).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../../src/domain/tlog/base64.ts';

describe('base64 of the receipt log', () => {
  it('encodes as Node does and decodes its own output', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = encodeBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
        expect(decodeBase64(text)).toEqual(bytes);
      }),
    );
  });

  it.each([
    ['missing padding', 'AAE'],
    ['a space inside', 'AA E='],
    ['a trailing newline', 'AAE=\n'],
    ['stray low bits', 'AAF='],
    ['base64url', '-_8='],
    ['a character outside the alphabet', 'AA*='],
  ])('refuses %s', (_, text) => {
    expect(decodeBase64(text)).toBeNull();
  });
});
