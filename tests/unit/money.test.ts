import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ergDecimal } from '../../schemas/common.ts';
import { ERG_DECIMAL_PATTERN, formatNanoErg, NANOERG_PER_ERG, ergNumber, parseErgDecimal } from '../../src/domain/money.ts';

describe('parseErgDecimal', () => {
  it.each([
    ['0.000000000', 0n],
    ['0.000000001', 1n],
    ['0.010000000', 10_000_000n],
    ['1.000000000', 1_000_000_000n],
    ['97739924.000000000', 97_739_924n * NANOERG_PER_ERG],
    ['9223372036.854775807', 9_223_372_036_854_775_807n],
  ])('reads %s as %s nanoERG', (text, nanoErg) => {
    expect(parseErgDecimal(text)).toBe(nanoErg);
  });

  it('reads every amount exactly, on both sides of the six integer digits read through a double', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: NANOERG_PER_ERG - 1n }), (whole, fraction) => {
        expect(parseErgDecimal(`${whole}.${fraction.toString().padStart(9, '0')}`)).toBe(whole * NANOERG_PER_ERG + fraction);
      }),
      { numRuns: 2000 },
    );
    expect(parseErgDecimal('999999.999999999')).toBe(999_999_999_999_999n);
    // Past six integer digits the count is read from the text, exact beyond 2^53.
    expect(parseErgDecimal('1000000.000000001')).toBe(1_000_000_000_000_001n);
    expect(parseErgDecimal('97739924.000000001')).toBe(97_739_924_000_000_001n);
    expect(parseErgDecimal('1000000.000000001')).toBe(1_000_000_000_000_001n);
  });

  it('keeps values beyond 2^53 exact, where a float would round', () => {
    // 2^53 + 1 nanoERG: the smallest integer a double cannot hold.
    expect(parseErgDecimal('9007199.254740993')).toBe(9_007_199_254_740_993n);
    expect(parseErgDecimal('9007199.254740993') - parseErgDecimal('9007199.254740992')).toBe(1n);
    expect(parseErgDecimal('123456789012345678901234567890.123456789')).toBe(123456789012345678901234567890123456789n);
  });

  it.each([
    ['00.000000001', 'leading zero'],
    ['01.000000000', 'leading zero'],
    ['1.00000000', 'eight fraction digits'],
    ['1.0000000000', 'ten fraction digits'],
    ['1', 'no fraction'],
    ['.000000001', 'no integer part'],
    ['-0.000000001', 'negative'],
    ['+1.000000000', 'sign'],
    ['1e3', 'exponent'],
    ['1.000000000 ', 'trailing space'],
    [' 1.000000000', 'leading space'],
    ['1,000000000', 'comma'],
    ['0x1.000000000', 'hex'],
    ['١.000000000', 'non-ASCII digit'],
    ['', 'empty'],
  ])('rejects %j (%s)', (text) => {
    expect(() => parseErgDecimal(text)).toThrow(RangeError);
  });

  it('agrees with the ergDecimal schema on accepted and rejected forms', () => {
    const samples = ['0.000000000', '1.000000000', '00.000000001', '1.00000000', '-1.000000000', '1e3', '12.345678901', '12.3456789012'];
    for (const sample of samples) {
      expect(ergDecimal.safeParse(sample).success, sample).toBe(ERG_DECIMAL_PATTERN.test(sample));
    }
  });
});

describe('formatNanoErg', () => {
  it.each([
    [0n, '0.000000000'],
    [1n, '0.000000001'],
    [1_100_000n, '0.001100000'],
    [1_000_000_000n, '1.000000000'],
    [9_007_199_254_740_993n, '9007199.254740993'],
  ])('writes %s nanoERG as %s', (nanoErg, text) => {
    expect(formatNanoErg(nanoErg)).toBe(text);
  });

  it('round-trips with parseErgDecimal', () => {
    for (const nanoErg of [0n, 1n, 999_999_999n, 1_000_000_001n, 2n ** 63n - 1n, 10n ** 30n + 7n]) {
      expect(parseErgDecimal(formatNanoErg(nanoErg))).toBe(nanoErg);
    }
  });

  it('refuses negative amounts', () => {
    expect(() => formatNanoErg(-1n)).toThrow(RangeError);
  });
});

describe('ergNumber', () => {
  it('is the double nearest the exact decimal, for display', () => {
    expect(ergNumber(formatNanoErg(50_000_000n))).toBe(0.05);
    expect(ergNumber(formatNanoErg(1_100_000n))).toBe(0.0011);
    expect(ergNumber(formatNanoErg(9_007_199_254_740_993n))).toBe(9007199.254740993);
  });
});
