/**
 * The bounds and the CORS header the OpenAPI documents state for every schema and answer: only what
 * the transport keeps (64 KiB bodies in, 1 MiB answers out, safe integers, `*` for the site), and
 * never over what a schema says of itself.
 */
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/config/limits.ts';
import { withCorsHeader, withSchemaBounds } from '../../src/descriptors/openapi-transport.ts';

describe('withSchemaBounds', () => {
  it('bounds strings, arrays and integers that say nothing, and keeps what a schema says of itself', () => {
    const bounded = withSchemaBounds({
      schemas: {
        free: { type: 'string' },
        nullable: { type: ['string', 'null'] },
        short: { type: 'string', maxLength: 64 },
        named: { type: 'string', enum: ['a', 'b'] },
        fixed: { type: 'string', const: 'x' },
        list: { type: 'array', items: { type: 'string' } },
        few: { type: 'array', maxItems: 3 },
        small: { type: 'integer', minimum: 0, maximum: 1000 },
        wide: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        open: { type: 'integer' },
        stated: { type: 'integer', format: 'int32' },
      },
    });
    expect(bounded.schemas).toEqual({
      free: { type: 'string', maxLength: MAX_ANSWER_BYTES },
      nullable: { type: ['string', 'null'], maxLength: MAX_ANSWER_BYTES },
      short: { type: 'string', maxLength: 64 },
      named: { type: 'string', enum: ['a', 'b'] },
      fixed: { type: 'string', const: 'x' },
      list: { type: 'array', items: { type: 'string', maxLength: MAX_ANSWER_BYTES }, maxItems: MAX_ANSWER_BYTES / 2 },
      few: { type: 'array', maxItems: 3 },
      small: { type: 'integer', minimum: 0, maximum: 1000, format: 'int32' },
      wide: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, format: 'int64' },
      open: { type: 'integer', format: 'int64' },
      stated: { type: 'integer', format: 'int32' },
    });
  });

  it('leaves examples and constants as they are, but bounds a property that is named like them', () => {
    const schema = {
      type: 'object',
      properties: { examples: { type: 'array', items: { type: 'string' } }, type: { type: 'string' } },
      examples: [{ type: 'string' }],
      default: { type: 'string' },
    };
    const bounded = withSchemaBounds(schema) as typeof schema & { properties: Record<string, Record<string, unknown>> };
    expect(bounded.examples).toEqual([{ type: 'string' }]);
    expect(bounded.default).toEqual({ type: 'string' });
    expect(bounded.properties.examples).toMatchObject({ maxItems: MAX_ANSWER_BYTES / 2, items: { maxLength: MAX_ANSWER_BYTES } });
    expect(bounded.properties.type).toEqual({ type: 'string', maxLength: MAX_ANSWER_BYTES });
  });
});

describe('withCorsHeader', () => {
  it('declares Access-Control-Allow-Origin on every answer that declares headers, without changing the document it was given', () => {
    const document = {
      paths: { '/a': { get: { responses: { 200: { description: 'ok' }, 429: { description: 'limited', headers: { RateLimit: { $ref: '#/r' } } } } } } },
      components: { responses: { Shared: { description: 's', headers: { 'Retry-After': { $ref: '#/h' } } } } },
    };
    const given = structuredClone(document);
    const declared = withCorsHeader(document);
    const origin = { $ref: '#/components/headers/Access-Control-Allow-Origin' };
    expect(declared.paths['/a'].get.responses).toEqual({ 200: { description: 'ok' }, 429: { description: 'limited', headers: { RateLimit: { $ref: '#/r' }, 'Access-Control-Allow-Origin': origin } } });
    expect(declared.components.responses.Shared.headers).toEqual({ 'Retry-After': { $ref: '#/h' }, 'Access-Control-Allow-Origin': origin });
    expect(document).toEqual(given);
  });
});
