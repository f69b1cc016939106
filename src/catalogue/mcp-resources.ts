/**
 * The MCP resources, as data: every static document the site serves (descriptors, the OpenAPI
 * document, llms.txt) and every published JSON Schema, each under its public URL; the receipt log's
 * newest checkpoint, read when asked; and the two resource templates (a job of the board, a receipt by id). The MCP server (src/mcp/resources.ts)
 * reads the same bytes the site serves; the MCP tools manifest names them.
 */
import { schemaUrl, siteUrl } from '../config/site.ts';
import { catalogue } from './index.ts';
import { routeUrl } from './lookup.ts';
import { publishedSchemas } from './schemas-index.ts';

export interface McpStaticResource {
  /** Resource name: the route id, or the schema's file name. */
  name: string;
  uri: string;
  title: string;
  description: string;
  mimeType: string;
  /** URL path whose served body the resource is. */
  path: string;
}

export interface McpResourceTemplate {
  name: 'job' | 'receipt';
  uriTemplate: string;
  title: string;
  description: string;
  mimeType: 'application/json';
}

/** One resource per served document; mirrors (byte-identical twins at other paths) are left out. */
export function mcpStaticResources(): McpStaticResource[] {
  const descriptors = catalogue()
    .filter((entry) => entry.kind === 'static' && entry.host !== 'mcp' && !entry.mirrorOf)
    .map((entry) => ({
      name: entry.id,
      uri: routeUrl(entry.id),
      title: entry.summary,
      description: entry.description,
      mimeType: entry.kind === 'static' && entry.contentType ? entry.contentType.split(';')[0]!.trim() : 'application/json',
      path: entry.path,
    }));
  const schemas = publishedSchemas().map((published) => ({
    name: published.file,
    uri: schemaUrl(published.file),
    title: `${published.title} (JSON Schema)`,
    description: `JSON Schema 2020-12 of the ${published.title.toLowerCase()}.`,
    mimeType: 'application/json',
    path: `/agent-economy/${published.file}`,
  }));
  return [...descriptors, ...schemas];
}

/** Resources read from the service when asked (not a static document): the receipt log's newest checkpoint. */
export function mcpLiveResources(): Array<Omit<McpStaticResource, 'path'>> {
  return [
    {
      name: 'receipt-log-checkpoint',
      uri: routeUrl('receipt-log-checkpoint'),
      title: 'Receipt log checkpoint',
      description: 'The receipt transparency log\'s newest signed checkpoint (c2sp.org/tlog-checkpoint as a signed note): origin, tree size, root hash and the log\'s Ed25519 signature, as GET /api/transparency/receipts/checkpoint serves it.',
      mimeType: 'text/plain',
    },
  ];
}

export function mcpResourceTemplates(): McpResourceTemplate[] {
  return [
    {
      name: 'job',
      uriTemplate: siteUrl('/jobs/{job_id}/'),
      title: 'A job of the board',
      description: 'One job of the jobs board by id, as JSON: reward, acceptance predicates, receipt requirements and deadline (the data of its page).',
      mimeType: 'application/json',
    },
    {
      name: 'receipt',
      uriTemplate: routeUrl('assistant-receipt'),
      title: 'A receipt by id',
      description: 'A stored receipt by receipt id or settlement transaction id, as the receipt endpoint answers it.',
      mimeType: 'application/json',
    },
  ];
}
