/**
 * Matching a request to a dynamic route of the table and running it: the checks of a POST's head,
 * JSON parsing and schema validation happen here once, so every handler receives a valid body (or,
 * for a route that `validatesOwnBody`, well-formed JSON it checks itself) and every front door
 * answers bad input identically; each front door reads the body its own way, within
 * MAX_BODY_BYTES. Thrown ProblemErrors become problem+json; anything else is a bug, logged, and
 * answered with a 500 that reveals nothing.
 */
import { allRoutes } from '../routes/table.ts';
import { logger } from '../services/logger.ts';
import type { ZodType } from 'zod';
import type { DynamicRoute } from '../routes/types.ts';
import { JsonText, type ApiRequest, type ApiResponse } from '../lib/api.ts';
import { MAX_BODY_BYTES } from '../config/limits.ts';
import { assertJsonContentType, parseJsonBytes, tooLarge } from '../lib/json-body.ts';
import { invalidRequest, PROBLEM_CONTENT_TYPE, ProblemError } from '../lib/problem-error.ts';
import { compileRequestCheck, type CompiledRequestCheck } from '../lib/compiled-request-check.ts';

interface TableRoute {
  route: DynamicRoute;
  /** Position in the route table, which decides between routes of one path and method. */
  order: number;
}

interface PatternedRoute extends TableRoute {
  /** The path up to its first parameter: a path without it cannot match. */
  prefix: string;
  pattern: RegExp;
  paramNames: string[];
}

/** Each request schema's compiled fast path (undefined: zod alone), made at its first request. */
const requestChecks = new Map<ZodType, CompiledRequestCheck | undefined>();

/** The body as `schema` returns it; a 400 problem naming the fields when it refuses it. */
function validatedBody(schema: ZodType, raw: unknown): unknown {
  if (!requestChecks.has(schema)) requestChecks.set(schema, compileRequestCheck(schema));
  if (requestChecks.get(schema)?.(raw)) return raw;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}

export interface IncomingApiRequest {
  method: string;
  path: string;
  /** The path as sent, where URL parsing changed it (ApiRequest.sentPath). */
  sentPath?: string;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
  clientIp: string;
  /** The id the front door logs this request under, if it has one: failures are logged with it. */
  requestId?: string;
  /** Reads the whole body, rejecting with the 413 problem once it passes `limit` bytes. */
  readBody: (limit: number) => Promise<Uint8Array>;
}

export interface SerializedResponse {
  status: number;
  headers: Record<string, string>;
  /** Text, or bytes for a binary body (the receipt log's tiles). */
  body: string | Uint8Array;
}

/** Routes without parameters by their path (one lookup), and the routes with parameters (a pattern each). */
let compiled: { exact: Map<string, TableRoute[]>; patterned: PatternedRoute[] } | undefined;

function compile() {
  if (compiled) return compiled;
  const exact = new Map<string, TableRoute[]>();
  const patterned: PatternedRoute[] = [];
  allRoutes()
    .filter((route): route is DynamicRoute => route.kind === 'dynamic' && route.host !== 'mcp')
    .forEach((route, order) => {
      const paramNames: string[] = [];
      const source = route.path
        .split('/')
        .map((segment) => {
          const param = /^\{([^}]+)\}$/.exec(segment);
          if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          // `{name+}` (last segment only): the rest of the path, slashes included (a log tile's path).
          const rest = param[1]!.endsWith('+');
          paramNames.push(rest ? param[1]!.slice(0, -1) : param[1]!);
          return rest ? '(.+)' : '([^/]+)';
        })
        .join('/');
      if (paramNames.length > 0) patterned.push({ route, order, prefix: route.path.slice(0, route.path.indexOf('{')), pattern: new RegExp(`^${source}$`), paramNames });
      else exact.set(route.path, [...(exact.get(route.path) ?? []), { route, order }]);
    });
  compiled = { exact, patterned };
  return compiled;
}

/** A dynamic route of the table with the params its path gave. */
export interface RouteMatch {
  route: DynamicRoute;
  params: Record<string, string>;
}

/** The dynamic routes answering this path, in route-table order, with their decoded params; empty when none. */
export function matchPath(path: string): RouteMatch[] {
  const { exact, patterned } = compile();
  const found: Array<{ order: number; route: DynamicRoute; params: Record<string, string> }> = (exact.get(path) ?? []).map(({ route, order }) => ({ order, route, params: {} }));
  for (const { route, order, prefix, pattern, paramNames } of patterned) {
    // Most paths share no prefix with a patterned route: a string comparison spares the expression.
    if (!path.startsWith(prefix)) continue;
    const match = pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    try {
      paramNames.forEach((name, index) => (params[name] = decodeURIComponent(match[index + 1]!)));
    } catch {
      continue;
    }
    found.push({ order, route, params });
  }
  return found.sort((a, b) => a.order - b.order).map(({ route, params }) => ({ route, params }));
}

/** A ProblemError as an RFC 9457 response. */
export function problemResponse(error: ProblemError, path: string): SerializedResponse {
  return {
    status: error.status,
    headers: { 'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, 'cache-control': 'no-store', ...error.headers },
    body: JSON.stringify(error.toBody(path)),
  };
}

/** A handler's answer as bytes; a 4xx is problem+json unless its route documents its own body schema. */
export function serializeApiResponse(response: ApiResponse, route?: DynamicRoute): SerializedResponse {
  if (response.contentType) {
    const body = response.body instanceof Uint8Array ? response.body : String(response.body);
    return { status: response.status, headers: { 'content-type': response.contentType, 'cache-control': 'no-store', ...response.headers }, body };
  }
  const isProblem = response.status >= 400 && !route?.responses[response.status]?.schema;
  return {
    status: response.status,
    headers: {
      'content-type': isProblem ? `${PROBLEM_CONTENT_TYPE}; charset=utf-8` : 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...response.headers,
    },
    body: response.body instanceof JsonText ? response.body.sent : JSON.stringify(response.body),
  };
}

/** Where a request goes: a dynamic route with its params, or a finished answer (a 405). */
export type RouteFound = RouteMatch | { answer: SerializedResponse };

/**
 * The dynamic route for `method` on `path`, a 405 answer when the path has routes but not this
 * method, or undefined when no dynamic route has this path (the caller then tries static files and
 * pages).
 */
export function findRoute(method: string, path: string): RouteFound | undefined {
  const candidates = matchPath(path);
  if (candidates.length === 0) return undefined;
  const wanted = method === 'HEAD' ? 'GET' : method;
  const hit = candidates.find((candidate) => candidate.route.method === wanted);
  if (hit) return hit;
  const allow = [...new Set(candidates.map((c) => c.route.method).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))].join(', ');
  return {
    answer: problemResponse(new ProblemError(405, 'method_not_allowed', 'Method not allowed', `${method} is not allowed on ${path}; use ${allow}.`, { headers: { allow } }), path),
  };
}

/** A POST's head, checked before its body is read: a wrong content type (415), a declared length past the limit (413). */
export function refusedPostHead(request: RouteRequest): SerializedResponse | undefined {
  try {
    assertJsonContentType(request.headers['content-type']);
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge();
    return undefined;
  } catch (error) {
    return failure(error, request);
  }
}

/** A request as a route runs it, its body apart. */
export type RouteRequest = Omit<IncomingApiRequest, 'readBody'>;

/**
 * Runs `route` for `request`; a POST's body (`bytes`, already read within MAX_BODY_BYTES) is parsed
 * and validated first, so the handler receives a valid body. The answer comes back at once when the
 * handler answers at once (most do: waiting on a promise costs every request a turn of the
 * microtask queue), as a promise otherwise; either way thrown errors become problem answers.
 */
export function answerRoute(found: RouteMatch, request: RouteRequest, bytes?: Uint8Array): SerializedResponse | Promise<SerializedResponse> {
  const { route, params } = found;
  try {
    let body: unknown;
    if (route.method === 'POST') {
      const raw = parseJsonBytes(bytes ?? new Uint8Array(0));
      body = route.request && !route.validatesOwnBody ? validatedBody(route.request.schema, raw) : raw;
    }
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const apiRequest: ApiRequest = { method, path: request.path, params, query: request.query, headers: request.headers, body, clientIp: request.clientIp, requestId: request.requestId };
    if (request.sentPath !== undefined) apiRequest.sentPath = request.sentPath;
    // The route table refuses, at load, a route of this site without a handler.
    const answer = route.handler!(apiRequest);
    if (!(answer instanceof Promise)) return serializeApiResponse(answer, route);
    return answer.then(
      (settled) => serializeApiResponse(settled, route),
      (error: unknown) => failure(error, request),
    );
  } catch (error) {
    return failure(error, request);
  }
}

/**
 * A thrown ProblemError as its answer; anything else is a bug, logged, and answered with a 500 that
 * reveals nothing. A problem with a cause (an outside failure: the store, the chain) is logged with
 * that cause at warn, since its body only says what failed and the operator needs why.
 */
function failure(error: unknown, request: Pick<RouteRequest, 'path' | 'requestId'>): SerializedResponse {
  const { path, requestId } = request;
  if (error instanceof ProblemError) {
    if (error.cause !== undefined) logger.warn({ reqId: requestId, path, status: error.status, code: error.code, err: error.cause }, 'outside failure answered with a problem');
    return problemResponse(error, path);
  }
  logger.error({ reqId: requestId, err: error, path }, 'unhandled error in route handler');
  return problemResponse(new ProblemError(500, 'internal_error', 'Internal error', 'The server failed to answer this request; it has been logged.'), path);
}

/** Reads a POST's body within `limit` and calls `done` once: with the bytes, or with what stopped it (the 413 problem, the stream's error). */
export type BodyReader = (limit: number, done: (error: unknown, bytes?: Uint8Array) => void) => void;

/**
 * Runs the dynamic route for `request` and hands its answer to `reply`: a 405 for a path with routes
 * but not this method; for a POST, the head's checks, then the body from `readBody`; then the
 * handler. The answer is handed over as soon as it exists, a promise only for an asynchronous
 * handler. Returns false, calling nothing, when no dynamic route has this path (the caller then
 * tries static files and pages). Each front door reads bodies its own way; the steps are these.
 */
export function dispatch(request: RouteRequest, readBody: BodyReader, reply: (answer: SerializedResponse | Promise<SerializedResponse>) => void): boolean {
  const found = findRoute(request.method, request.path);
  if (!found) return false;
  if ('answer' in found) reply(found.answer);
  else if (found.route.method !== 'POST') reply(answerRoute(found, request));
  else {
    const refused = refusedPostHead(request);
    if (refused) reply(refused);
    else readBody(MAX_BODY_BYTES, (error, bytes) => reply(error === undefined ? answerRoute(found, request, bytes) : failure(error, request)));
  }
  return true;
}

/** `dispatch` for a front door that reads bodies as promises (Astro's endpoint): the answer, or undefined when no dynamic route has this path. */
export function dispatchApi(request: IncomingApiRequest): Promise<SerializedResponse | undefined> {
  return new Promise((resolve) => {
    const readBody: BodyReader = (limit, done) => void request.readBody(limit).then((bytes) => done(undefined, bytes), (error: unknown) => done(error));
    if (!dispatch(request, readBody, resolve)) resolve(undefined);
  });
}
