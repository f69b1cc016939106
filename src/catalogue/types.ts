/**
 * What one entry of the route catalogue says: what the API is (id, method, path, schemas, words,
 * page), never how it answers. The catalogue drives the OpenAPI document, the descriptors, the
 * pages and the discovery lists; the route table binds each entry to its handler or builder.
 */
import type { z } from 'zod';

/** A schema document served at `{schema_base}/agent-economy/<file>`. */
export interface PublishedSchema {
  file: string;
  /** Component name in the OpenAPI document. */
  name: string;
  title: string;
  schema: z.ZodType;
  /** `input` for request bodies (what a client may send), `output` for response bodies. */
  io: 'input' | 'output';
}

export type Tag = 'Discovery' | 'Jobs' | 'Live proof' | 'Developer' | 'Trust' | 'Wallet agent' | 'Assistant' | 'MCP';

interface EntryCommon {
  id: string;
  path: string;
  summary: string;
  description: string;
  tag: Tag;
  /** Which host serves it; `mcp` routes live on the MCP host, not this server. */
  host?: 'site' | 'mcp';
  /** Path of the human page that shows the same data. */
  page?: string;
}

export interface ResponseDoc {
  description: string;
  /** A published schema for a 2xx body; problem responses share the Problem schema. */
  schema?: PublishedSchema;
  /** Extra headers documented for this response (name -> description). */
  headers?: Record<string, string>;
  /** Media type of a 2xx body that is not JSON (an SVG picture); its body is text of that type. */
  contentType?: string;
  /** The OpenAPI component this answer is written once under when several operations give it. */
  name?: string;
}

/** A GET whose body is known at build time: written to `dist/client` and served from memory. */
export interface StaticEntry extends EntryCommon {
  kind: 'static';
  method: 'GET';
  /** Published schema of the body; only the OpenAPI document itself has none (the OAS 3.1 schema governs it). */
  schema?: PublishedSchema;
  /** Serve the byte-identical body of another static route (well-known mirrors). */
  mirrorOf?: string;
  /** Add `Link: <schema>; rel="describedby"`. */
  describedBy?: boolean;
  /** Media type of the served file; JSON by default. */
  contentType?: string;
  /** Written without indentation: a document for tools, where whitespace would be most of its size. JSON is indented by default. */
  compact?: boolean;
}

/** A route answered per request by its handler. */
export interface DynamicEntry extends EntryCommon {
  kind: 'dynamic';
  method: 'GET' | 'POST';
  request?: PublishedSchema;
  /**
   * The handler receives the parsed JSON body unvalidated and checks it against `request` itself,
   * because its 400 is the same result document as its 200 (publish, job acceptance, job quote),
   * not a problem. `request` still documents the body. Content type, size and JSON syntax stay with
   * the shared reader (415/413/400 problems).
   */
  validatesOwnBody?: true;
  /** Optional request headers the route reads (name -> what it carries and its pattern). */
  requestHeaders?: Record<string, { description: string; pattern?: string }>;
  /** The query parameters the route reads, each a field of this object (its handler parses the query with it). */
  query?: z.ZodObject;
  /** JSON-RPC 2.0: a readable body is always answered 200, a refusal being a JSON-RPC `error` in it (the A2A endpoint). */
  protocol?: 'json-rpc';
  /**
   * The media types a body may be sent as, beside `application/json` (the shared reader takes any
   * `application/*+json`; these are the ones the route's protocol names, such as `application/a2a+json`).
   */
  requestMediaTypes?: readonly string[];
  /**
   * An optional HTTP bearer credential the route reads (never required to call it): its scheme name
   * in the OpenAPI document and what it proves.
   */
  optionalBearer?: { scheme: string; description: string };
  responses: Record<number, ResponseDoc>;
}

export type Entry = StaticEntry | DynamicEntry;
