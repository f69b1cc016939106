/**
 * How descriptor data reads on a page: key names as words, our own absolute URLs as site paths (so
 * a page works on whatever host serves it), and which strings are commands to copy. Pure, shared by
 * the build-time renderer and the browser scripts, so live data reads like static data.
 */

/** Words that keep their own spelling when a key becomes a label. */
const WORDS: Record<string, string> = {
  api: 'API',
  apis: 'APIs',
  url: 'URL',
  urls: 'URLs',
  id: 'ID',
  ids: 'IDs',
  json: 'JSON',
  mcp: 'MCP',
  caip: 'CAIP',
  erg: 'ERG',
  nanoerg: 'nanoERG',
  openapi: 'OpenAPI',
  dns: 'DNS',
  http: 'HTTP',
  npm: 'npm',
  ms: 'ms',
  tx: 'transaction',
  a2a: 'A2A',
};

/** `latest_full_receipt_id` -> `Latest full receipt ID`; camelCase keys split too. */
export function humanize(key: string): string {
  const words = key
    .replace(/NanoErg/g, 'Nanoerg')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => WORDS[word.toLowerCase()] ?? word.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An http(s) URL without template placeholders, i.e. one a link can open. */
export function isLinkable(value: string): boolean {
  return /^https?:\/\/[^\s{}]+$/.test(value);
}

/**
 * The href to use for a URL: a URL on this site becomes its path, so the page works behind any host
 * or port; every other URL is kept.
 */
export function localHref(url: string, baseUrl: string): string {
  if (url === baseUrl) return '/';
  return url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url;
}

/** A value that is an identifier, a hash or a pattern rather than words: shown as code, which may break anywhere. */
export function isToken(value: string): boolean {
  return value.length >= 12 && !/\s/.test(value) && /[^\p{L}'’.,-]/u.test(value);
}

/** Strings shown as copyable commands rather than prose. */
export function isCommand(key: string, value: string): boolean {
  // Prose that quotes a command (`npm install ...`) is prose.
  if (value.includes('`')) return false;
  return /(^|_)(command|curl|install|commands)$/.test(key) || /^(curl|npx|npm|node|RECEIPT_ID=|QUOTE=) /.test(value);
}

/** Keys every typed descriptor carries; pages show them in one line instead of a section each. */
export const HEADER_KEYS = new Set(['ok', 'type', 'version', 'status', 'last_updated', 'posture']);

/** Keys whose text introduces a descriptor: shown as the lead paragraph. */
export const LEAD_KEYS = new Set(['description', 'summary', 'recommended_summary']);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const isPrimitive = (value: unknown): value is string | number | boolean | null =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** An array of flat objects reads best as a table: same kind of rows, few columns, no nesting beyond lists of words. */
export function isTabular(values: unknown[]): values is Array<Record<string, Json>> {
  if (values.length === 0 || !values.every((item) => item && typeof item === 'object' && !Array.isArray(item))) return false;
  const columns = new Set(values.flatMap((item) => Object.keys(item as object)));
  if (columns.size > 6) return false;
  return values.every((item) =>
    Object.values(item as object).every((cell) => isPrimitive(cell) || (Array.isArray(cell) && cell.every(isPrimitive) && cell.length <= 8)),
  );
}

/** The column names of a tabular array, in first-seen order. */
export function columnsOf(values: Array<Record<string, unknown>>): string[] {
  return [...new Set(values.flatMap((item) => Object.keys(item)))];
}

/** A short title for an object shown as a card: its label, title, name or id. */
export function cardTitle(value: Record<string, unknown>): string | undefined {
  for (const key of ['label', 'title', 'name', 'id', 'code', 'check']) {
    if (typeof value[key] === 'string') return value[key] as string;
  }
  return undefined;
}
