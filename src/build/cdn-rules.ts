/**
 * What a CDN serving `dist/client` alone needs to answer as this server does: its `_headers` (the
 * format Cloudflare Pages and Netlify read), made from the table this server's own static answers
 * are made from (src/lib/response-headers.ts), and the paths it must forward to the runtime, made
 * from the route catalogue. tests/integration/cdn-rules.test.ts reads the written `_headers` the way
 * Cloudflare Pages does and compares it, file by file, with what the built server sends.
 */
import { catalogue } from '../catalogue/index.ts';
import { extname } from 'node:path';
import { CONTENT_TYPES } from '../lib/content-types.ts';
import { CORS_HEADERS, SECURITY_HEADERS, securityHeadersFor, STATIC_CACHE, staticCacheControlFor } from '../lib/response-headers.ts';

/** Cloudflare Pages reads at most this many rules of `_headers`; the build fails past it rather than ship rules a CDN drops. */
export const CDN_HEADER_RULES_LIMIT = 100;

/** A file of `dist/client` at the URL path it is served at, with its content type and its own headers (a descriptor's `Link`). */
export interface CdnFile {
  path: string;
  contentType: string;
  headers?: Readonly<Record<string, string>>;
}

interface Rule {
  pattern: string;
  /** `! name` (detach) or `name: value`, in order. */
  lines: string[];
}

/** The headers this server sends with the file, beyond the transport's (ETag, length, encoding). */
function headersOf(file: CdnFile): Map<string, string> {
  return new Map(Object.entries({ ...securityHeadersFor(file.contentType), ...CORS_HEADERS, 'cache-control': staticCacheControlFor(file.path), 'content-type': file.contentType, ...file.headers }));
}

/** A rule's path with a splat (`*`) matches any rest there, as Cloudflare Pages' rules engine reads it. */
const patternOf = (pattern: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/**
 * The headers `rules` give `path` on Cloudflare Pages: every matching rule in order, each first
 * detaching what it names with `!`, a header set twice joined with a comma.
 */
export function headersByRules(rules: readonly Rule[], path: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const rule of rules) {
    if (!patternOf(rule.pattern).test(path)) continue;
    for (const line of rule.lines) {
      if (line.startsWith('!')) {
        headers.delete(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const [name, value] = [line.slice(0, colon), line.slice(colon + 2)];
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
  }
  return headers;
}

const linesOf = (headers: Iterable<[string, string]>) => [...headers].map(([name, value]) => `${name}: ${value}`);

/** What a rule after `rules` must say for `file` to get `wanted`: each header that differs, detached first where `rules` set it. */
function overrides(rules: readonly Rule[], file: CdnFile, wanted: Map<string, string>): string[] {
  const given = headersByRules(rules, file.path);
  return [...wanted].filter(([name, value]) => given.get(name) !== value).flatMap(([name, value]) => [...(given.has(name) ? [`! ${name}`] : []), `${name}: ${value}`]);
}

/** A path's extension; a page's folder path (`/docs/`) ends with its slash, which a rule can name (`/*\/`). */
const endingOf = (path: string) => (path.endsWith('/') ? '/' : extname(path));
const typeByEnding = (ending: string): string | undefined => CONTENT_TYPES[ending === '/' ? '.html' : ending];

/** Files of one folder whose names end alike (`/agent-economy/*.schema.v0.json`), which one rule may serve; a name without a dot has none. */
function groupPatternOf(path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  const dot = path.indexOf('.', slash + 2);
  return dot === -1 ? undefined : `${path.slice(0, slash + 1)}*${path.slice(dot)}`;
}

/**
 * `_headers` (Cloudflare Pages' and Netlify's format) giving every file of `files` the headers this
 * server sends with it: a site-wide rule (the page policy, CORS, five minutes then revalidate), the
 * fingerprinted assets (kept for ever), one rule per extension (its content type, and the data
 * policy for JSON), then what still differs: one rule per group of files of one folder whose names
 * end alike when no other file matches it, otherwise one per file. Checked before it is returned.
 */
export function cdnHeaders(files: readonly CdnFile[]): string {
  const wanted = new Map(files.map((file) => [file.path, headersOf(file)]));
  const rules: Rule[] = [
    { pattern: '/*', lines: linesOf(Object.entries({ ...SECURITY_HEADERS, ...CORS_HEADERS, 'cache-control': STATIC_CACHE.revalidated })) },
    { pattern: `${STATIC_CACHE.immutablePrefix}*`, lines: ['! cache-control', `cache-control: ${STATIC_CACHE.immutable}`] },
  ];
  const extensions = [...new Set(files.map((file) => endingOf(file.path)).filter(Boolean))].filter((ending) => typeByEnding(ending)).sort();
  for (const ending of extensions) {
    const example = { path: `/a${ending}`, contentType: typeByEnding(ending)! };
    rules.push({ pattern: `/*${ending}`, lines: overrides(rules, example, headersOf(example)) });
  }
  const pending = files.map((file) => ({ file, lines: overrides(rules, file, wanted.get(file.path)!) })).filter(({ lines }) => lines.length > 0);
  const groups = Map.groupBy(pending, ({ file, lines }) => `${groupPatternOf(file.path) ?? file.path}\n${lines.join('\n')}`);
  for (const [key, members] of groups) {
    const pattern = key.slice(0, key.indexOf('\n'));
    const matched = files.filter((file) => patternOf(pattern).test(file.path));
    const alone = members.length > 1 && matched.length === members.length;
    for (const { file, lines } of alone ? [members[0]!] : members) rules.push({ pattern: alone ? pattern : file.path, lines });
  }
  for (const file of files) {
    const given = headersByRules(rules, file.path);
    const missed = [...wanted.get(file.path)!].filter(([name, value]) => given.get(name) !== value);
    if (missed.length || given.size !== wanted.get(file.path)!.size) throw new Error(`static build: the CDN rules would not give ${file.path} its headers (${missed.map(([name]) => name).join(', ') || 'one too many'}): src/build/cdn-rules.ts`);
  }
  if (rules.length > CDN_HEADER_RULES_LIMIT) {
    throw new Error(`static build: _headers would hold ${rules.length} rules, past the ${CDN_HEADER_RULES_LIMIT} Cloudflare Pages reads: src/build/cdn-rules.ts`);
  }
  const text = rules.map(({ pattern, lines }) => [pattern, ...lines.map((line) => `  ${line}`)].join('\n')).join('\n');
  return `# Written by the build from src/lib/response-headers.ts: what this site's server sends for the same files.\n${text}\n`;
}

/** The receipt page, filled from a template by the server for each receipt (src/server/fast-entry.ts). */
const RECEIPT_PAGES = 'GET /receipt/*';

/**
 * What a CDN in front of `dist/client` forwards to the runtime, one `METHOD path` a line, a `*`
 * ending a path's beginning: every dynamic route of the site in the catalogue (a route with
 * parameters by its path up to its first one) and the receipt pages. A path with a static GET and
 * a runtime POST (`/api/jobs/quote`: its descriptor, and the quote) is listed for POST only.
 */
export function runtimePaths(): string[] {
  const lines = catalogue()
    .filter((entry) => (entry.host ?? 'site') === 'site' && entry.kind === 'dynamic')
    .map(({ method, path }) => `${method} ${path.includes('{') ? `${path.slice(0, path.indexOf('{'))}*` : path}`);
  const unique = [...new Set([...lines, RECEIPT_PAGES])].sort();
  // A line a wider pattern of the same method covers is not listed again.
  const covered = (line: string, other: string) => other !== line && other.endsWith('*') && line.startsWith(other.slice(0, -1));
  return unique.filter((line) => !unique.some((other) => covered(line, other)));
}
