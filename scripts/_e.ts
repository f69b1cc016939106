import { evaluate, loadQuestions } from './eval-assistant.ts';
const wanted = process.argv.slice(2).map(Number);
const qs = loadQuestions();
const picked = wanted.length ? wanted.map((i) => qs[i]!) : qs;
const results = await evaluate(picked);
for (const r of results) console.log('=== ' + r.question.question + '\nFACTS ' + r.question.facts.join(' | ') + ' SOURCE ' + r.question.source + '\n' + r.answer + '\n');
