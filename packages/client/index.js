// The client is openapi-fetch itself; what this package adds is the types (schema.d.ts), generated
// from the site's OpenAPI document by `npm run client:generate`.
import createClient from 'openapi-fetch';

/**
 * A client for one deployment of the proof surface.
 * @param {{ baseUrl: string, fetch?: typeof fetch, headers?: Record<string, string> }} options
 */
export function createAgentEconomyClient({ baseUrl, ...options }) {
  if (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl)) throw new TypeError('createAgentEconomyClient: baseUrl must be an http(s) URL, e.g. https://proof.example');
  return createClient({ baseUrl: baseUrl.replace(/\/+$/, ''), ...options });
}
