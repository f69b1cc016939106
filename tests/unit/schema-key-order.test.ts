/**
 * A value put in a schema's member order without being checked: a receipt stored as its RFC 8785 text
 * (members sorted) reads back byte for byte as zod's parse would order it, and nothing is dropped,
 * added or changed on the way.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { receiptBundleSchema } from '../../schemas/receipt.ts';
import { canonicalJson } from '../../src/domain/canonical-hash.ts';
import { inSchemaOrder } from '../../src/lib/schema-key-order.ts';
import { hex32, makeQuote, makeReceipt } from '../helpers/store-fixtures.ts';

describe('inSchemaOrder', () => {
  it('gives a receipt read from its canonical text the documented order, as the schema parse does', () => {
    const receipt = receiptBundleSchema.parse(makeReceipt(makeQuote(), hex32()));
    const sorted = JSON.parse(canonicalJson(receipt)) as unknown;
    expect(JSON.stringify(sorted)).not.toBe(JSON.stringify(receipt));
    expect(JSON.stringify(inSchemaOrder(receiptBundleSchema, sorted))).toBe(JSON.stringify(receipt));
  });

  it('orders through arrays, optional, nullable, default and piped members, and keeps members the schema does not name after the rest', () => {
    const schema = z.object({
      b: z.array(z.object({ y: z.number(), x: z.number() })),
      a: z.object({ q: z.string(), p: z.string() }).optional(),
      c: z.object({ n: z.number(), m: z.number() }).nullable().default(null),
      d: z.object({ s: z.string(), r: z.string() }).pipe(z.object({ s: z.string(), r: z.string() })),
    });
    const value = { extra: 1, d: { r: 'r', s: 's' }, c: { m: 1, n: 2 }, a: { p: 'p', q: 'q', other: true }, b: [{ x: 1, y: 2 }] };
    const ordered = inSchemaOrder(schema, value);
    expect(JSON.stringify(ordered)).toBe('{"b":[{"y":2,"x":1}],"a":{"q":"q","p":"p","other":true},"c":{"n":2,"m":1},"d":{"s":"s","r":"r"},"extra":1}');
    expect(ordered).toEqual(value);
  });

  it('leaves values the schema does not expect where they are: null for an object, a string for an array, a missing member', () => {
    const schema = z.object({ b: z.object({ y: z.number() }), a: z.array(z.number()), c: z.string() });
    expect(JSON.stringify(inSchemaOrder(schema, { a: 'not an array', b: null }))).toBe('{"b":null,"a":"not an array"}');
  });
});
