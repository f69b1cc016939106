/**
 * Full-text search over this site's own content: the MCP `search_docs` tool and the assistant's
 * `docs` model provider retrieve from this one index, so an answer cites what a search finds. The
 * corpus is the site's own documents (every human page, every static descriptor's prose and the
 * error codes: src/build/site-documents.ts), cut into passages and indexed once per process
 * on first use with MiniSearch (BM25 with prefix and light fuzzy matching); nothing is read from
 * the network.
 *
 * The entries (the server, the MCP host) hand the corpus in with `useCorpus`: the documents come
 * from the route table, which binds the assistant, which asks this index, so importing them here
 * would close a circle.
 */
import MiniSearch from 'minisearch';
import { stem, wordsAndPartsOf, wordsOf } from '../domain/assistant/question-terms.ts';
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
  sentencesBuilt = undefined;
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

/** One sentence of a document, the unit an extractive answer quotes. */
export interface DocsSentence {
  documentId: string;
  title: string;
  url: string;
  text: string;
  /** The stems of the sentence's words. */
  terms: ReadonlySet<string>;
  /** The stems of its page's title. */
  titleTerms: ReadonlySet<string>;
}

export interface SentenceIndex {
  sentences: readonly DocsSentence[];
  /** How many sentences hold each stem. */
  frequency: ReadonlyMap<string, number>;
  /** BM25 over the sentences (text, and the page title at a lower weight), on the same stems. */
  search: MiniSearch<{ id: number; text: string; title: string }>;
}

/** A full stop ends a sentence when a capital, a digit, a backtick or a quote follows; abbreviations (e.g., i.e.) do not end one. */
const SENTENCE_END = /(?<!\b(?:e\.g|i\.e|etc|vs))([.!?])\s+(?=[A-Z0-9`"(])/g;

/** A sentence this short leads into the next ("Step 2 of the paid turn."), which says what it means: the two are quoted together. */
const LEAD_IN_WORDS = 8;

export function sentencesOf(line: string): string[] {
  const sentences: string[] = [];
  let lead = '';
  for (const part of line.replace(SENTENCE_END, '$1\n').split('\n')) {
    const sentence = `${lead}${part.trim()}`;
    lead = '';
    if (wordsOf(part).length < LEAD_IN_WORDS) {
      lead = `${sentence} `;
      continue;
    }
    sentences.push(sentence);
  }
  if (lead.trim()) sentences.push(lead.trim());
  return sentences.filter((sentence) => sentence.length >= 12);
}

/** Lines up to this long are quoted whole (measured on the evaluation set: 27 answered of 87 against 24 sentence by sentence, before identifiers were split). */
const WHOLE_LINE_CHARACTERS = 400;

/** A sentence of fewer words is a label (a heading, a link text), not something to quote. */
const MIN_SENTENCE_WORDS = 4;

/** The stems of the words of `text` and of the parts of its identifiers. */
export const stemsOf = (text: string) => new Set(wordsAndPartsOf(text).map(stem));

let sentencesBuilt: SentenceIndex | undefined;

/** Every sentence of the corpus with its stems, and how common each stem is; built once per corpus. */
export function sentenceIndex(): SentenceIndex {
  sentencesBuilt ??= indexSentences(corpusReader()());
  return sentencesBuilt;
}

/** How long the background build works before the loop turns: each step is well under it. */
const BUILD_SLICE_MS = 4;

/**
 * Builds both indexes of the corpus with the event loop turning every BUILD_SLICE_MS, for a server
 * that warms up while it answers: built at once they held the loop 65 and 100 ms (177 ms in all
 * under load, one second after a restart, so every request of that moment waited for it). A search
 * made meanwhile builds what it needs at once, and that build is kept; a corpus changed meanwhile
 * is left to be built on use.
 */
export async function buildDocsIndexesInTurns(turn: TurnTaker = turnTaker(BUILD_SLICE_MS)): Promise<void> {
  const read = corpusReader();
  const documents = read();
  const passages = built ?? (await runInTurns(passageIndexSteps(documents), turn));
  if (corpus === read) built ??= passages;
  const sentences = sentencesBuilt ?? (await runInTurns(sentenceIndexSteps(documents), turn));
  if (corpus === read) sentencesBuilt ??= sentences;
}

/** The sentence index of `documents`. */
export function indexSentences(documents: readonly CorpusDocument[]): SentenceIndex {
  return runAtOnce(sentenceIndexSteps(documents));
}

/** The sentence index of `documents`, yielding after each sentence is read and after each is indexed. */
function* sentenceIndexSteps(documents: readonly CorpusDocument[]): Generator<void, SentenceIndex> {
  const sentences: DocsSentence[] = [];
  const seen = new Set<string>();
  for (const document of documents) {
    const titleTerms = stemsOf(document.title);
    for (const line of document.text.split('\n')) {
      // A short line (a reason code and its meaning, a status and what it says) is quoted whole; a long one sentence by sentence.
      for (const text of line.length <= WHOLE_LINE_CHARACTERS ? [line.trim()] : sentencesOf(line)) {
        // The same sentence on two pages is quoted from the first (pages come before descriptors);
        // labels and questions (a review pack's open questions) are not answers.
        if (seen.has(text) || text.endsWith('?') || wordsOf(text).length < MIN_SENTENCE_WORDS) continue;
        seen.add(text);
        sentences.push({ documentId: document.id, title: document.title, url: document.url, text, terms: stemsOf(text), titleTerms });
        yield;
      }
    }
  }
  const frequency = new Map<string, number>();
  for (const sentence of sentences) for (const term of sentence.terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const search = new MiniSearch<{ id: number; text: string; title: string }>({
    fields: ['text', 'title'],
    tokenize: wordsAndPartsOf,
    processTerm: stem,
    searchOptions: { boost: { text: 1, title: 0.4 }, combineWith: 'OR' },
  });
  for (const [id, sentence] of sentences.entries()) {
    search.add({ id, text: sentence.text, title: sentence.title });
    yield;
  }
  return { sentences, frequency, search };
}
