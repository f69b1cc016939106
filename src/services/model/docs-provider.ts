/**
 * The default model provider: no language model at all, but extractive answers from the site's own
 * pages, the README and docs, and the facts the service holds as data (the answer index,
 * src/domain/assistant/answer-index.ts). A question is read as its parts (question-parts.ts): each
 * clause that asks is answered on its own, from the sentences that cover most of what it asks,
 * each word weighed by how specific it is to this domain, so a support ticket's four asks get four
 * answers and its courtesy and timestamps count for nothing. A part nothing on the site covers is
 * named as such; a question none of whose parts is covered is refused at quote time. A part asking
 * only what a term of the glossary is ("What is a Note?") is answered with its one definition.
 * Parts are ranked one turn of the event loop each, over the postings of their own words only, so a
 * 4 KB question holds the loop no longer than a short one. `npm run eval:assistant` measures it.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import pLimit from 'p-limit';
import type { GlossaryTerm } from '../../../schemas/glossary.ts';
import { askedAnswer, minimumEvidence, namedFacts, REFERS_BACK, WEIGHTS, partConcepts, rankSentences, type PartConcepts, type AnswerIndex, type IndexedDocument, type IndexedSentence, type ScoredSentence, type AskedAnswer } from '../../domain/assistant/answer-index.ts';
import { questionParts, type QuestionPart } from '../../domain/assistant/question-parts.ts';
import { stemsOf } from '../../domain/assistant/question-terms.ts';
import { termAsked } from '../../domain/assistant/term-asked.ts';
import { GLOSSARY } from '../../descriptors/glossary.ts';
import { sharedAnswers } from '../../lib/shared-answers.ts';
import { catalogue } from '../../catalogue/index.ts';
import { routeUrl } from '../../catalogue/lookup.ts';
import { siteUrl } from '../../config/site.ts';
import { answerIndex } from '../answer-index.ts';
import type { ModelAnswer, ModelProvider, ModelRequest, QuestionJudgement } from './provider.ts';

export const DOCS_INDEX_NAME = 'site-docs-sentences';

/** How an answer that answers nothing begins; the quote endpoint refuses such a question. */
export const NOTHING_ANSWERS = 'Nothing on this site answers';
/** How an answer says that one of its parts is not answered by the site. */
export const PART_NOT_ANSWERED = 'This site does not say';

/** Sentences quoted for one part, and pages linked to read more. */
const MAX_SENTENCES = 4;
const MAX_READ_MORE = 3;
/** About this many characters of quoted prose per part: the first sentence always, more while they fit. */
const PART_CHARACTERS = 1200;
/**
 * The share of a part a sentence must cover more than to be quoted as its answer: more than half,
 * so that of "Where can I buy a used car?" the word the site knows a synonym of is not enough.
 */
/** Sentences after the first are quoted when they cover nearly as much of the part. */
/** A sentence whose stems are more than this share in one already quoted says nothing new (a heading, the same description on another page). */
const ALREADY_SAID = 0.8;
const MAX_SENTENCES_PER_PAGE = 2;
/** How long, and for how many questions, the reading of a question is kept (a premium quote lives 15 minutes by default). */
const READING_KEPT_SECONDS = 900;
const READINGS_KEPT = 256;

/** Rank added to a sentence of the route a question names by its path's name. */

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
let lastNamed: { question: string; routes: NamedRoute[] } | undefined;
const routesNamedIn = (question: string) => {
  // Asked once per question, not once per part: a 4 KB ticket's twelve parts share it.
  if (lastNamed?.question !== question) {
    const words = new Set(question.split(/[^a-z0-9-]+/));
    lastNamed = { question, routes: routesWithNames().filter(({ name }) => words.has(name)) };
  }
  return lastNamed.routes;
};

/**
 * Whether a sentence is one of `route`'s own: in the descriptor it serves, or in a section titled by
 * its path (its llms-full.txt section, its request body in the API reference).
 */
const isAbout = (document: IndexedDocument, route: NamedRoute) => document.url === route.url || document.title.endsWith(` ${route.path}`);

/**
 * The stems of what a sentence says, without the route it is listed under ("GET /api/agents/registry: ")
 * or the URLs of its links: the same description as a page lists it and as llms-full.txt links it
 * is said once.
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

/** The sentences that answer `part` of `question` (lower case), best first. */
export function rankPart(index: AnswerIndex, part: QuestionPart, question: string, concepts: PartConcepts = partConcepts(index, part)): ScoredSentence[] {
  const routes = routesNamedIn(question);
  return rankSentences(index, concepts, {
    question: part.text,
    named: (_sentence, document) => (routes.some((route) => isAbout(document, route)) ? WEIGHTS.namedRoute : 0),
  });
}

/** What `chooseSentences` reads of a ranked sentence. */
export type Candidate = Pick<ScoredSentence, 'coverage' | 'evidence' | 'rank'> & { sentence: Pick<IndexedSentence, 'text'>; document: Pick<IndexedDocument, 'url'> };

/**
 * The sentences to quote for a part: the best, then up to two more that cover nearly as much, at
 * most two from one page, none a near-copy of one quoted, within about PART_CHARACTERS.
 */
export function chooseSentences<T extends Candidate>(ranked: readonly T[], minEvidence = 0): T[] {
  // A sentence that covers no more than half of the part, or only its everyday words, is no answer to it, however well it ranks.
  const answering = ranked.filter((entry) => entry.coverage > WEIGHTS.minCoverage && entry.evidence >= minEvidence);
  const best = answering[0];
  if (!best) return [];
  let chosen = [best];
  for (const candidate of answering.slice(1)) {
    if (chosen.length === MAX_SENTENCES) break;
    if (candidate.coverage < best.coverage - WEIGHTS.followingCoverageGap) continue;
    const { text } = candidate.sentence;
    const { url } = candidate.document;
    // A line that quotes chosen sentences with more around them (their reason code, their link) takes their place.
    const within = chosen.filter(({ sentence }) => text.includes(sentence.text));
    const others = chosen.filter((entry) => !within.includes(entry));
    // The same description on a page and in its descriptor would take a place that another answer could use.
    const says = plainStems(text);
    if (others.some(({ sentence }) => sentence.text.includes(text) || alreadySaid(says, plainStems(sentence.text)) > ALREADY_SAID)) continue;
    if (others.filter(({ document }) => document.url === url).length >= MAX_SENTENCES_PER_PAGE) continue;
    const next = within.length === 0 ? [...chosen, candidate] : chosen.flatMap((entry) => (entry === within[0] ? [candidate] : within.includes(entry) ? [] : [entry]));
    if (next.reduce((length, entry) => length + entry.sentence.text.length, 0) > PART_CHARACTERS && next.length > 1) continue;
    chosen = next;
  }
  return chosen;
}

/** Sentence `id`, quoted because of what it is (a named thing's fact, the answer to an asked question), not for its rank. */
function quotedWhole(index: AnswerIndex, id: number, coverage: number): ScoredSentence {
  const sentence = index.sentences[id]!;
  return { id, sentence, document: index.documents[sentence.document]!, coverage, evidence: 0, rank: Number.POSITIVE_INFINITY };
}

/**
 * The facts of what a part names by its own name (`payment_token_used`, `LOG_WITNESSES`), or, when
 * it names none and points back ("what does each mean?"), of what the sentence before it names;
 * then what ranked best, fewer of it the more facts there are.
 */
function withNamedFacts(index: AnswerIndex, part: QuestionPart, chosen: ScoredSentence[]): ScoredSentence[] {
  let ids = namedFacts(index, part.text);
  const lent = ids.length === 0 && REFERS_BACK.test(part.text);
  if (lent) ids = namedFacts(index, part.near);
  if (ids.length === 0) return chosen;
  const facts = ids.map((id) => quotedWhole(index, id, 1));
  const rest = chosen.filter((entry) => !ids.includes(entry.id));
  // Asked of what came before ("what does each mean?"), the facts are the whole answer.
  return lent ? facts : [...facts, ...rest.slice(0, Math.max(1, MAX_SENTENCES - facts.length))];
}

/** Sentences of the site quoted after the answer to a question people ask (docs/faq.md): the page it answers from says it in its own words. */
const AFTER_ASKED = 2;

/** The answer to the question people ask that the part asks, then what ranked best besides it, within about PART_CHARACTERS. */
function withAskedAnswer(index: AnswerIndex, asked: AskedAnswer | undefined, chosen: ScoredSentence[]): ScoredSentence[] {
  if (!asked) return chosen;
  const answer = asked.ask.sentences.map((id) => quotedWhole(index, id, asked.coverage));
  // What this server runs (its terms, from its configuration) comes before what the questions' page says of the defaults.
  const running = chosen.filter((entry) => entry.id >= index.firstRunning).slice(0, 1);
  let length = [...running, ...answer].reduce((sum, { sentence }) => sum + sentence.text.length, 0);
  const rest: ScoredSentence[] = [];
  for (const entry of chosen) {
    if (running.includes(entry)) continue;
    if (rest.length === AFTER_ASKED) break;
    if (answer.some(({ id }) => id === entry.id) || length + entry.sentence.text.length > PART_CHARACTERS) continue;
    rest.push(entry);
    length += entry.sentence.text.length;
  }
  return [...running, ...answer, ...rest];
}

/** One part of a question, as the provider read it. */
interface PartReading {
  part: QuestionPart;
  /** The glossary term it asks the definition of, if it asks only that. */
  definition?: GlossaryTerm;
  chosen: ScoredSentence[];
  /** Pages of the sentences ranked next, to read more. */
  more: IndexedDocument[];
}

interface Reading {
  parts: PartReading[];
  dropped: number;
}

const answered = (part: PartReading) => part.definition !== undefined || part.chosen.length > 0;

/** A part in a heading: its words as asked, with a question mark. */
const partHeading = (part: QuestionPart, number: number) => {
  const words = part.text.replace(/\s+/g, ' ').replace(/[\s?.!,;:]+$/, '');
  return `**${number}. ${words.charAt(0).toUpperCase()}${words.slice(1)}?**`;
};

const link = ({ title, url }: { title: string; url: string }) => `[${title}](${url})`;

/**
 * Questions read at once, each a part per turn of the event loop: the parts of every question being
 * read run in the same turn, so without a bound sixteen long tickets would hold the loop for sixteen
 * parts at a time, and a request beside them would wait that long (100 ms at 16 connections of 4 KB
 * questions); the others wait their turn.
 */
const READING_AT_ONCE = 2;
const reading = pLimit(READING_AT_ONCE);

/** `index` is the shared answer index, `glossary` the glossary's terms; tests may hand in others. */
export function createDocsProvider(index: () => AnswerIndex = answerIndex, glossary: readonly GlossaryTerm[] = GLOSSARY.terms): ModelProvider {
  /** One part's reading: its glossary definition, or the sentences that answer it. */
  function readPart(part: QuestionPart, question: string): PartReading {
    const definition = termAsked(part.text, glossary);
    if (definition) return { part, definition, chosen: [], more: [] };
    const answers = index();
    const concepts = partConcepts(answers, part);
    const ranked = rankPart(answers, part, question, concepts);
    const chosen = withNamedFacts(answers, part, withAskedAnswer(answers, askedAnswer(answers, part.text, concepts), chooseSentences(ranked, minimumEvidence(answers))));
    const shown = new Set(chosen.map(({ document }) => document.url));
    const more: IndexedDocument[] = [];
    for (const { document, coverage } of ranked.slice(0, 20)) {
      if (coverage <= WEIGHTS.minCoverage || shown.has(document.url)) continue;
      shown.add(document.url);
      more.push(document);
    }
    return { part, chosen, more };
  }

  /** The question read part by part, a turn of the event loop each; kept a while, since a premium question is judged when quoted and answered when paid. */
  const kept = sharedAnswers<Reading>(READING_KEPT_SECONDS, READINGS_KEPT);
  const read = (question: string) =>
    kept(question, () => reading(() => readQuestion(question)));
  async function readQuestion(question: string): Promise<Reading> {
    const { parts, dropped } = questionParts(question);
    const lower = question.toLowerCase();
    const readings: PartReading[] = [];
    for (const part of parts) {
      if (readings.length > 0) await nextTurn();
      readings.push(readPart(part, lower));
    }
    return { parts: readings, dropped };
  }

  /** A part's answer; a sentence an earlier part quoted is not quoted again, but pointed to. */
  function partAnswer(reading: PartReading, quoted: Map<string, number>, number: number): string {
    if (reading.definition) {
      const term = reading.definition;
      return `> ${term.definition} (${link({ title: 'Glossary', url: siteUrl(`/glossary/#${term.id}`) })})`;
    }
    if (reading.chosen.length === 0) return `${PART_NOT_ANSWERED}.`;
    const fresh = reading.chosen.filter(({ sentence }) => !quoted.has(sentence.text));
    for (const { sentence } of fresh) quoted.set(sentence.text, number);
    const earlier = [...new Set(reading.chosen.filter(({ sentence }) => !fresh.some((entry) => entry.sentence === sentence)).map(({ sentence }) => quoted.get(sentence.text)!))];
    const above = earlier.length ? `${fresh.length ? '\n\n' : ''}See also the answer to ${earlier.map((at) => `question ${at}`).join(' and ')} above.` : '';
    return `${fresh.map(({ sentence, document }) => `> ${sentence.text} (${link(document)})`).join('\n>\n')}${above}`;
  }

  async function answer({ question }: ModelRequest): Promise<ModelAnswer> {
    const model = { provider: 'docs' as const, name: DOCS_INDEX_NAME };
    const reading = await read(question);
    const answering = reading.parts.filter(answered);
    if (answering.length === 0) {
      return {
        answer: `${NOTHING_ANSWERS} that question. Search its pages at ${siteUrl('/search/')}, or start from the discovery descriptor at ${routeUrl('discovery-well-known')}.`,
        citations: [],
        model,
      };
    }
    const pages = new Map<string, { title: string; url: string }>();
    for (const part of answering) {
      if (part.definition) {
        pages.set(siteUrl(`/glossary/#${part.definition.id}`), { title: 'Glossary', url: siteUrl(`/glossary/#${part.definition.id}`) });
        pages.set(siteUrl(part.definition.page), { title: `More on ${part.definition.term}`, url: siteUrl(part.definition.page) });
      }
      for (const { document } of part.chosen) pages.set(document.url, { title: document.title, url: document.url });
    }
    for (const part of answering) {
      for (const document of part.more) {
        if (pages.size >= MAX_READ_MORE) break;
        pages.set(document.url, { title: document.title, url: document.url });
      }
    }
    const single = reading.parts.length === 1 && reading.dropped === 0;
    const quoted = new Map<string, number>();
    const body = single ? partAnswer(reading.parts[0]!, quoted, 1) : reading.parts.map((part, at) => `${partHeading(part.part, at + 1)}\n${partAnswer(part, quoted, at + 1)}`).join('\n\n');
    const dropped = reading.dropped > 0 ? `\n\nThis answer takes the first ${reading.parts.length} questions asked; ${reading.dropped} more were left out: ask them on their own.` : '';
    const readMore = [...pages.values()];
    return { answer: `${body}${dropped}\n\nRead more: ${readMore.map(link).join(' · ')}`, citations: readMore, model };
  }

  /** The same reading as `answer` makes: a question judged answerable at quote time is answered when paid, part for part. */
  async function judge(question: string): Promise<QuestionJudgement> {
    const reading = await read(question);
    let judgement = judgements.get(reading);
    if (!judgement) {
      judgement = {
        answerable: reading.parts.some(answered),
        parts: reading.parts.map((part) => ({ text: part.part.text, answered: answered(part) })),
        dropped: reading.dropped,
      };
      judgements.set(reading, judgement);
    }
    return judgement;
  }
  /** One judgement per kept reading: the same question quoted again is judged by the same object (its reason made once, see paid-turn.ts). */
  const judgements = new WeakMap<Reading, QuestionJudgement>();

  return { name: 'docs', answer, judge };
}
