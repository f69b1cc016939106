/**
 * The evaluation sets of the docs provider (tests/eval/, written from the site's pages): every
 * question the site does not answer is answered as such, and the share of the others answered with
 * all their facts does not fall below what it is today, on the set the engine is tuned on and on the
 * held-out set it is not. The goal (90%) and the figures are printed by `npm run eval:assistant`;
 * these floors only keep the engine from getting worse unnoticed.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, FOURTH_HELD_OUT_SET, HELD_OUT_SET, loadQuestions, SECOND_HELD_OUT_SET, THIRD_HELD_OUT_SET } from '../../scripts/eval-assistant.ts';

/** Answered with their facts on 2026-11-26 (the ninth session): 79 of 87, and 22 of the 40 held out. */
const FLOOR = 79 / 87;
const HELD_OUT_FLOOR = 22 / 40;
/** The second held-out set (written 2026-11-29 by someone who did not read the engine) on its one measurement: 43 of 48; the goal is 75 %. */
const SECOND_HELD_OUT_FLOOR = 43 / 48;
/**
 * The third held-out set (written 2026-11-29 the same way, 83 questions) on its one measurement: 45
 * of 83, under the 75 % goal; 46 since contraction fragments stopped counting as words (2026-12-05). A floor, not the goal: its misses are questions in plain words the
 * pages do not use, and tuning the engine on them would make it one more tuning set.
 */
const THIRD_HELD_OUT_FLOOR = 46 / 83;
/**
 * The fourth (written 2026-12-02 the same way, a third of it in plain words, 70 questions) on its one
 * measurement: 32 of 70, and 8 of its 10 unanswerable ones refused at quote time, under both goals.
 * Measured once more after the next change of the engine (contraction fragments no longer words,
 * 2026-12-05, tuned on the other sets only): 33 of 70, 8 of 10 refused. Which ones missed was not
 * looked at either time.
 */
const FOURTH_HELD_OUT_FLOOR = 33 / 70;
const FOURTH_HELD_OUT_REFUSED = 8;

describe('assistant evaluation set', () => {
  const questions = loadQuestions();

  it('holds at least 50 questions written with their facts, some the site does not answer', () => {
    expect(questions.length).toBeGreaterThanOrEqual(50);
    expect(questions.filter((question) => question.unanswerable).length).toBeGreaterThan(0);
    for (const question of questions.filter((entry) => !entry.unanswerable)) expect(question.facts.length, question.question).toBeGreaterThan(0);
  });

  it('says the site does not answer what it does not, and answers at least as many as before with their facts', async () => {
    const results = await evaluate(questions);
    for (const result of results.filter((entry) => entry.question.unanswerable)) expect({ answer: result.answer.slice(0, 29), quoted: result.quoted }, result.question.question).toEqual({ answer: 'Nothing on this site answers ', quoted: false });
    expect(results.filter((result) => result.passed).length / results.length).toBeGreaterThanOrEqual(FLOOR);
  });

  it('answers the held-out questions, kept apart from the tuning, at least as well as before', async () => {
    const questions = loadQuestions(HELD_OUT_SET);
    expect(questions.filter((question) => question.unanswerable).length).toBeGreaterThan(0);
    for (const question of questions.filter((entry) => !entry.unanswerable)) expect(question.facts.length, question.question).toBeGreaterThan(0);
    const results = await evaluate(questions);
    for (const result of results.filter((entry) => entry.question.unanswerable)) expect({ answer: result.answer.slice(0, 29), quoted: result.quoted }, result.question.question).toEqual({ answer: 'Nothing on this site answers ', quoted: false });
    expect(results.filter((result) => result.passed).length / results.length).toBeGreaterThanOrEqual(HELD_OUT_FLOOR);
  });

  /** A set written without reading the engine: at least 40 questions, every unanswerable one refused at quote time, and no fewer answered than `floor`. */
  async function heldOutWithoutTheEngine(set: string, floor: number) {
    const questions = loadQuestions(set);
    expect(questions.length).toBeGreaterThanOrEqual(40);
    expect(questions.filter((question) => question.unanswerable).length).toBeGreaterThan(0);
    const results = await evaluate(questions);
    for (const result of results.filter((entry) => entry.question.unanswerable)) expect({ answer: result.answer.slice(0, 29), quoted: result.quoted }, result.question.question).toEqual({ answer: 'Nothing on this site answers ', quoted: false });
    expect(results.filter((result) => result.passed).length / results.length).toBeGreaterThanOrEqual(floor);
  }

  it('answers the second held-out set, written without reading the engine, at least as well as on its one measurement (over the 75 % goal), refusing every unanswerable one at quote time', async () => {
    expect(SECOND_HELD_OUT_FLOOR).toBeGreaterThanOrEqual(0.75);
    await heldOutWithoutTheEngine(SECOND_HELD_OUT_SET, SECOND_HELD_OUT_FLOOR);
  });

  it('answers the third held-out set no worse than on its one measurement, refusing every unanswerable one at quote time', async () => {
    await heldOutWithoutTheEngine(THIRD_HELD_OUT_SET, THIRD_HELD_OUT_FLOOR);
  });

  it('answers the fourth held-out set, and refuses its unanswerable ones at quote time, no worse than on its one measurement', async () => {
    const questions = loadQuestions(FOURTH_HELD_OUT_SET);
    expect(questions.length).toBeGreaterThanOrEqual(40);
    const results = await evaluate(questions);
    const refused = results.filter((result) => result.question.unanswerable && result.passed).length;
    expect(refused).toBeGreaterThanOrEqual(FOURTH_HELD_OUT_REFUSED);
    expect(results.filter((result) => result.passed).length / results.length).toBeGreaterThanOrEqual(FOURTH_HELD_OUT_FLOOR);
  });
});
