/**
 * The economic MCP tools manifest (spec 2.2): the tools the MCP host exposes, the HTTP endpoint
 * behind each, and the runtime boundary (no tool signs, broadcasts or holds a key), plus the argument
 * schemas of the tools that have no HTTP request body of their own. The tool list is code
 * (`src/mcp/tools.ts`): the MCP server registers it and this manifest is generated from it.
 */
import { z } from 'zod';
import { capabilityIdSchema, linkRefSchema } from './agent-common.ts';
import { conversationMessageSchema, paymentToken, quoteRequestSchema } from './assistant.ts';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';
import { DEV_TOOL_ENCODINGS_BY_ACTION, devToolRequestSchema, type DevToolAction } from './dev-tools.ts';
import { jobSchema } from './jobs.ts';

const toolName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be snake_case').describe('Tool name as registered on the MCP host.');

/**
 * A tool's arguments as JSON Schema, exactly as the MCP host lists them in `tools/list` (generated
 * from the same zod schema by the MCP SDK's converter). Open beyond `type` and `properties`, since
 * it is whatever JSON Schema the arguments need.
 */
export const toolInputJsonSchema = z
  .looseObject({
    type: z.literal('object').describe('Tool arguments are an object.'),
    properties: z.record(z.string(), z.unknown()).optional().describe('Arguments by name, each a JSON Schema.'),
    required: z.array(z.string()).optional().describe('Names of the required arguments.'),
  })
  .describe('JSON Schema of the tool arguments, identical to the `inputSchema` the MCP host lists.');
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
    input_schema: toolInputJsonSchema.optional().describe('Inline JSON Schema of the arguments, exactly as `tools/list` shows it, for tools with a few arguments of their own.'),
    input_schema_url: absoluteUrl
      .optional()
      .describe(
        'Published JSON Schema of the arguments, for tools whose arguments are a whole request body of an HTTP endpoint (`tools/list` shows the same schema). Exactly one of `input_schema` and `input_schema_url` is present.',
      ),
    http_backed_endpoint: httpBackedEndpointSchema
      .nullable()
      .describe(
        'The HTTP endpoint that gives the same result to an agent without MCP; null only for tools with no HTTP twin (search over the site’s own pages). The tool itself calls the same function in process, not this endpoint.',
      ),
    read_only: z.boolean().describe('True when the tool changes no state anywhere (MCP `readOnlyHint`).'),
    signs_transactions: z.literal(false).describe('Constant false: no tool signs or broadcasts.'),
    payment: z.enum(['free', 'testnet_note']).describe('`testnet_note`: a premium call needs a payment token from a verified testnet Note payment.'),
  })
  .refine((tool) => (tool.input_schema === undefined) !== (tool.input_schema_url === undefined), 'exactly one of input_schema and input_schema_url')
  .describe('One MCP tool.');
export type McpTool = z.infer<typeof mcpToolSchema>;

export const economicMcpToolsSchema = z
  .object({
    ok: okTrue,
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
    resources: z
      .object({
        static: z
          .array(
            z.object({
              name: z.string().min(1).describe('Resource name: the route id, or the schema file name.'),
              uri: absoluteUrl.describe('The public URL; `resources/read` answers the bytes served there.'),
              mime_type: z.string().min(1).describe('Media type of the contents.'),
            }),
          )
          .min(1)
          .describe('Every static document the site serves (descriptors, the OpenAPI document, llms.txt) and every published JSON Schema.'),
        templates: z
          .array(
            z.object({
              name: z.string().min(1).describe('Template name.'),
              uri_template: z.string().min(1).describe('RFC 6570 URI template.'),
              description: z.string().describe('What a resource of the template holds.'),
              mime_type: z.string().min(1).describe('Media type of the contents.'),
            }),
          )
          .describe('Resource templates: a job of the board and a receipt, by id.'),
        live: z
          .array(
            z.object({
              name: z.string().min(1),
              uri: absoluteUrl,
              description: z.string(),
              mime_type: z.string().min(1),
            }),
          )
          .describe('Resources read when asked: the receipt log\'s newest checkpoint.'),
      })
      .describe('The resources the MCP server lists (`resources/list`, `resources/templates/list`) and reads (`resources/read`).'),
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

/** `content/mcp-tools.json`: the manifest's prose. The tools themselves are code (`src/mcp/tools.ts`). */
export const mcpToolsContentSchema = z.strictObject({
  description: z.string(),
  connect_rule: z.string(),
  runtime_statement: z.string(),
  forbidden_assumptions: z.array(z.strictObject({ id: z.string(), assumption: z.string(), why: z.string() })),
  next_steps: z.array(z.strictObject({ id: z.string(), label: z.string(), link: linkRefSchema })),
});
export type McpToolsContent = z.infer<typeof mcpToolsContentSchema>;

// ---------------------------------------------------------------------------------------------
// Tool arguments (tools whose arguments are a whole request body reuse that body's schema)
// ---------------------------------------------------------------------------------------------

export const SEARCH_DOCS_MAX_RESULTS = 20;

export const searchDocsArgumentsSchema = z
  .strictObject({
    query: z.string().trim().min(1).max(200).describe('Words to search for in this site’s pages and descriptors.'),
    limit: z.int().min(1).max(SEARCH_DOCS_MAX_RESULTS).default(5).describe(`Most results to return, 1 to ${SEARCH_DOCS_MAX_RESULTS}; 5 when omitted.`),
  })
  .describe('Arguments of search_docs.');

export const searchDocsResultSchema = z
  .object({
    query: z.string().describe('The query as searched.'),
    results: z
      .array(
        z.object({
          title: z.string().describe('Page title.'),
          url: absoluteUrl.describe('Where the page lives.'),
          excerpt: z.string().describe('The passage of the page that matched best.'),
          score: z.number().min(0).describe('Relevance (BM25), higher is better; comparable within one answer only.'),
        }),
      )
      .describe('Best matches first; empty when nothing matched.'),
  })
  .describe('Result of search_docs.');
export type SearchDocsResult = z.infer<typeof searchDocsResultSchema>;

export const listJobsArgumentsSchema = z
  .strictObject({
    status: jobSchema.shape.status.optional().describe('Only jobs with this status.'),
    capability: capabilityIdSchema.optional().describe('Only jobs that require this capability id.'),
  })
  .describe('Arguments of list_jobs; both filters optional.');

export const getJobArgumentsSchema = z.strictObject({ job_id: jobSchema.shape.id }).describe('Arguments of get_job.');

export const listServicesArgumentsSchema = z
  .strictObject({ capability: capabilityIdSchema.optional().describe('Only services that offer this capability id.') })
  .describe('Arguments of list_services.');

/**
 * Arguments of one developer-tool action: the request body of `POST /api/dev/tools` without
 * `action` (the tool fixes it), and `encoding` only where the action accepts more than one.
 */
export function devToolArgumentsSchema(action: DevToolAction) {
  const { input, network } = devToolRequestSchema.shape;
  const encodings = DEV_TOOL_ENCODINGS_BY_ACTION[action];
  return encodings.length > 1
    ? z
        .strictObject({
          input,
          encoding: z
            .enum(encodings as [string, ...string[]])
            .default('utf8')
            .describe(`How to read \`input\`: ${encodings.map((encoding) => `\`${encoding}\``).join(' or ')}; \`utf8\` when omitted.`),
          network,
        })
        .describe(`Arguments of dev_${action}.`)
    : z.strictObject({ input, network }).describe(`Arguments of dev_${action}.`);
}

export const getReceiptArgumentsSchema = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(128)
      .describe('Receipt id (64 hex) or settlement transaction id of a stored receipt.'),
  })
  .describe('Arguments of get_receipt.');

export const checkReceiptInclusionArgumentsSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be a receipt id: 64 hexadecimal characters')
      .describe('Receipt id of a stored receipt.'),
    proof: z
      .string()
      .min(1)
      .max(16_384)
      .optional()
      .describe('A c2sp.org/tlog-proof@v1 text to check (as GET /api/assistant/receipt/{id}/proof serves it); absent, the site\'s current proof is checked.'),
    witnesses: z
      .array(z.string().min(1).max(512))
      .min(1)
      .max(16)
      .optional()
      .describe('Verifier keys (type 0x04, c2sp.org/tlog-cosignature) of witnesses you trust: the proof\'s checkpoint must carry a valid cosignature by at least `quorum` of them.'),
    quorum: z.int().min(1).max(16).optional().describe('How many of `witnesses` must have cosigned (default: all of them).'),
  })
  .describe('Arguments of check_receipt_inclusion.');

export const askAssistantArgumentsSchema = z
  .strictObject({
    question: quoteRequestSchema.shape.question,
    history: z.array(conversationMessageSchema).optional().describe('Earlier turns, oldest first; part of the task hash of a premium quote.'),
    paymentToken: paymentToken
      .optional()
      .describe('Single-use token from verify-payment for a premium question, bound to the quoted question; omit for a free-tier question.'),
  })
  .describe('Arguments of ask_assistant.');

export const liveStatusArgumentsSchema = z.strictObject({}).describe('live_status takes no arguments.');
