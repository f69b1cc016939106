// `npm run eval:assistant`: asks the docs provider every question of the evaluation set
// (tests/eval/assistant-questions.json) and of the held-out sets (assistant-questions-held-out*.json)
// and prints, for each, the share answered with all their facts (and, for the questions the site does
// not answer, the share where the assistant says so). Both are written from the site's pages; the
// engine's weights and words are chosen on the first only, so the second shows how far they carry to
// questions they were not chosen on (its description says how it was kept apart).
import { readFileSync } from 'node:fs';
import { siteDocuments } from '../src/build/site-documents.ts';
import { useCorpus } from '../src/services/docs-index.ts';
import { createDocsProvider } from '../src/services/model/docs-provider.ts';

export interface EvalQuestion {
  question: string;
  facts: string[];
  unanswerable?: boolean;
  source?: string;
}

export interface EvalResult {
  question: EvalQuestion;
  answer: string;
  /** Whether a premium quote would be issued for it (the provider judged it answerable). */
  quoted: boolean;
  missing: string[];
  passed: boolean;
}

/** What the assistant says when the site does not answer a question. */
const NO_ANSWER = /^Nothing on this site answers/;

/** The evaluation sets, by file name under tests/eval/. */
export const EVALUATION_SET = 'assistant-questions.json';
export const HELD_OUT_SET = 'assistant-questions-held-out.json';
export const SECOND_HELD_OUT_SET = 'assistant-questions-held-out-2.json';
export const THIRD_HELD_OUT_SET = 'assistant-questions-held-out-3.json';
export const FOURTH_HELD_OUT_SET = 'assistant-questions-held-out-4.json';

export function loadQuestions(set = EVALUATION_SET): EvalQuestion[] {
  return (JSON.parse(readFileSync(new URL(`../tests/eval/${set}`, import.meta.url), 'utf8')) as { questions: EvalQuestion[] }).questions;
}

export async function evaluate(questions: readonly EvalQuestion[] = loadQuestions()): Promise<EvalResult[]> {
  useCorpus(siteDocuments);
  const provider = createDocsProvider();
  const results: EvalResult[] = [];
  for (const question of questions) {
    const { answer } = await provider.answer({ question: question.question, messages: [{ role: 'user', content: question.question }] });
    const quoted = await provider.answers(question.question);
    const text = answer.toLowerCase();
    const missing = question.unanswerable
      ? [...(NO_ANSWER.test(answer) ? [] : ['(says the site does not answer)']), ...(quoted ? ['(refused at quote time)'] : [])]
      : [...question.facts.filter((fact) => !text.includes(fact.toLowerCase())), ...(quoted ? [] : ['(a quote: it was refused as unanswerable)'])];
    results.push({ question, answer, quoted, missing, passed: missing.length === 0 && (question.unanswerable === true || !NO_ANSWER.test(answer)) });
  }
  return results;
}

if (import.meta.main) {
  for (const [name, set] of [['evaluation set', EVALUATION_SET], ['held-out set', HELD_OUT_SET], ['second held-out set', SECOND_HELD_OUT_SET], ['third held-out set', THIRD_HELD_OUT_SET], ['fourth held-out set', FOURTH_HELD_OUT_SET]] as const) {
    const results = await evaluate(loadQuestions(set));
    console.log(`${name} (tests/eval/${set}):`);
    for (const result of results.filter((entry) => !entry.passed)) {
      console.log(`  MISSED ${JSON.stringify(result.question.question)}: lacks ${result.missing.join(', ') || '(an answer)'}`);
    }
    const passed = results.filter((result) => result.passed).length;
    const unanswerable = results.filter((result) => result.question.unanswerable);
    console.log(`  answered with their facts: ${passed} of ${results.length} (${((100 * passed) / results.length).toFixed(1)}%)`);
    console.log(`  of which unanswerable, said so and refused at quote time: ${unanswerable.filter((result) => result.passed).length} of ${unanswerable.length}`);
  }
}
