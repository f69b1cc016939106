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

/**
 * The class of a code element: `token` for a long value (`isToken`), which a table lets wrap anywhere
 * (Base.astro); none for a short one, which reads as a word and keeps its line.
 */
export const codeClass = (text: string): 'token' | undefined => (isToken(text) ? 'token' : undefined);

/**
 * A long value (a path, a URL, an id) in pieces each ending after a separator (`/`, `_`, `.`): shown
 * with a `<wbr>` between them, it wraps there first, and inside a piece only where a piece alone is
 * too wide for its column (`question_` over `matches_quote`, never `question_match` over `es_quote`).
 */
export const wrapPieces = (text: string): string[] => text.split(/(?<=[/_.])/);

/** A run of descriptor prose as pages set it: words, or code. */
export interface ProsePart {
  text: string;
  code: boolean;
}

/**
 * Descriptor prose in runs: `backticked` words are code, and so is a long value written bare (a hash,
 * a key, a path, a field path: `isToken`), its surrounding brackets and punctuation left as text. Set
 * as code, such a value may wrap anywhere; as text it cannot, and a hash in a sentence would widen a
 * table's column until the table no longer fits (tests/e2e/tables.spec.ts).
 */
export function proseParts(text: string): ProsePart[] {
  const parts: ProsePart[] = [];
  const add = (run: string, code: boolean) => {
    if (run === '') return;
    const last = parts.at(-1);
    if (last && !last.code && !code) last.text += run;
    else parts.push({ text: run, code });
  };
  text.split('`').forEach((chunk, index) => {
    if (index % 2 === 1) return add(chunk, true);
    for (const word of chunk.split(/(\s+)/)) {
      const [, before = '', core = '', after = ''] = /^([("'“‘[]*)(.*?)([)"'”’\].,;:!?]*)$/su.exec(word) ?? [];
      // A word with a plural in brackets, `confirmation(s)`, is a word.
      if (!isToken(core) || /^[\p{L}'’()-]+$/u.test(core)) {
        add(word, false);
        continue;
      }
      add(before, false);
      add(core, true);
      add(after, false);
    }
  });
  return parts;
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
