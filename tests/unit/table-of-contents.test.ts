/**
 * The table of contents the layout gives a long page (src/components/table-of-contents.ts): read from
 * the page's rendered headings, placed before the element that holds the first section, and only on a
 * page long enough, with sections enough, to need one.
 */
import { describe, expect, it } from 'vitest';
import { LONG_PAGE_TEXT, MIN_SECTIONS, tableOfContents } from '../../src/components/table-of-contents.ts';

const prose = (length: number) => `<p>${'word '.repeat(Math.ceil(length / 5))}</p>`;
const opening = '<h1>Title</h1><p class="lead">What the data means.</p>';
const sections = (count: number) => Array.from({ length: count }, (_, i) => `<section><h2 id="section-${i}">Part <code>${i}</code> &amp; more</h2>${prose(LONG_PAGE_TEXT / count)}</section>`).join('');

describe('tableOfContents', () => {
  it('lists every section heading of a long page, before the element holding the first', () => {
    const html = `${opening}${sections(MIN_SECTIONS)}`;
    const contents = tableOfContents(html)!;
    expect(contents.entries).toEqual(Array.from({ length: MIN_SECTIONS }, (_, i) => ({ id: `section-${i}`, html: `Part ${i} &amp; more` })));
    expect(html.slice(contents.at)).toMatch(/^<section><h2 id="section-0">/);
  });

  it('places itself before the first heading when no element holds it', () => {
    const html = `${opening}<h2 id="a">A</h2>${prose(LONG_PAGE_TEXT)}<h2 id="b">B</h2><h2 id="c">C</h2>`;
    expect(html.slice(tableOfContents(html)!.at)).toMatch(/^<h2 id="a">/);
  });

  it('leaves out a page too short, one with too few sections, and headings of a nav or without an id', () => {
    expect(tableOfContents(`${opening}<section><h2 id="a">A</h2></section><section><h2 id="b">B</h2></section><section><h2 id="c">C</h2></section>`)).toBeUndefined();
    expect(tableOfContents(`${opening}${sections(MIN_SECTIONS - 1)}${prose(LONG_PAGE_TEXT)}`)).toBeUndefined();
    const withNav = `${opening}<nav><h2 id="toc-heading">On this page</h2></nav><h2>No id</h2>${sections(MIN_SECTIONS)}`;
    expect(tableOfContents(withNav)!.entries.map((entry) => entry.id)).toEqual(['section-0', 'section-1', 'section-2']);
  });
});
