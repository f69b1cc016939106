import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { turnTaker } from '../../src/lib/loop-turns.ts';
import { buildDocsIndexesInTurns, docsPassages, indexSentences, searchDocs, sentenceIndex, useCorpus, type CorpusDocument } from '../../src/services/docs-index.ts';

/** A corpus of `count` pages, each a few lines long enough to be passages and sentences of their own. */
function corpusOf(count: number, topic: string): CorpusDocument[] {
  return Array.from({ length: count }, (_, page) => ({
    id: `${topic}-${page}`,
    title: `${topic} page ${page}`,
    url: `/${topic}/${page}/`,
    text: Array.from({ length: 6 }, (_, line) => `The ${topic} ledger keeps entry ${page * 6 + line} of its history, and anyone may check it against the signed checkpoint. `.repeat(4)).join('\n'),
  }));
}

describe('docs indexes built in the background', () => {
  it('yield after every passage and every sentence, and answer as the indexes built at once do', async () => {
    const documents = corpusOf(40, 'receipt');
    useCorpus(() => documents);
    const turn = vi.fn(async () => {});
    await buildDocsIndexesInTurns(turn);
    const passages = docsPassages();
    const sentences = sentenceIndex();
    // A sentence is read, then indexed: two steps each; a passage is one.
    expect(turn).toHaveBeenCalledTimes(passages.length + 2 * sentences.sentences.length);
    expect(passages.length).toBeGreaterThan(40);
    expect(sentences.sentences.length).toBeGreaterThan(40);

    const found = searchDocs('signed checkpoint entry 17', 5);
    const atOnce = () => documents;
    useCorpus(atOnce);
    expect(searchDocs('signed checkpoint entry 17', 5)).toEqual(found);
    expect(docsPassages()).toEqual(passages);
    const built = indexSentences(documents);
    expect(sentences.sentences).toEqual(built.sentences);
    expect(sentences.frequency).toEqual(built.frequency);
    expect(sentences.search.search('history ledger').map(({ id, score }) => [id, score])).toEqual(built.search.search('history ledger').map(({ id, score }) => [id, score]));
  });

  it('let the event loop turn between steps', async () => {
    useCorpus(() => corpusOf(20, 'quote'));
    let turns = 0;
    let ticking = true;
    const ticker = (async () => {
      while (ticking) {
        await nextTurn();
        turns += 1;
      }
    })();
    await buildDocsIndexesInTurns(turnTaker(0));
    ticking = false;
    await ticker;
    // Built at once (as before), the ticker would not have turned at all until the build ended.
    expect(turns).toBeGreaterThanOrEqual(docsPassages().length + sentenceIndex().sentences.length);
  });

  it('keep an index a search built at once while they ran, and give a corpus changed meanwhile none of the old one', async () => {
    useCorpus(() => corpusOf(20, 'note'));
    const building = buildDocsIndexesInTurns(turnTaker(0));
    await nextTurn();
    const searched = docsPassages();
    await building;
    expect(docsPassages()).toBe(searched);

    useCorpus(() => corpusOf(20, 'faucet'));
    const rebuilding = buildDocsIndexesInTurns(turnTaker(0));
    await nextTurn();
    useCorpus(() => corpusOf(3, 'policy'));
    await rebuilding;
    expect(new Set(docsPassages().map((passage) => passage.documentId.split('-')[0]))).toEqual(new Set(['policy']));
    expect(new Set(sentenceIndex().sentences.map((sentence) => sentence.documentId.split('-')[0]))).toEqual(new Set(['policy']));
  });
});
