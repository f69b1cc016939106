/**
 * The index the assistant answers from, and how it finds the sentences that answer one part of a
 * question. Every quotable sentence of the site (and every fact the service holds as data, said as
 * a sentence) is indexed by the stems of its words; a part's concepts are looked up in the postings
 * of their stems only, so a question costs what its own words cost, never a scan of the site.
 *
 * A concept weighs what its word tells about this domain: its rarity on the site (idf) times its
 * specificity, how much more often the site uses it than spoken English does (a word-frequency list,
 * src/build/answer-index-file.ts). "Please", "exactly", "our team" or a ticket's timestamp weigh
 * nothing, so they can neither answer a question nor keep one from being answered; a word neither
 * the site nor English knows ("Kubernetes", "Solana") is a domain word the site does not answer, and
 * weighs against. Pure: the index is data, built at build time and loaded by the services.
 */
import { alternativesOf, questionConceptWords, stem, stemsOf, wordsAndPartsOf } from './question-terms.ts';

/**
 * The weights of the ranking and of the judgement whether a sentence answers, in one place: chosen
 * on the evaluation set and the tuning halves of the other sets only (`npm run eval:assistant`),
 * never on a held-out half.
 */
export const WEIGHTS = {
  /** log2 of how many times the English rate a stem of the site must be used at to say anything of the domain (read by the build). */
  ordinaryLogRatio: 3,
  /** log2 of the rate from which it says all (read by the build). */
  domainLogRatio: 6,
  /** Share of a concept's weight the sentence just before a part lends it. */
  nearContext: 0.25,
  /** Share of a concept's weight the sentence before lends a part that points back at it ("what does each mean?"). */
  nearReferring: 0.25,
  /** Share the rest of what the question tells lends, to a part that names too little itself. */
  farContext: 0.1,
  /** From this many uses per million words of English, a word the site does not use says nothing. */
  commonEnglishPerMillion: 400,
  /** The most an English word the site uses no more than English does can weigh, as a share of its rarity on the site. */
  maxEnglishRarity: 0.5,
  /**
   * The least weight of what a part asks that a sentence must hold to answer it, as a share of the
   * weight of a word the site uses once: about one word of the domain's own, not one everyday word
   * the site happens to use ("used" of "a used car").
   */
  minEvidence: 0.66,
  /** Rank added to a sentence that names something concrete (a code, a path, a number) the part does not. */
  namesSomething: 0.5,
  /** Stems beyond the part's own at which a sentence counts as saying something. */
  contentStems: 8,
  /** Characters at which a sentence's coverage counts half. */
  lengthScale: 450,
  /** Rank added to a fact the part asks for by its cue ("which command", "how long"). */
  askedFor: 0.3,
  /** A match in the page title counts this share of one in the sentence. */
  titleShare: 0.4,
  /** Share of BM25 a word the vocabulary adds for a written one counts for. */
  alternativeShare: 0.5,
  /** Weight of BM25 (normalised to the best) in the rank. */
  bm25Share: 1,
  /** Rank added per extra alternative of a concept a sentence names (R4, R5 and R6 for "registers"), at most three. */
  richness: 0.03,
  /** The share of a part a sentence must cover more than to answer it. */
  minCoverage: 0.6,
  /** Sentences after the first are quoted when they cover at least this nearly as much. */
  followingCoverageGap: 0.3,
  /** Rank added to a sentence of the route the question names by its path's name (`verify-payment`). */
  namedRoute: 0.2,
  /** How much a word of a topic the site does not cover weighs against an answer, as a share of a word the site uses once. */
  unknownShare: 1,
  /** Share of that an English participle or adverb the site does not use weighs ("located", "quietly"): what is asked, or only how. */
  qualifierShare: 0.5,
  /** The least weighted share of a part a question people ask (docs/faq.md) must say to be the part's question. */
  askCoverage: 0.9,
  /** And the least share of that question the part must say. */
  askBack: 0.6,
  /** The least share of their words in common at which a part of everyday words asks what an ask does. */
  askLiteral: 0.75,
  /** Rank added to a sentence of the running configuration (the terms this server runs). */
  running: 0.3,
  /** The least evidence of the part's own words a sentence must hold, as a share of the least evidence it must hold in all. */
  ownEvidence: 0.75,
};

/** A document the sentences come from: a page, a section of a page, a descriptor. */
export interface IndexedDocument {
  title: string;
  url: string;
}

/** A sentence as the index holds it. */
export interface IndexedSentence {
  document: number;
  text: string;
  /** Stems a question may use for it that it does not write ("how long" for a lifetime): facts carry them. */
  cues: readonly string[];
}

/** A way a question is asked that a few sentences answer as a whole (a section of docs/faq.md, asked by its heading and the other ways it is asked). */
export interface IndexedAsk {
  text: string;
  /** The sentences that answer it, in order. */
  sentences: readonly number[];
  /**
   * Read by the build (askReadings), so that no question pays for it: the stems its words stand for
   * (its postings), its words, and its concepts weighed as `alternative|alternative weight evidence
   * unknown` (a concept a line, weights to four places).
   */
  reading?: { terms: readonly string[]; words: readonly string[]; concepts: readonly string[] };
}

/** What the build writes and the server loads: documents, sentences, their postings, and the weight of each stem the site uses. */
export interface AnswerIndexData {
  documents: readonly IndexedDocument[];
  sentences: readonly IndexedSentence[];
  /** Questions as people ask them, each with the sentences that answer it. */
  asks?: readonly IndexedAsk[];
  /** For each stem of the sentences' texts, `id * 8 + min(times it occurs, 7)` of the sentences holding it, ascending. */
  postings: Readonly<Record<string, readonly number[]>>;
  /** For each cue, the sentences it is a cue of, ascending. */
  cues: Readonly<Record<string, readonly number[]>>;
  /** Words of each sentence's text (BM25's field length). */
  lengths: readonly number[];
  /** Distinct stems of each sentence's text. */
  sizes: readonly number[];
  /** Specificity of each stem the site uses (0 ordinary English to 1 the domain's own), from the word-frequency list. */
  specificity: Readonly<Record<string, number>>;
  /** How often spoken English uses each stem of the site (per million words). */
  siteEnglish: Readonly<Record<string, number>>;
  /**
   * The stems of English by how often it uses them: `english[i]` holds, space-separated and with a
   * space at each end, those used at least ENGLISH_BANDS[i] and less than ENGLISH_BANDS[i - 1] times
   * per million words. One string per band parses at once; a word is looked up in a few of them.
   */
  english: readonly string[];
}

/** The lower bounds (per million words) of the bands `english` is cut into, most used first. */
export const ENGLISH_BANDS = [1000, 400, 250, 150, 100, 50, 20, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0];

/** The index ready to answer from: postings per stem, and per sentence what ranking needs. */
export interface AnswerIndex {
  documents: readonly IndexedDocument[];
  sentences: readonly IndexedSentence[];
  postings: ReadonlyMap<string, readonly number[]>;
  cues: ReadonlyMap<string, readonly number[]>;
  lengths: readonly number[];
  sizes: readonly number[];
  averageLength: number;
  /** Each document's title: its stems with how often each occurs, and its length in words. */
  titles: ReadonlyArray<{ terms: ReadonlyMap<string, number>; length: number }>;
  averageTitleLength: number;
  /** How many sentences' documents have each stem in their title. */
  titleFrequency: ReadonlyMap<string, number>;
  /** Every stem of the postings and cues, sorted, for the stems a beginning (`expir*`) stands for. */
  vocabulary: readonly string[];
  specificity: ReadonlyMap<string, number>;
  siteEnglish: ReadonlyMap<string, number>;
  english: readonly string[];
  /** Words looked up in `english` already, with the lower bound of their band (0 for none). */
  englishSeen: Map<string, number | undefined>;
  /** The facts stated of each thing a fact is about (a code, a variable, a command, a tool), by its name in lower case. */
  subjects: ReadonlyMap<string, readonly number[]>;
  asks: readonly IndexedAsk[];
  /** The first sentence of the running configuration's (its terms): from it on, what this server runs rather than what the build wrote. */
  firstRunning: number;
  /** For each stem a question may use for it, the asks whose words stand for it. */
  askPostings: ReadonlyMap<string, readonly number[]>;
  /** Those stems, sorted, for the stems a beginning (`expir*`) stands for. */
  askTerms: readonly string[];
  /** The concepts of each ask, read (or weighed) on first use. */
  askConcepts: Map<number, Concept[]>;
  /** The words of each ask, read on first use. */
  askWordsOf: Map<number, Set<string>>;
}

/** Sentences holding `term` in their text or as a cue: the ids a concept is looked up in. */
const TF_BITS = 3;
const TF_MAX = (1 << TF_BITS) - 1;

/** The stems of `text` with how often each occurs. */
function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of wordsAndPartsOf(text)) {
    const term = stem(word);
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

/** The postings, cues, lengths and sizes of `sentences`, whose ids start at `firstId`. */
export function postingsOf(sentences: readonly IndexedSentence[], firstId = 0): Pick<AnswerIndexData, 'postings' | 'cues' | 'lengths' | 'sizes'> {
  // No prototype: "constructor" is a word of the site too.
  const postings = Object.create(null) as Record<string, number[]>;
  const cues = Object.create(null) as Record<string, number[]>;
  const lengths: number[] = [];
  const sizes: number[] = [];
  sentences.forEach((sentence, at) => {
    const id = firstId + at;
    const counts = termCounts(sentence.text);
    lengths.push([...counts.values()].reduce((sum, count) => sum + count, 0));
    sizes.push(counts.size);
    for (const [term, count] of counts) (postings[term] ??= []).push(id * (TF_MAX + 1) + Math.min(count, TF_MAX));
    for (const cue of sentence.cues) if (!counts.has(cue)) (cues[cue] ??= []).push(id);
  });
  return { postings, cues, lengths, sizes };
}

/**
 * The index of `data`, with `extra` (the terms of the running configuration) after its own
 * documents and sentences: only theirs are cut into stems here, the rest was at build time.
 */
export function answerIndexOf(data: AnswerIndexData, extra: { documents: readonly IndexedDocument[]; sentences: readonly IndexedSentence[] } = { documents: [], sentences: [] }): AnswerIndex {
  const added = postingsOf(extra.sentences, data.sentences.length);
  const merge = (into: Readonly<Record<string, readonly number[]>>, more: Readonly<Record<string, readonly number[]>>) => {
    const merged = new Map<string, readonly number[]>(Object.entries(into));
    for (const [term, ids] of Object.entries(more)) merged.set(term, [...(merged.get(term) ?? []), ...ids]);
    return merged;
  };
  const postings = merge(data.postings, added.postings);
  const cues = merge(data.cues, added.cues);
  const documents = [...data.documents, ...extra.documents];
  const sentences = [...data.sentences, ...extra.sentences];
  const lengths = [...data.lengths, ...added.lengths];
  const titles = documents.map(({ title }) => {
    const terms = termCounts(title);
    return { terms, length: [...terms.values()].reduce((sum, count) => sum + count, 0) };
  });
  const perDocument = new Map<number, number>();
  for (const sentence of sentences) perDocument.set(sentence.document, (perDocument.get(sentence.document) ?? 0) + 1);
  const titleFrequency = new Map<string, number>();
  let titleLength = 0;
  for (const [document, count] of perDocument) {
    titleLength += titles[document]!.length * count;
    for (const term of titles[document]!.terms.keys()) titleFrequency.set(term, (titleFrequency.get(term) ?? 0) + count);
  }
  return {
    documents,
    sentences,
    postings,
    cues,
    lengths,
    sizes: [...data.sizes, ...added.sizes],
    averageLength: lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length),
    titles,
    averageTitleLength: titleLength / Math.max(1, sentences.length),
    titleFrequency,
    vocabulary: [...new Set([...postings.keys(), ...cues.keys()])].sort(),
    specificity: new Map(Object.entries(data.specificity)),
    siteEnglish: new Map(Object.entries(data.siteEnglish)),
    english: data.english,
    englishSeen: new Map(),
    subjects: subjectsOf(sentences),
    asks: data.asks ?? [],
    firstRunning: data.sentences.length,
    ...askPostingsOf(data.asks ?? []),
    askConcepts: new Map(),
    askWordsOf: new Map(),
  };
}

/** The asks by each stem that stands for one of their words. */
function askPostingsOf(asks: readonly IndexedAsk[]): { askPostings: Map<string, number[]>; askTerms: string[] } {
  const askPostings = new Map<string, number[]>();
  asks.forEach((ask, id) => {
    for (const term of ask.reading?.terms ?? askTermsOf(ask.text)) {
      const asks = askPostings.get(term);
      if (asks) asks.push(id);
      else askPostings.set(term, [id]);
    }
  });
  return { askPostings, askTerms: [...askPostings.keys()].sort() };
}

/** The stems an ask's words stand for: what a part's words look it up by. */
const askTermsOf = (text: string) => [...new Set(questionConceptWords(text).flatMap(({ alternatives }) => alternatives).map((alternative) => alternative.replace(/\*$/, '')))];

const conceptLine = (concept: Concept) => `${concept.alternatives.join('|')} ${concept.weight.toFixed(4)} ${concept.evidence.toFixed(4)} ${concept.unknown ? 1 : 0}`;
const conceptOfLine = (line: string): Concept => {
  const [alternatives = '', weight, evidence, unknown] = line.split(' ');
  return { alternatives: alternatives.split('|'), weight: Number(weight), evidence: Number(evidence), unknown: unknown === '1' };
};

/** `data` with each ask read as `index` reads it: what the build does once, instead of each first question that looks an ask up. */
export function withAskReadings(data: AnswerIndexData): AnswerIndexData {
  const index = answerIndexOf(data);
  return {
    ...data,
    asks: index.asks.map((ask) => ({
      text: ask.text,
      sentences: ask.sentences,
      reading: { terms: askTermsOf(ask.text), words: [...askWords(ask.text)], concepts: conceptsOf(index, ask.text).map(conceptLine) },
    })),
  };
}

/** The terms of `sorted` that begin with `prefix`, at most MAX_EXPANSION, found by bisection. */
function beginningWith(sorted: readonly string[], prefix: string): string[] {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < prefix) low = middle + 1;
    else high = middle;
  }
  const found: string[] = [];
  for (let at = low; at < sorted.length && sorted[at]!.startsWith(prefix) && found.length < MAX_EXPANSION; at++) found.push(sorted[at]!);
  return found;
}

/** Whether two concepts stand for the same thing: an alternative in common, or one that a beginning (`expir*`) of the other stands for. */
function sameConcept(a: Concept, b: Concept): boolean {
  for (const x of a.alternatives) {
    for (const y of b.alternatives) {
      if (x === y) return true;
      if (x.endsWith('*') && y.replace(/\*$/, '').startsWith(x.slice(0, -1))) return true;
      if (y.endsWith('*') && x.replace(/\*$/, '').startsWith(y.slice(0, -1))) return true;
    }
  }
  return false;
}

/** The words of a question that are not stop words, as stems. */
const askWords = (text: string) => new Set(questionConceptWords(text).map(({ alternatives }) => alternatives[0]!.replace(/\*$/, '')));

/**
 * The ask a part of everyday words asks in the same words (at least two, and WEIGHTS.askLiteral of
 * the words of both in common): nothing of the domain to weigh, only the words people use for it.
 */
function literallyAsked(index: AnswerIndex, text: string): AskedAnswer | undefined {
  const words = askWords(text);
  if (words.size < 2) return undefined;
  let best: AskedAnswer | undefined;
  const candidates = new Set([...words].flatMap((word) => index.askPostings.get(word) ?? []));
  for (const id of candidates) {
    let theirs = index.askWordsOf.get(id);
    if (!theirs) {
      const ask = index.asks[id]!;
      index.askWordsOf.set(id, (theirs = ask.reading ? new Set(ask.reading.words) : askWords(ask.text)));
    }
    const both = [...words].filter((word) => theirs.has(word)).length;
    const share = both / (words.size + theirs.size - both);
    if (share >= WEIGHTS.askLiteral && (!best || share > best.coverage)) best = { ask: index.asks[id]!, coverage: share, back: share };
  }
  return best;
}

/**
 * The share of what an ask must hold of a part that its postings must show before it is weighed: less
 * than all, since an ask's own beginnings (`expir*`) stand for words its postings do not list.
 */
const ASK_HELD_SHARE = 0.6;

/** The question, as people ask it, that a part asks, and the sentences that answer it. */
export interface AskedAnswer {
  ask: IndexedAsk;
  /** Weighted share of the part that the ask says, and of the ask that the part says. */
  coverage: number;
  back: number;
}

/**
 * The question people ask (docs/faq.md) that a part asks too: it says most of what the part says,
 * weighed as the part is, and the part says most of what it says. Both ways, so that "Can I pay with a
 * credit card?" is not "Can I pay with a Note?", nor "Is there a Java SDK?" any question naming an SDK.
 * Looked up in the postings of the part's own words; each ask weighed once, when first looked at.
 */
export function askedAnswer(index: AnswerIndex, text: string, { concepts }: PartConcepts): AskedAnswer | undefined {
  const own = concepts.filter((concept) => !concept.borrowed);
  const ownWeight = own.reduce((sum, concept) => sum + concept.weight, 0);
  // A question of everyday words only ("Can I get my money back?") weighs nothing: it is the ask it words the same.
  if (ownWeight === 0) return literallyAsked(index, text);
  // The weight of the part each ask holds by its postings: only an ask holding enough of it is weighed both ways.
  const held = new Map<number, number>();
  for (const concept of own) {
    if (concept.unknown) continue;
    const asks = new Set<number>();
    for (const alternative of concept.alternatives) {
      if (!alternative.endsWith('*')) for (const id of index.askPostings.get(alternative) ?? []) asks.add(id);
      else for (const term of beginningWith(index.askTerms, alternative.slice(0, -1))) for (const id of index.askPostings.get(term)!) asks.add(id);
    }
    for (const id of asks) held.set(id, (held.get(id) ?? 0) + concept.weight);
  }
  let best: AskedAnswer | undefined;
  for (const [id, weight] of held) {
    if (weight < ASK_HELD_SHARE * WEIGHTS.askCoverage * ownWeight) continue;
    let asked = index.askConcepts.get(id);
    if (!asked) {
      const ask = index.asks[id]!;
      index.askConcepts.set(id, (asked = ask.reading ? ask.reading.concepts.map(conceptOfLine) : conceptsOf(index, ask.text)));
    }
    const askWeight = asked.reduce((sum, concept) => sum + concept.weight, 0);
    if (askWeight === 0) continue;
    let covered = 0;
    let evidence = 0;
    for (const concept of own) {
      if (asked.some((other) => sameConcept(concept, other))) {
        covered += concept.weight;
        evidence += concept.evidence;
      }
    }
    const back = asked.filter((concept) => own.some((other) => sameConcept(concept, other))).reduce((sum, concept) => sum + concept.weight, 0) / askWeight;
    const coverage = covered / ownWeight;
    // Asking all it asks and nothing more, a part is that question however little its words weigh.
    const same = coverage === 1 && back === 1;
    if (coverage < WEIGHTS.askCoverage || back < WEIGHTS.askBack || (!same && evidence < minimumEvidence(index))) continue;
    if (!best || coverage + back > best.coverage + best.back) best = { ask: index.asks[id]!, coverage, back };
  }
  return best;
}

/**
 * What a fact is about: the name it opens with, as the facts of the service (an error code, an MCP
 * tool) and the rows of the README's tables (a variable, a command, a script) write it:
 * "quote_expired (410, ...): ...", "`PORT` (default `4321`): ...", "The MCP tool `dev_tx` (...)".
 */
const SUBJECT = /^(?:The MCP tool )?`?([A-Za-z0-9_./{}@-]*[_./@-][A-Za-z0-9_./{}@-]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)`?(?: \(|: )/;

function subjectsOf(sentences: readonly IndexedSentence[]): Map<string, number[]> {
  const subjects = new Map<string, number[]>();
  sentences.forEach((sentence, id) => {
    if (sentence.cues.length === 0) return;
    const name = SUBJECT.exec(sentence.text)?.[1]?.toLowerCase();
    if (!name || name.length <= 2) return;
    const facts = subjects.get(name);
    if (facts) facts.push(id);
    else subjects.set(name, [id]);
  });
  return subjects;
}

/** Facts quoted for the things a part names, at most. */
const MAX_NAMED_FACTS = 4;

/**
 * The facts stated of the things `text` names by their own name (`payment_token_used`,
 * `LOG_WITNESSES`, `verify-receipt`), in the order it names them: asked what a code means, the
 * answer is the code's own line, not a sentence that happens to use more of the question's words.
 */
export function namedFacts(index: AnswerIndex, text: string): number[] {
  const found: number[] = [];
  for (const match of text.matchAll(/[A-Za-z0-9_./{}@-]+/g)) {
    const name = match[0].replace(/^[./-]+|[./-]+$/g, '').toLowerCase();
    for (const id of index.subjects.get(name) ?? []) {
      if (found.length < MAX_NAMED_FACTS && !found.includes(id)) found.push(id);
    }
  }
  return found;
}

/** How many sentences hold `term` in their text. */
const documentFrequency = (index: AnswerIndex, term: string) => index.postings.get(term)?.length ?? 0;

/** One thing a part asks about: the stems that stand for it, and how much it weighs. */
export interface Concept {
  alternatives: readonly string[];
  weight: number;
  /**
   * What it weighs as evidence that a sentence holding it is on the part's topic: its weight, or, when
   * more, its specificity times the weight of a word the site uses once. "Receipt" is on most pages, so
   * it ranks little, yet a sentence holding it is about receipts as surely as one holding a rare word.
   */
  evidence: number;
  /** No sentence of the site holds it, and it is no ordinary English word: it counts against every answer. */
  unknown: boolean;
  /** Lent by the part's context, at a share of `weight`: it ranks the sentences that answer, and counts whole as evidence that one does. */
  borrowed?: { share: number };
}

/** How much of a part's weight its context may add: a part that names little itself leans on the sentence before it more than on the rest. */
/** Concepts looked up per part, and borrowed from each context: bounds what a 4 KB question costs. */
export const MAX_CONCEPTS = 12;
const MAX_BORROWED = 4;
/** Stems a beginning (`expir*`) stands for at most. */
const MAX_EXPANSION = 40;
/**
 * A word the site does not use is a word of a topic the site does not cover ("pasta", "Kubernetes",
 * "tax"): it weighs against every answer, as much as a word the site uses once when English hardly
 * knows it, less the more English uses it, and nothing from this many uses per million words on
 * ("please", "thanks", "team", "car" say nothing either way).
 */
/** A participle ("saved", "running", "located") qualifies what is asked, or is what is asked of it ("where are they located?"). */
const QUALIFIER = /(?:ed|ing)$/i;
/** An adverb ("currently", "quietly") says how or when, never what: a word the site does not use, it weighs nothing. */
const ADVERB = /ly$/i;

/** A superlative of an English adjective ("smallest", "largest", "cheapest") says which one of what is asked, not what: as an adverb. */
function isSuperlative(index: AnswerIndex, word: string): boolean {
  if (!word.endsWith('est')) return false;
  const base = word.slice(0, -3);
  return (base.length >= 4 && englishUse(index, base) !== undefined) || (base.length >= 3 && englishUse(index, `${base}e`) !== undefined);
}
/** Words this short the site does not know are letters and fragments, not topics. */
const MIN_TOPIC_LETTERS = 3;
/** A misspelt word of the site ("recipt") is that word: within one edit of a stem the site uses, from this many letters. */
const MIN_CORRECTED_LETTERS = 5;

/**
 * An English word the site uses no more often than English does still says something when English
 * rarely uses it ("market", "third-party", "procedure"): a little, never as much as the domain's own
 * words. Words English uses at every turn ("long", "open", "check" as a verb) say nothing.
 */
const EVERYDAY_PER_MILLION = 1000;
const RARE_PER_MILLION = 1;
function englishRarity(index: AnswerIndex, term: string): number {
  const perMillion = Math.max(index.siteEnglish.get(term) ?? 0, RARE_PER_MILLION);
  return WEIGHTS.maxEnglishRarity * Math.max(0, Math.log(EVERYDAY_PER_MILLION / perMillion) / Math.log(EVERYDAY_PER_MILLION / RARE_PER_MILLION));
}

/** Words looked up at most, before the memo starts again. */
const ENGLISH_SEEN = 4096;

/** How often English uses `word` (per million words, its band's lower bound), or undefined when it is no English word. */
function englishUse(index: AnswerIndex, word: string): number | undefined {
  if (index.englishSeen.has(word)) return index.englishSeen.get(word);
  const band = index.english.findIndex((stems) => stems.includes(` ${word} `));
  const use = band === -1 ? undefined : ENGLISH_BANDS[band];
  if (index.englishSeen.size >= ENGLISH_SEEN) index.englishSeen.clear();
  index.englishSeen.set(word, use);
  return use;
}

/** The stems of the vocabulary that `alternative` stands for: itself, or every stem it begins. */
function expand(index: AnswerIndex, alternative: string): string[] {
  if (!alternative.endsWith('*')) return index.postings.has(alternative) || index.cues.has(alternative) ? [alternative] : [];
  return beginningWith(index.vocabulary, alternative.slice(0, -1));
}

/** The least evidence a sentence must hold to answer (WEIGHTS.minEvidence of a word the site uses once). */
export const minimumEvidence = (index: AnswerIndex) => WEIGHTS.minEvidence * idf(index, 0);

const idf = (index: AnswerIndex, documentFrequency: number) => Math.log(1 + index.sentences.length / (1 + documentFrequency));

/** Whether a word is a number that says nothing here (a year, a time, a ticket number): three-digit ones may be statuses. */
const isPlainNumber = (word: string) => /^\d+$/.test(word) && word.length !== 3;

/**
 * The weight of one concept (its best alternative's), or undefined for an ordinary word: a stop
 * word, a plain number, an English word the site uses no more than English does.
 */
function weighConcept(index: AnswerIndex, alternatives: readonly string[], written = alternatives[0]!, known_only = false): Concept | undefined {
  let weight = 0;
  let specificity = 0;
  let known = false;
  for (const alternative of alternatives) {
    const terms = expand(index, alternative);
    if (terms.length === 0) continue;
    known = true;
    // A beginning weighs as its own stem would (the words it stands for are each rarer than all of them together), and is as specific as the most specific of them.
    const frequency = documentFrequency(index, alternative.replace(/\*$/, '')) + (index.cues.get(alternative.replace(/\*$/, ''))?.length ?? 0);
    const specific = Math.max(...terms.map((term) => index.specificity.get(term) ?? englishRarity(index, term)));
    weight = Math.max(weight, idf(index, frequency) * specific);
    specificity = Math.max(specificity, specific);
  }
  if (known) return weight > 0 ? { alternatives, weight, evidence: Math.max(weight, specificity * idf(index, 0)), unknown: false } : undefined;
  if (known_only) return undefined;
  const word = alternatives[0]!.replace(/\*$/, '');
  const use = englishUse(index, word);
  const perMillion = use ?? 0;
  const qualifier = use !== undefined && QUALIFIER.test(written);
  if (isPlainNumber(word) || word.length < MIN_TOPIC_LETTERS || perMillion >= WEIGHTS.commonEnglishPerMillion || (qualifier && WEIGHTS.qualifierShare === 0)) return undefined;
  if (use !== undefined && (ADVERB.test(written) || isSuperlative(index, word))) return undefined;
  const corrected = word.length >= MIN_CORRECTED_LETTERS && use === undefined ? oneEditFrom(index, word) : undefined;
  if (corrected) return weighConcept(index, [corrected]);
  const rarity = 1 - perMillion / WEIGHTS.commonEnglishPerMillion;
  return { alternatives, weight: idf(index, 0) * rarity * WEIGHTS.unknownShare * (qualifier ? WEIGHTS.qualifierShare : 1), evidence: 0, unknown: true };
}

/** The stem of the site one edit (a letter added, dropped, changed or two swapped) from `word`, if there is exactly one such. */
function oneEditFrom(index: AnswerIndex, word: string): string | undefined {
  let found: string | undefined;
  for (const term of index.vocabulary) {
    if (Math.abs(term.length - word.length) > 1 || term[0] !== word[0] || !withinOneEdit(term, word)) continue;
    if (found !== undefined) return undefined;
    found = term;
  }
  return found;
}

function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  const restA = a.slice(start + 1);
  const restB = b.slice(start + 1);
  if (a.length === b.length) return restA === restB || (a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2));
  return a.length > b.length ? a.slice(start + 1) === b.slice(start) : a.slice(start) === b.slice(start + 1);
}

/** The weighed concepts of `text`, heaviest first, at most `limit`; of the site's words only when `knownOnly` (what a context lends). */
export function conceptsOf(index: AnswerIndex, text: string, limit = MAX_CONCEPTS, knownOnly = false): Concept[] {
  const concepts: Concept[] = [];
  for (const { word, alternatives } of questionConceptWords(text)) {
    if (alternatives.every((alternative) => isPlainNumber(alternative))) continue;
    const concept = weighConcept(index, alternatives, word, knownOnly);
    if (concept) concepts.push(concept);
  }
  return concepts.sort((a, b) => b.weight - a.weight).slice(0, limit);
}

/** What a context lends is read from this many characters of it at most, nearest the part first: a ticket's long story costs no more than its last lines. */
const CONTEXT_CHARACTERS = 600;

/** A part that points back at what came before ("what does each mean?", "how long is it valid?", "what will it cost there?"). */
export const REFERS_BACK = new RegExp(
  String.raw`\b(?:it|its|these|those|they|them|their|such|former|latter)\b` +
    // "this", "that", "each", "there" and "same" point back only where they stand for a thing ("what does that mean?",
    // "what will it cost there?", "the same?"), not where they lead one in ("so that both", "is there a", "each token").
    String.raw`|\b(?:this|that|each|there|same)(?=\s*(?:[?.!,;:]|$)|\s+(?:is|was|does|did|do|means?|works?|happens?|one|ones|of them|code|error|value|field|step|part)\b)`,
  'i',
);

/** What a part asks, read with what its context lends it. */
export interface PartConcepts {
  concepts: Concept[];
  /**
   * The part leans on its context (it points back at it, or names too little of the domain itself):
   * whether a sentence answers it is judged with what the context lent, not by its own words only.
   */
  leans: boolean;
}

/**
 * A part's concepts, with what its context lends: the sentence before it always (at NEAR_CONTEXT,
 * more when the part points back at it: "what happens to that saved state?" is about the monitor
 * the ticket named), the rest of what the question tells when the part names too little itself.
 */
export function partConcepts(index: AnswerIndex, part: { text: string; near: string; far: string }): PartConcepts {
  const own = conceptsOf(index, part.text);
  const ownKnown = own.filter((concept) => !concept.unknown).reduce((sum, concept) => sum + concept.weight, 0);
  const weak = ownKnown < minimumEvidence(index);
  const leans = weak || REFERS_BACK.test(part.text);
  const has = new Set(own.flatMap((concept) => concept.alternatives));
  const borrow = (text: string, share: number) =>
    (share > 0 ? conceptsOf(index, text, MAX_CONCEPTS, true) : [])
      .filter((concept) => !concept.alternatives.some((alternative) => has.has(alternative)))
      .slice(0, MAX_BORROWED)
      .map((concept) => {
        for (const alternative of concept.alternatives) has.add(alternative);
        return { ...concept, weight: concept.weight * share, borrowed: { share } };
      });
  const near = borrow(part.near.slice(-CONTEXT_CHARACTERS), leans ? WEIGHTS.nearReferring : WEIGHTS.nearContext);
  return { concepts: [...own, ...near, ...(weak ? borrow(part.far.slice(0, CONTEXT_CHARACTERS), WEIGHTS.farContext) : [])], leans };
}

export interface ScoredSentence {
  id: number;
  sentence: IndexedSentence;
  document: IndexedDocument;
  /**
   * Weighted share of what the part asks that the sentence (or, at half weight, its page title)
   * holds: of its own concepts, or of those its context lent when it names too little itself.
   */
  coverage: number;
  /** The weight of what it asks that the sentence holds: too little, and a sentence that holds all of it still answers nothing. */
  evidence: number;
  rank: number;
}

/** The least weight of a part's own words a sentence must hold to answer it: about one word of the domain's own, not one everyday word the site happens to use. */

/** How a sentence is ranked beyond what it covers (tuned on the evaluation set and the tuning halves, `npm run eval:assistant`). */
export interface RankingTerms {
  /** Words a question writes that a sentence names something concrete beyond: CONCRETE below. */
  question: string;
  /** Rank added to a sentence of a route the question names by its path. */
  named: (sentence: IndexedSentence, document: IndexedDocument) => number;
}

/**
 * Something concrete a sentence names: code, a snake_case, SCREAMING_SNAKE or camelCase identifier
 * (nanoERG too: a unit's name), a word with digits in it (blake2b256), a number of three or more
 * digits and dots (410, 0.001), a path that stands on its own (not the `/json` of
 * application/json). A question asking what or which is answered by the sentence that names the
 * thing, not by the one that describes it in prose.
 */
const CONCRETE =
  /`[^`]+`|\b[a-z0-9]+_[a-z0-9_]+\b|\b[A-Z0-9]+_[A-Z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]+\b|\b[a-z]+\d+[a-z0-9]*\b|\b\d[\d.]+\d\b|(?<![\w/])\/[.a-z](?:[\w\-./{}]*[\w}/])?/g;
/** Rank added to a sentence that names something concrete beyond the question's own words. */

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

/** Stems beyond the question's own at which a sentence counts as saying something. */
/** Characters at which a sentence's coverage counts half. */
/** Rank added to a fact whose cue the part asks by. */
/** A match in the page title counts for this share of one in the sentence. */

/** BM25+ as MiniSearch scores it (k, b, and the delta that keeps a long field's match worth something). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** A stem a beginning stands for counts this much of an exact match, less the longer it runs past the beginning (MiniSearch's prefix weight). */
const PREFIX_WEIGHT = 0.375;

/** BM25's rarity of a term `matching` sentences hold. */
const bm25Inverse = (index: AnswerIndex, matching: number) => Math.log(1 + (index.sentences.length - matching + 0.5) / (matching + 0.5));
/** BM25's weight of `count` uses in a field of `length` words, before its rarity. */
const bm25Frequency = (count: number, length: number, average: number) => BM25.d + (count * (BM25.k + 1)) / (count + BM25.k * (1 - BM25.b + (BM25.b * length) / average));

function bm25(index: AnswerIndex, count: number, matching: number, length: number, average: number): number {
  return bm25Inverse(index, matching) * bm25Frequency(count, length, average);
}

/**
 * The sentences that could answer a part read as `concepts` (they cover more than
 * WEIGHTS.minCoverage of it), best first, with how much of it each covers.
 * Only sentences holding at least one of its known concepts are looked at: the postings of its
 * stems, never the whole site.
 */
export function rankSentences(index: AnswerIndex, { concepts, leans }: PartConcepts, terms: RankingTerms): ScoredSentence[] {
  const known = concepts.filter((concept) => !concept.unknown);
  if (known.length === 0) return [];
  const weightSum = concepts.reduce((sum, concept) => sum + concept.weight, 0);
  const own = concepts.filter((concept) => !concept.borrowed);
  const ownWeight = own.reduce((sum, concept) => sum + concept.weight, 0);
  // A part is answered by what it names itself, unless it leans on its context ("and what do we get back?", "what does each mean?").
  const byOwn = !leans;
  // Per sentence, in arrays by its id (made once per index, and only the sentences a part touched
  // set back after it): which concepts it holds (a bit each), how many of their alternatives, how
  // many question stems its text holds, its BM25, how many of the query's terms it matched, and
  // whether a cue of it is asked by.
  const { bits, alternativesHeld, questionStems, score, matched, lastQuery, asked } = scratchOf(index);
  const touched: number[] = [];
  const touch = (id: number) => {
    if (bits[id] === 0 && alternativesHeld[id] === 0 && asked[id] === 0 && lastQuery[id] === -1) touched.push(id);
  };
  const expansions = new Map<string, string[]>();
  const expanded = (alternative: string) => {
    let stems = expansions.get(alternative);
    if (!stems) expansions.set(alternative, (stems = expand(index, alternative)));
    return stems;
  };
  known.forEach((concept, at) => {
    for (const alternative of concept.alternatives) {
      const seen = new Set<number>();
      for (const term of expanded(alternative)) {
        for (const coded of index.postings.get(term) ?? []) {
          const id = Math.floor(coded / (TF_MAX + 1));
          touch(id);
          bits[id]! |= 1 << at;
          if (!seen.has(id)) alternativesHeld[id]!++;
          seen.add(id);
        }
        for (const id of index.cues.get(term) ?? []) {
          touch(id);
          bits[id]! |= 1 << at;
          if (!concept.borrowed) asked[id] = 1;
        }
      }
    }
  });
  // BM25 of the part's alternatives as one query, in the text and (at WEIGHTS.titleShare) the page
  // title, worked out once per page: its sentences share it.
  const queryTerms = [...new Set(known.flatMap((concept) => concept.alternatives))];
  // The word a part writes weighs more than the words the domain's vocabulary adds for it: "audited" asks for the audit first, for a review only after.
  const written = new Set(known.map((concept) => concept.alternatives[0]!));
  const queryShare = (query: string) => (written.has(query) ? 1 : WEIGHTS.alternativeShare);
  const prefixWeight = (query: string, term: string) => {
    const prefix = query.endsWith('*') ? query.slice(0, -1) : undefined;
    return prefix === undefined || term === prefix ? 1 : (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * (term.length - prefix.length));
  };
  queryTerms.forEach((query, queryAt) => {
    const exact = !query.endsWith('*');
    for (const term of expanded(query)) {
      const postings = index.postings.get(term) ?? [];
      // Of the term, once: its share, its prefix weight and its rarity.
      const weight = queryShare(query) * prefixWeight(query, term) * bm25Inverse(index, postings.length);
      for (const coded of postings) {
        const id = Math.floor(coded / (TF_MAX + 1));
        score[id]! += weight * bm25Frequency(coded % (TF_MAX + 1), index.lengths[id]!, index.averageLength);
        if (lastQuery[id] !== queryAt) matched[id]!++;
        lastQuery[id] = queryAt;
        if (exact) questionStems[id]!++;
      }
    }
  });
  const pages = new Map<number, { bm25: number; queries: Set<number>; bits: number }>();
  const pageOf = (document: number) => {
    let page = pages.get(document);
    if (page) return page;
    const title = index.titles[document]!;
    page = { bm25: 0, queries: new Set(), bits: 0 };
    queryTerms.forEach((query, queryAt) => {
      for (const term of expanded(query)) {
        const times = title.terms.get(term);
        if (times === undefined) continue;
        page!.bm25 += WEIGHTS.titleShare * queryShare(query) * prefixWeight(query, term) * bm25(index, times, index.titleFrequency.get(term) ?? 0, title.length, index.averageTitleLength);
        page!.queries.add(queryAt);
      }
    });
    known.forEach((concept, at) => {
      if (concept.alternatives.some((alternative) => expanded(alternative).some((term) => title.terms.has(term)))) page!.bits |= 1 << at;
    });
    pages.set(document, page);
    return page;
  };
  let topScore = 1e-9;
  for (const id of touched) {
    const page = pageOf(index.sentences[id]!.document);
    // MiniSearch's quality: a sentence matching more of the query's terms is worth that many times more.
    let titleOnly = 0;
    for (const queryAt of page.queries) if (lastQuery[id] !== queryAt) titleOnly++;
    score[id] = (score[id]! + page.bm25) * Math.max(1, matched[id]! + titleOnly);
    topScore = Math.max(topScore, score[id]!);
  }
  const question = terms.question.toLowerCase();
  const scored: ScoredSentence[] = [];
  for (const id of touched) {
    if (alternativesHeld[id] === 0 && asked[id] === 0) continue;
    const sentence = index.sentences[id]!;
    const titleBits = pageOf(sentence.document).bits;
    let covered = 0;
    let ownCovered = 0;
    let evidence = 0;
    let ownEvidence = 0;
    known.forEach((concept, at) => {
      const held = bits[id]! & (1 << at) ? 1 : titleBits & (1 << at) ? 0.5 : 0;
      covered += held * concept.weight;
      evidence += held * concept.evidence;
      if (!concept.borrowed) {
        ownCovered += held * concept.weight;
        ownEvidence += held * concept.evidence;
      }
    });
    // What a part names itself must be in the sentence too: a context lends a part the topic, not the answer.
    if (ownEvidence < WEIGHTS.ownEvidence * minimumEvidence(index)) continue;
    const share = covered / weightSum;
    const ownShare = ownWeight > 0 ? ownCovered / ownWeight : 0;
    const coverage = byOwn ? ownShare : Math.max(ownShare, share);
    // A sentence that covers too little to answer is never quoted nor read more: it is not ranked.
    if (coverage <= WEIGHTS.minCoverage) continue;
    // What the sentence holds of the question, each word as evidence (Concept.evidence): a part that leans on its
    // context ("where does it keep what it saw last time?") is answered by what the context names.
    // Among sentences covering as much, the one that says it in fewer words, naming more of the
    // domain's words for it (R4, R5 and R6 for "registers"), is the answer. One that holds little
    // but the question's words is a heading or a link text: it matches best and answers nothing.
    const ownStems = Math.max(0, index.sizes[id]! - questionStems[id]!);
    const says = Math.min(1, (ownStems + 1) / WEIGHTS.contentStems);
    const richness = Math.max(0, alternativesHeld[id]! - popcount(bits[id]!));
    const concrete = namesSomethingNew(sentence.text, question) ? WEIGHTS.namesSomething : 0;
    const document = index.documents[sentence.document]!;
    // A fact asked for in the words people use for it ("which command", "how long is it valid") is the kind of answer the part wants.
    const form = asked[id] ? WEIGHTS.askedFor : 0;
    const rank =
      says *
      (share / (1 + sentence.text.length / WEIGHTS.lengthScale) +
        WEIGHTS.bm25Share * (score[id]! / topScore) +
        WEIGHTS.richness * Math.min(richness, 3) +
        concrete +
        form +
        terms.named(sentence, document) +
        // What this server runs (its terms) before what a page says of the defaults.
        (id >= index.firstRunning ? WEIGHTS.running : 0));
    scored.push({ id, sentence, document, coverage, evidence, rank });
  }
  for (const id of touched) {
    bits[id] = 0;
    alternativesHeld[id] = 0;
    questionStems[id] = 0;
    score[id] = 0;
    matched[id] = 0;
    lastQuery[id] = -1;
    asked[id] = 0;
  }
  return scored.sort((a, b) => b.rank - a.rank || a.id - b.id);
}

/** What rankSentences keeps per sentence while it ranks a part. */
interface Scratch {
  bits: Int32Array;
  alternativesHeld: Uint16Array;
  questionStems: Uint16Array;
  score: Float64Array;
  matched: Uint16Array;
  lastQuery: Int32Array;
  asked: Uint8Array;
}

/** Arrays a part's ranking fills and sets back: made once per index, not per part (a 4 KB question's twelve parts made 700 KB of garbage). */
const scratches = new WeakMap<AnswerIndex, Scratch>();
function scratchOf(index: AnswerIndex): Scratch {
  let scratch = scratches.get(index);
  if (!scratch) {
    const count = index.sentences.length;
    scratch = {
      bits: new Int32Array(count),
      alternativesHeld: new Uint16Array(count),
      questionStems: new Uint16Array(count),
      score: new Float64Array(count),
      matched: new Uint16Array(count),
      lastQuery: new Int32Array(count).fill(-1),
      asked: new Uint8Array(count),
    };
    scratches.set(index, scratch);
  }
  return scratch;
}

function popcount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest; rest &= rest - 1) count++;
  return count;
}

/** Re-exported for the build and the tests: the words and stems as the index reads them. */
export { alternativesOf, stem, stemsOf, wordsAndPartsOf };
