/**
 * JSON parsing that keeps large integers exact. Box values are 64-bit nanoERG amounts and the
 * explorer writes them as bare JSON numbers; `JSON.parse` would round 9007199254740993 to
 * 9007199254740992. Since ES2025 (Node 21+) the reviver receives the source text of every
 * primitive (`context.source`), so an integer literal beyond Number.MAX_SAFE_INTEGER is rebuilt
 * from its own digits as a BigInt. Nothing is guessed from the rounded double, and no regular
 * expression rewrites the text (which could not tell a number from the same digits inside a string).
 */

type ReviverWithSource = (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown;

const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/;

const reviver: ReviverWithSource = (_key, value, context) => {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && INTEGER_LITERAL.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
};

const parseWithSource = JSON.parse as (text: string, reviver: ReviverWithSource) => unknown;

/** Safe integers stay numbers; larger integer literals become exact BigInts; everything else as JSON.parse. */
export function parseJsonExact(text: string): unknown {
  return parseWithSource(text, reviver);
}

// Without source access the reviver would silently hand back rounded values: refuse to run instead.
if (parseJsonExact('9007199254740993') !== 9007199254740993n) {
  throw new Error('exact-json: this JavaScript engine lacks JSON.parse source text access (Node 21 or newer is required)');
}
