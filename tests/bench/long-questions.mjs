// Questions of about 4 KB in the site's own words, every one different (a reading is kept per
// question, so a repeated one would measure the memo): support tickets of a dozen asks built from
// the built site's own sentences, as `npm run bench` sends them to the quote route and the docs
// provider reads them in process.
import { readFileSync } from 'node:fs';

const ASKS = ['Which', 'What does', 'How does', 'Explain why', 'When does', 'Where is'];

/** `count` questions of about `characters` characters each, the same for the same `seed`. */
export function longQuestions(root, count, characters = 4_000, seed = 1) {
  const corpus = JSON.parse(readFileSync(`${root}dist/server/docs-corpus.json`, 'utf8'));
  const lines = corpus.flatMap((document) => document.text.split('\n')).filter((line) => line.length > 40 && line.length < 400);
  let state = seed >>> 0;
  const random = () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
  return Array.from({ length: count }, (_, at) => {
    let question = `Ticket ${at}: we run agents against this service and have several questions, thanks in advance.`;
    while (question.length < characters - 400) {
      const line = lines[Math.floor(random() * lines.length)].replace(/[.?!]+$/, '');
      question += ` ${ASKS[Math.floor(random() * ASKS.length)]} this mean: ${line}?`;
    }
    return question.slice(0, characters);
  });
}
