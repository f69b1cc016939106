/**
 * The economic MCP tools manifest (spec 2.2): the tools the MCP host exposes, the HTTP endpoint
 * behind each, and the runtime boundary (no tool signs, broadcasts or holds a key). The tool list
 * lives in `content/mcp-tools.json` so the MCP server registers exactly what this manifest publishes.
 */
import { z } from 'zod';
import { linkRefSchema } from './agent-common.ts';
import { absoluteUrl, descriptorStatus, isoDate, postureSchema, typeLiteral, versionV0 } from './common.ts';

const toolName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be snake_case').describe('Tool name as registered on the MCP host.');

/** One argument of an inline tool input schema (a small JSON Schema subset the MCP server can register). */
export const toolInputPropertySchema = z
  .object({
    type: z.enum(['string', 'integer', 'boolean']).describe('JSON type of the argument.'),
    description: z.string().describe('What the argument is.'),
    enum: z.array(z.string()).optional().describe('Allowed values.'),
    minLength: z.int().min(0).optional().describe('Minimum length of a string.'),
    maxLength: z.int().min(1).optional().describe('Maximum length of a string.'),
    pattern: z.string().optional().describe('Regular expression a string must match.'),
    minimum: z.int().optional().describe('Minimum of an integer.'),
    maximum: z.int().optional().describe('Maximum of an integer.'),
  })
  .describe('JSON Schema of one tool argument.');

export const toolInputJsonSchema = z
  .object({
    type: z.literal('object').describe('Tool arguments are an object.'),
    properties: z.record(z.string(), toolInputPropertySchema).describe('Arguments by name.'),
    required: z.array(z.string()).describe('Names of the required arguments.'),
    additionalProperties: z.literal(false).describe('Unknown arguments are rejected.'),
  })
  .describe('Inline JSON Schema of the tool arguments.');
export type ToolInputJsonSchema = z.infer<typeof toolInputJsonSchema>;

export const httpBackedEndpointSchema = z
  .object({
    route_id: z.string().describe('Route id in the OpenAPI document.'),
    method: z.enum(['GET', 'POST']).describe('HTTP method.'),
    url: z.string().describe('Absolute URL; `{id}` marks a path parameter.'),
    fixed_fields: z
      .record(z.string(), z.string())
      .optional()
      .describe('Body fields the tool sets itself (for example `action` of the developer tools); the arguments supply the rest.'),
    note: z.string().optional().describe('How the tool maps its arguments onto the call.'),
  })
  .describe('The HTTP endpoint the tool calls.');

export const mcpToolSchema = z
  .object({
    name: toolName,
    title: z.string().describe('Human title.'),
    description: z.string().describe('What the tool does and returns.'),
    input_schema: toolInputJsonSchema.optional().describe('Inline JSON Schema of the arguments, for tools with a few arguments.'),
    input_schema_url: absoluteUrl
      .optional()
      .describe('Published JSON Schema of the arguments, for tools whose arguments are a whole request body. Exactly one of `input_schema` and `input_schema_url` is present.'),
    http_backed_endpoint: httpBackedEndpointSchema
      .nullable()
      .describe('The HTTP endpoint behind the tool; null only for tools that run inside the MCP server (search over the site’s own pages).'),
    read_only: z.boolean().describe('True when the tool changes no state anywhere (MCP `readOnlyHint`).'),
    signs_transactions: z.literal(false).describe('Constant false: no tool signs or broadcasts.'),
    payment: z.enum(['free', 'testnet_note']).describe('`testnet_note`: a premium call needs a payment token from a verified testnet Note payment.'),
  })
  .refine((tool) => (tool.input_schema === undefined) !== (tool.input_schema_url === undefined), 'exactly one of input_schema and input_schema_url')
  .describe('One MCP tool.');
export type McpTool = z.infer<typeof mcpToolSchema>;

export const economicMcpToolsSchema = z
  .object({
    ok: z.literal(true).describe('Constant true.'),
    type: typeLiteral('agent_economy.economic_mcp_tools.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    description: z.string().describe('What the tools are for.'),
    posture: postureSchema,
    mcp: z
      .object({
        endpoint: absoluteUrl.describe('Streamable HTTP endpoint of the MCP server (`/mcp` on the MCP host).'),
        health: absoluteUrl.describe('Health endpoint of the MCP host; check it before connecting.'),
        transport: z.literal('streamable_http').describe('MCP transport.'),
        health_fields: z.array(z.string()).min(1).describe('Fields of the health body a client checks.'),
        connect_rule: z.string().describe('When a client may connect.'),
      })
      .describe('Where the MCP server lives.'),
    runtime_boundary: z
      .object({
        mcp_tools_sign_transactions: z.literal(false).describe('Constant false: no tool signs a transaction.'),
        mcp_tools_broadcast_transactions: z.literal(false).describe('Constant false: no tool broadcasts a transaction.'),
        mcp_tools_hold_private_keys: z.literal(false).describe('Constant false: no tool receives or stores a key or seed phrase.'),
        wallet_authority: z.literal('host_application').describe('Signing authority stays with the host application’s wallet.'),
        statement: z.string().describe('The boundary in words.'),
      })
      .describe('What the tools can never do.'),
    tools: z.array(mcpToolSchema).min(1).describe('The tools.'),
    http_backed_endpoints: z
      .array(
        z.object({
          route_id: z.string().describe('Route id.'),
          method: z.enum(['GET', 'POST']).describe('HTTP method.'),
          url: z.string().describe('Absolute URL; `{id}` marks a path parameter.'),
          schema: absoluteUrl.optional().describe('Published JSON Schema of the body (request body for POST).'),
          tools: z.array(toolName).min(1).describe('Tools that call it.'),
        }),
      )
      .describe('Every HTTP endpoint behind a tool; an agent without MCP calls these directly for the same results.'),
    forbidden_assumptions: z
      .array(
        z.object({
          id: z.string().describe('Stable id.'),
          assumption: z.string().describe('What a client must not assume.'),
          why: z.string().describe('What is true instead.'),
        }),
      )
      .min(1)
      .describe('Assumptions a client must not make about these tools.'),
    next_steps: z
      .array(z.object({ id: z.string().describe('Stable id.'), label: z.string().describe('What to do.'), href: absoluteUrl.describe('Where.') }))
      .min(1)
      .describe('What to do after reading the manifest.'),
  })
  .describe('Economic MCP tools manifest: the tools, their HTTP-backed endpoints and their runtime boundary.');
export type EconomicMcpTools = z.infer<typeof economicMcpToolsSchema>;

/** `content/mcp-tools.json`, read by this manifest's builder and by the MCP server. */
export const mcpToolsContentSchema = z.strictObject({
  description: z.string(),
  connect_rule: z.string(),
  runtime_statement: z.string(),
  tools: z.array(
    z.strictObject({
      name: toolName,
      title: z.string(),
      description: z.string(),
      input: z.union([
        z.strictObject({ request_of: z.string().describe('Route id whose request body is the argument object.') }),
        z.strictObject({ inline: toolInputJsonSchema }),
      ]),
      backed_by: z
        .strictObject({ route: z.string(), fixed_fields: z.record(z.string(), z.string()).optional(), note: z.string().optional() })
        .nullable(),
      read_only: z.boolean(),
      payment: z.enum(['free', 'testnet_note']),
    }),
  ),
  forbidden_assumptions: z.array(z.strictObject({ id: z.string(), assumption: z.string(), why: z.string() })),
  next_steps: z.array(z.strictObject({ id: z.string(), label: z.string(), link: linkRefSchema })),
});
export type McpToolsContent = z.infer<typeof mcpToolsContentSchema>;
