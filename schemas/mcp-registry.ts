/**
 * The MCP host's entry for the MCP Registry (`server.json`, registry schema 2025-12-11): a remote
 * server reached over Streamable HTTP. Written from the registry's documentation (its
 * "Publishing Remote Servers" page and the server.json format); the registry's own JSON Schema is
 * named by `$schema`. The registry publishes no package here: the entry has `remotes` only.
 */
import { z } from 'zod';
import { absoluteUrl } from './common.ts';

export const MCP_REGISTRY_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** A DNS label: letters, digits and inner hyphens. */
const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';

export const mcpRegistryServerSchema = z
  .strictObject({
    $schema: z.literal(MCP_REGISTRY_SCHEMA_URL).describe('The registry schema this entry follows.'),
    name: z
      .string()
      .max(200)
      .regex(new RegExp(`^${LABEL}(?:\\.${LABEL})+/[a-zA-Z0-9](?:[a-zA-Z0-9._-]*[a-zA-Z0-9])?$`), 'must be a reverse-DNS namespace, one slash, then the server name')
      .describe('Reverse-DNS namespace of the site\'s host (proved by DNS), a slash, then the server name.'),
    title: z.string().min(1).max(100).describe('Display name.'),
    description: z.string().min(1).max(100).describe('What the server offers, at most 100 characters.'),
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'must be one exact version')
      .describe('The version of this entry: the project\'s version, one exact release.'),
    websiteUrl: absoluteUrl.describe('The proof surface whose tools the server carries.'),
    remotes: z
      .array(z.strictObject({ type: z.literal('streamable-http').describe('MCP Streamable HTTP transport.'), url: absoluteUrl.describe('The MCP endpoint: `{SITE_MCP_URL}/mcp`.') }))
      .length(1)
      .describe('Where the server runs.'),
  })
  .describe('MCP Registry entry of the MCP host (a remote server over Streamable HTTP).');
export type McpRegistryServer = z.infer<typeof mcpRegistryServerSchema>;
