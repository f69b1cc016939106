/**
 * The assistant's index for this process: the build's (`answer-index.json` beside the server
 * bundle, src/build/answer-index-file.ts) with the sentences of the running configuration's terms
 * added, or one built now from the site's documents when run from source. The entries (the server,
 * the MCP host) name where it comes from with `useAnswerIndex`, as they name the corpus: the index
 * is read from the route table's documents, which bind the assistant that reads the index.
 */
import { answerIndexOf, type AnswerIndex, type AnswerIndexData, type IndexedDocument, type IndexedSentence } from '../domain/assistant/answer-index.ts';

/** The build's data, and the sentences of this process's configuration to add to it. */
export interface AnswerIndexSource {
  data: AnswerIndexData;
  extra: { documents: IndexedDocument[]; sentences: IndexedSentence[] };
}

let source: (() => AnswerIndexSource) | undefined;
let built: AnswerIndex | undefined;

/** Where the index comes from; a new source drops the index read from the previous one. */
export function useAnswerIndex(read: () => AnswerIndexSource): void {
  if (source === read) return;
  source = read;
  built = undefined;
}

/** The index, read once per source: at start by the warm-up, or by the first question before it. */
export function answerIndex(): AnswerIndex {
  if (!source) throw new Error('answer index: no source: the entry must call useAnswerIndex(servedAnswerIndex) before the first question');
  if (!built) {
    const { data, extra } = source();
    built = answerIndexOf(data, extra);
  }
  return built;
}
