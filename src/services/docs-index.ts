/**
 * Full-text search over this site's own content for the MCP `search_docs` tool: the site's own
 * documents (every human page, every static descriptor's prose, the README and docs, the error
 * codes: src/build/site-documents.ts), cut into passages and indexed once per process with
 * MiniSearch (BM25 with prefix and light fuzzy matching); nothing is read from the network. The
 * assistant answers from its own index of the same documents (services/answer-index.ts).
 *
 * The entries (the server, the MCP host) hand the corpus in with `useCorpus`: the documents come
 * from the route table, which binds the assistant, which asks this index, so importing them here
 * would close a circle.
 */
import MiniSearch from 'minisearch';
import { runAtOnce, runInTurns, turnTaker, type TurnTaker } from '../lib/loop-turns.ts';

/** A document of the corpus. */
export interface CorpusDocument {
  id: string;
  title: string;
  url: string;
  text: string;
}

let corpus: (() => readonly CorpusDocument[]) | undefined;

/**
 * Where the corpus comes from; a new source drops the index built from the previous one. The same
 * source again (the site and an in-process MCP host both name it) keeps the index.
 */
export function useCorpus(read: () => readonly CorpusDocument[]): void {
  if (corpus === read) return;
  corpus = read;
  built = undefined;
}

/** One retrievable passage: a few lines of one document, small enough to quote. */
export interface DocsPassage {
  id: number;
  /** Id of the site document it comes from. */
  documentId: string;
  title: string;
  url: string;
  text: string;
}

export interface DocsHit extends DocsPassage {
  /** BM25 relevance; comparable within one search only. */
  score: number;
  /** Matched query terms as found in the index. */
  terms: string[];
}

/** Documents longer than this are cut at line ends, so one hit quotes one topic rather than a whole descriptor. */
const PASSAGE_CHARACTERS = 1200;
const EXCERPT_CHARACTERS = 240;

/** Groups a document's lines (one passage of prose each) into pieces of about PASSAGE_CHARACTERS. */
function chunk(text: string): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const line of text.split('\n').map((item) => item.trim()).filter(Boolean)) {
    if (current && current.length + line.length + 1 > PASSAGE_CHARACTERS) {
      pieces.push(current);
      current = '';
    }
    current = current ? `${current} ${line}` : line;
  }
  if (current) pieces.push(current);
  return pieces;
}

function corpusReader(): () => readonly CorpusDocument[] {
  if (!corpus) throw new Error('docs index: no corpus: the entry must call useCorpus(servedDocuments) before the first search');
  return corpus;
}

interface PassageIndex {
  passages: DocsPassage[];
  index: MiniSearch<DocsPassage>;
}

/** The passage index of `documents`, yielding after each passage (a step of about a quarter of a millisecond). */
function* passageIndexSteps(documents: readonly CorpusDocument[]): Generator<void, PassageIndex> {
  const passages: DocsPassage[] = [];
  for (const document of documents) {
    for (const text of chunk(document.text)) passages.push({ id: passages.length, documentId: document.id, title: document.title, url: document.url, text });
  }
  const index = new MiniSearch<DocsPassage>({
    fields: ['title', 'text'],
    storeFields: ['title', 'url', 'text'],
    searchOptions: { boost: { title: 2 }, prefix: true, fuzzy: 0.15, combineWith: 'OR' },
  });
  for (const passage of passages) {
    index.add(passage);
    yield;
  }
  return { passages, index };
}

let built: PassageIndex | undefined;

function docsIndex(): PassageIndex {
  built ??= runAtOnce(passageIndexSteps(corpusReader()()));
  return built;
}

/** Every passage of the corpus (for a provider that wants to rank or quote them itself). */
export function docsPassages(): readonly DocsPassage[] {
  return docsIndex().passages;
}

/** The best passages for `query`, at most `limit`, best first; one passage per page. */
export function searchPassages(query: string, limit: number): DocsHit[] {
  const { index, passages } = docsIndex();
  const hits: DocsHit[] = [];
  const seen = new Set<string>();
  for (const result of index.search(query)) {
    const passage = passages[result.id as number]!;
    if (seen.has(passage.url)) continue;
    seen.add(passage.url);
    hits.push({ ...passage, score: result.score, terms: result.terms });
    if (hits.length === limit) break;
  }
  return hits;
}

/** The window of `text` around the first matched term, about EXCERPT_CHARACTERS long. */
export function excerptOf(text: string, terms: readonly string[]): string {
  const lower = text.toLowerCase();
  const positions = terms.map((term) => lower.indexOf(term.toLowerCase())).filter((at) => at >= 0);
  const at = positions.length ? Math.min(...positions) : 0;
  const start = Math.max(0, Math.min(at - 60, text.length - EXCERPT_CHARACTERS));
  const end = Math.min(text.length, start + EXCERPT_CHARACTERS);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/** Search results as the `search_docs` tool returns them: title, URL, excerpt and score. */
export function searchDocs(query: string, limit: number): Array<{ title: string; url: string; excerpt: string; score: number }> {
  return searchPassages(query, limit).map((hit) => ({
    title: hit.title,
    url: hit.url,
    excerpt: excerptOf(hit.text, hit.terms),
    score: Math.round(hit.score * 1000) / 1000,
  }));
}

/** How long the background build works before the loop turns: each step is well under it. */
const BUILD_SLICE_MS = 4;

/**
 * Builds the passage index of the corpus with the event loop turning every BUILD_SLICE_MS, for a
 * server that warms up while it answers: built at once it held the loop 65 ms, one second after a
 * restart. A search made meanwhile builds it at once, and that build is kept; a corpus changed
 * meanwhile is left to be built on use.
 */
export async function buildDocsIndexInTurns(turn: TurnTaker = turnTaker(BUILD_SLICE_MS)): Promise<void> {
  const read = corpusReader();
  const passages = built ?? (await runInTurns(passageIndexSteps(read()), turn));
  if (corpus === read) built ??= passages;
}
