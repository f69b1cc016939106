/**
 * The CDN rules the build writes (src/build/cdn-rules.ts): made from the table of our own server's
 * headers, checked by the builder itself against what Cloudflare Pages would apply, grouped where a
 * rule can serve several files without touching another, and refused past the 100 rules Pages reads.
 * tests/integration/cdn-rules.test.ts runs the written file in Pages' own runtime.
 */
import { describe, expect, it } from 'vitest';
import { CDN_HEADER_RULES_LIMIT, cdnHeaders, headersByRules, runtimePaths, type CdnFile } from '../../src/build/cdn-rules.ts';
import { catalogue } from '../../src/catalogue/index.ts';

const schema = (name: string): CdnFile => ({ path: `/agent-economy/${name}.schema.v0.json`, contentType: 'application/schema+json; charset=utf-8' });
const files: CdnFile[] = [
  { path: '/', contentType: 'text/html; charset=utf-8' },
  { path: '/docs/', contentType: 'text/html; charset=utf-8' },
  { path: '/_astro/page.Ab12.js', contentType: 'text/javascript; charset=utf-8' },
  { path: '/api/agents', contentType: 'application/json; charset=utf-8', headers: { link: '</schema.json>; rel="describedby"' } },
  schema('one'),
  schema('two'),
  { path: '/agent-economy/openapi.v0.json', contentType: 'application/json; charset=utf-8' },
];

const rulesOf = (text: string) =>
  text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .reduce<Array<{ pattern: string; lines: string[] }>>((rules, line) => (line.startsWith(' ') ? (rules.at(-1)!.lines.push(line.trim()), rules) : [...rules, { pattern: line, lines: [] }]), []);

describe('cdnHeaders', () => {
  const rules = rulesOf(cdnHeaders(files));

  it('gives each file its content type, caching, CORS and policy', () => {
    expect(headersByRules(rules, '/_astro/page.Ab12.js').get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(headersByRules(rules, '/docs/').get('cache-control')).toBe('public, max-age=300, must-revalidate');
    expect(headersByRules(rules, '/docs/').get('content-security-policy')).toContain("script-src 'self'");
    const descriptor = headersByRules(rules, '/api/agents');
    expect(descriptor.get('content-type')).toBe('application/json; charset=utf-8');
    expect(descriptor.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(descriptor.get('link')).toBe('</schema.json>; rel="describedby"');
    expect(descriptor.get('access-control-allow-origin')).toBe('*');
    expect(headersByRules(rules, schema('two').path).get('content-type')).toBe('application/schema+json; charset=utf-8');
    expect(headersByRules(rules, '/agent-economy/openapi.v0.json').get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('serves a folder\'s files that end alike with one rule, and a file another group\'s pattern would touch with its own', () => {
    expect(rules.map((rule) => rule.pattern)).toContain('/agent-economy/*.schema.v0.json');
    const spoiler = { path: '/agent-economy/notes.schema.v0.json', contentType: 'application/json; charset=utf-8' };
    const split = rulesOf(cdnHeaders([...files, spoiler])).map((rule) => rule.pattern);
    expect(split).not.toContain('/agent-economy/*.schema.v0.json');
    expect(split).toEqual(expect.arrayContaining([schema('one').path, schema('two').path]));
  });

  it(`refuses to write more than the ${CDN_HEADER_RULES_LIMIT} rules Cloudflare Pages reads`, () => {
    const many = Array.from({ length: CDN_HEADER_RULES_LIMIT }, (_, at): CdnFile => ({ path: `/api/thing-${at}`, contentType: 'application/json; charset=utf-8', headers: { link: `<${at}>` } }));
    expect(() => cdnHeaders(many)).toThrow(/past the 100 Cloudflare Pages reads/);
  });
});

describe('runtimePaths', () => {
  it('lists every dynamic route of the site by method, a parameter as a splat, and no static descriptor', () => {
    const lines = runtimePaths();
    const dynamic = catalogue().filter((entry) => (entry.host ?? 'site') === 'site' && entry.kind === 'dynamic');
    for (const entry of dynamic) {
      const path = entry.path.includes('{') ? entry.path.slice(0, entry.path.indexOf('{')) : entry.path;
      expect(lines.some((line) => line === `${entry.method} ${path}*` || line === `${entry.method} ${path}` || (line.endsWith('*') && `${entry.method} ${path}`.startsWith(line.slice(0, -1)))), `${entry.method} ${entry.path}`).toBe(true);
    }
    expect(lines).toContain('GET /receipt/*');
    expect(lines).not.toContain('GET /api/jobs/quote');
    expect(lines).toContain('POST /api/jobs/quote');
  });
});
