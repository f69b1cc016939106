/**
 * The default model provider: no language model at all, but extractive answers from the site's own
 * pages (the corpus of `src/services/docs-index.ts`, the same one the MCP `search_docs` tool reads).
 * The question's words, read with the domain's vocabulary (question-terms.ts), are matched against
 * every sentence of the site (a short line, such as a reason code with its meaning, counts as one):
 * a sentence scores by the share of the question it covers, each word weighted by how rare it is on
 * the site and a word in the page's title counting half, then by BM25 and by its brevity, and less
 * when it says little beyond the question's own words (a heading or link text restating it), more
 * when it names something concrete the question does not (a code, a field, a path, a number) or
 * belongs to the route the question names by its path (`verify-payment`). The
 * answer quotes the one to three sentences that cover the question best, each with the page it
 * comes from and none a near-copy of another, then links to read more. When no sentence covers more
 * than half of the question, it says the site does not answer it instead of quoting something unrelated.
 * A question asking only what a term of the glossary is ("What is a Note?") is answered with its one
 * definition there.
 * `npm run eval:assistant` measures it.
 */
import type { GlossaryTerm } from '../../../schemas/glossary.ts';
import { questionConcepts } from '../../domain/assistant/question-terms.ts';
import { termAsked } from '../../domain/assistant/term-asked.ts';
import { GLOSSARY } from '../../descriptors/glossary.ts';
import { sharedAnswers } from '../../lib/shared-answers.ts';
import { catalogue } from '../../catalogue/index.ts';
import { routeUrl } from '../../catalogue/lookup.ts';
import { siteUrl } from '../../config/site.ts';
import { searchPassages, sentenceIndex, stemsOf, type DocsHit, type DocsSentence, type SentenceIndex } from '../docs-index.ts';
import type { ModelAnswer, ModelProvider, ModelRequest } from './provider.ts';

export const DOCS_INDEX_NAME = 'site-docs-sentences';

/** Sentences quoted in one answer, and pages linked to read more. */
const MAX_SENTENCES = 3;
const MAX_READ_MORE = 3;
/**
 * The share of a question a sentence must cover more than to be quoted as its answer: more than
 * half, so that of "Where can I buy a used car?" the word the site knows a synonym of ("sold") is
 * not enough.
 */
const MIN_COVERAGE = 0.5;
/** Sentences after the first are quoted when they cover nearly as much of the question. */
const FOLLOWING_COVERAGE_GAP = 0.4;
/** A sentence whose stems are more than this share in one already quoted says nothing new (a heading, the same description on another page). */
const ALREADY_SAID = 0.8;
/** Stems beyond the question's own at which a sentence counts as saying something (tuned on the evaluation set: 10 to 20 answer 48 to 52 of 87, 16 the most). */
const CONTENT_STEMS = 16;
const MAX_SENTENCES_PER_PAGE = 2;
/** How long, and for how many questions, the sentences chosen for a question are kept (a premium quote lives 15 minutes by default). */
const CHOICE_KEPT_SECONDS = 900;
const CHOICES_KEPT = 256;
/** Characters at which a sentence's coverage counts half (tuned on the evaluation set, `npm run eval:assistant`). */
const LENGTH_SCALE = 300;

export interface ScoredSentence {
  sentence: DocsSentence;
  /** Weighted share of the question's concepts the sentence (or, at half weight, its page title) holds. */
  coverage: number;
  rank: number;
}

/** How many of a concept's alternatives a sentence holds: equal stems, or stems that begin with an alternative ending in `*`. */
const matchCount = (terms: ReadonlySet<string>, alternatives: readonly string[]) =>
  alternatives.filter((alternative) => (alternative.endsWith('*') ? [...terms].some((term) => term.startsWith(alternative.slice(0, -1))) : terms.has(alternative))).length;

/**
 * Something concrete a sentence names: code, a snake_case, SCREAMING_SNAKE or camelCase identifier
 * (nanoERG too: a unit's name), a word with digits in it (blake2b256), a number of three or more
 * digits and dots (410, 0.001), a path that stands on its own (not the `/json` of
 * application/json). A question asking what or which is answered by the sentence that names the
 * thing, not by the one that describes it in prose.
 */
const CONCRETE =
  /`[^`]+`|\b[a-z0-9]+_[a-z0-9_]+\b|\b[A-Z0-9]+_[A-Z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]+\b|\b[a-z]+\d+[a-z0-9]*\b|\b\d[\d.]+\d\b|(?<![\w/])\/[.a-z](?:[\w\-./{}]*[\w}/])?/g;
/** Rank added to a sentence that names something concrete beyond the question's own words (tuned on the evaluation set: when it came, 0.25 to 0.5 answered 56 of 87 and none 52). */
const NAMES_SOMETHING = 0.4;

/** The concrete names (CONCRETE) of each sentence text, lower case, found once rather than for every question (as many as the corpus has sentences). */
const namesOf = new Map<string, string[]>();
function concreteNames(text: string): string[] {
  let names = namesOf.get(text);
  if (!names) namesOf.set(text, (names = [...text.matchAll(CONCRETE)].map(([token]) => token.replace(/`/g, '').toLowerCase())));
  return names;
}

/** Whether `text` names something concrete (CONCRETE) that `question` (lower case) does not name as a whole word. */
export function namesSomethingNew(text: string, question: string): boolean {
  for (const name of concreteNames(text)) {
    const at = question.indexOf(name);
    const whole = at !== -1 && !/[\w]/.test(question[at - 1] ?? '') && !/[\w]/.test(question[at + name.length] ?? '');
    if (!whole) return true;
  }
  return false;
}

/** Rank added to a sentence of the route a question names by its path's name (tuned on the evaluation set: 0.2 and 0.3 answered 79 of 87, 0.1 and none 78). */
const NAMED_ROUTE = 0.2;

interface NamedRoute {
  /** The last segment of its path, a name of hyphenated words (`verify-payment`, `policy-check`). */
  name: string;
  path: string;
  /** The descriptor it serves. */
  url: string;
}

let namedRoutes: NamedRoute[] | undefined;

/**
 * The routes whose path ends in a name of hyphenated words: a question that writes the name
 * (`verify-payment`) asks about that route. A name that is also a segment of other paths
 * (`wallet-agent`) names a family of routes, not one, and is left out.
 */
function routesWithNames(): NamedRoute[] {
  if (namedRoutes) return namedRoutes;
  const routes = catalogue();
  const parents = new Set(routes.flatMap(({ path }) => path.split('/').slice(1, -1)));
  namedRoutes = routes.flatMap(({ path }) => {
    const name = path.split('/').at(-1) ?? '';
    return /^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(name) && !parents.has(name) ? [{ name, path, url: siteUrl(path) }] : [];
  });
  return namedRoutes;
}

/** The routes `question` (lower case) names by their path's name, as a word of its own (or the end of a path it writes). */
const routesNamedIn = (question: string) => {
  const words = question.split(/[^a-z0-9-]+/);
  return routesWithNames().filter(({ name }) => words.includes(name));
};

/**
 * Whether `sentence` is one of `route`'s own: in the descriptor it serves, or in a section titled by
 * its path (its llms-full.txt section, its request body in the API reference). Human pages show
 * several routes each, so none is one route's own.
 */
const isAbout = (sentence: DocsSentence, route: NamedRoute) => sentence.url === route.url || sentence.title.endsWith(` ${route.path}`);

/** The sentences that answer `question` (lower case), read as `concepts` (questionConcepts), best first, with how much of it each covers. */
export function rankSentences(concepts: readonly string[][], question: string, index: SentenceIndex = sentenceIndex()): ScoredSentence[] {
  if (concepts.length === 0) return [];
  const total = index.sentences.length;
  const weights = concepts.map((alternatives) => Math.max(...alternatives.map((alternative) => Math.log(1 + total / (1 + (index.frequency.get(alternative.replace(/\*$/, '')) ?? 0))))));
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  // BM25 over the sentences ranks; the coverage of the question decides what may be quoted.
  const exact = concepts.flat().filter((alternative) => !alternative.endsWith('*'));
  const prefixes = concepts.flat().filter((alternative) => alternative.endsWith('*')).map((alternative) => alternative.slice(0, -1));
  const bm25 = new Map<number, number>();
  for (const result of index.search.search({ combineWith: 'OR', queries: [exact.join(' '), ...prefixes.map((prefix) => ({ queries: [prefix], prefix: true }))] } as never)) bm25.set(result.id as number, result.score);
  const topScore = Math.max(1e-9, ...bm25.values());
  const scored: ScoredSentence[] = [];
  const routes = routesNamedIn(question);
  const questionStems = new Set(concepts.flat().map((alternative) => alternative.replace(/\*$/, '')));
  for (const [id, score] of bm25) {
    const sentence = index.sentences[id]!;
    let covered = 0;
    let inText = 0;
    let richness = 0;
    concepts.forEach((alternatives, at) => {
      const found = matchCount(sentence.terms, alternatives);
      if (found > 0) {
        covered += weights[at]!;
        inText++;
        richness += found - 1;
      } else if (matchCount(sentence.titleTerms, alternatives) > 0) covered += weights[at]! / 2;
    });
    if (inText === 0) continue;
    const coverage = covered / weightSum;
    // Among sentences covering as much, the one that says it in fewer words, naming more of the
    // domain's words for it (R4, R5 and R6 for "registers"), is the answer.
    // A long sentence covers more words by its length alone; BM25 adds how often and how rarely.
    // One that holds little but the question's words ("MCP Registry entry of the MCP host") is a
    // heading or a link text: it matches best and answers nothing.
    let ownStems = 0;
    for (const term of sentence.terms) if (!questionStems.has(term)) ownStems++;
    const says = Math.min(1, (ownStems + 1) / CONTENT_STEMS);
    const concrete = namesSomethingNew(sentence.text, question) ? NAMES_SOMETHING : 0;
    const named = routes.some((route) => isAbout(sentence, route)) ? NAMED_ROUTE : 0;
    const rank = says * (coverage / (1 + sentence.text.length / LENGTH_SCALE) + 0.5 * (score / topScore) + 0.03 * Math.min(richness, 3) + concrete + named);
    scored.push({ sentence, coverage, rank });
  }
  return scored.sort((a, b) => b.rank - a.rank);
}

/**
 * The stems of what a sentence says, without the route it is listed under ("GET /api/agents/registry: ")
 * or the URLs of its links: the same description as a page lists it and as llms-full.txt links it
 * is said once. Made once per sentence text, as the concrete names are.
 */
const plainStemsOf = new Map<string, ReadonlySet<string>>();
function plainStems(text: string): ReadonlySet<string> {
  let stems = plainStemsOf.get(text);
  if (!stems) plainStemsOf.set(text, (stems = stemsOf(text.replace(/\(?https?:\/\/[^\s)]*\)?/g, ' ').replace(/^(?:GET|POST) \S+: /, ''))));
  return stems;
}

/** Share of the stems of `candidate` that `quoted` already holds. */
function alreadySaid(candidate: ReadonlySet<string>, quoted: ReadonlySet<string>): number {
  if (candidate.size === 0) return 1;
  let both = 0;
  for (const term of candidate) if (quoted.has(term)) both++;
  return both / candidate.size;
}

/** The sentences to quote: the best, then up to two more that cover nearly as much, at most two from one page, none a near-copy of one quoted. */
export function chooseSentences(ranked: readonly ScoredSentence[]): ScoredSentence[] {
  // A sentence that covers no more than half of the question is no answer to it, however well it ranks.
  const answering = ranked.filter((entry) => entry.coverage > MIN_COVERAGE);
  const best = answering[0];
  if (!best) return [];
  let chosen = [best];
  for (const candidate of answering.slice(1)) {
    if (chosen.length === MAX_SENTENCES) break;
    if (candidate.coverage < best.coverage - FOLLOWING_COVERAGE_GAP) continue;
    const { text, url } = candidate.sentence;
    // A line that quotes chosen sentences with more around them (their reason code, their link) takes their place.
    const within = chosen.filter(({ sentence }) => text.includes(sentence.text));
    const others = chosen.filter((entry) => !within.includes(entry));
    // The same description on a page and in its descriptor would take a place that another answer could use.
    const says = plainStems(text);
    if (others.some(({ sentence }) => sentence.text.includes(text) || alreadySaid(says, plainStems(sentence.text)) > ALREADY_SAID)) continue;
    if (others.filter(({ sentence }) => sentence.url === url).length >= MAX_SENTENCES_PER_PAGE) continue;
    chosen = within.length === 0 ? [...chosen, candidate] : chosen.flatMap((entry) => (entry === within[0] ? [candidate] : within.includes(entry) ? [] : [entry]));
  }
  return chosen;
}

export type PassageSearch = (query: string, limit: number) => DocsHit[];

const link = ({ title, url }: { title: string; url: string }) => `[${title}](${url})`;

/** `sentences` and `search` are the shared site index, `glossary` the glossary's terms; tests may hand in others. */
export function createDocsProvider(sentences: () => SentenceIndex = sentenceIndex, search: PassageSearch = searchPassages, glossary: readonly GlossaryTerm[] = GLOSSARY.terms): ModelProvider {
  /** "What is X" for a term of the glossary: its one definition, and the page that says more. */
  function define(term: GlossaryTerm): ModelAnswer {
    const glossaryPage = { title: 'Glossary', url: siteUrl(`/glossary/#${term.id}`) };
    const readMore = [glossaryPage, { title: `More on ${term.term}`, url: siteUrl(term.page) }];
    return {
      answer: `> ${term.definition} (${link(glossaryPage)})\n\nRead more: ${readMore.map(link).join(' · ')}`,
      citations: readMore,
      model: { provider: 'docs', name: DOCS_INDEX_NAME },
    };
  }
  // The sentences a question gets, kept a while: a premium question is judged when quoted and
  // answered when paid, and ranking every sentence of the site is the costly part of both.
  const kept = sharedAnswers<ScoredSentence[]>(CHOICE_KEPT_SECONDS, CHOICES_KEPT);
  const choose = (question: string, concepts = questionConcepts(question)) =>
    kept(question, async () => chooseSentences(rankSentences(concepts, question.toLowerCase(), sentences())));
  async function answer({ question }: ModelRequest): Promise<ModelAnswer> {
    const term = termAsked(question, glossary);
    if (term) return define(term);
    const model = { provider: 'docs' as const, name: DOCS_INDEX_NAME };
    const concepts = questionConcepts(question);
    const chosen = await choose(question, concepts);
    if (chosen.length === 0) {
      return {
        answer:
          `Nothing on this site answers that question. Search its pages at ${siteUrl('/search/')}, or start from the discovery descriptor at ` +
          `${routeUrl('discovery-well-known')}.`,
        citations: [],
        model,
      };
    }
    const quoted = chosen.map(({ sentence }) => `> ${sentence.text} (${link(sentence)})`).join('\n>\n');
    const pages = new Map(chosen.map(({ sentence }) => [sentence.url, { title: sentence.title, url: sentence.url }]));
    const readMore = new Map(pages);
    for (const hit of search(concepts.map((alternatives) => alternatives[0]!.replace(/\*$/, '')).join(' '), MAX_READ_MORE)) {
      if (readMore.size >= MAX_READ_MORE) break;
      readMore.set(hit.url, { title: hit.title, url: hit.url });
    }
    return {
      answer: `${quoted}\n\nRead more: ${[...readMore.values()].map(link).join(' · ')}`,
      citations: [...readMore.values()],
      model,
    };
  }
  // The same choice as `answer` makes: a question judged answerable at quote time is answered when paid.
  const answers = async (question: string) => termAsked(question, glossary) !== undefined || (await choose(question)).length > 0;
  return { name: 'docs', answer, answers };
}
