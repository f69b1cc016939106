/**
 * Exact ERG money. The wire form is a decimal string with exactly nine fraction digits
 * (`0.010000000`); inside, every amount is a BigInt of nanoERG, so sums and comparisons are exact at
 * any size, including values past 2^53 where a JSON number would silently round. A float is only
 * ever produced for display, from the exact value, and never compared.
 */

export const NANOERG_PER_ERG = 1_000_000_000n;

/**
 * The accepted wire form: a non-negative decimal, no sign, no exponent, no leading zeros in the
 * integer part, exactly nine fraction digits. The same pattern as `ergDecimal` in schemas/common.ts
 * (tests/unit/money.test.ts guards that the two agree).
 */
export const ERG_DECIMAL_PATTERN = /^(0|[1-9][0-9]*)\.([0-9]{9})$/;

/**
 * Parses a wire decimal into nanoERG. Throws a RangeError that names the value and the accepted
 * form when the text is not exactly that form: a lenient parser here would let `1.5` or `1e3`
 * decide a spending cap.
 */
export function parseErgDecimal(text: string): bigint {
  const match = ERG_DECIMAL_PATTERN.exec(text);
  if (!match) {
    throw new RangeError(
      `money: "${text}" is not a non-negative ERG decimal with exactly nine fraction digits (e.g. 0.010000000)`,
    );
  }
  return BigInt(match[1]!) * NANOERG_PER_ERG + BigInt(match[2]!);
}

/** Formats nanoERG as the wire decimal (`1500000n` -> `0.001500000`); the inverse of parseErgDecimal. */
export function formatNanoErg(nanoErg: bigint): string {
  if (nanoErg < 0n) throw new RangeError(`money: ${nanoErg} nanoERG is negative; amounts on the wire are never negative`);
  const whole = nanoErg / NANOERG_PER_ERG;
  const fraction = nanoErg % NANOERG_PER_ERG;
  return `${whole}.${fraction.toString().padStart(9, '0')}`;
}

/**
 * The JSON number closest to an exact amount, in ERG, for readers who want a number
 * (`normalized_action`). Derived from the exact decimal text, so it is the correctly rounded double
 * of the true value; nothing may compare it.
 */
export function nanoErgToErgNumber(nanoErg: bigint): number {
  return Number(formatNanoErg(nanoErg));
}
