/**
 * The MCP host (`npm run mcp`): an `@modelcontextprotocol/sdk` McpServer per session over Streamable
 * HTTP at `/mcp`, `GET /health` -> {ok, service, version}, which clients check before connecting, and
 * `GET /openapi.json`, this host's own OpenAPI description.
 * Each session gets its own McpServer (tool-server.ts). Every request passes the
 * DNS rebinding checks the MCP specification asks for (`Host` against allowed host names, a browser's
 * `Origin` against allowed origins) and, when `MCP_API_KEY` is set, a bearer token check on `/mcp`;
 * sessions are capped in all (`MCP_MAX_SESSIONS`, the one idle longest making room) and per client
 * address (`MCP_MAX_SESSIONS_PER_CLIENT`, that client's own idle longest making room; sessions.ts) and closed after MCP_SESSION_IDLE_MS without
 * use. Slow clients meet the site's timeouts (lib/server-limits.ts), connections are capped
 * (`MCP_MAX_CONNECTIONS`), and a JSON-RPC batch carries at most MCP_MAX_BATCH_MESSAGES messages.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { localOrigin, mcpOriginMismatch, readBuildOrigin } from '../config/build-origin.ts';
import { checkConfigurationAtStart } from '../config/check-at-start.ts';
import { loadMcpConfig, MCP_MAX_BATCH_MESSAGES, MCP_MAX_BODY_BYTES, MCP_SESSION_IDLE_MS, type McpConfig } from '../config/mcp.ts';
import { loadServerConfig, type ServerConfig } from '../config/server.ts';
import { mcpUrl, site } from '../config/site.ts';
import { listen } from '../lib/listen.ts';
import { answerClientError, clientTimeoutOptions } from '../lib/server-limits.ts';
import { useCorpus } from '../services/docs-index.ts';
import { flushLogs, logger } from '../services/logger.ts';
import { servedAnswerIndex, servedDocuments } from '../build/site-documents.ts';
import { useAnswerIndex } from '../services/answer-index.ts';
import { buildMcpHostOpenApiDocument } from '../descriptors/openapi.ts';
import { createMcpToolServices } from './services.ts';
import { clientKey, SessionTable, type Session } from './sessions.ts';
import { createToolServer, MCP_SERVICE_NAME, MCP_SERVICE_VERSION } from './tool-server.ts';
import { MCP_TOOLS, type ToolContext, type ToolServices } from './tools.ts';

interface HostSession extends Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

/** A JSON answer outside the MCP transport; JSON-RPC shaped on `/mcp`, as clients there expect. */
function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * The body, or why there is none: too large, or abandoned (the client left, or the request timeout
 * cut it off and answered 408), which is nobody's error and leaves nobody to answer.
 */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | 'too_large' | 'abandoned'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve('too_large');
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', () => resolve('abandoned'));
  });
}

/**
 * Why a JSON-RPC batch is refused, or undefined when it may go on. Batches are part of protocol
 * version 2025-03-26 only (2025-06-18 removed them), yet the SDK answers them in every version, up
 * to 100 messages, each answered in full: the amplification of issue 36.
 */
function batchRefusal(batch: unknown[], protocolVersion: string | undefined): string | undefined {
  if (protocolVersion !== undefined && protocolVersion >= '2025-06-18') {
    return `Invalid Request: JSON-RPC batches are not part of MCP protocol version ${protocolVersion} (removed in 2025-06-18); send one message per request.`;
  }
  if (batch.length > MCP_MAX_BATCH_MESSAGES) {
    return `Invalid Request: a JSON-RPC batch may carry at most ${MCP_MAX_BATCH_MESSAGES} messages here (this one has ${batch.length}); split it or send one message per request.`;
  }
  return undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Hashing both sides first makes the comparison constant-time whatever the lengths. */
function bearerMatches(header: string | undefined, apiKey: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(apiKey));
}

/** The host name of a `Host` header, port-agnostic, IPv6 in brackets; undefined when malformed. */
function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

const CORS_ALLOW_HEADERS = 'content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id';
const CORS_EXPOSE_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';

export interface McpHost {
  server: http.Server;
  /** Open sessions right now. */
  sessionCount: () => number;
  close: () => Promise<void>;
}

/**
 * Starts the MCP host; resolves once it listens. `services` are the outside parts its tools use;
 * `limits` are the site's slow-client timeouts, which bound this host's clients too.
 */
export async function startMcpServer(config: McpConfig, services: ToolServices, limits: ServerConfig = loadServerConfig()): Promise<McpHost> {
  // search_docs reads the documents the site serves.
  useCorpus(servedDocuments);
  useAnswerIndex(servedAnswerIndex);
  /** This host's own OpenAPI description, made on its first request. */
  let description: ReturnType<typeof buildMcpHostOpenApiDocument> | undefined;
  const sessions = new SessionTable<HostSession>({ maxSessions: config.maxSessions, maxPerClient: config.maxSessionsPerClient });
  const health = { ok: true, service: MCP_SERVICE_NAME, version: MCP_SERVICE_VERSION };

  async function closeSession(id: string): Promise<void> {
    const session = sessions.delete(id);
    if (session) await closeTransport(session);
  }

  async function closeTransport(session: HostSession): Promise<void> {
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  }

  /** A transport whose session, once the SDK has accepted its initialize request, is `client`'s; `makeRoom` runs just before. */
  async function newSession(req: http.IncomingMessage, client: string, makeRoom: () => void): Promise<StreamableHTTPServerTransport> {
    const context: ToolContext = { clientIp: req.socket.remoteAddress ?? 'unknown', now: () => new Date(), services };
    const server = createToolServer(context);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MCP_MAX_BODY_BYTES,
      onsessioninitialized: (id) => {
        makeRoom();
        sessions.add(id, { transport, server, client, lastUsed: Date.now(), calls: 1, open: 1 });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  }

  async function handleMcp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (config.apiKey && !bearerMatches(req.headers.authorization, config.apiKey)) {
      return sendJson(res, 401, rpcError(-32001, 'Unauthorized: send "Authorization: Bearer <MCP_API_KEY>".'), { 'www-authenticate': 'Bearer realm="mcp"' });
    }
    const method = req.method ?? 'GET';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return sendJson(res, 405, rpcError(-32000, `Method ${method} not allowed on /mcp; use POST, GET or DELETE.`), { allow: 'POST, GET, DELETE' });
    }
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;

    let body: unknown;
    if (method === 'POST') {
      const raw = await readBody(req, MCP_MAX_BODY_BYTES);
      if (raw === 'abandoned') {
        logger.info({ path: '/mcp' }, 'request body abandoned by the client');
        return void res.destroy();
      }
      if (raw === 'too_large') return sendJson(res, 413, rpcError(-32600, `Request body exceeds ${MCP_MAX_BODY_BYTES} bytes.`), { connection: 'close' });
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return sendJson(res, 400, rpcError(-32700, 'Parse error: the body is not JSON.'));
      }
      const protocolVersion = req.headers['mcp-protocol-version'];
      const refusal = Array.isArray(body) ? batchRefusal(body, typeof protocolVersion === 'string' ? protocolVersion : undefined) : undefined;
      if (refusal) return sendJson(res, 400, rpcError(-32600, refusal));
    }

    if (sessionId) {
      const session = sessions.get(sessionId);
      // The specification's answer to an unknown or expired session: 404, so the client initializes again.
      if (!session) return sendJson(res, 404, rpcError(-32001, 'Session not found: initialize a new session.'));
      // A GET is the session's event stream, not a call: it does not keep the session from eviction.
      const call = method !== 'GET';
      session.lastUsed = Date.now();
      session.open++;
      if (call) session.calls++;
      res.once('close', () => {
        session.open--;
        if (call) session.calls--;
        session.lastUsed = Date.now();
      });
      return session.transport.handleRequest(req, res, body);
    }

    if (method !== 'POST' || !isInitializeRequest(body)) {
      return sendJson(res, 400, rpcError(-32000, 'Bad request: send an initialize request first, then the Mcp-Session-Id it returns with every request.'));
    }
    const client = clientKey(req.socket.remoteAddress);
    const admission = sessions.admit(client);
    if (!admission.admitted && admission.reason === 'client_limit') {
      const message = `Too many sessions from this address: its ${config.maxSessionsPerClient} sessions (MCP_MAX_SESSIONS_PER_CLIENT) are all answering a call right now, so none can make room. Retry once one has answered, or end one (DELETE /mcp with its Mcp-Session-Id).`;
      return sendJson(res, 429, rpcError(-32000, message), { 'retry-after': '60' });
    }
    if (!admission.admitted) {
      const message = `Session limit reached: all ${config.maxSessions} sessions (MCP_MAX_SESSIONS) are answering a call right now; retry in a few seconds.`;
      return sendJson(res, 503, rpcError(-32000, message), { 'retry-after': '5' });
    }
    let transport: StreamableHTTPServerTransport;
    try {
      transport = await newSession(req, client, () => {
        const evicted = admission.makeRoom();
        if (!evicted) return;
        logger.info({ idleMs: Date.now() - evicted.session.lastUsed, own: evicted.session.client === client }, 'mcp session evicted: a session cap was reached (its client\'s own, or all) and it was idle the longest');
        void closeTransport(evicted.session);
      });
    } catch (error) {
      admission.release();
      throw error;
    }
    res.once('close', () => {
      admission.release();
      const session = transport.sessionId ? sessions.get(transport.sessionId) : undefined;
      if (session) {
        session.open--;
        session.calls--;
        session.lastUsed = Date.now();
      }
    });
    await transport.handleRequest(req, res, body);
  }

  async function listener(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const hostname = hostnameOf(req.headers.host);
    if (!hostname || !config.allowedHosts.includes(hostname)) {
      return sendJson(res, 403, rpcError(-32000, `Forbidden: Host "${req.headers.host ?? ''}" is not served here (DNS rebinding protection; see MCP_ALLOWED_HOSTS).`));
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !config.allowedOrigins.includes(origin)) {
      return sendJson(res, 403, rpcError(-32000, `Forbidden: Origin "${origin}" is not allowed (DNS rebinding protection; see MCP_ALLOWED_ORIGINS).`));
    }
    if (origin !== undefined) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-expose-headers', CORS_EXPOSE_HEADERS);
      res.setHeader('vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS', 'access-control-allow-headers': CORS_ALLOW_HEADERS, 'access-control-max-age': '600' });
      return void res.end();
    }
    if (path === '/health') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { ok: false, error: 'use GET' }, { allow: 'GET, HEAD' });
      return sendJson(res, 200, health);
    }
    if (path === '/openapi.json') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { ok: false, error: 'use GET' }, { allow: 'GET, HEAD' });
      description ??= buildMcpHostOpenApiDocument(config);
      return sendJson(res, 200, description);
    }
    if (path === '/mcp') return handleMcp(req, res);
    sendJson(res, 404, { ok: false, error: `Nothing at ${path}: the MCP endpoint is ${mcpUrl('/mcp')}, the health check ${mcpUrl('/health')} and this host's description ${mcpUrl('/openapi.json')}.` });
  }

  const server = http.createServer(clientTimeoutOptions(limits), (req, res) => {
    listener(req, res).catch((error: unknown) => {
      logger.error({ err: error, path: req.url?.split('?')[0] }, 'mcp request failed');
      if (!res.headersSent) sendJson(res, 500, rpcError(-32603, 'Internal error; it has been logged.'));
      else res.destroy();
    });
  });
  server.on('clientError', answerClientError);
  // Past the cap Node closes a new connection at once: no answer can be cheaper than that.
  server.maxConnections = config.maxConnections;

  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions.entries()) {
      if (session.open <= 0 && now - session.lastUsed > MCP_SESSION_IDLE_MS) void closeSession(id);
    }
  }, 60_000);
  sweeper.unref();

  await listen(server, config.host, config.port, 'MCP_PORT');

  return {
    server,
    sessionCount: () => sessions.size,
    close: async () => {
      clearInterval(sweeper);
      await Promise.all(sessions.ids().map(closeSession));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * Starts the host and logs where it listens. Inside the site process (MCP_WITH_SITE) the site
 * handles signals; standalone (`main`), this process stops on SIGTERM/SIGINT after closing its sessions.
 */
export async function launchMcpHost(): Promise<McpHost> {
  const config = loadMcpConfig();
  const host = await startMcpServer(config, createMcpToolServices());
  const address = host.server.address();
  const shown = typeof address === 'object' && address ? `${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}` : `${config.host}:${config.port}`;
  // Written directly, whatever LOG_LEVEL says: tests and supervisors wait for this line.
  const line = { level: 'info', msg: 'mcp listening', url: `http://${shown}`, mcp_url: site.mcp_url, tools: MCP_TOOLS.length, bearer_required: config.apiKey !== null, max_sessions: config.maxSessions, max_sessions_per_client: config.maxSessionsPerClient };
  process.stdout.write(JSON.stringify(line) + '\n');
  // dist/server/ holds this bundle; the build's origins are in dist/.
  const mismatch = mcpOriginMismatch(readBuildOrigin(fileURLToPath(new URL('..', import.meta.url))), localOrigin(config.host, typeof address === 'object' && address ? address.port : config.port));
  if (mismatch) process.stderr.write(JSON.stringify({ level: 'warn', msg: 'origin mismatch', detail: mismatch }) + '\n');
  return host;
}

/** `npm run mcp`: the standalone host (src/mcp/main.ts is its entry). */
export async function main(): Promise<void> {
  checkConfigurationAtStart();
  const host = await launchMcpHost();
  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => process.exit(1), 10_000);
    deadline.unref();
    await host.close();
    const { closeRuntime } = await import('../services/runtime.ts');
    await closeRuntime();
    flushLogs();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
