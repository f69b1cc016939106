/**
 * The table of contents of a long page, read from the page's own rendered markup: one entry per
 * section heading (`h2` with an id), placed just before the element that holds the first of them,
 * so the page's title and opening come first and every section is one tap away. Derived from the
 * HTML rather than listed per page, so a page that gains a section lists it without an edit.
 */
import { ELEMENT_NODE, parse, TEXT_NODE, walkSync } from 'ultrahtml';

/**
 * Text a page holds before it gets a table of contents: about six phone screens of prose. A page of
 * fewer words is read straight through (tests/e2e/long-pages.spec.ts asks for one above 15 screens).
 */
export const LONG_PAGE_TEXT = 6000;

/** Sections a page needs before a table of contents helps: with fewer, its headings are in view together. */
export const MIN_SECTIONS = 3;

/** One entry: the heading's id and its text, as HTML text (entities kept, no tags). */
export interface ContentsEntry {
  id: string;
  html: string;
}

interface Node {
  type: number;
  name?: string;
  value?: string;
  attributes?: Record<string, string>;
  children?: Node[];
  parent?: Node;
  loc: Array<{ start: number; end: number }>;
}

const textOf = (node: Node): string => {
  let text = '';
  walkSync(node as never, (inner) => {
    if ((inner as Node).type === TEXT_NODE) text += (inner as Node).value;
  });
  return text;
};

const inside = (node: Node, name: string): boolean => {
  for (let parent = node.parent; parent; parent = parent.parent) if (parent.name === name) return true;
  return false;
};

/**
 * The contents of `html` (a page's main content) and the offset to place them at, or undefined
 * for a page too short or with too few sections to need them. Headings inside a `nav` (a table of
 * contents' own) are not entries.
 */
export function tableOfContents(html: string): { entries: ContentsEntry[]; at: number } | undefined {
  const root = parse(html) as Node;
  const headings: Node[] = [];
  walkSync(root as never, (node) => {
    const element = node as Node;
    if (element.type === ELEMENT_NODE && element.name === 'h2' && element.attributes?.id && !inside(element, 'nav')) headings.push(element);
  });
  const text = textOf(root).replace(/\s+/g, ' ');
  if (headings.length < MIN_SECTIONS || text.length < LONG_PAGE_TEXT) return undefined;
  let top = headings[0]!;
  while (top.parent && top.parent !== root) top = top.parent;
  return {
    entries: headings.map((heading) => ({ id: heading.attributes!.id!, html: textOf(heading).replace(/\s+/g, ' ').trim() })),
    at: top.loc[0]!.start,
  };
}
