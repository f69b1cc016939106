/**
 * The term a "what is X" question asks to be defined ("What is a Note?", "what's the task hash",
 * "Define settlement.", "What does posture mean?"), looked up among the glossary's terms and the
 * other ways they are named. A question that asks anything more ("What is a Note's R5 for?") is
 * not a definition question and finds no term.
 */
import type { GlossaryTerm } from '../../../schemas/glossary.ts';

const ASKING = [
  /^(?:what(?:'s| is| are)|define|definition of|meaning of|explain)\s+(.+?)$/,
  /^what (?:does|do) (.+?) mean$/,
  /^what (?:is|are) meant by (.+?)$/,
];

const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[?.!\s]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();

const withoutArticle = (text: string) => text.replace(/^(?:an?|the|this|that)\s+/, '').replace(/^["'`](.*)["'`]$/, '$1');

/** The glossary term `question` asks the definition of, if it asks only that. */
export function termAsked(question: string, terms: readonly GlossaryTerm[]): GlossaryTerm | undefined {
  const text = normalise(question);
  for (const pattern of ASKING) {
    const asked = pattern.exec(text)?.[1];
    if (asked === undefined) continue;
    const name = withoutArticle(asked.trim());
    return terms.find((term) => [term.term.toLowerCase(), term.id.replace(/-/g, ' '), ...term.also].includes(name));
  }
  return undefined;
}
