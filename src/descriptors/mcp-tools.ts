/**
 * Builder of the economic MCP tools manifest. The tools come from `MCP_TOOL_ENTRIES` (`src/catalogue/mcp-tools.ts`),
 * the list the MCP server registers, and each tool's `input_schema` is produced by the MCP SDK's own
 * converter from the same zod schema, so the manifest shows exactly what `tools/list` answers. The
 * prose around the tools is `content/mcp-tools.json`.
 */
import { z } from 'zod';
import mcpToolsJson from '../../content/mcp-tools.json' with { type: 'json' };
import { mcpToolsContentSchema, type EconomicMcpTools, type McpTool, type McpToolsContent, type ToolInputJsonSchema } from '../../schemas/mcp-tools.ts';
import { mcpUrl, schemaUrl } from '../config/site.ts';
import { mcpLiveResources, mcpResourceTemplates, mcpStaticResources } from '../catalogue/mcp-resources.ts';
import { MCP_TOOL_ENTRIES, type McpToolEntry } from '../catalogue/mcp-tools.ts';
import { bodySchemaOf, routeSchemaUrl, routeUrl } from '../catalogue/lookup.ts';
import { entryById } from '../catalogue/index.ts';
import { descriptorHeader, POSTURE } from './common.ts';
import { resolveLink } from './links.ts';

let parsed: McpToolsContent | undefined;

/** The manifest's prose, validated. */
export function mcpToolsContent(): McpToolsContent {
  parsed ??= mcpToolsContentSchema.parse(mcpToolsJson);
  return parsed;
}

function routeMethod(id: string): 'GET' | 'POST' {
  const route = entryById().get(id);
  if (!route) throw new Error(`src/mcp/tools.ts: no route with id "${id}"`);
  return route.method;
}

/**
 * The JSON Schema `tools/list` shows for a tool's arguments: the SDK's conversion with the options
 * its McpServer uses when listing tools.
 */
export function toolInputJsonSchema(tool: McpToolEntry): ToolInputJsonSchema {
  // What the MCP SDK serves in tools/list for a zod 4 schema (its toJsonSchemaCompat calls this very function), without loading the SDK in the site's process.
  return z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }) as ToolInputJsonSchema;
}

/**
 * A tool that takes a whole request body must take exactly the schema that route validates, or the
 * published schema it links would describe other arguments than the tool accepts.
 */
function requestSchemaUrl(tool: McpToolEntry): string | undefined {
  if (!tool.requestOf) return undefined;
  const route = entryById().get(tool.requestOf);
  if (!route || route.kind !== 'dynamic' || route.request?.schema !== tool.input) {
    throw new Error(`src/mcp/tools.ts: tool ${tool.name} says its arguments are the request body of "${tool.requestOf}", but that route validates another schema`);
  }
  return routeSchemaUrl(tool.requestOf);
}

export function buildMcpToolsManifest(): EconomicMcpTools {
  const content = mcpToolsContent();
  const names = new Set<string>();
  const tools: McpTool[] = MCP_TOOL_ENTRIES.map((tool) => {
    if (names.has(tool.name)) throw new Error(`src/mcp/tools.ts: duplicate tool name ${tool.name}`);
    names.add(tool.name);
    const inputSchemaUrl = requestSchemaUrl(tool);
    return {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      // A request body's schema is published once, at its URL; descriptors carry no schema bodies.
      ...(inputSchemaUrl ? { input_schema_url: inputSchemaUrl } : { input_schema: toolInputJsonSchema(tool) }),
      http_backed_endpoint: tool.backedBy
        ? {
            route_id: tool.backedBy.route,
            method: routeMethod(tool.backedBy.route),
            url: routeUrl(tool.backedBy.route),
            ...(tool.backedBy.fixedFields ? { fixed_fields: tool.backedBy.fixedFields } : {}),
            ...(tool.backedBy.note ? { note: tool.backedBy.note } : {}),
          }
        : null,
      read_only: tool.readOnly,
      signs_transactions: false,
      payment: tool.payment,
    };
  });

  const backing = new Map<string, string[]>();
  for (const tool of MCP_TOOL_ENTRIES) {
    if (!tool.backedBy) continue;
    backing.set(tool.backedBy.route, [...(backing.get(tool.backedBy.route) ?? []), tool.name]);
  }
  const httpBackedEndpoints = [...backing].map(([routeId, toolNames]) => {
    const published = bodySchemaOf(entryById().get(routeId)!);
    return {
      route_id: routeId,
      method: routeMethod(routeId),
      url: routeUrl(routeId),
      ...(published ? { schema: schemaUrl(published.file) } : {}),
      tools: toolNames,
    };
  });

  return {
    ok: true,
    ...descriptorHeader('agent_economy.economic_mcp_tools.v0'),
    description: content.description,
    posture: POSTURE,
    mcp: {
      endpoint: mcpUrl('/mcp'),
      health: mcpUrl('/health'),
      transport: 'streamable_http',
      health_fields: ['ok', 'service', 'version'],
      connect_rule: content.connect_rule,
    },
    runtime_boundary: {
      mcp_tools_sign_transactions: false,
      mcp_tools_broadcast_transactions: false,
      mcp_tools_hold_private_keys: false,
      wallet_authority: 'host_application',
      statement: content.runtime_statement,
    },
    tools,
    resources: {
      static: mcpStaticResources().map((resource) => ({ name: resource.name, uri: resource.uri, mime_type: resource.mimeType })),
      templates: mcpResourceTemplates().map((template) => ({ name: template.name, uri_template: template.uriTemplate, description: template.description, mime_type: template.mimeType })),
      live: mcpLiveResources().map((resource) => ({ name: resource.name, uri: resource.uri, description: resource.description, mime_type: resource.mimeType })),
    },
    http_backed_endpoints: httpBackedEndpoints,
    forbidden_assumptions: content.forbidden_assumptions,
    next_steps: content.next_steps.map(({ id, label, link }) => ({ id, label, href: resolveLink(link) })),
  };
}
