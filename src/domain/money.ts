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
  if (!ERG_DECIMAL_PATTERN.test(text)) {
    throw new RangeError(
      `money: "${text}" is not a non-negative ERG decimal with exactly nine fraction digits (e.g. 0.010000000)`,
    );
  }
  const point = text.length - 10;
  // Up to six integer digits the nanoERG count is below 10^15 < 2^53, so the double arithmetic is
  // exact, and a BigInt made from a number costs a fraction of one parsed from text (the policy
  // check parses seven amounts per request).
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a fast path; both ways give the same exact count (tests/unit/money.test.ts compares them at the boundary).
  if (point <= SAFE_INTEGER_DIGITS) return BigInt(Number(text.slice(0, point)) * 1e9 + Number(text.slice(point + 1)));
  return BigInt(text.slice(0, point) + text.slice(point + 1));
}

/** Integer digits of an amount whose nanoERG count is certainly a safe integer. */
const SAFE_INTEGER_DIGITS = 6;

/** Formats nanoERG as the wire decimal (`1500000n` -> `0.001500000`); the inverse of parseErgDecimal. */
export function formatNanoErg(nanoErg: bigint): string {
  if (nanoErg < 0n) throw new RangeError(`money: ${nanoErg} nanoERG is negative; amounts on the wire are never negative`);
  const whole = nanoErg / NANOERG_PER_ERG;
  const fraction = nanoErg % NANOERG_PER_ERG;
  return `${whole}.${fraction.toString().padStart(9, '0')}`;
}

/**
 * The JSON number closest to an exact amount, in ERG, for readers who want a number
 * (`normalized_action`), read from its wire decimal: that text is the exact value's one spelling
 * (formatNanoErg gives it back), so this is the correctly rounded double of the true value, with no
 * BigInt division on the way. Nothing may compare it.
 */
export function ergNumber(wireDecimal: string): number {
  return Number(wireDecimal);
}
