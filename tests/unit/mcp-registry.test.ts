/**
 * The MCP host's MCP Registry entry (`server.json`): the documented shape of a remote server
 * (registry schema 2025-12-11), named by the reverse-DNS of the site's host and pointing at the MCP
 * endpoint on SITE_MCP_URL. It validates against the registry's own published JSON Schema, read in
 * place from ../shared/vendor (never copied here) with its sha256 pinned, so a changed file fails
 * loudly; the zod schema that builds it states the same rules.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { MCP_REGISTRY_SCHEMA_URL, mcpRegistryServerSchema } from '../../schemas/mcp-registry.ts';
import { site } from '../../src/config/site.ts';
import { buildMcpRegistryServer, registryNamespaceOf } from '../../src/descriptors/mcp-registry.ts';
import { routeById } from '../../src/routes/table.ts';

const REGISTRY_SCHEMA_FILE = new URL('../../../shared/vendor/mcp-registry/2025-12-11/server.schema.json', import.meta.url);
const REGISTRY_SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The registry's schema lives beside CI's checkout, not in a clone: outside CI its test is skipped,
 * saying why; with CI=true a missing file fails it.
 */
const registrySchemaPresent = existsSync(REGISTRY_SCHEMA_FILE) || process.env.CI === 'true';
if (!registrySchemaPresent) console.warn(`[skipped] server.json against the MCP Registry's schema: ${REGISTRY_SCHEMA_FILE.pathname} is not beside this clone (../shared/vendor; required when CI=true)`);

describe('server.json', () => {
  const entry = buildMcpRegistryServer();

  it.skipIf(!registrySchemaPresent)('validates against the MCP Registry\'s own schema (2025-12-11, sha256 pinned), which refuses what it should', () => {
    const bytes = readFileSync(REGISTRY_SCHEMA_FILE);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(REGISTRY_SCHEMA_SHA256);
    const schema = JSON.parse(bytes.toString('utf8')) as { $id: string };
    expect(schema.$id).toBe(MCP_REGISTRY_SCHEMA_URL);
    const validate = addFormats(new Ajv({ strict: false, allErrors: true })).compile(schema);
    expect(validate(entry), JSON.stringify(validate.errors)).toBe(true);
    // The check can fail: a name without its namespace, a remote that is not a URL, a missing version.
    const { version: _version, ...unversioned } = entry;
    for (const wrong of [{ ...entry, name: 'agent-economy' }, { ...entry, remotes: [{ type: 'streamable-http', url: 'not a url' }] }, unversioned]) {
      expect(validate(wrong), JSON.stringify(wrong).slice(0, 120)).toBe(false);
    }
  });

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
