/**
 * The site's own content as plain-text documents for retrieval: every human page (its title,
 * description and the routes it shows), every static descriptor body (the JSON built from
 * `content/`) and the error code list. Built from the same route table and builders that produce
 * `dist/client`, so the assistant quotes exactly what the site serves.
 */
import { humanPages } from './human-pages.ts';
import { staticDocuments } from './static-documents.ts';
import { siteUrl } from '../config/site.ts';
import { PROBLEM_CODES } from '../lib/problem-codes.ts';
import { allRoutes } from '../routes/table.ts';
import type { StaticRoute } from '../routes/types.ts';

export interface SiteDocument {
  id: string;
  title: string;
  url: string;
  /** Prose, one passage per line. */
  text: string;
}

/**
 * Whether a string reads as prose. URLs, ids and single words carry nothing to quote, and example
 * payloads, commands and hex dumps (JSON in a string, `curl ...`) only drown the sentences that
 * explain them.
 */
function isProse(text: string): boolean {
  if (text.length < 12 || !text.includes(' ') || /^https?:\/\//.test(text) || /^[[{]/.test(text)) return false;
  if (/[0-9a-f]{32}/i.test(text)) return false;
  const letters = text.match(/[\p{L}\s]/gu)?.length ?? 0;
  return letters / text.length >= 0.8;
}

/** Strings of a JSON body that read as prose. */
function proseOf(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') {
    const text = value.trim();
    if (isProse(text)) out.push(text.replace(/\s+/g, ' '));
  } else if (Array.isArray(value)) {
    for (const item of value) proseOf(item, out);
  } else if (value && typeof value === 'object') {
    for (const child of Object.values(value)) proseOf(child, out);
  }
  return out;
}

export function siteDocuments(): SiteDocument[] {
  const documents: SiteDocument[] = [];
  for (const page of humanPages()) {
    const lines = [page.description, ...page.routes.map(({ route }) => `${route.method} ${route.path}: ${route.summary}. ${route.description}`)];
    documents.push({ id: `page:${page.path}`, title: page.title, url: siteUrl(page.path), text: lines.join('\n') });
  }
  const bodies = new Map(staticDocuments().map((document) => [document.path, document.body]));
  const descriptors = allRoutes().filter(
    (route): route is StaticRoute => route.kind === 'static' && !route.mirrorOf && route.host !== 'mcp' && route.schema !== undefined && (route.contentType ?? 'application/json').includes('json'),
  );
  for (const route of descriptors) {
    const body = bodies.get(route.path);
    if (body === undefined) continue;
    const prose = [...new Set(proseOf(JSON.parse(body), []))];
    if (prose.length === 0) continue;
    documents.push({ id: `json:${route.path}`, title: route.summary, url: siteUrl(route.path), text: prose.join('\n') });
  }
  documents.push({
    id: 'page:/problems/',
    title: 'Errors',
    url: siteUrl('/problems/'),
    text: PROBLEM_CODES.map((entry) => `${entry.code} (${entry.status}, ${entry.where}): ${entry.meaning}`).join('\n'),
  });
  return documents;
}
