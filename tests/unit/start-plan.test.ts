/**
 * The running origin: `npm start` derives the base URL and the MCP address from HOST, PORT and
 * MCP_PORT when SITE_* leave them unset, rebuilds a build made for another origin (or stale, or
 * absent), and the served process names a listening origin that contradicts its build.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_SOURCES, derivedOrigins, planStart, startAddresses } from '../../src/build/start-plan.ts';
import { BUILD_ORIGIN_FILE, defaultBaseUrl, isLocalOrigin, localOrigin, mcpOriginMismatch, type BuildOrigin } from '../../src/config/build-origin.ts';
import { site } from '../../src/config/site.ts';
import { originMismatch } from '../../src/server/fast-entry.ts';

describe('localOrigin and isLocalOrigin', () => {
  it('reaches an unspecified address on loopback and brackets IPv6', () => {
    expect(localOrigin('127.0.0.1', 4701)).toBe('http://127.0.0.1:4701');
    expect(localOrigin('0.0.0.0', 80)).toBe('http://127.0.0.1:80');
    expect(localOrigin('::', 4321)).toBe('http://127.0.0.1:4321');
    expect(localOrigin('::1', 4321)).toBe('http://[::1]:4321');
    expect(localOrigin('localhost', 4321)).toBe('http://localhost:4321');
  });
  it('tells a loopback base URL from a public one', () => {
    expect(isLocalOrigin('http://127.0.0.1:4321')).toBe(true);
    expect(isLocalOrigin('http://[::1]:4321')).toBe(true);
    expect(isLocalOrigin('https://agents.example.org')).toBe(false);
  });
});

describe('derivedOrigins', () => {
  it('takes the base URL, the hub and the MCP address from HOST, PORT and MCP_PORT', () => {
    expect(derivedOrigins({ PORT: '4701' })).toEqual({ SITE_BASE_URL: 'http://127.0.0.1:4701', SITE_AGENT_HUB_URL: 'http://hub.localhost:4701', SITE_MCP_URL: 'http://127.0.0.1:4322' });
    expect(derivedOrigins({ HOST: '0.0.0.0', PORT: '8080', MCP_PORT: '8081' })).toEqual({
      SITE_BASE_URL: 'http://127.0.0.1:8080',
      SITE_AGENT_HUB_URL: 'http://hub.localhost:8080',
      SITE_MCP_URL: 'http://127.0.0.1:8081',
    });
    expect(derivedOrigins({})).toMatchObject({ SITE_BASE_URL: 'http://127.0.0.1:4321' });
  });
  it('leaves an explicit SITE_BASE_URL and an unknowable PORT=0 alone, and keeps explicit SITE_* values', () => {
    expect(derivedOrigins({ SITE_BASE_URL: 'https://agents.example.org', PORT: '4701' })).toEqual({});
    expect(derivedOrigins({ PORT: '0' })).toEqual({});
    expect(derivedOrigins({ PORT: '4701', SITE_MCP_URL: 'https://mcp.example.org' })).not.toHaveProperty('SITE_MCP_URL');
  });
  it('refuses a malformed PORT naming it', () => {
    expect(() => derivedOrigins({ PORT: 'eighty' })).toThrow(/PORT must be a whole number of port from 0 to 65535/);
    expect(() => derivedOrigins({ PORT: '70000' })).toThrow(/PORT/);
  });
});

describe('planStart', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A project with sources written at `sourcesAt` and, when `built` is given, a build at `builtAt` recording it. */
  function project(options: { built?: BuildOrigin; sourcesAt: number; builtAt: number }) {
    root = mkdtempSync(join(tmpdir(), 'start-plan-'));
    for (const source of BUILD_SOURCES) {
      const path = join(root, source);
      if (source.includes('.')) writeFileSync(path, '{}');
      else mkdirSync(path);
      utimesSync(path, options.sourcesAt, options.sourcesAt);
    }
    if (options.built === undefined) return;
    mkdirSync(join(root, 'dist', 'server'), { recursive: true });
    writeFileSync(join(root, 'dist', 'server', BUILD_ORIGIN_FILE), JSON.stringify(options.built));
    writeFileSync(join(root, 'dist', 'server', 'fast-entry.mjs'), '');
    utimesSync(join(root, 'dist', 'server', 'fast-entry.mjs'), options.builtAt, options.builtAt);
  }
  const builtFor = (port: number): BuildOrigin => ({ base_url: `http://127.0.0.1:${port}`, agent_hub_url: `http://hub.localhost:${port}`, mcp_url: 'http://127.0.0.1:4322' });

  it('serves a fresh build made for this origin as it is', () => {
    project({ built: builtFor(4701), sourcesAt: 1_000, builtAt: 2_000 });
    const plan = planStart(root, { PORT: '4701' });
    expect(plan.rebuild).toBeUndefined();
    expect(plan.target).toEqual(builtFor(4701));
    expect(plan.env.SITE_BASE_URL).toBe('http://127.0.0.1:4701');
  });
  it('rebuilds a build made for another port, naming both origins', () => {
    project({ built: builtFor(4321), sourcesAt: 1_000, builtAt: 2_000 });
    expect(planStart(root, { PORT: '4701' }).rebuild).toBe(
      'the last build was made for http://127.0.0.1:4321 (MCP host http://127.0.0.1:4322), this server is http://127.0.0.1:4701 (MCP host http://127.0.0.1:4322)',
    );
    expect(planStart(root, { PORT: '4321', MCP_PORT: '4999' }).rebuild).toMatch(/MCP host http:\/\/127\.0\.0\.1:4999/);
    expect(planStart(root, { PORT: '4321', SITE_BASE_URL: 'https://agents.example.org' }).rebuild).toMatch(/this server is https:\/\/agents\.example\.org/);
  });
  it('rebuilds when there is no build or the sources are newer', () => {
    project({ sourcesAt: 1_000, builtAt: 0 });
    expect(planStart(root, {}).rebuild).toBe('no build yet');
    rmSync(root, { recursive: true, force: true });
    project({ built: builtFor(4321), sourcesAt: 3_000, builtAt: 2_000 });
    expect(planStart(root, {}).rebuild).toBe('sources changed since the last build');
  });
});

describe('originMismatch (the served process)', () => {
  const built = { base_url: site.base_url, agent_hub_url: site.agent_hub_url, mcp_url: site.mcp_url };
  it('warns when a local build names another origin than the one listening', () => {
    const other = new URL(site.base_url);
    other.port = String(Number(other.port || 80) + 1);
    expect(originMismatch(built, other.origin)).toMatch(new RegExp(`build names ${site.base_url}.*listens on ${other.origin}.*SITE_BASE_URL=${other.origin}`));
    expect(originMismatch(built, new URL(site.base_url).origin)).toBeUndefined();
  });
  it('says nothing without a build record or for a public base URL, and names a SITE_BASE_URL that contradicts the build', () => {
    expect(originMismatch(undefined, 'http://127.0.0.1:1')).toBeUndefined();
    expect(originMismatch({ ...built, base_url: 'https://agents.example.org' }, 'http://127.0.0.1:1')).toMatch(/SITE_BASE_URL is/);
  });
});

describe('mcpOriginMismatch (the MCP host, alone or beside the site)', () => {
  const built = { base_url: 'http://127.0.0.1:4321', agent_hub_url: 'http://hub.localhost:4321', mcp_url: 'http://127.0.0.1:4322' };
  it('warns when the host listens elsewhere than the local mcp_url its build names', () => {
    expect(mcpOriginMismatch(built, 'http://127.0.0.1:4702')).toMatch(/names the MCP host http:\/\/127\.0\.0\.1:4322 .* listens on http:\/\/127\.0\.0\.1:4702.*SITE_MCP_URL=http:\/\/127\.0\.0\.1:4702/);
    expect(mcpOriginMismatch(built, 'http://127.0.0.1:4322')).toBeUndefined();
  });
  it('says nothing without a build record or for a public MCP URL behind a proxy', () => {
    expect(mcpOriginMismatch(undefined, 'http://127.0.0.1:1')).toBeUndefined();
    expect(mcpOriginMismatch({ ...built, mcp_url: 'https://mcp.example.org' }, 'http://127.0.0.1:1')).toBeUndefined();
  });
});

describe('startAddresses (what npm start tries before it builds)', () => {
  it('names the site and, unless MCP_WITH_SITE=false, the MCP host; port 0 is left out', () => {
    expect(startAddresses({ PORT: '4701', MCP_PORT: '4702', MCP_WITH_SITE: 'true' })).toEqual([
      { host: '127.0.0.1', port: 4701, variable: 'PORT' },
      { host: '127.0.0.1', port: 4702, variable: 'MCP_PORT' },
    ]);
    expect(startAddresses({ PORT: '4701', MCP_WITH_SITE: 'false' })).toEqual([{ host: '127.0.0.1', port: 4701, variable: 'PORT' }]);
    expect(startAddresses({ PORT: '0', MCP_PORT: '0', MCP_WITH_SITE: 'true' })).toEqual([]);
  });
});

describe('defaultBaseUrl (the command-line tools)', () => {
  it('prefers SITE_BASE_URL, then the base URL the build was made for', () => {
    expect(defaultBaseUrl(import.meta.url, { SITE_BASE_URL: 'https://agents.example.org' })).toBe(site.base_url);
    const root = mkdtempSync(join(tmpdir(), 'default-base-'));
    try {
      mkdirSync(join(root, 'dist', 'server'), { recursive: true });
      mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
      writeFileSync(join(root, 'dist', 'server', BUILD_ORIGIN_FILE), JSON.stringify({ base_url: 'http://127.0.0.1:4701', agent_hub_url: 'http://hub.localhost:4701', mcp_url: 'http://127.0.0.1:4322' }));
      expect(defaultBaseUrl(`file://${join(root, 'dist', 'cli', 'agent-economy.mjs')}`, {})).toBe('http://127.0.0.1:4701');
      expect(defaultBaseUrl(`file://${join(root, 'src', 'sandbox', 'pay-command.ts')}`, {})).toBe('http://127.0.0.1:4701');
      expect(defaultBaseUrl(`file://${join(tmpdir(), 'nowhere', 'x.mjs')}`, {})).toBe(site.base_url);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
