/**
 * Issue 55, a static half a CDN serves as it is: `dist/client` served by Cloudflare Pages' own local
 * runtime (`wrangler pages dev`, which applies `_headers` and `_redirects`) answers every file with
 * the bytes and the headers the built server sends for it: caching, CORS (allow and expose), the
 * page or data security policy, content type and a descriptor's Link. Both come from one table
 * (src/lib/response-headers.ts); a rule dropped or a header changed on one side only fails here. Also: the runtime paths the build lists
 * for a CDN to forward are the catalogue's, robots.txt names the sitemap, and the sitemap lists the
 * pages.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CDN_HEADER_RULES_LIMIT, runtimePaths } from '../../src/build/cdn-rules.ts';
import { DIST_DIR, startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { pagesDevRuns, startPagesDev, type PagesDev } from '../helpers/cloudflare-pages.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const clientDir = join(DIST_DIR, 'client');
let server: RunningServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => server?.stop());

interface Rule {
  pattern: string;
  lines: string[];
}

/** `_headers` as rules: a line at the margin opens a rule, an indented one belongs to it. */
function parseRules(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    if (/^\s/.test(line)) rules.at(-1)!.lines.push(line.trim());
    else rules.push({ pattern: line.trim(), lines: [] });
  }
  return rules;
}

/** Headers of each answer that are the transport's or the host's own, not the site's. */
const HOST_HEADERS = new Set(['etag', 'content-length', 'content-encoding', 'vary', 'x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-server-env', 'server']);

/** Every URL path a file of `dist/client` answers at (a descriptor at its extensionless path too). */
function servedPaths(): string[] {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
  const files = walk(clientDir)
    .map((file) => relative(clientDir, file).split(sep).join('/'))
    .filter((file) => !/\.(br|gz)$/.test(file) && !['_headers', '_redirects', '404.html'].includes(file));
  const manifest = JSON.parse(readFileSync(join(DIST_DIR, 'server', 'static-manifest.json'), 'utf8')) as Array<{ path: string; file: string }>;
  const byFile = new Map(manifest.map((entry) => [entry.file, entry.path]));
  // A page by its folder's path, as both hosts name it (Pages answers `x/index.html` with a redirect there).
  return files.map((file) => byFile.get(file) ?? `/${file.replace(/(^|\/)index\.html$/, '$1')}`);
}

describe('dist/client/_headers', () => {
  const rules = parseRules(readFileSync(join(clientDir, '_headers'), 'utf8'));

  it(`holds at most ${CDN_HEADER_RULES_LIMIT} rules (what Cloudflare Pages reads) and no line past 2,000 characters`, () => {
    expect(rules.length).toBeGreaterThan(2);
    expect(rules.length).toBeLessThanOrEqual(CDN_HEADER_RULES_LIMIT);
    for (const rule of rules) for (const line of rule.lines) expect(line.length).toBeLessThanOrEqual(2000);
  });

  it('holds the site-wide rule, the fingerprinted assets\' and an extension\'s, then what differs: a descriptor\'s path, a group of schemas', () => {
    expect(rules.slice(0, 2).map((rule) => rule.pattern)).toEqual(['/*', '/_astro/*']);
    expect(rules.map((rule) => rule.pattern)).toEqual(expect.arrayContaining(['/*.json', '/*.js', '/api/agents', '/agent-economy/*.schema.v0.json']));
  });
});

describe.runIf(pagesDevRuns())('dist/client on Cloudflare Pages (wrangler pages dev)', () => {
  let pages: PagesDev;
  beforeAll(async () => {
    pages = await startPagesDev(clientDir);
  });
  afterAll(async () => pages?.stop());

  it('answers every file of dist/client with the bytes and headers the built server sends', async () => {
    const paths = servedPaths();
    expect(paths.length).toBeGreaterThan(100);
    const differences: string[] = [];
    for (const path of paths) {
      const [ours, cdn] = await Promise.all([server.url, pages.url].map(async (origin) => {
        const response = await request(`${origin}${path}`, { headers: { 'accept-encoding': 'identity' } });
        const body = Buffer.from(await response.body.arrayBuffer());
        const headers = new Map(Object.entries(response.headers).filter(([name]) => !HOST_HEADERS.has(name)).map(([name, value]) => [name, String(value)]));
        return { status: response.statusCode, headers, body };
      }));
      if (ours!.status !== 200 || cdn!.status !== 200) {
        differences.push(`${path}: server ${ours!.status}, Pages ${cdn!.status}`);
        continue;
      }
      if (!ours!.body.equals(cdn!.body)) differences.push(`${path}: the bodies differ`);
      for (const name of new Set([...ours!.headers.keys(), ...cdn!.headers.keys()])) {
        if (ours!.headers.get(name) !== cdn!.headers.get(name)) differences.push(`${path} ${name}: server ${JSON.stringify(ours!.headers.get(name))}, Pages ${JSON.stringify(cdn!.headers.get(name))}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('keeps the fingerprinted assets for ever and a descriptor five minutes, revalidated, readable across origins', async () => {
    const asset = servedPaths().find((path) => path.startsWith('/_astro/'))!;
    const head = async (path: string) => (await request(`${pages.url}${path}`, { method: 'HEAD' })).headers;
    expect((await head(asset))['cache-control']).toBe('public, max-age=31536000, immutable');
    const descriptor = await head('/api/agents');
    expect(descriptor['cache-control']).toBe('public, max-age=300, must-revalidate');
    expect(descriptor['access-control-expose-headers']).toContain('link');
  });
});

describe('what the build writes for a CDN beside dist/client', () => {
  it('lists, from the catalogue, every runtime route a CDN must forward, and only those', () => {
    const listed = readFileSync(join(DIST_DIR, 'runtime-paths.txt'), 'utf8').trim().split('\n');
    expect(listed).toEqual(runtimePaths());
    const covers = (line: string, method: string, path: string) => {
      const [lineMethod, pattern] = line.split(' ') as [string, string];
      return lineMethod === method && (pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern);
    };
    for (const line of ['POST /api/assistant/quote', 'GET /api/assistant/receipt/', 'GET /api/x402/facilitator/supported', 'GET /receipt/']) {
      const [method, path] = line.split(' ') as [string, string];
      expect(listed.some((entry) => covers(entry, method, path)), line).toBe(true);
    }
    // A static descriptor stays with the CDN, also where its path takes a runtime POST.
    for (const path of ['/api/agents', '/api/jobs/quote', '/agent-economy/openapi.v0.json']) expect(listed.some((entry) => covers(entry, 'GET', path)), path).toBe(false);
  });

  it('names the sitemap in robots.txt with the site\'s base URL, and the sitemap lists the pages', async () => {
    const robots = readFileSync(join(clientDir, 'robots.txt'), 'utf8');
    const named = /^Sitemap: (\S+)$/m.exec(robots)?.[1];
    expect(named).toMatch(/^https?:\/\/.+\/sitemap-index\.xml$/);
    const path = new URL(named!).pathname;
    expect(existsSync(join(clientDir, path))).toBe(true);
    const index = await request(`${server.url}${path}`);
    expect(index.statusCode).toBe(200);
    const part = /<loc>([^<]+)<\/loc>/.exec(await index.body.text())![1]!;
    const pages = readFileSync(join(clientDir, new URL(part).pathname), 'utf8');
    for (const page of ['/', '/docs/', '/glossary/', '/assistant/']) expect(pages).toContain(`<loc>${new URL(page, named!).href}</loc>`);
    expect(pages).not.toContain('receipt-page-slots');
  });
});
