/**
 * The production entry: a small `node:http` server in front of Astro. Static files (descriptors,
 * schemas, OpenAPI, pages) are answered from memory, the route table's dynamic routes are dispatched
 * directly, hub-host aliases redirect, and only what remains goes through Astro's pipeline, which
 * measured five to seven times slower per request here (DESIGN.md section 1).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { checkConfigurationAtStart } from '../config/check-at-start.ts';
import { isLocalOrigin, localOrigin, readBuildOrigin, type BuildOrigin } from '../config/build-origin.ts';
import { loadListenConfig, loadServerConfig } from '../config/server.ts';
import { loadMcpConfig } from '../config/mcp.ts';
import { site } from '../config/site.ts';
import { batchThisTurn, endPending, endWithBatch } from './batched-ends.ts';
import { dispatch, problemResponse, type SerializedResponse } from './dispatch.ts';
import { keepHelperThreadsBehindTheLoop } from '../lib/helper-threads.ts';
import { tooLarge } from '../lib/json-body.ts';
import { listen } from '../lib/listen.ts';
import { answerClientError, clientTimeoutOptions, destroyedWithin } from '../lib/server-limits.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { fillReceiptPage, RECEIPT_PAGE_TEMPLATE_FILE } from '../lib/receipt-page.ts';
import { CORS_HEADERS, CORS_PREFLIGHT_EXTRA_HEADERS, securityHeadersFor } from '../lib/response-headers.ts';
import { resolveHubAlias } from '../catalogue/hub-aliases.ts';
import { routePath } from '../catalogue/lookup.ts';
import { flushLogs, logger, logRequest } from '../services/logger.ts';
import { useCorpus } from '../services/docs-index.ts';
import { servedAnswerIndex, servedDocuments } from '../build/site-documents.ts';
import { useAnswerIndex } from '../services/answer-index.ts';
import { checkReceiptLogAtStart, checkReceiptLogStore, checkX402SigningKeyAtStart, closeRuntime, getReceiptLog, getReputationReader, getStore, openEmbeddedStoreAtStart } from '../services/runtime.ts';
import { startCheckpointer } from '../services/receipt-log.ts';
import { loadReceiptLogConfig } from '../config/receipt-log.ts';
import type { ReceiptLogStore } from '../domain/ports.ts';
import { startRetentionSweep } from '../services/retention.ts';
import { loadRetentionConfig } from '../config/store.ts';
import { servedReceipts, SETTLED_RECEIPT_CACHE, type KeptReceipt } from '../services/kept-receipts.ts';
import { strongEtag } from '../lib/etag.ts';
import { loadStaticFiles, negotiateEncoding, staticEntryOf, type StaticEntry, type StaticManifestEntry } from './static-files.ts';

type AstroHandler = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => Promise<void>;

export interface ServerOptions {
  distDir: string;
  /** Astro's middleware-mode handler; omitted in tests of the fast path alone. */
  astroHandler?: AstroHandler;
}

const hubHost = new URL(site.agent_hub_url).host.toLowerCase();
const baseHost = new URL(site.base_url).host.toLowerCase();

/**
 * Reads the whole body and calls `done` once: with the bytes, or with the 413 problem as soon as it
 * passes `limit`, or with the stream's error. A callback rather than a promise: the answer of a
 * synchronous handler is then made in the body's last event, as a bare server's would be.
 */
function readBody(req: http.IncomingMessage, limit: number, done: (error: unknown, bytes?: Uint8Array) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let called = false;
  const finish = (error: unknown, bytes?: Uint8Array) => {
    if (called) return;
    called = true;
    done(error, bytes);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      req.off('data', onData);
      req.pause();
      finish(tooLarge());
      return;
    }
    chunks.push(chunk);
  };
  req.on('data', onData);
  // A body that came in one chunk (most do) is that chunk, not a copy of it.
  req.once('end', () => finish(undefined, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
  req.once('error', (error) => finish(error));
}

/** How much of a refused body is read and dropped (for at most server-limits.ts DRAIN_MS) before the connection is cut. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * After a 413, the client may still be sending the body it was refused. Closing the socket with
 * unread data makes the kernel answer with a reset, which can reach the client before it has read
 * the 413 and reports a network failure instead. So: half-close (no more answers on this
 * connection), keep reading and dropping the rest of the body, and destroy the socket once the
 * client is done, or after DRAIN_BYTES or DRAIN_MS, whichever comes first.
 */
function closeAfterDraining(req: http.IncomingMessage): void {
  const socket = req.socket;
  if (socket.destroyed) return;
  let drained = 0;
  const cut = destroyedWithin(socket);
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_BYTES) cut();
  });
  req.once('end', cut);
  req.resume();
  socket.end();
}

/** Security and CORS headers of an answer of `contentType`, as a flat raw-header list made once per policy. */
const baseHeaderLists = new Map<string | undefined, string[]>();
function baseHeadersFor(contentType: string | undefined): string[] {
  // Keyed by the content type itself: this server's answers have a handful, all of its own making.
  let list = baseHeaderLists.get(contentType);
  if (!list) baseHeaderLists.set(contentType, (list = Object.entries({ ...securityHeadersFor(contentType), ...CORS_HEADERS }).flat()));
  return list;
}

/**
 * Request ids in UUID form: this process's random UUID with its last 12 hex digits counting up.
 * They only need to be unique, to find one request's log line; drawing a random UUID for every
 * request cost a fiftieth of a static file's answer.
 */
const REQUEST_ID_PREFIX = randomUUID().slice(0, 24);
let requestCount = 0;
function nextRequestId(): string {
  requestCount = (requestCount + 1) % 0x1000000000000;
  return REQUEST_ID_PREFIX + requestCount.toString(16).padStart(12, '0');
}

/** What a request log line says of a request, kept from its arrival to its answer. */
interface RequestContext {
  id: string;
  started: number;
  method: string;
  /** Path only: query strings may carry ids a client considers private. */
  path: string;
}

/**
 * The request in flight behind each response that this module answers itself: its id is echoed in
 * `x-request-id`, and its log line is written as the head is composed (writeHead; its bytes go out
 * with the body, batched-ends.ts), with no `finish` listener per request.
 */
const answering = new WeakMap<http.ServerResponse, RequestContext>();

function logAnswer(context: RequestContext, status: number, level: 'debug' | 'info' = 'info'): void {
  if (!logger.isLevelEnabled(level)) return;
  logRequest(level, { reqId: context.id, method: context.method, path: context.path, status, ms: Math.round((performance.now() - context.started) * 10) / 10 });
}

/**
 * One log line once the response is finished, for answers written elsewhere (Astro's pages) or
 * straight to the socket (static files). Static file hits log at debug: they are the CDN's to log;
 * an info line per file hit cost a third of the static path's throughput.
 */
function logWhenFinished(res: http.ServerResponse, context: RequestContext, level: 'debug' | 'info'): void {
  if (!logger.isLevelEnabled(level)) return;
  res.once('finish', () => logAnswer(context, res.statusCode, level));
}

/** `writeHead` with a flat raw-header list: one pass, no per-header `setHeader` bookkeeping. */
function writeHead(res: http.ServerResponse, status: number, headers: Readonly<Record<string, string | number>>, contentLength?: number): void {
  const contentType = headers['content-type'];
  const raw = baseHeadersFor(contentType === undefined ? undefined : String(contentType)).slice();
  const context = answering.get(res);
  if (context) {
    raw.push('x-request-id', context.id);
    logAnswer(context, status);
  }
  for (const name in headers) raw.push(name, String(headers[name]));
  if (contentLength !== undefined) raw.push('content-length', String(contentLength));
  res.writeHead(status, raw);
}

/**
 * A route's answer, ended with the rest of this turn's (batched-ends.ts) unless `now`. The body
 * goes out as a string: node:http then sends the head and the body in one write, where a Buffer
 * body costs a second chunk and a writev (about a tenth of a small POST's CPU here). A body whose
 * UTF-8 length equals its length is ASCII, and goes out as Latin-1: the same bytes, copied rather
 * than encoded character by character.
 */
function send(res: http.ServerResponse, response: SerializedResponse, head = false, now = false): void {
  const length = Buffer.byteLength(response.body);
  writeHead(res, response.status, response.headers, length);
  const body = head ? undefined : response.body;
  const encoding = length === response.body.length ? 'latin1' : 'utf8';
  if (now) res.end(body, encoding);
  else endWithBatch(res, body, encoding);
}

interface Target {
  path: string;
  search: string;
  /** The path as sent, where URL parsing changed it (escapes, dot segments). */
  sentPath?: string;
}

/**
 * The path of a request target. Plain targets (no percent-escapes or dot segments) are sliced
 * directly; anything else goes through WHATWG URL parsing so `/a/../b` and escapes normalise.
 */
function parseTarget(target: string): Target {
  const q = target.indexOf('?');
  const rawPath = q === -1 ? target : target.slice(0, q);
  const search = q === -1 ? '' : target.slice(q);
  if (rawPath.startsWith('/') && !rawPath.includes('%') && !rawPath.includes('.') && !rawPath.includes('//') && !rawPath.includes('\\')) {
    return { path: rawPath, search };
  }
  const url = new URL(target, 'http://local');
  return { path: url.pathname, search: url.search, ...(url.pathname === rawPath ? {} : { sentPath: rawPath }) };
}

/**
 * The request handler. A static file is answered synchronously, as a bare `node:http` handler would
 * (no promise per request on the path most requests take); everything else goes through
 * `answerDynamic`, which also answers without a promise wherever the route's handler does (a POST's
 * answer is made in its body's last event), and whose failures are caught and answered here.
 */
export function createRequestListener(options: ServerOptions) {
  const manifest = JSON.parse(readFileSync(`${options.distDir}/server/static-manifest.json`, 'utf8')) as StaticManifestEntry[];
  const files = loadStaticFiles(`${options.distDir}/client`, manifest, baseHeadersFor);
  const notFoundPage = files.get('/404.html');
  const receiptPage = receiptPageAnswer(options.distDir);
  const keptReceiptEntry = keptReceiptEntries();

  /** A failure past the route's own handling (a bug here, or Astro's): logged, and a 500 if the head is not out yet. */
  function failed(res: http.ServerResponse, context: RequestContext, error: unknown): void {
    logger.error({ reqId: context.id, err: error, path: context.path }, 'request failed');
    try {
      if (!res.headersSent) return send(res, problemResponse(new ProblemError(500, 'internal_error', 'Internal error', 'The server failed to answer this request.'), '/'));
    } catch {
      // Not even the 500 could be written: the connection goes, as below.
    }
    res.destroy();
  }

  /**
   * The body stream failed: the client closed its connection before its body was in (or sent one
   * node:http could not read). Nobody is left to answer and nothing went wrong here, so it is an
   * info line, not a logged error and a 500.
   */
  function abandoned(res: http.ServerResponse, context: RequestContext, error: unknown): void {
    logger.info({ reqId: context.id, method: context.method, path: context.path, reason: (error as Error)?.message }, 'request body abandoned by the client');
    res.destroy();
  }

  /** Sends a route's answer, now or when it settles; a 413 closes the connection once the client has it. */
  function reply(req: http.IncomingMessage, res: http.ServerResponse, context: RequestContext, answer: SerializedResponse | Promise<SerializedResponse>): void {
    if (answer instanceof Promise) {
      answer.then((settled) => reply(req, res, context, settled)).catch((error: unknown) => failed(res, context, error));
      return;
    }
    // A 413 closes its connection once it is out; ended with a batch, the answers to requests read
    // after it on the same connection would go out first.
    const refused = answer.status === 413;
    if (refused) res.once('finish', () => closeAfterDraining(req));
    send(res, answer, context.method === 'HEAD', refused);
  }

  function answerDynamic(req: http.IncomingMessage, res: http.ServerResponse, context: RequestContext, target: Target | undefined, onHubHost: boolean): void {
    // Everything below answers through writeHead/send, which echo the id and log from here.
    answering.set(res, context);
    batchThisTurn();
    if (!target) return send(res, problemResponse(new ProblemError(400, 'invalid_url', 'Invalid URL', 'The request target is not a valid URL.'), '/'));
    const { path } = target;
    const method = context.method;

    if (onHubHost) {
      const canonical = resolveHubAlias(path);
      if (!canonical) {
        return send(res, problemResponse(new ProblemError(404, 'unknown_alias', 'Unknown alias', `No short alias ${path} on ${site.agent_hub_url}; the discovery descriptor lists them.`), path));
      }
      writeHead(res, 308, { location: `${canonical}${target.search}`, 'content-length': 0 });
      return void res.end();
    }

    if (method === 'OPTIONS') {
      writeHead(res, 204, CORS_PREFLIGHT_EXTRA_HEADERS);
      return void res.end();
    }

    const request = {
      method,
      path,
      ...(target.sentPath === undefined ? {} : { sentPath: target.sentPath }),
      query: new URLSearchParams(target.search),
      headers: req.headers as Record<string, string | undefined>,
      clientIp: req.socket.remoteAddress ?? 'unknown',
      requestId: context.id,
    };
    const routed = dispatch(
      request,
      (limit, done) =>
        readBody(req, limit, (error, bytes) => {
          // A stream error is the client leaving: no route's failure, and nobody to answer.
          if (error !== undefined && !(error instanceof ProblemError)) return abandoned(res, context, error);
          batchThisTurn();
          done(error, bytes);
        }),
      (answer) => {
        // Called from the body's events too, where a throw would escape every handler.
        try {
          reply(req, res, context, answer);
        } catch (thrown) {
          failed(res, context, thrown);
        }
      },
    );
    if (routed) return;

    const receiptId = receiptPageId(path);
    if (receiptId !== undefined) {
      if (method !== 'GET' && method !== 'HEAD') {
        return send(res, problemResponse(new ProblemError(405, 'method_not_allowed', 'Method not allowed', `${method} is not allowed on ${path}; use GET or HEAD.`, { headers: { allow: 'GET, HEAD' } }), path));
      }
      const page = receiptPage(receiptId);
      if (req.headers['if-none-match'] === page.headers.etag) {
        writeHead(res, 304, page.headers);
        return void res.end();
      }
      return send(res, page, method === 'HEAD');
    }

    if (path.startsWith('/api/') || files.has(path)) {
      const allowed = files.has(path);
      const error = allowed
        ? new ProblemError(405, 'method_not_allowed', 'Method not allowed', `${method} is not allowed on ${path}; use GET or HEAD.`, { headers: { allow: 'GET, HEAD' } })
        : new ProblemError(404, 'not_found', 'Not found', `No endpoint at ${path}; the OpenAPI document at /agent-economy/openapi.v0.json lists them all.`);
      return send(res, problemResponse(error, path));
    }

    const notFound = () => {
      writeHead(res, 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(notFoundPage?.identity.body ?? 'Not found');
    };
    if (options.astroHandler) {
      // Astro writes its own head: the id goes in as a header, the line is logged when it finishes.
      answering.delete(res);
      res.setHeader('x-request-id', context.id);
      logWhenFinished(res, context, 'info');
      options.astroHandler(req, res, notFound).catch((error: unknown) => failed(res, context, error));
      return;
    }
    notFound();
  }

  return function listener(req: http.IncomingMessage, res: http.ServerResponse): void {
    const started = performance.now();
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && /^[\w.:-]{1,128}$/.test(incomingId) ? incomingId : nextRequestId();
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const method = req.method ?? 'GET';
    const context: RequestContext = { id: requestId, started, method, path: query === -1 ? url : url.slice(0, query) };
    let target: Target | undefined;
    try {
      target = parseTarget(url);
    } catch {
      target = undefined;
    }
    const onHubHost = hubHost !== baseHost && (req.headers.host ?? '').toLowerCase() === hubHost;
    const entry = target && !onHubHost && (method === 'GET' || method === 'HEAD') ? (files.get(target.path) ?? keptReceiptEntry(target.path)) : undefined;

    if (entry) {
      logWhenFinished(res, context, 'debug');
      if (req.headers['if-none-match'] === entry.etag) {
        res.writeHead(304, [...entry.rawHeaders.notModified, 'x-request-id', requestId]);
        return void res.end();
      }
      const variant = negotiateEncoding(entry, req.headers['accept-encoding']);
      res.writeHead(200, [...variant.rawHeaders, 'x-request-id', requestId]);
      return void res.end(method === 'HEAD' ? undefined : variant.body);
    }
    try {
      answerDynamic(req, res, context, target, onHubHost);
    } catch (error) {
      failed(res, context, error);
    }
  };
}

/**
 * Node's parser gave up on a connection (server-limits.ts answers and closes it). An answer waiting
 * in this turn's batch goes out first: otherwise the error's answer would take its place.
 */
function answerClientErrorAfterBatch(error: NodeJS.ErrnoException, socket: Duplex): void {
  endPending();
  answerClientError(error, socket);
}

/** Starts the server; resolves once it listens. */
export async function startServer(options: ServerOptions & { host: string; port: number }): Promise<http.Server> {
  // The docs index (search_docs, the docs model provider) reads the documents this server serves.
  useCorpus(servedDocuments);
  useAnswerIndex(servedAnswerIndex);
  const listener = createRequestListener(options);
  const limits = loadServerConfig();
  const server = http.createServer(clientTimeoutOptions(limits), listener);
  server.on('clientError', answerClientErrorAfterBatch);
  await listen(server, options.host, options.port, 'PORT');
  return server;
}

/**
 * `GET /api/assistant/receipt/{id}` of a receipt the route has kept (in a checkpoint: it never
 * changes), answered like a static file; anything else (not kept, an id spelt otherwise) goes to the
 * route. Each kept receipt's header lists are made once, and again once its compressed variants exist.
 */
function keptReceiptEntries(): (path: string) => StaticEntry | undefined {
  const route = routePath('assistant-receipt');
  const prefix = route.slice(0, route.indexOf('{'));
  const entries = new WeakMap<KeptReceipt, StaticEntry>();
  const contentType = 'application/json; charset=utf-8';
  return (path) => {
    if (path.length !== prefix.length + 64 || !path.startsWith(prefix)) return undefined;
    const kept = servedReceipts.get(path.slice(prefix.length));
    if (!kept) return undefined;
    let entry = entries.get(kept);
    if (!entry || (!entry.br && kept.br) || (!entry.gzip && kept.gzip)) {
      entry = staticEntryOf({ identity: kept.body, br: kept.br, gzip: kept.gzip, etag: kept.etag }, contentType, SETTLED_RECEIPT_CACHE, baseHeadersFor(contentType));
      entries.set(kept, entry);
    }
    return entry;
  };
}

/** The receipt id of a `/receipt/{id}` path (one segment, percent-decoded), or undefined for any other path. */
function receiptPageId(path: string): string | undefined {
  if (!path.startsWith('/receipt/')) return undefined;
  const segment = /^\/receipt\/([^/]+)\/?$/.exec(path)?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: no id, and the path is unknown.
    return undefined;
  }
}

/**
 * `/receipt/{id}` answered from the build's template with its slots filled (src/lib/receipt-page.ts),
 * with a strong ETag, so a cache revalidates it with a 304. Not immutable, unlike the receipt it
 * shows: the page is the release's and changes with the next one; the receipt it reads is cached for ever.
 */
function receiptPageAnswer(distDir: string): (id: string) => SerializedResponse & { headers: { etag: string } } {
  const template = readFileSync(join(distDir, 'server', RECEIPT_PAGE_TEMPLATE_FILE), 'utf8');
  return (id) => {
    const body = fillReceiptPage(template, id);
    return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300, must-revalidate', etag: strongEtag(Buffer.from(body, 'utf8')) }, body };
  };
}

/**
 * Astro's handler, imported by the first request that reaches it rather than at start: pages are
 * prerendered and answered from memory (`/receipt/{id}` from a template), so only unknown paths get
 * there, and Astro's server bundle costs memory, and CPU on every other request, once loaded
 * (docs/performance.md, "Memory").
 */
function lazyAstroHandler(href: string): AstroHandler {
  let loading: Promise<AstroHandler> | undefined;
  return async (req, res, next) => {
    loading ??= import(href).then((module: { handler: AstroHandler }) => module.handler);
    return (await loading)(req, res, next);
  };
}

export async function main(): Promise<void> {
  const distDir = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
  // Loading Astro's handler used to install its unhandledRejection listener at start, which keeps the
  // process alive through one; with Astro loaded late, this listener keeps that, and logs the reason.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
  checkConfigurationAtStart();
  const { host, port } = loadListenConfig();
  await openEmbeddedStoreAtStart();
  await checkReceiptLogAtStart();
  checkX402SigningKeyAtStart(publishedX402Key(distDir));
  const server = await startServer({ distDir, astroHandler: lazyAstroHandler(new URL('./entry.mjs', import.meta.url).href), host, port });
  const address = server.address();
  const shown = typeof address === 'object' && address ? `${address.address}:${address.port}` : `${host}:${port}`;
  // Written directly, whatever LOG_LEVEL says: tests, the bench and supervisors wait for this line.
  process.stdout.write(JSON.stringify({ level: 'info', msg: 'listening', url: `http://${shown}`, base_url: site.base_url }) + '\n');
  const listening = localOrigin(host, typeof address === 'object' && address ? address.port : port);
  const mismatch = originMismatch(readBuildOrigin(distDir), listening);
  if (mismatch) process.stderr.write(JSON.stringify({ level: 'warn', msg: 'origin mismatch', detail: mismatch }) + '\n');
  // PostgreSQL, opened on first use: the log's store checks run now, and a store that does not extend
  // what the log signed (a restored backup) stops this server as it would have refused to start.
  if (getStore().kind !== 'sqlite') {
    void checkReceiptLogStore().catch((error: unknown) => {
      process.stderr.write(JSON.stringify({ level: 'error', msg: 'receipt log refused', detail: (error as Error).message }) + '\n');
      void shutdown(server, 'receipt log refused', 1);
    });
  }
  // MCP_WITH_SITE: the MCP host in this process, sharing its runtime (store, limiter, live status).
  if (loadMcpConfig().withSite) mcpHost = await (await import('../mcp/server.ts')).launchMcpHost();
  // Unpaid quotes past their lifetime and a grace period, and past days' free-tier counts, go (docs/deployment.md "What is kept").
  background.push(startRetentionSweep(getStore(), loadRetentionConfig()));
  // The receipt log's checkpoints: a receipt's proof is there within LOG_CHECKPOINT_INTERVAL_SECONDS (docs/transparency-log.md).
  // The reputation aggregates follow each checkpoint, so a request finds them folded (issue 38).
  background.push(startCheckpointer(getReceiptLog, getStore() as unknown as ReceiptLogStore, loadReceiptLogConfig().checkpointIntervalSeconds, () => getReputationReader().catchUp()));
  // Every thread the server has started by now (the collector's, the store's read thread) yields a busy core to the loop's.
  const helpers = keepHelperThreadsBehindTheLoop();
  background.push({ stop: async () => helpers.stop() });
  const keyMismatch = verifierKeyMismatch(distDir);
  if (keyMismatch) process.stderr.write(JSON.stringify({ level: 'warn', msg: 'verifier key mismatch', detail: keyMismatch }) + '\n');
  process.once('SIGTERM', () => void shutdown(server, 'SIGTERM'));
  process.once('SIGINT', () => void shutdown(server, 'SIGINT'));
  // The assistant's index is read from the build at once (a few milliseconds), so the first question
  // costs what any does; search_docs' passage index is built a second after listening, a few
  // milliseconds of the loop at a time, so it does not hold up the requests of a restart.
  const model = import('../services/model/index.ts');
  setImmediate(() => void model.then(({ readAnswerIndex }) => readAnswerIndex()));
  setTimeout(() => void model.then(({ warmUpModelProvider }) => warmUpModelProvider()), WARM_UP_DELAY_MS).unref();
}

/**
 * What is wrong when the discovery descriptor this build serves names another receipt-log verifier
 * key than the one this server signs checkpoints with (a build made with another DATA_DIR or key
 * file): readers who pin the published key would refuse every checkpoint. Undefined when they
 * agree, or when the build named none.
 */
function verifierKeyMismatch(distDir: string): string | undefined {
  try {
    const discovery = JSON.parse(readFileSync(join(distDir, 'client', routePath('discovery-well-known')), 'utf8')) as { verification?: { receipt_log?: { verifier_key?: string | null } } };
    const published = discovery.verification?.receipt_log?.verifier_key;
    const signing = getReceiptLog().verifierKey;
    if (!published || published === signing) return undefined;
    return `the build publishes the receipt log's verifier key ${published} in its discovery descriptor, but this server signs checkpoints with ${signing}: readers who pinned the published key will refuse them. Rebuild with the same DATA_DIR or LOG_SIGNING_KEY_FILE as the server (or LOG_VERIFIER_KEY set to its key)`;
  } catch {
    // No built descriptor (a test entry) or no key yet: the log's own routes say what is wrong.
    return undefined;
  }
}

/** The x402 signing key the build publishes in its discovery descriptor; undefined when it named none, or there is no built descriptor (a test entry). */
function publishedX402Key(distDir: string): string | undefined {
  try {
    const discovery = JSON.parse(readFileSync(join(distDir, 'client', routePath('discovery-well-known')), 'utf8')) as { verification?: { x402_signing?: { public_key_jwk?: { x?: string } | null } } };
    return discovery.verification?.x402_signing?.public_key_jwk?.x;
  } catch {
    return undefined;
  }
}

/**
 * What is wrong when this server listens on another local origin than the one its build names in
 * every descriptor, link and live probe (a public base URL is reached through a proxy: nothing to
 * compare), or than the SITE_BASE_URL it was started with; undefined when they agree.
 */
export function originMismatch(built: BuildOrigin | undefined, listening: string): string | undefined {
  if (!built) return undefined;
  if (built.base_url !== site.base_url) {
    return `the build names ${built.base_url} in its descriptors and pages, but SITE_BASE_URL is ${site.base_url}: rebuild (npm run build) with the same SITE_BASE_URL, or start with npm start, which rebuilds when they differ`;
  }
  if (built.runtime_url !== site.runtime_url) {
    return `the build names ${built.runtime_url ?? 'no runtime origin of its own'} as its runtime, but SITE_RUNTIME_URL is ${site.runtime_url ?? 'unset'}: rebuild (npm run build) with the same SITE_RUNTIME_URL`;
  }
  // This server is the runtime: where the build sends the runtime's requests (its own origin, or the site's).
  const own = built.runtime_url ?? built.base_url;
  if (isLocalOrigin(own) && new URL(own).origin !== new URL(listening).origin) {
    const variable = built.runtime_url === undefined ? 'SITE_BASE_URL' : 'SITE_RUNTIME_URL';
    return `the build names ${own} in its descriptors and pages, but this server listens on ${listening}: their links and live probes point elsewhere. Rebuild with ${variable}=${listening}, or start with npm start, which takes the base URL from HOST and PORT`;
  }
  return undefined;
}

/** The MCP host when it runs in this process (MCP_WITH_SITE). */
let mcpHost: { close: () => Promise<void> } | undefined;
/** The rounds that run on their own (retention sweep, checkpointer): stopped, and their round in progress ended, before the store closes. */
const background: Array<{ stop: () => Promise<void> }> = [];

const WARM_UP_DELAY_MS = 1_000;

/** Time in-flight requests get to finish after a stop signal before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Graceful stop: refuse new connections, let requests in flight finish (idle keep-alive sockets are
 * closed at once), release outside resources, flush logs, exit. A hard deadline bounds it all.
 */
async function shutdown(server: http.Server, signal: string, exitCode = 0): Promise<void> {
  logger.info({ signal }, 'shutting down');
  const deadline = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
  deadline.unref();
  await Promise.all([
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
    mcpHost?.close(),
  ]);
  await Promise.all(background.map((work) => work.stop()));
  await releaseResources();
  flushLogs();
  process.exit(exitCode);
}

/** Outside resources held by this process (store pools, Redis), closed after the last request. */
async function releaseResources(): Promise<void> {
  await closeRuntime();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(`server: ${(error as Error)?.message ?? error}`);
    process.exit(1);
  });
}
