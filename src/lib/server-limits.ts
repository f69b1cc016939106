/**
 * What the site's server and the MCP host do about clients that are slow, stuck or malformed: the
 * same timeouts (SERVER_*_TIMEOUT_MS), and the same answer (408, 400, 413, 431) and close when
 * Node's parser gives up on a connection. One module, so the two servers cannot drift apart: the
 * MCP host once ran without a request timeout and held a connection whose body never came for as
 * long as the client liked (issue 36).
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerConfig } from '../config/server.ts';

/** How long a connection being closed may take to send what was written to it before it is cut. */
export const DRAIN_MS = 5_000;

/**
 * The node:http options that bound a client's time. `requestTimeout` covers receiving the request
 * only: an answer streamed for longer (an MCP event stream) is not cut by it. Node refuses a headers
 * timeout longer than the request timeout, so a short request timeout shortens it too.
 */
export function clientTimeoutOptions(limits: ServerConfig): Pick<http.ServerOptions, 'requestTimeout' | 'headersTimeout' | 'keepAliveTimeout' | 'connectionsCheckingInterval'> {
  const headersTimeout = Math.min(limits.SERVER_HEADERS_TIMEOUT_MS, limits.SERVER_REQUEST_TIMEOUT_MS);
  return {
    requestTimeout: limits.SERVER_REQUEST_TIMEOUT_MS,
    headersTimeout,
    keepAliveTimeout: limits.SERVER_KEEP_ALIVE_TIMEOUT_MS,
    // The default 30 s check would let a trickling client outlive its timeout by that much.
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  };
}

/** Destroys `socket` DRAIN_MS from now at the latest; returns the function that destroys it sooner. */
export function destroyedWithin(socket: Duplex): () => void {
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, DRAIN_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  return cut;
}

/** Node's own answers to a request it cannot parse (`_http_server.js`), by the parser's error code. */
const CLIENT_ERROR_ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};
const BAD_REQUEST_ANSWER = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

/** Connections being closed after a client error: the parser may report its error again as more bytes come. */
const closing = new WeakSet<Duplex>();

/**
 * A `clientError` listener: a connection whose next request cannot be parsed (or is too slow) is
 * closed, with Node's own answer when the connection's current answer has not begun. Node's default
 * does the same, but cannot see an answer about to be made for a request read whole in the same
 * read as the bad bytes after it (a POST whose body ended there): it would write its 400 in their
 * place, and the request that was fine got the 400. So a request read whole gets its own answer
 * before the connection closes; otherwise Node's rule is applied as Node applies it, reading the
 * same fields its default reads (no public API says whether an answer's bytes have gone out). The
 * connection is destroyed once what was written has gone out, within DRAIN_MS, rather than at once,
 * which could cut a large answer short.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (closing.has(socket)) return;
  closing.add(socket);
  if (!socket.writable) return void socket.destroy();
  socket.pause();
  // Bounded from now: an answer still being made does not keep the connection past DRAIN_MS.
  const cut = destroyedWithin(socket);
  const close = () => socket.end(cut);
  const current = (socket as Duplex & { _httpMessage?: http.ServerResponse & { _headerSent?: boolean } })._httpMessage;
  if (current && !current._headerSent && current.req.complete && !current.writableEnded) return void current.once('finish', close);
  if (!current?._headerSent) socket.write(CLIENT_ERROR_ANSWERS[error.code ?? ''] ?? BAD_REQUEST_ANSWER);
  close();
}
