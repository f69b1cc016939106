/**
 * The MCP host's MCP Registry entry (`server.json`): the documented shape of a remote server
 * (registry schema 2025-12-11), named by the reverse-DNS of the site's host and pointing at the MCP
 * endpoint on SITE_MCP_URL. The registry's own JSON Schema is not vendored here (see the README);
 * the zod schema states the rules its documentation gives.
 */
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { MCP_REGISTRY_SCHEMA_URL, mcpRegistryServerSchema } from '../../schemas/mcp-registry.ts';
import { site } from '../../src/config/site.ts';
import { buildMcpRegistryServer, registryNamespaceOf } from '../../src/descriptors/mcp-registry.ts';
import { routeById } from '../../src/routes/table.ts';

describe('server.json', () => {
  const entry = buildMcpRegistryServer();

  it('follows the registry\'s documented shape for a remote server', () => {
    expect(mcpRegistryServerSchema.parse(entry)).toEqual(entry);
    expect(entry.$schema).toBe(MCP_REGISTRY_SCHEMA_URL);
    expect(entry.description.length).toBeLessThanOrEqual(100);
  });

  it('is named by the reverse-DNS of the site host and points at the MCP endpoint', () => {
    expect(entry.name).toBe(`${registryNamespaceOf(new URL(site.base_url).hostname)}/${packageJson.name}`);
    expect(registryNamespaceOf('proof.agent-economy.example.org')).toBe('org.example.agent-economy.proof');
    // Nothing to prove by DNS on an address or localhost: the reserved .invalid name, which the registry refuses.
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) expect(registryNamespaceOf(host)).toBe('invalid.localhost');
    expect(entry.remotes).toEqual([{ type: 'streamable-http', url: `${site.mcp_url}/mcp` }]);
    expect(entry.version).toBe(packageJson.version);
  });

  it('is served at /.well-known/mcp/server.json', () => {
    expect(routeById().get('mcp-registry-server')).toMatchObject({ kind: 'static', path: '/.well-known/mcp/server.json' });
  });

  it('refuses names the registry refuses', () => {
    for (const name of ['agent-economy', 'example/a/b', '-bad.example/x', 'com.example/x-', 'com.example/']) {
      expect(mcpRegistryServerSchema.safeParse({ ...entry, name }).success, name).toBe(false);
    }
  });
});
