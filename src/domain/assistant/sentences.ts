/**
 * The site's documents cut into what an extractive answer quotes: a short line (a reason code and
 * its meaning, a status and what it says, a configuration variable and its default) whole, a long
 * one sentence by sentence, a lead-in too short to say anything kept with the sentence after it.
 * Pure.
 */
import { wordsOf } from './question-terms.ts';

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

/**
 * The quotable sentences of a document's text (one passage per line), in order: a short line whole,
 * a long one cut into sentences; labels and questions (a review pack's open questions) are not answers.
 */
export function quotableSentences(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line) => (line.length <= WHOLE_LINE_CHARACTERS ? [line.trim()] : sentencesOf(line)))
    .filter((sentence) => !sentence.endsWith('?') && wordsOf(sentence).length >= MIN_SENTENCE_WORDS);
}
