/**
 * `server.json`, the MCP host's MCP Registry entry: its name is the reverse-DNS of the site's host
 * (the namespace the registry verifies by DNS) followed by the package name, and its one remote is
 * the MCP endpoint on SITE_MCP_URL.
 */
import packageJson from '../../package.json' with { type: 'json' };
import { MCP_REGISTRY_SCHEMA_URL, type McpRegistryServer } from '../../schemas/mcp-registry.ts';
import { mcpUrl, site } from '../config/site.ts';

/** A host the registry can verify by DNS: a name with a dot, not an IP address. */
const isDnsName = (host: string) => host.includes('.') && !/^[\d.]+$/.test(host) && !host.startsWith('[');

/**
 * The namespace of `host`, reversed (`proof.example.org` -> `org.example.proof`). A site on an IP
 * address or `localhost` has no namespace to prove: it gets `invalid.localhost` (the reserved
 * `.invalid` name reversed), which the registry refuses, as it should.
 */
export function registryNamespaceOf(host: string): string {
  return (isDnsName(host) ? host : 'localhost.invalid').split('.').reverse().join('.');
}

export function buildMcpRegistryServer(): McpRegistryServer {
  const namespace = registryNamespaceOf(new URL(site.base_url).hostname);
  return {
    $schema: MCP_REGISTRY_SCHEMA_URL,
    name: `${namespace}/${packageJson.name}`,
    title: `${site.name} MCP`,
    description: 'Ergo testnet agent economy tools: discovery, policy checks, dev tools, assistant. Never signs.',
    version: packageJson.version,
    websiteUrl: site.base_url,
    remotes: [{ type: 'streamable-http', url: mcpUrl('/mcp') }],
  };
}
