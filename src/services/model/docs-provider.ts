/**
 * The default model provider: no language model at all, but full-text retrieval over the site's own
 * pages (the shared MiniSearch index of `src/services/docs-index.ts`, the same one the MCP
 * `search_docs` tool reads). It answers by quoting the passages that best match the question and
 * linking the pages they come from, so every sentence of an answer can be checked against the page
 * it cites, and the service answers with no outside dependency.
 */
import { excerptOf, searchPassages, type DocsHit } from '../docs-index.ts';
import type { ModelAnswer, ModelProvider, ModelRequest } from './provider.ts';

export const DOCS_INDEX_NAME = 'site-docs-minisearch';

/** Pages quoted in one answer. */
const MAX_PAGES = 3;

/** Words too common to say what a question is after; left out of the search so they cannot rank pages. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can could do does for from how i if in into is it its me my of on or our should so that the their them ' +
    'then there these they this to was we what when where which who why will with would you your about any some tell explain please'
  ).split(' '),
);

/** The words of a question worth searching for. */
export function searchTermsOf(question: string): string {
  const words = question.split(/[^\p{L}\p{N}_-]+/u).filter((word) => word.length >= 2 && !STOP_WORDS.has(word.toLowerCase()));
  return [...new Set(words)].join(' ');
}

export type PassageSearch = (query: string, limit: number) => DocsHit[];

/** `search` is the shared site index; tests may hand in another corpus. */
export function createDocsProvider(search: PassageSearch = searchPassages): ModelProvider {
  async function answer({ question }: ModelRequest): Promise<ModelAnswer> {
    const terms = searchTermsOf(question);
    const hits = terms ? search(terms, MAX_PAGES) : [];
    const model = { provider: 'docs' as const, name: DOCS_INDEX_NAME };
    if (hits.length === 0) {
      return {
        answer: 'Nothing on this site matches the question. Try other words, or start from the discovery descriptor at `/.well-known/agent-economy.json`.',
        citations: [],
        model,
      };
    }
    const sections = hits.map((hit) => `**[${hit.title}](${hit.url})**\n\n> ${excerptOf(hit.text, hit.terms)}`);
    return {
      answer: `From this site's own pages:\n\n${sections.join('\n\n')}`,
      citations: hits.map(({ title, url }) => ({ title, url })),
      model,
    };
  }
  return { name: 'docs', answer };
}
