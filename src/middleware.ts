/**
 * Security and CORS headers on every response Astro renders itself: the page for an unknown path,
 * and every route under `astro dev`. Static files and the route table's API are
 * answered by our `node:http` entry, which sends the same headers from the same constants.
 */
import { defineMiddleware } from 'astro:middleware';
import { CORS_HEADERS, securityHeadersFor } from './lib/response-headers.ts';

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  const headers = Object.entries({ ...securityHeadersFor(response.headers.get('content-type') ?? undefined), ...CORS_HEADERS });
  const missing = headers.filter(([name]) => !response.headers.has(name));
  if (missing.length === 0) return response;
  try {
    for (const [name, value] of missing) response.headers.set(name, value);
    return response;
  } catch {
    // Some responses (redirects, fetched ones) have immutable headers: answer a copy instead.
    const copy = new Response(response.body, response);
    for (const [name, value] of missing) copy.headers.set(name, value);
    return copy;
  }
});
