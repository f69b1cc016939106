import { runtimeApart, site } from '../config/site.ts';

/**
 * Headers every response carries, in one place: security headers for browsers and CORS so browser
 * agents can read the public JSON. The API is public and credential-free, so `*` is safe here.
 * Pages, pictures and assets get the page policy: scripts only from this origin, never inline;
 * `'wasm-unsafe-eval'` lets the site search (Pagefind) and the receipt page compile their
 * WebAssembly, and allows no JavaScript eval. A JSON answer is data, never a document: its policy
 * lets it load nothing and be framed nowhere (OWASP's headers for REST answers), in 41 characters
 * where the page policy takes 230 on every answer.
 */
// Pages fetch the runtime where it answers apart (SITE_RUNTIME_URL): only that origin is added.
const connectSources = ["'self'", ...(runtimeApart() ? [new URL(site.runtime_url!).origin] : [])].join(' ');
const PAGE_CSP = `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src ${connectSources}; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'`;
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

const securityHeaders = (csp: string): Readonly<Record<string, string>> => ({
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'content-security-policy': csp,
  'cross-origin-opener-policy': 'same-origin',
});

export const SECURITY_HEADERS = securityHeaders(PAGE_CSP);
export const DATA_SECURITY_HEADERS = securityHeaders(DATA_CSP);

/** JSON and problem+JSON answers, and answers without a body (204, 304, redirects). */
const isData = (contentType: string | undefined) => contentType === undefined || /^application\/(?:[\w.-]+\+)?json\b/i.test(contentType);

/** The security headers of an answer of `contentType`. */
export const securityHeadersFor = (contentType: string | undefined): Readonly<Record<string, string>> => (isData(contentType) ? DATA_SECURITY_HEADERS : SECURITY_HEADERS);

export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'etag, link, retry-after, ratelimit, ratelimit-policy, x-request-id, payment-required, payment-response',
};

/**
 * How long a static file of `dist/client` may be kept, by this server and by a CDN serving the same
 * folder (the build writes `_headers` from this): fingerprinted build assets never change under
 * their name; everything else for five minutes, then revalidated by its strong ETag.
 */
export const STATIC_CACHE = {
  immutablePrefix: '/_astro/',
  immutable: 'public, max-age=31536000, immutable',
  revalidated: 'public, max-age=300, must-revalidate',
} as const;

/** The Cache-Control of the static file at `urlPath`. */
export const staticCacheControlFor = (urlPath: string): string => (urlPath.startsWith(STATIC_CACHE.immutablePrefix) ? STATIC_CACHE.immutable : STATIC_CACHE.revalidated);

/**
 * Added to CORS_HEADERS on a preflight answer. An A2A client in a page sends its service parameters
 * (`A2A-Version`, `A2A-Extensions`, 0.3's `X-A2A-Extensions`) and its task owner credential
 * (`Authorization`), which no wildcard covers; no answer depends on a cookie, so a page of another
 * origin can send only a credential it already holds.
 */
export const CORS_PREFLIGHT_EXTRA_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, if-none-match, payment-signature, idempotency-key, authorization, a2a-version, a2a-extensions, x-a2a-extensions',
  'access-control-max-age': '86400',
};
