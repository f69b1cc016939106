/**
 * Shell commands that descriptors publish (API recipes, flow steps, reproduction steps). They are
 * built from the route table and real request bodies, never typed by hand, so a recipe cannot point
 * at a path that moved or carry a body the endpoint would refuse.
 */
import { entryUrl } from '../catalogue/lookup.ts';
import { entryById } from '../catalogue/index.ts';

/** POSIX single-quoting: safe for any text, including JSON with quotes and `$`. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Absolute URL of a route on the host that serves it (the MCP host for `host: 'mcp'` routes). */
export function hostedRouteUrl(id: string): string {
  const route = entryById().get(id);
  if (!route) throw new Error(`route table: no route with id "${id}"`);
  return entryUrl(route);
}

/** `curl` GET of a URL; `-sS` keeps problem bodies visible instead of hiding them behind `-f`. */
export function curlGet(url: string): string {
  return `curl -sS ${shellQuote(url)}`;
}

/** `curl` POST of a JSON body, exactly as the endpoint expects it. */
export function curlPostJson(url: string, body: unknown): string {
  return `curl -sS -X POST ${shellQuote(url)} -H 'content-type: application/json' --data-binary ${shellQuote(JSON.stringify(body))}`;
}
