/**
 * Builder of the economic MCP tools manifest from `content/mcp-tools.json`. The MCP server registers
 * its tools from `mcpToolsContent()` too, so the manifest and the server cannot list different tools.
 */
import mcpToolsJson from '../../content/mcp-tools.json' with { type: 'json' };
import { mcpToolsContentSchema, type EconomicMcpTools, type McpTool, type McpToolsContent } from '../../schemas/mcp-tools.ts';
import { mcpUrl, schemaUrl } from '../config/site.ts';
import { bodySchemaOf, routeSchemaUrl, routeUrl } from '../routes/lookup.ts';
import { routeById } from '../routes/table.ts';
import { descriptorHeader, POSTURE } from './common.ts';
import { resolveLink } from './links.ts';

let parsed: McpToolsContent | undefined;

/** The tool list, validated; the single source for this manifest and for the MCP server. */
export function mcpToolsContent(): McpToolsContent {
  parsed ??= mcpToolsContentSchema.parse(mcpToolsJson);
  return parsed;
}

function routeMethod(id: string): 'GET' | 'POST' {
  const route = routeById().get(id);
  if (!route) throw new Error(`content/mcp-tools.json: no route with id "${id}"`);
  return route.method;
}

export function buildMcpToolsManifest(): EconomicMcpTools {
  const content = mcpToolsContent();
  const tools: McpTool[] = content.tools.map(({ input, backed_by, ...tool }) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    ...('inline' in input ? { input_schema: input.inline } : { input_schema_url: routeSchemaUrl(input.request_of) }),
    http_backed_endpoint: backed_by
      ? {
          route_id: backed_by.route,
          method: routeMethod(backed_by.route),
          url: routeUrl(backed_by.route),
          ...(backed_by.fixed_fields ? { fixed_fields: backed_by.fixed_fields } : {}),
          ...(backed_by.note ? { note: backed_by.note } : {}),
        }
      : null,
    read_only: tool.read_only,
    signs_transactions: false,
    payment: tool.payment,
  }));

  const backing = new Map<string, string[]>();
  for (const tool of content.tools) {
    if (!tool.backed_by) continue;
    backing.set(tool.backed_by.route, [...(backing.get(tool.backed_by.route) ?? []), tool.name]);
  }
  const httpBackedEndpoints = [...backing].map(([routeId, toolNames]) => {
    const published = bodySchemaOf(routeById().get(routeId)!);
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
    http_backed_endpoints: httpBackedEndpoints,
    forbidden_assumptions: content.forbidden_assumptions,
    next_steps: content.next_steps.map(({ id, label, link }) => ({ id, label, href: resolveLink(link) })),
  };
}
