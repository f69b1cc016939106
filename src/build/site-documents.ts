/**
 * The site's own content as plain-text documents for retrieval: every human page (its title,
 * description and the routes it shows), every static descriptor body (the JSON built from
 * `content/`), what the pages show as data, in sentences composed from the same bodies
 * (data-sentences.ts), what each POST route takes as its body (cited by its section of the API
 * reference), and the error code list. Built from the same route table and builders that
 * produce `dist/client`, so the assistant quotes what the site serves (the data sentences in words
 * of their own, the values as served); and the assistant's terms, in sentences, from the running
 * configuration.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dataSentences, requestBodySentences } from './data-sentences.ts';
import { markdownCorpus } from './markdown-documents.ts';
import { humanPages } from './human-pages.ts';
import { staticDocuments } from './static-documents.ts';
import { siteUrl } from '../config/site.ts';
import { referenceHref } from '../catalogue/lookup.ts';
import { builtFactDocuments, termsFactDocument } from './fact-documents.ts';
import { ANSWER_INDEX_FILE, answerIndexData, indexSentencesOf } from './answer-index-file.ts';
import type { AnswerIndexData } from '../domain/assistant/answer-index.ts';
import type { AnswerIndexSource } from '../services/answer-index.ts';
import { buildLlmsFullTxt } from '../descriptors/agent-conventions.ts';
import { allRoutes, routeById } from '../routes/table.ts';
import type { StaticRoute } from '../routes/types.ts';

export interface SiteDocument {
  id: string;
  title: string;
  url: string;
  /** Prose, one passage per line. */
  text: string;
  /** For each line, the words a question may ask for it by that it does not write (a fact's, a table row's header); absent for plain prose. */
  cues?: Array<string[] | null>;
  /** The questions the document answers as a whole, in the words people ask them (a section of docs/faq.md). */
  asked?: string[];
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

/**
 * `llms-full.txt` cut at its headings, one document per section (an endpoint with its statuses, the
 * policy reason codes, the guardrails), cited by the section's human page when it names one. Its
 * commands and bare URLs are left out: they are not sentences.
 */
function llmsFullSections(text: string): SiteDocument[] {
  const sections: SiteDocument[] = [];
  let current: { title: string; lines: string[] } | undefined;
  let inCode = false;
  const close = () => {
    if (!current || current.lines.length === 0) return;
    const page = current.lines.find((line) => line.startsWith('Human page: '))?.slice('Human page: '.length);
    const lines = current.lines.filter((line) => !/^(?:Human page|URL|Request schema|Response schema|Schema): /.test(line));
    sections.push({ id: `llms:${sections.length}`, title: current.title, url: page ?? siteUrl('/llms-full.txt'), text: lines.join('\n') });
  };
  for (const raw of text.split('\n')) {
    if (raw.startsWith('```')) {
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    const heading = /^#{1,3} (.+)$/.exec(raw);
    if (heading) {
      close();
      current = { title: heading[1]!, lines: [] };
      continue;
    }
    const line = raw.replace(/^[-*] /, '').trim();
    if (current && line && !/^https?:\/\/\S+$/.test(line)) current.lines.push(line);
  }
  close();
  return sections;
}

/**
 * Where the build writes `builtDocuments()`, beside the server bundle: building them takes the route
 * table's builders, the OpenAPI document among them, hundreds of milliseconds of the event loop that
 * a server just started owes to its first requests.
 */
export const DOCS_CORPUS_FILE = 'docs-corpus.json';

/** The documents a build fixes: pages, descriptors, llms-full.txt sections, the README and docs/*.md by section, and error codes. */
export function builtDocuments(): SiteDocument[] {
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
  for (const { routeId, sentences } of dataSentences()) {
    const route = routeById().get(routeId)!;
    documents.push({ id: `data:${route.path}`, title: route.summary, url: siteUrl(route.page ?? route.path), text: sentences.join('\n') });
  }
  const bodySentences = Map.groupBy(requestBodySentences(), ({ routeId }) => routeId);
  for (const [routeId, sentences] of bodySentences) {
    const route = routeById().get(routeId)!;
    documents.push({ id: `api:${routeId}`, title: `${route.method} ${route.path}`, url: siteUrl(referenceHref(routeId)), text: sentences.map(({ sentence }) => sentence).join('\n') });
  }
  documents.push(...llmsFullSections(buildLlmsFullTxt()));
  documents.push(...markdownCorpus());
  documents.push(...builtFactDocuments());
  return documents;
}

/** Every document, built now from the route table (tests, the assistant evaluation). */
export function siteDocuments(): SiteDocument[] {
  return [...builtDocuments(), termsFactDocument()];
}

/**
 * The documents a running entry serves from: the build's corpus file beside the bundle when there is
 * one (an entry bundled into `dist/server`), else built now (an entry run from source), with the
 * terms of this process's configuration. One function, so the site and an in-process MCP host share
 * one index.
 */
export function servedDocuments(): SiteDocument[] {
  const file = new URL(DOCS_CORPUS_FILE, import.meta.url);
  const built = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SiteDocument[]) : builtDocuments();
  return [...built, termsFactDocument()];
}

/** The assistant's index of the site as it is now (tests, the assistant evaluation): its sentences, and this process's terms added. */
export function siteAnswerIndex(): AnswerIndexSource {
  const terms = termsFactDocument();
  const data = answerIndexData(builtDocuments(), [terms]);
  return { data, extra: indexSentencesOf([terms], new Set(), data.documents.length) };
}

/**
 * The index a running entry answers from: the build's file beside the bundle when there is one,
 * else built now; with this process's terms. One function, so the site and an in-process MCP host
 * share one index.
 */
export function servedAnswerIndex(): AnswerIndexSource {
  const file = new URL(ANSWER_INDEX_FILE, import.meta.url);
  if (!existsSync(file)) return siteAnswerIndex();
  const data = JSON.parse(readFileSync(file, 'utf8')) as AnswerIndexData;
  return { data, extra: indexSentencesOf([termsFactDocument()], new Set(), data.documents.length) };
}
