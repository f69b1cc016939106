/**
 * The compiled fast path in front of zod (src/lib/compiled-request-check.ts): it may only say "valid,
 * unchanged" where zod would return the very same value, and it must say so for the bodies clients
 * send, or it is no fast path. Checked on every request schema of the route table with random
 * mutations of its example, and on the edges where Ajv and zod differ by default (string lengths of
 * astral characters and lone surrogates, pattern flags, stripped keys, defaults, refinements).
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiRequestExample, publishedRequestBody } from '../../src/descriptors/request-examples.ts';
import { compileRequestCheck, parsesUnchanged } from '../../src/lib/compiled-request-check.ts';
import { allRoutes } from '../../src/routes/table.ts';
import type { DynamicRoute } from '../../src/routes/types.ts';
import { anyJson, mutate, mutation, type Json } from '../helpers/json-mutation.ts';

/** What zod says of `value`: accepted unchanged, or not. */
const zodKeepsUnchanged = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success && isDeepStrictEqual(parsed.data, value);
};

describe('which schemas get a compiled check', () => {
  it('takes schemas whose parse only accepts or refuses', () => {
    const plain = z.strictObject({
      id: z.string().min(1).max(8).regex(/^[a-z]+$/),
      count: z.int().min(0),
      ratio: z.number().max(1).optional(),
      kind: z.enum(['a', 'b']),
      fixed: z.literal('v0'),
      flags: z.array(z.boolean()).max(3),
      either: z.union([z.string(), z.null()]),
      extra: z.looseObject({ note: z.string().nullable() }),
    });
    expect(parsesUnchanged(plain)).toBe(true);
    expect(compileRequestCheck(plain)).toBeTypeOf('function');
  });

  it.each([
    ['a default', z.strictObject({ a: z.string().default('x') })],
    ['a transform', z.strictObject({ a: z.string().transform((value) => value.length) })],
    ['a trim', z.strictObject({ a: z.string().trim() })],
    ['a refinement', z.strictObject({ a: z.string().refine((value) => value !== 'x') })],
    ['a pattern with flags', z.strictObject({ a: z.string().regex(/^[a-f]+$/i) })],
    ['a named format', z.strictObject({ a: z.email() })],
    ['a stripping object', z.object({ a: z.string() })],
    ['a coercion', z.strictObject({ a: z.coerce.number() })],
    ['a record', z.record(z.string(), z.string())],
  ])('refuses a schema with %s', (_, schema) => {
    expect(parsesUnchanged(schema)).toBe(false);
    expect(compileRequestCheck(schema)).toBeUndefined();
  });

  it('counts string lengths in code points and runs patterns without the u flag, as zod does', () => {
    const schema = z.strictObject({ name: z.string().max(4), dotted: z.string().regex(/^.$/).optional() });
    const check = compileRequestCheck(schema)!;
    for (const value of [{ name: '😀😀😀😀' }, { name: '😀😀😀😀😀' }, { name: 'abcd' }, { name: 'abcde' }, { name: '\ud800\ud800\ud800\ud800\ud800' }, { name: 'a', dotted: '😀' }, { name: 'a', dotted: 'x' }]) {
      expect(check(value), JSON.stringify(value)).toBe(zodKeepsUnchanged(schema, value));
    }
  });

  it('refuses integers zod refuses: fractions and values past 2^53', () => {
    const schema = z.strictObject({ n: z.int() });
    const check = compileRequestCheck(schema)!;
    for (const n of [0, -3, 1.5, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER]) expect(check({ n }), String(n)).toBe(zodKeepsUnchanged(schema, { n }));
  });
});

const validatedRoutes = allRoutes().filter(
  (route): route is DynamicRoute & { request: NonNullable<DynamicRoute['request']> } => route.kind === 'dynamic' && route.request !== undefined && !route.validatesOwnBody,
);

describe.each(validatedRoutes.filter((route) => parsesUnchanged(route.request.schema)).map((route) => [route.id, route] as const))('the request schema of %s', (_, route) => {
  const schema = route.request.schema;
  const check = compileRequestCheck(schema)!;
  const example = (publishedRequestBody(route.id) ?? openApiRequestExample(route.id)?.value) as Json;

  it('compiles, and passes its example request on the fast path', () => {
    expect(check).toBeTypeOf('function');
    expect(example).toBeDefined();
    expect(check(example)).toBe(true);
  });

  it('agrees with zod on random mutations of the example', () => {
    fc.assert(
      fc.property(mutation, ([pick, operation, value, key]) => {
        const body = mutate(example, pick, operation, value as Json, key);
        expect(check(body), JSON.stringify(body)).toBe(zodKeepsUnchanged(schema, body));
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with zod on arbitrary JSON', () => {
    fc.assert(
      fc.property(anyJson, (body) => {
        expect(check(body)).toBe(zodKeepsUnchanged(schema, body));
      }),
      { numRuns: 200 },
    );
  });
});

it('gives the policy check, the hottest POST, its compiled check', () => {
  const policy = validatedRoutes.find((route) => route.id === 'policy-check')!;
  expect(compileRequestCheck(policy.request.schema)).toBeTypeOf('function');
});
