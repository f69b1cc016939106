/**
 * The MCP resources the server lists and reads (src/catalogue/mcp-resources.ts says which): a
 * static document answers exactly the bytes the site serves at its URL, the receipt log's checkpoint
 * the newest signed one, a job the board's entry, a receipt what the receipt endpoint answers. An unknown job or receipt is the MCP "resource not
 * found" error (-32002), naming the id.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { staticDocuments } from '../build/static-documents.ts';
import { mcpLiveResources, mcpResourceTemplates, mcpStaticResources } from '../catalogue/mcp-resources.ts';
import { siteUrl } from '../config/site.ts';
import { boardJobs } from '../descriptors/jobs.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { createReceiptHandler } from '../routes/assistant/records.ts';
import { bodyValue } from '../lib/api.ts';
import type { ToolContext } from './tools.ts';

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

const json = (uri: URL, value: unknown) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] });
const variable = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));

/** The served bodies by path, made once per process: every session lists the same documents. */
let bodies: Map<string, string> | undefined;

export function registerResources(server: McpServer, context: ToolContext): void {
  bodies ??= new Map(staticDocuments().map((document) => [document.path, document.body]));
  for (const resource of mcpStaticResources()) {
    server.registerResource(resource.name, resource.uri, { title: resource.title, description: resource.description, mimeType: resource.mimeType }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: resource.mimeType, text: bodies!.get(resource.path)! }],
    }));
  }
  const [checkpoint] = mcpLiveResources();
  server.registerResource(checkpoint!.name, checkpoint!.uri, { title: checkpoint!.title, description: checkpoint!.description, mimeType: checkpoint!.mimeType }, async (uri) => {
    const signed = await (await context.services.receiptLog()).checkpoint();
    if (!signed) throw new McpError(RESOURCE_NOT_FOUND, 'the receipt log has not signed a checkpoint yet; read it again in a few seconds', { uri: uri.href });
    return { contents: [{ uri: uri.href, mimeType: checkpoint!.mimeType, text: signed.note }] };
  });
  const [job, receipt] = mcpResourceTemplates();
  server.registerResource(
    job!.name,
    new ResourceTemplate(job!.uriTemplate, {
      list: () => ({ resources: boardJobs().map((entry) => ({ uri: siteUrl(`/jobs/${entry.id}/`), name: entry.id, title: entry.title, mimeType: 'application/json' })) }),
    }),
    { title: job!.title, description: job!.description, mimeType: job!.mimeType },
    (uri, variables) => {
      const id = variable(variables.job_id);
      const found = boardJobs().find((candidate) => candidate.id === id);
      if (!found) throw new McpError(RESOURCE_NOT_FOUND, `no job "${id}" on the board; list the resources or call list_jobs for the ids`, { uri: uri.href });
      return json(uri, found);
    },
  );
  server.registerResource(
    receipt!.name,
    // Receipts are not listed: there is one per paid turn, read them by id.
    new ResourceTemplate(receipt!.uriTemplate, { list: undefined }),
    { title: receipt!.title, description: receipt!.description, mimeType: receipt!.mimeType },
    async (uri, variables) => {
      const id = variable(variables.id);
      const handler = createReceiptHandler(await context.services.assistant());
      try {
        const answer = await handler({ method: 'GET', path: uri.pathname, params: { id }, query: new URLSearchParams(), headers: {}, body: undefined, clientIp: context.clientIp });
        return json(uri, bodyValue(answer.body));
      } catch (error) {
        if (error instanceof ProblemError && error.status === 404) throw new McpError(RESOURCE_NOT_FOUND, `no receipt "${id}": ${error.message}`, { uri: uri.href });
        throw error;
      }
    },
  );
}
