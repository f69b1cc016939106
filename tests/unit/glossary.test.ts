/**
 * The glossary: every term defined once, each definition naming its term, each link a page this
 * site builds; the docs assistant answers "what is X" for every term and name with X's definition,
 * and judges such a question answerable before a quote.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import glossaryContent from '../../content/glossary.json' with { type: 'json' };
import { glossarySchema } from '../../schemas/glossary.ts';
import { termAsked } from '../../src/domain/assistant/term-asked.ts';
import { GLOSSARY } from '../../src/descriptors/glossary.ts';
import { humanPages } from '../../src/build/human-pages.ts';
import { allRoutes } from '../../src/routes/table.ts';
import { createDocsProvider } from '../../src/services/model/docs-provider.ts';

const terms = GLOSSARY.terms;
const ask = (question: string) => ({ question, messages: [{ role: 'user' as const, content: question }] });

describe('the glossary', () => {
  it('matches its schema, with ids, terms and names each used once', () => {
    expect(glossarySchema.safeParse(glossaryContent).success).toBe(true);
    const names = terms.flatMap((term) => [term.term.toLowerCase(), term.id.replace(/-/g, ' '), ...term.also].filter((name, at, all) => all.indexOf(name) === at));
    expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([]);
    expect(new Set(terms.map((term) => term.id)).size).toBe(terms.length);
  });

  it('defines each term in a sentence that names it, and links a page this site serves', () => {
    const pages = new Set([...humanPages().map((page) => page.path), ...allRoutes().map((route) => route.path)]);
    for (const term of terms) {
      expect(term.definition.toLowerCase(), term.id).toContain(term.term.toLowerCase());
      expect(pages.has(term.page) || existsSync(new URL(`../../src/pages${term.page}index.astro`, import.meta.url)), `${term.id}: ${term.page}`).toBe(true);
    }
  });

  it('defines every term the issue of what a newcomer meets names', () => {
    const ids = new Set(terms.map((term) => term.id));
    for (const id of ['note', 'quote', 'receipt-bundle', 'task-hash', 'reserve-box', 'payment-token', 'settlement', 'checkpoint', 'posture', 'mainnet-gate']) expect(ids, id).toContain(id);
  });
});

describe('a question asking what a term is', () => {
  it('finds the term under each way of asking, and names it only when that is all the question asks', () => {
    const note = terms.find((term) => term.id === 'note');
    for (const question of ['What is a Note?', 'what is the note', "What's a Note?", 'Define Note.', 'What does note mean?', 'What are notes?', 'Explain the Note box']) {
      expect(termAsked(question, terms), question).toBe(note);
    }
    expect(termAsked('What is a task hash?', terms)?.id).toBe('task-hash');
    expect(termAsked('What is the mainnet gate', terms)?.id).toBe('mainnet-gate');
    for (const question of ["What is a Note's R5 for?", 'Which registers must a Note carry?', 'What is a Note worth in dollars?', 'Note?']) expect(termAsked(question, terms), question).toBeUndefined();
  });

  it('is answered by the docs assistant with the definition and the glossary entry, and quoted', async () => {
    const provider = createDocsProvider();
    for (const term of terms) {
      const question = `What is ${term.term}?`;
      const { answer, citations } = await provider.answer(ask(question));
      expect(answer, question).toBe(`> ${term.definition} ([Glossary](http://127.0.0.1:4321/glossary/#${term.id}))\n\nRead more: [Glossary](http://127.0.0.1:4321/glossary/#${term.id}) · [More on ${term.term}](http://127.0.0.1:4321${term.page})`);
      expect(citations[0]!.url).toContain(`/glossary/#${term.id}`);
      expect((await provider.judge(question)).answerable, question).toBe(true);
    }
  });
});
