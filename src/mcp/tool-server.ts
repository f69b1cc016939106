/**
 * The MCP server of one session: every tool of `MCP_TOOLS` (the list the tools manifest is
 * generated from), every resource and every prompt (src/mcp/prompts.ts), each tool answered with its structured result and that
 * result's JSON text, or with a tool error that names the field.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../package.json' with { type: 'json' };
import { site } from '../config/site.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { logger } from '../services/logger.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { MCP_TOOLS, PaymentRequiredToolError, SettledToolResult, ToolError, toolErrorOf, type McpToolDefinition, type ToolContext } from './tools.ts';

export const MCP_SERVICE_NAME = 'agent-economy-mcp';
export const MCP_SERVICE_VERSION = packageJson.version;

const INSTRUCTIONS =
  `Tools of ${site.name} on the Ergo testnet: search its pages, read jobs and services, check a wallet action against a policy, validate what an agent publishes, ` +
  'inspect hashes, addresses, boxes, transactions and receipts, ask the hosted assistant and read live status. No tool signs, broadcasts or holds a key; ' +
  'an allow verdict is advice to the host wallet, never authority. Nothing here is ready for mainnet.';

/** The structured result and its JSON text, as the MCP specification asks tools to return both. */
function toolSuccess(result: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result };
}

/** x402's MCP convention: an error result whose structured content is the PaymentRequired, and whose text is the same JSON. */
function paymentRequired(error: PaymentRequiredToolError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(error.paymentRequired) }], structuredContent: error.paymentRequired };
}

function toolFailure(error: ToolError): CallToolResult {
  const structured = { error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) } };
  return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }], structuredContent: structured };
}

/** Runs one tool; anything but a ToolError or ProblemError is a bug, logged and answered without internals. */
export async function callTool(tool: McpToolDefinition, args: unknown, context: ToolContext): Promise<CallToolResult> {
  try {
    const result = await tool.run(args, context);
    if (result instanceof SettledToolResult) return { ...toolSuccess(result.result), _meta: { 'x402/payment-response': result.settlement } };
    return toolSuccess(result);
  } catch (error) {
    if (error instanceof PaymentRequiredToolError) return paymentRequired(error);
    if (error instanceof ToolError) return toolFailure(error);
    if (error instanceof ProblemError) return toolFailure(toolErrorOf(error));
    logger.error({ err: error, tool: tool.name }, 'tool failed');
    return toolFailure(new ToolError('internal_error', `${tool.name} failed on the server; the failure has been logged.`));
  }
}

/** One McpServer with every tool of MCP_TOOLS, every resource and every prompt, for one session. */
export function createToolServer(context: ToolContext): McpServer {
  const server = new McpServer({ name: MCP_SERVICE_NAME, title: site.name, version: MCP_SERVICE_VERSION }, { instructions: INSTRUCTIONS });
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: false, idempotentHint: tool.readOnly },
      },
      (args: unknown, extra: { _meta?: Record<string, unknown> }) => callTool(tool, args, { ...context, payment: extra._meta?.['x402/payment'] }),
    );
  }
  registerResources(server, context);
  registerPrompts(server);
  return server;
}
