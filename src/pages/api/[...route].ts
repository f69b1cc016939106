/**
 * The same dynamic routes under Astro's pipeline (`astro dev`, and any host that runs Astro alone):
 * one endpoint hands every /api request to the route table's dispatcher, so there is one
 * implementation whichever front door a request comes through.
 */
import type { APIRoute } from 'astro';
import { dispatchApi, problemResponse } from '../../server/dispatch.ts';
import { tooLarge } from '../../lib/json-body.ts';
import { ProblemError } from '../../lib/problem-error.ts';

export const prerender = false;

export const ALL: APIRoute = async ({ request, clientAddress }) => {
  const url = new URL(request.url);
  const response =
    (await dispatchApi({
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      headers: Object.fromEntries(request.headers),
      clientIp: clientAddress,
      readBody: async (limit) => {
        const bytes = new Uint8Array(await request.arrayBuffer());
        if (bytes.byteLength > limit) throw tooLarge();
        return bytes;
      },
    })) ?? problemResponse(new ProblemError(404, 'not_found', 'Not found', `No endpoint at ${url.pathname}.`), url.pathname);
  return new Response(typeof response.body === 'string' ? response.body : Buffer.from(response.body), { status: response.status, headers: response.headers });
};
