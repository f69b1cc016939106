/**
 * The human site and the agent conventions against the built server over HTTP: security and cache
 * headers on every kind of response (static page, fingerprinted asset, descriptor, API answer,
 * problem, on-demand page, 404), CORS on the JSON, llms.txt and the A2A agent card, the search index,
 * and every curl command of the API reference run for real with `curl` against this server.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCardSchema } from '../../schemas/agent-card.ts';
import { site } from '../../src/config/site.ts';
import { requestExample } from '../../src/descriptors/request-examples.ts';
import { PROBLEM_CODES } from '../../src/lib/problem-codes.ts';
import { allRoutes } from '../../src/routes/table.ts';
import { templatePath } from '../../src/catalogue/lookup.ts';
import { DIST_DIR, startBuiltServer, type RunningServer } from '../helpers/built-server.ts';

const run = promisify(execFile);
let server: RunningServer;

beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => server?.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

/** Pages, assets and pictures: the page policy (scripts from this origin only). */
function expectSecurityHeaders(response: Response, what: string): void {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toMatch(/script-src 'self'( 'wasm-unsafe-eval')?;/);
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
}

/** JSON answers are data: a policy that loads nothing and is framed nowhere. */
function expectDataSecurityHeaders(response: Response, what: string): void {
  expect(response.headers.get('content-type'), what).toMatch(/^application\/(problem\+)?json/);
  expect(response.headers.get('content-security-policy'), what).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(response.headers.get('x-frame-options'), what).toBe('DENY');
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
}

describe('headers on every kind of response', () => {
  it('static pages: security headers, short cache with a validator, and 304 on a match', async () => {
    const response = await get('/wallet-agent/policy-check/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expectSecurityHeaders(response, 'page');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get('/wallet-agent/policy-check/', { 'if-none-match': etag })).status).toBe(304);
  });

  it('fingerprinted assets: long-lived and immutable', async () => {
    const html = await (await get('/wallet-agent/policy-check/')).text();
    const script = /<script type="module" src="(\/_astro\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, 'the playground page loads its script from a file').toBeDefined();
    const response = await get(script!);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toContain('text/javascript');
    expectSecurityHeaders(response, 'asset');
  });

  it('no built page carries an inline script', () => {
    const client = join(DIST_DIR, 'client');
    const pages = (function walk(dir: string): string[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.html') ? [join(dir, entry.name)] : []));
    })(client);
    expect(pages.length).toBeGreaterThan(30);
    for (const page of pages) {
      for (const [tag] of readFileSync(page, 'utf8').matchAll(/<script\b[^>]*>/g)) expect(tag, page).toMatch(/\bsrc="\//);
    }
  });

  it('descriptors: readable cross-origin, short cache with a validator', async () => {
    const response = await get('/api/jobs', { origin: 'https://agent.example' });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    expect(response.headers.get('etag')).toBeTruthy();
    expectDataSecurityHeaders(response, 'descriptor');
  });

  it('API answers and problems: security headers, CORS, no-store', async () => {
    const live = await get('/api/agent-economy/live');
    expectDataSecurityHeaders(live, 'live');
    expect(live.headers.get('access-control-allow-origin')).toBe('*');
    // A picture the API draws is not data: opened on its own it is a document, under the page policy.
    expectSecurityHeaders(await get('/api/agent-economy/live/timeline.svg'), 'live timeline');
    const problem = await get('/api/assistant/receipt/no-such-receipt');
    expect(problem.status).toBe(404);
    expectDataSecurityHeaders(problem, 'problem');
    expect(problem.headers.get('cache-control')).toBe('no-store');
  });

  it('the on-demand receipt page and the 404 page carry the same security headers', async () => {
    const receipt = await get(`/receipt/${'a'.repeat(64)}`);
    expect(receipt.status).toBe(200);
    expectSecurityHeaders(receipt, 'receipt page');
    expect(receipt.headers.get('access-control-allow-origin')).toBe('*');
    const html = await receipt.text();
    expect(html).toContain(`/api/assistant/receipt/${'a'.repeat(64)}`);
    expect(html).toContain('testnet only');
    const missing = await get('/no-such-page/');
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing, '404');
  });

  it('the receipt page is the template filled with the id, escaped; the template itself is not served', async () => {
    const hostile = `x"><img src=x onerror=alert(1)>'&`;
    const receipt = await get(`/receipt/${encodeURIComponent(hostile)}/`);
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(receipt.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    const html = await receipt.text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('<title>Receipt x&quot;&gt;&lt;img src=x on · ');
    expect(html).toContain('data-id="x&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;"');
    expect(html).not.toContain('__receipt_page_');
    const head = await fetch(`${server.url}/receipt/${'b'.repeat(64)}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(await (await get(`/receipt/${'b'.repeat(64)}`)).text()));
    const posted = await fetch(`${server.url}/receipt/${'b'.repeat(64)}`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    // A segment that is not valid percent-encoding names no receipt.
    expect((await get('/receipt/%E0%A4%A/')).status).toBe(404);
    expect((await get('/receipt/a/b/')).status).toBe(404);
  });
});

describe('the errors page', () => {
  it('has one entry, at the anchor every problem type links to, for each code the service answers with', async () => {
    const response = await get('/problems/');
    expect(response.status).toBe(200);
    const html = await response.text();
    const codes = PROBLEM_CODES.map((entry) => entry.code);
    expect(new Set(codes).size, 'a code listed twice').toBe(codes.length);
    for (const entry of PROBLEM_CODES) {
      expect(html, entry.code).toContain(`id="${entry.code}"`);
      expect(html).toContain(`(${entry.status}, ${entry.where.replaceAll('&', '&amp;')})`);
    }
    // The 402 of verify-payment names each Note rule.
    expect(html).toContain('id="receiver_mismatch"');
  });
});

describe('agent conventions', () => {
  it('llms.txt is Markdown text that names the posture and every human page', async () => {
    const response = await get('/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text.startsWith(`# ${site.name}\n\n> `)).toBe(true);
    expect(text).toContain('`mainnet_ready` and `production_custody` are false');
    const pages = new Set(allRoutes().flatMap((route) => (route.page ? [route.page] : [])));
    for (const page of pages) expect(text, page).toContain(`](${site.base_url}${page})`);
  });

  it('llms-full.txt carries every endpoint of the route table with its command', async () => {
    const text = await (await get('/llms-full.txt')).text();
    for (const route of allRoutes()) expect(text, route.id).toContain(`### ${route.method} ${templatePath(route.path)}\n`);
    expect(text).toContain('amount_over_per_action_cap');
  });

  it('the A2A agent card validates and has one skill per capability', async () => {
    const response = await get('/.well-known/agent-card.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const card = agentCardSchema.parse(await response.json());
    const manifest = (await (await get('/.well-known/agents.json')).json()) as { capabilities: Array<{ id: string }> };
    expect(card.skills.map((skill) => skill.id)).toEqual(manifest.capabilities.map((capability) => capability.id));
    expect(card.capabilities.extensions[0]!.uri).toBe(`${site.base_url}/agent-economy/openapi.v0.json`);
    expect(response.headers.get('link')).toBe(`<${site.base_url}/agent-economy/a2a-agent-card.schema.v0.json>; rel="describedby"`);
  });

  it('the site search index is built and served', async () => {
    const response = await get('/pagefind/pagefind.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/javascript');
    expect((await get('/pagefind/pagefind-entry.json')).status).toBe(200);
  });
});

describe('the API reference commands work', () => {
  const routes = allRoutes().filter((route) => route.host !== 'mcp');
  const variables = { RECEIPT_ID: 'no-such-receipt', QUOTE_ID: 'no-such-quote', TESTNET_ADDRESS: '3WwXpssaZwcNzaGMv3AgxBdTPJQBt5gCmqBsg3DykQ39bYdhJBsN', NOTE_BOX_ID: '0'.repeat(64) };

  it.each(routes.map((route) => [route.id] as const))('%s: the curl command answers a documented status', async (id) => {
    const route = routes.find((candidate) => candidate.id === id)!;
    const example = requestExample(id)!;
    expect(example.command.startsWith('curl ') || example.command.startsWith('QUOTE=$(curl ')).toBe(true);
    const command = `${example.command.replaceAll(site.base_url, server.url)} -o /dev/null -w '%{http_code}'`;
    const { stdout } = await run('sh', ['-c', command], { env: { ...process.env, ...variables } });
    const status = Number(stdout.trim().slice(-3));
    const documented = route.kind === 'dynamic' ? [...Object.keys(route.responses).map(Number), 501] : [200];
    expect(documented, `${command} answered ${status}`).toContain(status);
    if (id === 'policy-check') expect(status).toBe(200);
  });
});
