/**
 * A receipt is identified by the canonical JSON of its bundle without `receiptId` and logged as the
 * canonical JSON of the whole bundle; both come from one pass over the members
 * (`canonicalJsonWithAndWithout`). Each text must equal what `canonicalJson` (the canonicalize
 * library, RFC 8785) makes of the same object, whatever the object: names that sort by UTF-16 code
 * units rather than code points, escapes, undefined members, nesting.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonWithAndWithout } from '../../src/domain/canonical-hash.ts';
import { receiptLogEntryText, rememberLogEntry } from '../../src/domain/receipt-log-entry.ts';

const member = fc.oneof(fc.constantFrom('receiptId', 'receipt_type', 'a', '\u00e9', '\ud83d\ude00', '\uff61', ''), fc.string());

describe('canonicalJsonWithAndWithout', () => {
  it('gives exactly canonicalJson of the object and of the object without the member, for any object', () => {
    fc.assert(
      fc.property(fc.dictionary(member, fc.oneof(fc.jsonValue(), fc.constant(undefined))), member, (object, name) => {
        const { [name]: _left, ...without } = object;
        const pair = canonicalJsonWithAndWithout(object, name);
        expect(pair.whole).toBe(canonicalJson(object));
        expect(pair.without).toBe(canonicalJson(without));
      }),
      { numRuns: 500 },
    );
  });

  it('orders names by UTF-16 code units, as RFC 8785 says (U+FF61 after U+1F600)', () => {
    const object = { '\uff61': 1, '\ud83d\ude00': 2, receiptId: 'x', receipt_type: 'y' };
    expect(canonicalJsonWithAndWithout(object, 'receiptId').whole).toBe('{"receiptId":"x","receipt_type":"y","\ud83d\ude00":2,"\uff61":1}');
  });
});

describe('receipt log entry text', () => {
  it('is the remembered text of a frozen bundle, and canonical JSON of anything else', () => {
    const bundle = Object.freeze({ receiptId: 'ab', b: 1 });
    expect(receiptLogEntryText({ b: 1, receiptId: 'ab' })).toBe('{"b":1,"receiptId":"ab"}');
    rememberLogEntry(bundle as never, canonicalJson(bundle));
    expect(receiptLogEntryText(bundle)).toBe('{"b":1,"receiptId":"ab"}');
    expect(() => rememberLogEntry({ receiptId: 'cd' } as never, '{}')).toThrow(/frozen/);
  });
});
