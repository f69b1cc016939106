/**
 * The framework-free shape of a route handler. Both front doors, our `node:http` entry and the
 * Astro endpoint, turn a request into an ApiRequest and an ApiResponse back into bytes, so a
 * handler is written once and knows nothing of either.
 */
export interface ApiRequest {
  method: string;
  /** Path without query string, percent-decoding left to the route's params. */
  path: string;
  /** The path as the client sent it, where it differs from `path` (percent-escapes, dot segments resolved). */
  sentPath?: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
  /** Parsed JSON body for POST routes; undefined for GET. */
  body: unknown;
  clientIp: string;
  /** The id this request's log lines carry (echoed in `x-request-id`), where the front door has one. */
  requestId?: string;
}

export interface ApiResponse {
  status: number;
  /** Sent as JSON (a JsonText as its text), unless `contentType` is set: then it is the text of the body itself. */
  body: unknown;
  headers?: Record<string, string>;
  /** Media type of a body that is not JSON (an SVG picture). */
  contentType?: string;
}

/** Text from this length on is sent as bytes encoded once: see JsonText.sent. */
const SENT_AS_BYTES_FROM = 16 * 1024;

/** A JSON body serialized once and sent as it is to every request that shares it (an answer kept for seconds). */
export class JsonText {
  readonly text: string;
  #bytes: Buffer | undefined;
  constructor(text: string) {
    this.text = text;
  }

  /**
   * What goes on the wire. A large text is encoded to UTF-8 once, on its first sending, and the same
   * bytes handed to every request after: sent as a string, each request of a 500 KB reputation page
   * measured and copied it again, and the copies still queued on a slow socket outlived the young
   * generation and kept the old one collecting several times a second. A small text stays a string,
   * which node:http sends in one write with the head.
   */
  get sent(): string | Uint8Array {
    if (this.text.length < SENT_AS_BYTES_FROM) return this.text;
    return (this.#bytes ??= Buffer.from(this.text, 'utf8'));
  }
}

/** A response body as the value it stands for: a JsonText read back, anything else as it is (for callers that are not HTTP: the MCP host). */
export const bodyValue = (body: unknown): unknown => (body instanceof JsonText ? JSON.parse(body.text) : body);

export type Handler = (request: ApiRequest) => ApiResponse | Promise<ApiResponse>;

export const json = (status: number, body: unknown, headers?: Record<string, string>): ApiResponse => ({
  status,
  body,
  ...(headers ? { headers } : {}),
});

/** A body that is not JSON, sent as it is under its media type. */
export const text = (status: number, contentType: string, body: string | Uint8Array, headers?: Record<string, string>): ApiResponse => ({ status, body, contentType, ...(headers ? { headers } : {}) });
