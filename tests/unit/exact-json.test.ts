import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/lib/exact-json.ts';

describe('parseJsonExact', () => {
  it('keeps integers beyond 2^53 exact, where JSON.parse rounds them', () => {
    const text = '{"value": 9007199254740993}';
    expect((JSON.parse(text) as { value: number }).value).toBe(9007199254740992);
    expect(parseJsonExact(text)).toEqual({ value: 9007199254740993n });
  });

  it('leaves safe integers, floats, exponents and digit strings as JSON.parse does', () => {
    expect(parseJsonExact('{"h": 1200, "f": 1.5, "e": 1e21, "s": "9007199254740993", "n": -12}')).toEqual({ h: 1200, f: 1.5, e: 1e21, s: '9007199254740993', n: -12 });
  });

  it('rebuilds large negative integers and large integers nested in arrays', () => {
    expect(parseJsonExact('[[-9223372036854775808], {"a": [18446744073709551615]}]')).toEqual([[-9223372036854775808n], { a: [18446744073709551615n] }]);
  });

  it('round-trips every 64-bit box value exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), (value) => {
        const parsed = parseJsonExact(`{"value":${value}}`) as { value: number | bigint };
        expect(BigInt(parsed.value)).toBe(value);
      }),
    );
  });
});
