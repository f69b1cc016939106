/**
 * The OpenAPI description registers each shape its schemas share once and references it: no
 * component carries an `$id`, every reference resolves, every shared component is referenced more
 * than once, no shared shape is also written out in full elsewhere, and the whole compact document
 * stays within 358 KiB (it was 846 KB before shapes were shared; 300 KiB until the retry key's header
 * parameters, the facilitator's request examples and the honest wording of the receipt and faucet
 * checks, about 3 KB, were added; 310 KiB until A2A's tasks (a2a-x402: a task in each protocol
 * version, GetTask and tasks/get, about 8 KB) and the reputation graph's pages (its query parameters and the
 * receipts of a subject, about 2 KB) were; 320 KiB until the licence and the quote's 422 for a question nothing
 * on the site answers; 330 KiB until every string, array and integer stated the bound the transport keeps
 * and every answer with headers its Access-Control-Allow-Origin, for Spectral's OWASP ruleset, 18 KB;
 * 344 KiB until the terms' rate limits, the RateLimit-Policy header and the roadmap's proofs, 1.5 KB; 346 KiB until the did:web document of the x402 signing key, the key in the discovery descriptor and the offer-receipt extension's words, 3.5 KB;
 * 350 KiB until A2A 1.0 in full: ListTasks and CancelTask with their params and the page of tasks,
 * the card's owner credential scheme in both versions' forms, about 7.4 KB). Answers, headers and request
 * bodies that several operations carry word for word are written once too, and so are the fields an
 * object shares with the objects extended from it (the probes, a manifest and its registry entry). Every module of schemas/ is enumerated, so a new one's
 * shapes count too.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as schemaModules from '../../schemas/index.ts';
import { publishedSchemas } from '../../src/catalogue/schemas-index.ts';
import { fieldShapes, inlinedWhereNoLarger } from '../../src/descriptors/openapi-components.ts';
import { buildOpenApiDocument } from '../../src/descriptors/openapi.ts';
import { z } from 'zod';

const document = buildOpenApiDocument();
const components = document.components.schemas as Record<string, Record<string, unknown>>;
const text = JSON.stringify(document);
const references = (name: string) => text.split(`"#/components/schemas/${name}"`).length - 1;
const rootNames = new Set([...publishedSchemas().map((schema) => schema.name), 'Problem']);

/** Every subschema of `value`, serialized with sorted keys, with how often it occurs. */
function subschemaCounts(value: unknown, counts = new Map<string, number>()): Map<string, number> {
  if (Array.isArray(value)) value.forEach((item) => subschemaCounts(item, counts));
  else if (value && typeof value === 'object') {
    const sorted = JSON.stringify(value, (_key, item) => (item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).toSorted(([a], [b]) => (a < b ? -1 : 1))) : item));
    counts.set(sorted, (counts.get(sorted) ?? 0) + 1);
    Object.values(value).forEach((item) => subschemaCounts(item, counts));
  }
  return counts;
}

describe('OpenAPI components', () => {
  it('enumerates every module of schemas/', () => {
    const files = readdirSync(new URL('../../schemas/', import.meta.url)).filter((file) => file.endsWith('.ts') && file !== 'index.ts');
    const camel = (file: string) => file.slice(0, -3).replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    expect(Object.keys(schemaModules).toSorted()).toEqual(files.map(camel).toSorted());
  });

  it('carries no $id, and every reference names a component', () => {
    expect(text).not.toContain('"$id"');
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) expect(components, name).toHaveProperty(name!);
  });

  it('references each shared shape from more than one place and writes none of them out elsewhere', () => {
    const shared = Object.keys(components).filter((name) => !rootNames.has(name));
    expect(shared).toEqual(expect.arrayContaining(['Posture', 'IsoDate', 'IsoDateTime', 'DeclaredPosture', 'ValidationIssue']));
    const counts = subschemaCounts(components);
    for (const name of shared) {
      expect(references(name), name).toBeGreaterThan(1);
      const written = [...subschemaCounts(components[name]).keys()][0]!;
      expect(counts.get(written), `${name} is written out beside its component`).toBe(1);
    }
    expect(references('Posture')).toBeGreaterThan(20);
  });

  it('writes an answer, a header and a request body that several operations carry once, under components', () => {
    const post = (path: string) => (document.paths as Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>)[path]!.post!;
    for (const path of ['/api/assistant/verify-payment', '/api/x402/facilitator/verify', '/api/x402/facilitator/settle']) {
      expect(post(path).responses['429'], path).toEqual({ $ref: '#/components/responses/VerificationRateLimited' });
    }
    const shared = document.components as unknown as Record<'responses' | 'headers', Record<string, unknown>>;
    const limited = shared.responses.VerificationRateLimited as { headers: Record<string, unknown> };
    expect(limited.headers).toEqual({
      'Retry-After': { $ref: '#/components/headers/RetryAfter' },
      RateLimit: { $ref: '#/components/headers/RateLimit' },
      'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
      'Access-Control-Allow-Origin': { $ref: '#/components/headers/Access-Control-Allow-Origin' },
    });
    expect(shared.headers.RetryAfter).toEqual({ description: 'Seconds until the client may retry.', schema: { type: 'string', maxLength: 1_048_576 } });
    expect(post('/api/x402/facilitator/verify').requestBody).toEqual({ $ref: '#/components/requestBodies/X402FacilitatorRequest' });
    expect(post('/api/x402/facilitator/settle').requestBody).toEqual({ $ref: '#/components/requestBodies/X402FacilitatorRequest' });
    // An answer only one operation gives stays where it is, its shared headers referenced.
    expect(post('/api/assistant/quote').responses['429']).toMatchObject({ description: expect.stringContaining('Quote rate limit'), headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } });
  });

  it('writes a field that extended objects share once, named after the object it came from', () => {
    const probes = (components.LiveStatus!.properties as Record<string, { properties: Record<string, Record<string, unknown>> }>).probes!.properties;
    for (const probe of ['chain', 'receipt_storage', 'rate_limiter']) {
      expect((probes[probe] as unknown as { properties: Record<string, unknown> }).properties.status).toEqual({ $ref: '#/components/schemas/ProbeStatus' });
    }
    expect(components.ProbeStatus).toMatchObject({ type: 'string', description: expect.stringContaining('machine-readable state') });
    // The registry entry is the manifest extended with its listing: the manifest names the shared fields.
    expect(references('ServiceManifestCapabilities')).toBeGreaterThanOrEqual(2);
    expect(Object.keys(components).filter((name) => name.startsWith('RegistryEntry'))).toEqual([]);
  });

  it('writes a shape out where that is shorter and keeps no reference to a component it drops', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const pattern = { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' };
    // Alias is a described reference to Slug, its only use; Alias itself is used twice.
    const out = inlinedWhereNoLarger(
      { Root: { properties: { a: ref('Alias'), b: { ...ref('Alias'), description: 'b' } } }, Alias: { ...ref('Slug'), description: 'an id' }, Slug: pattern },
      new Set(['Root']),
    );
    const written = JSON.stringify(out);
    for (const [, name] of written.matchAll(/#\/components\/schemas\/(\w+)/g)) expect(Object.keys(out)).toContain(name);
    expect((out.Root!.properties as Record<string, unknown>).b).toEqual({ ...pattern, description: 'b' });
  });

  it('names a shared field after the object with the fewest fields, and only where the name is its own', () => {
    const field = () => z.string().describe('a field');
    const [a, b, c, d] = [field(), field(), field(), field()];
    const extended = z.object({ transaction_id: a, transactionId: b, input: c, note: d });
    const base = z.object({ input: c, note: d, more: z.string() });
    const names = fieldShapes(new Map<z.ZodType, string>([[extended, 'Answer'], [base, 'Base']]));
    // transaction_id and transactionId would both be AnswerTransactionId; BaseInput would read as a request rendering.
    expect([...names.values()]).toEqual(['BaseNote', 'BaseMore']);
  });

  it('is at most 358 KiB as served (compact JSON)', () => {
    expect(Buffer.byteLength(`${text}\n`)).toBeLessThanOrEqual(358 * 1024);
  });
});
