/**
 * The one JSON body reader every POST route shares: what it refuses, and how it names the place.
 * Ill-formed UTF-16 (a lone surrogate escape) is refused anywhere in the body, keys included, with
 * the JSON Pointer of the first offending string; well-formed pairs pass.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonBytes } from '../../src/lib/json-body.ts';
import { ProblemError } from '../../src/lib/problem-error.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

function refusal(text: string): ProblemError {
  try {
    parseJsonBytes(bytes(text));
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error(`accepted ${text}`);
}

describe('parseJsonBytes', () => {
  it.each([
    ['a string value', '{"question":"why \\ud800?"}', '/question'],
    ['a trailing low surrogate', '{"a":{"b":["ok","\\uDC00"]}}', '/a/b/1'],
    ['a high surrogate before a non-surrogate', '{"messages":[{"role":"user","content":"\\ud83dx"}]}', '/messages/0/content'],
    ['a key', '{"fine":1,"\\ud800key":2}', '/\ud800key'],
    ['a key path with ~ and /', '{"a/b":{"c~d":"\\udfff"}}', '/a~1b/c~0d'],
    ['the whole body', '"\\ud800"', ''],
  ])('refuses a lone surrogate in %s with 400 invalid_request naming the pointer', (_where, text, pointer) => {
    const error = refusal(text);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(error.errors).toEqual([expect.objectContaining({ path: pointer, code: 'ill_formed_unicode' })]);
  });

  it('accepts surrogate pairs, escaped or not, and text that only looks like an escape', () => {
    expect(parseJsonBytes(bytes('{"face":"\\ud83d\\ude00","raw":"😀","slash":"\\\\ud800"}'))).toEqual({ face: '😀', raw: '😀', slash: '\\ud800' });
  });

  it('still refuses what it refused before: empty, not UTF-8, too deep, not JSON', () => {
    expect(() => parseJsonBytes(new Uint8Array())).toThrow(expect.objectContaining({ code: 'empty_body' }));
    expect(() => parseJsonBytes(Uint8Array.from([0x7b, 0xc3, 0x28]))).toThrow(expect.objectContaining({ code: 'invalid_utf8' }));
    expect(() => parseJsonBytes(bytes('['.repeat(40) + ']'.repeat(40)))).toThrow(expect.objectContaining({ code: 'too_deeply_nested' }));
    expect(() => parseJsonBytes(bytes('{"a":'))).toThrow(expect.objectContaining({ code: 'invalid_json' }));
  });
});

describe('parseJsonBytes and members named twice (I-JSON, RFC 7493)', () => {
  it.each([
    ['at the top', '{"question":"a","question":"b"}', '/question'],
    ['the attack placed first', '{"chain":"testnet","receiptId":"x","chain":"sandbox"}', '/chain'],
    ['in a nested object', '{"quote":{"quoteId":"q","amount":1,"amount":2}}', '/quote/amount'],
    ['in an object in an array', '{"messages":[{"role":"user","role":"assistant","content":"x"}]}', '/messages/0/role'],
  ])('refuses one %s with 400 invalid_request naming its pointer', (_where, text, pointer) => {
    const refused = refusal(text);
    expect({ status: refused.status, code: refused.code }).toEqual({ status: 400, code: 'invalid_request' });
    expect(refused.errors).toEqual([{ path: pointer, code: 'duplicate_member', message: 'names a member its object already has' }]);
  });

  it('reads one name in two objects, and a string holding `":`, as the JSON they are', () => {
    expect(parseJsonBytes(bytes('{"a":{"x":1},"b":{"x":2},"c":[{"x":3},{"x":4}]}'))).toEqual({ a: { x: 1 }, b: { x: 2 }, c: [{ x: 3 }, { x: 4 }] });
    expect(parseJsonBytes(bytes('{"question":"what is \\"chain\\": in a receipt?","history":[]}'))).toEqual({ question: 'what is "chain": in a receipt?', history: [] });
    expect(parseJsonBytes(bytes('{"a" : 1, "b"\n:\t2}'))).toEqual({ a: 1, b: 2 });
  });
});
