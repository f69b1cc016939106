/**
 * Reading a tool input as JSON without losing integers. Box values and token amounts are 64-bit;
 * `JSON.parse` turns 12345678901234567 into 12345678901234568, which would silently change a box id.
 * `parseJsonExact` (the chain client's parser, a pure function) keeps integers beyond 2^53 as exact
 * BigInts; the input schemas accept numbers, BigInts and decimal strings alike.
 */
import type { z } from 'zod';
import { MAX_JSON_DEPTH, nestsTooDeeply } from '../../lib/json-body.ts';
import { jsonPointer } from '../../lib/problem-error.ts';
import { duplicateKeyIn } from '../../lib/duplicate-keys.ts';
import { parseJsonExact } from '../../lib/exact-json.ts';
import { InspectionInputError } from './inspection-error.ts';

/**
 * Parses `text` as JSON; `what` names the expected object in the error ("box JSON"). With
 * `exactIntegers: false` numbers stay doubles, as RFC 8785 canonical JSON reads them.
 */
export function parseExactJson(text: string, what: string, options: { exactIntegers: boolean } = { exactIntegers: true }): unknown {
  if (nestsTooDeeply(text)) {
    throw new InspectionInputError('too_deeply_nested', `The ${what} nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let value: unknown;
  try {
    value = options.exactIntegers ? parseJsonExact(text) : JSON.parse(text);
  } catch {
    throw new InspectionInputError('not_json', `With encoding "utf8" the input must be ${what} text; it is not valid JSON (send bytes as hex with encoding "hex").`);
  }
  const duplicate = duplicateKeyIn(text, value);
  if (duplicate !== null) {
    throw new InspectionInputError('not_json', `The ${what} names the member at ${duplicate} twice; JSON that is hashed or verified must name each member once (I-JSON, RFC 7493, as RFC 8785 requires), since parsers disagree on which value counts.`);
  }
  return value;
}

/**
 * Validates parsed JSON against an input schema; the first few problems are named by JSON Pointer
 * into the input, with the schema's own messages (written by us, not by a parser).
 */
export function parseShape<T extends z.ZodType>(schema: T, value: unknown, what: string, reason: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((issue) => {
      const at = jsonPointer(issue.path) || '(top level)';
      const message = issue.code === 'invalid_type' ? `expected ${issue.expected}` : issue.message;
      return `${at}: ${message}`;
    })
    .join('; ');
  throw new InspectionInputError(reason, `The input is not ${what}: ${problems}.`);
}
