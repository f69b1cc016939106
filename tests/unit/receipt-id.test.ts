/**
 * The receipt id pinned down from outside the code that computes it. A known answer: one real
 * sandbox bundle committed as a fixture, whose id was computed once (and cross-checked with Python's
 * hashlib.blake2b over the sorted compact JSON, which is RFC 8785 for this bundle) and is written
 * here literally. Then every top-level member and every money field of `agreement`, changed without
 * resealing, must give another id and fail the verifier's `receipt_id` check: an id computed over
 * less than the whole bundle (say, without `agreement`) passes a round-trip test but not these.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { receiptBundleSchema } from '../../schemas/receipt.ts';
import { receiptOfflineChecks } from '../../src/domain/receipt-proof.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';

const FIXTURE = new URL('../fixtures/sandbox-receipt-bundle.json', import.meta.url);
const KNOWN_RECEIPT_ID = '1bd0d1ff48022eba50de0353e760ea5af504d95f8fc2d4be294647126b55af8c';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const fixture = (): Record<string, Json> => JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, Json>;
const withoutId = ({ receiptId: _receiptId, ...rest }: Record<string, Json>) => rest;

/** The same kind of value, one leaf changed: a string's last character, a number plus one, a boolean negated. */
function changed(value: Json): Json {
  if (typeof value === 'string') return `${value.slice(0, -1)}${value.endsWith('0') ? '1' : '0'}`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return [changed(value[0]!), ...value.slice(1)];
  if (value && typeof value === 'object') {
    const [first] = Object.keys(value);
    return { ...value, [first!]: changed(value[first!]!) };
  }
  return 'not null';
}

/**
 * The fixture sealed by the code under test, so the loop below stands on its own: each change must
 * move the id away from the one this same code computed for the unchanged bundle.
 */
function sealed(): Record<string, Json> {
  const bundle = fixture();
  return { ...bundle, receiptId: computeReceiptId(withoutId(bundle)) };
}

function expectReceiptIdFails(bundle: Record<string, Json>) {
  expect(computeReceiptId(withoutId(bundle))).not.toBe(bundle.receiptId);
  const receiptIdCheck = receiptOfflineChecks(JSON.stringify(bundle)).find((check) => check.id === 'receipt_id');
  expect(receiptIdCheck).toMatchObject({ ok: false });
}

describe('receipt id', () => {
  it('is the known answer for the committed bundle, and the verifier agrees', () => {
    const bundle = fixture();
    expect(bundle.receiptId).toBe(KNOWN_RECEIPT_ID);
    expect(computeReceiptId(withoutId(bundle))).toBe(KNOWN_RECEIPT_ID);
    expect(receiptOfflineChecks(readFileSync(FIXTURE, 'utf8')).find((check) => check.id === 'receipt_id')).toMatchObject({ ok: true });
  });

  const members = Object.keys(withoutId(fixture()));
  it('covers every member of a receipt bundle', () => {
    expect([...members].sort()).toEqual(Object.keys(receiptBundleSchema.shape).filter((key) => key !== 'receiptId').sort());
  });

  it.each(members)('changes when %s changes without resealing', (member) => {
    const bundle = sealed();
    bundle[member] = changed(bundle[member]!);
    expectReceiptIdFails(bundle);
  });

  const moneyFields = Object.keys(fixture().agreement as object).filter((key) => /price|nanoerg/i.test(key));
  it('knows the money fields of the agreement', () => expect(moneyFields).toEqual(['price', 'priceNanoErg']));

  it.each(moneyFields)('changes when agreement.%s changes without resealing', (field) => {
    const bundle = sealed();
    const agreement = bundle.agreement as Record<string, Json>;
    agreement[field] = changed(agreement[field]!);
    expectReceiptIdFails(bundle);
  });
});
