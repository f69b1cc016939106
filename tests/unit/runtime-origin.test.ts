/**
 * SITE_RUNTIME_URL (issue 55: a static half a CDN serves as it is): set, a build names the runtime's
 * origin wherever a dynamic route is reached (the descriptors' endpoint URLs, the OpenAPI
 * operations' servers, the hub's redirects, the pages' fetches and the CSP's connect-src), and the
 * site's origin for every static document; unset, nothing moves.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

async function withSite(env: Record<string, string>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const { buildDiscoveryDescriptor } = await import('../../src/descriptors/discovery.ts');
  const { fetchHref, routeUrl } = await import('../../src/catalogue/lookup.ts');
  const { resolveHubAlias } = await import('../../src/catalogue/hub-aliases.ts');
  const { SECURITY_HEADERS } = await import('../../src/lib/response-headers.ts');
  const { buildOpenApiDocument } = await import('../../src/descriptors/openapi.ts');
  return { discovery: buildDiscoveryDescriptor(), fetchHref, routeUrl, resolveHubAlias, csp: SECURITY_HEADERS['content-security-policy']!, openapi: buildOpenApiDocument() as { paths: Record<string, Record<string, { servers?: Array<{ url: string }> }>> } };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const endpoint = (discovery: { endpoints: Array<{ id: string; url: string }> }, id: string) => discovery.endpoints.find((entry) => entry.id === id)!.url;

describe('SITE_RUNTIME_URL', () => {
  it('moves every dynamic route to the runtime and leaves the static documents on the site', async () => {
    const apart = await withSite({ SITE_BASE_URL: 'https://cdn.example', SITE_RUNTIME_URL: 'https://api.example' });
    expect(endpoint(apart.discovery, 'policy-check')).toBe('https://api.example/api/agent-economy/wallet-agent/policy-check');
    expect(endpoint(apart.discovery, 'assistant-quote')).toBe('https://api.example/api/assistant/quote');
    expect(endpoint(apart.discovery, 'registry')).toBe('https://cdn.example/api/agents/registry');
    expect(apart.routeUrl('assistant-receipt')).toBe('https://api.example/api/assistant/receipt/{id}');
    expect(apart.fetchHref('live')).toBe('https://api.example/api/agent-economy/live');
    expect(apart.fetchHref('registry')).toBe('/api/agents/registry');
    expect(apart.resolveHubAlias('/policy-check')).toBe('https://api.example/api/agent-economy/wallet-agent/policy-check');
    expect(apart.resolveHubAlias('/registry')).toBe('https://cdn.example/api/agents/registry');
    expect(apart.csp).toContain("connect-src 'self' https://api.example;");
    expect(apart.openapi.paths['/api/assistant/quote']!.post!.servers).toEqual([expect.objectContaining({ url: 'https://api.example' })]);
    expect(apart.openapi.paths['/api/jobs/quote']!.get!.servers).toBeUndefined();
  });

  it('unset, keeps one origin: relative fetches, no operation servers, connect-src self', async () => {
    const together = await withSite({ SITE_BASE_URL: 'https://cdn.example', SITE_RUNTIME_URL: '' });
    expect(endpoint(together.discovery, 'policy-check')).toBe('https://cdn.example/api/agent-economy/wallet-agent/policy-check');
    expect(together.fetchHref('live')).toBe('/api/agent-economy/live');
    expect(together.csp).toContain("connect-src 'self';");
    expect(together.openapi.paths['/api/assistant/quote']!.post!.servers).toBeUndefined();
  });
});
