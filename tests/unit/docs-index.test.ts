import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { turnTaker } from '../../src/lib/loop-turns.ts';
import { buildDocsIndexInTurns, docsPassages, searchDocs, useCorpus, type CorpusDocument } from '../../src/services/docs-index.ts';

/** A corpus of `count` pages, each a few lines long enough to be passages of their own. */
function corpusOf(count: number, topic: string): CorpusDocument[] {
  return Array.from({ length: count }, (_, page) => ({
    id: `${topic}-${page}`,
    title: `${topic} page ${page}`,
    url: `/${topic}/${page}/`,
    text: Array.from({ length: 6 }, (_, line) => `The ${topic} ledger keeps entry ${page * 6 + line} of its history, and anyone may check it against the signed checkpoint. `.repeat(4)).join('\n'),
  }));
}

describe('the search index built in the background', () => {
  it('yields after every passage, and answers as the index built at once does', async () => {
    const documents = corpusOf(40, 'receipt');
    useCorpus(() => documents);
    const turn = vi.fn(async () => {});
    await buildDocsIndexInTurns(turn);
    const passages = docsPassages();
    expect(turn).toHaveBeenCalledTimes(passages.length);
    expect(passages.length).toBeGreaterThan(40);

    const found = searchDocs('signed checkpoint entry 17', 5);
    const atOnce = () => documents;
    useCorpus(atOnce);
    expect(searchDocs('signed checkpoint entry 17', 5)).toEqual(found);
    expect(docsPassages()).toEqual(passages);
  });

  it('lets the event loop turn between steps', async () => {
    useCorpus(() => corpusOf(20, 'quote'));
    let turns = 0;
    let ticking = true;
    const ticker = (async () => {
      while (ticking) {
        await nextTurn();
        turns += 1;
      }
    })();
    await buildDocsIndexInTurns(turnTaker(0));
    ticking = false;
    await ticker;
    // Built at once, the ticker would not have turned at all until the build ended.
    expect(turns).toBeGreaterThanOrEqual(docsPassages().length);
  });

  it('keeps an index a search built at once while it ran, and gives a corpus changed meanwhile none of the old one', async () => {
    useCorpus(() => corpusOf(20, 'note'));
    const building = buildDocsIndexInTurns(turnTaker(0));
    await nextTurn();
    const searched = docsPassages();
    await building;
    expect(docsPassages()).toBe(searched);

    useCorpus(() => corpusOf(20, 'faucet'));
    const rebuilding = buildDocsIndexInTurns(turnTaker(0));
    await nextTurn();
    useCorpus(() => corpusOf(3, 'policy'));
    await rebuilding;
    expect(new Set(docsPassages().map((passage) => passage.documentId.split('-')[0]))).toEqual(new Set(['policy']));
  });
});
