/**
 * The search page: reads `?q=`, asks the Pagefind index written by the build, and lists the pages
 * found with their excerpts. Pagefind's excerpt marks matches with <mark>; it is rebuilt here as text
 * and mark elements, so no markup from the index reaches the page as HTML.
 */
import { el } from './dom.ts';

interface PagefindResult {
  data: () => Promise<{ url: string; excerpt: string; meta: { title?: string } }>;
}
interface Pagefind {
  search: (query: string) => Promise<{ results: PagefindResult[] }>;
  options?: (options: Record<string, unknown>) => Promise<void>;
}

const RESULTS_SHOWN = 12;

function excerptNodes(excerpt: string): Node[] {
  const parsed = new DOMParser().parseFromString(`<p>${excerpt}</p>`, 'text/html');
  return Array.from(parsed.body.firstElementChild?.childNodes ?? []).map((node) =>
    node.nodeName === 'MARK' ? el('mark', {}, node.textContent ?? '') : document.createTextNode(node.textContent ?? ''),
  );
}

export async function runSearch(): Promise<void> {
  const state = document.querySelector('[data-search-state]');
  const list = document.querySelector('[data-search-results]');
  const input = document.querySelector<HTMLInputElement>('#search-query');
  if (!state || !list || !input) return;
  const query = new URLSearchParams(location.search).get('q')?.trim() ?? '';
  input.value = query;
  if (!query) {
    state.textContent = 'Type a word: policy, receipt, jobs, mainnet…';
    return;
  }
  state.textContent = `Searching for “${query}”…`;
  try {
    // The index is a build output, not a module Vite can see: load it by URL at run time.
    const indexUrl = '/pagefind/pagefind.js';
    const pagefind = (await import(/* @vite-ignore */ indexUrl)) as Pagefind;
    const { results } = await pagefind.search(query);
    const shown = await Promise.all(results.slice(0, RESULTS_SHOWN).map((result) => result.data()));
    state.textContent = results.length === 0 ? `No page mentions “${query}”.` : `${results.length} page${results.length === 1 ? '' : 's'} found for “${query}”${results.length > RESULTS_SHOWN ? `; the first ${RESULTS_SHOWN} are shown` : ''}.`;
    list.replaceChildren(
      ...shown.map((page) => el('li', {}, el('p', { class: 'card-title' }, el('a', { href: page.url }, page.meta.title ?? page.url)), el('p', {}, ...excerptNodes(page.excerpt)))),
    );
  } catch (error) {
    state.textContent = `Search is not available: ${String((error as Error)?.message ?? error)}. The start page lists every surface.`;
  }
}
