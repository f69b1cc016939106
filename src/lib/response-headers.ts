/**
 * Headers every response carries, in one place: security headers for browsers and CORS so browser
 * agents can read the public JSON. The API is public and credential-free, so `*` is safe here.
 * Scripts come only from this origin, never inline; `'wasm-unsafe-eval'` lets the site search
 * (Pagefind) compile its WebAssembly index reader and allows no JavaScript eval.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'",
  'cross-origin-opener-policy': 'same-origin',
};

export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'etag, link, retry-after, ratelimit, ratelimit-policy, x-request-id, payment-required, payment-response',
};

/** Added to CORS_HEADERS on a preflight answer. */
export const CORS_PREFLIGHT_EXTRA_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, if-none-match, payment-signature',
  'access-control-max-age': '86400',
};
