/**
 * `/receipt/{id}` is the build's template with the id's slots filled: every place gets the id's text
 * there, escaped for HTML, in one pass.
 */
import { describe, expect, it } from 'vitest';
import { escapeHtml, fillReceiptPage, RECEIPT_PAGE_SLOTS, receiptPageText } from '../../src/lib/receipt-page.ts';

const template = [
  `<title>Receipt ${RECEIPT_PAGE_SLOTS.title} · Agent Economy</title>`,
  `<h1>Receipt <code>${RECEIPT_PAGE_SLOTS.heading}</code></h1>`,
  `<input value="${RECEIPT_PAGE_SLOTS.id}"><section data-id="${RECEIPT_PAGE_SLOTS.id}">`,
  `<a href="${RECEIPT_PAGE_SLOTS.jsonPath}"><code>${RECEIPT_PAGE_SLOTS.jsonPath}</code></a>`,
].join('\n');

describe('the receipt page filled from its template', () => {
  it('puts each form of the id in its place: 16 characters in the title, 24 and an ellipsis in the heading, the whole id, its JSON path', () => {
    const id = 'a'.repeat(64);
    expect(fillReceiptPage(template, id)).toBe(
      [
        `<title>Receipt ${'a'.repeat(16)} · Agent Economy</title>`,
        `<h1>Receipt <code>${'a'.repeat(24)}…</code></h1>`,
        `<input value="${id}"><section data-id="${id}">`,
        `<a href="/api/assistant/receipt/${id}"><code>/api/assistant/receipt/${id}</code></a>`,
      ].join('\n'),
    );
    expect(receiptPageText('short')).toEqual({ title: 'short', heading: 'short', id: 'short', jsonPath: '/api/assistant/receipt/short' });
  });

  it('escapes markup, quotes and ampersands in every place, so an id cannot leave its attribute or text', () => {
    const page = fillReceiptPage(template, `"><script>alert('x')</script>&`);
    expect(page).not.toContain('<script>');
    expect(page).not.toContain(`alert('x')`);
    expect(page).toContain(`value="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"`);
    expect(page).toContain(`data-id="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"`);
    // encodeURIComponent leaves the quote alone: it is escaped as HTML.
    expect(page).toContain(`href="/api/assistant/receipt/%22%3E%3Cscript%3Ealert(&#39;x&#39;)%3C%2Fscript%3E%26"`);
  });

  it('fills in one pass: an id that spells a slot, or a replacement pattern, is written as it is', () => {
    const page = fillReceiptPage(template, `${RECEIPT_PAGE_SLOTS.heading}$&$'`);
    const id = `${RECEIPT_PAGE_SLOTS.heading}$&amp;$&#39;`;
    expect(page).toBe(
      [
        `<title>Receipt __receipt_page_h · Agent Economy</title>`,
        `<h1>Receipt <code>${RECEIPT_PAGE_SLOTS.heading}…</code></h1>`,
        `<input value="${id}"><section data-id="${id}">`,
        `<a href="/api/assistant/receipt/${RECEIPT_PAGE_SLOTS.heading}%24%26%24&#39;"><code>/api/assistant/receipt/${RECEIPT_PAGE_SLOTS.heading}%24%26%24&#39;</code></a>`,
      ].join('\n'),
    );
  });

  it('escapes the five characters HTML gives meaning to, and nothing else', () => {
    expect(escapeHtml(`&<>"' é…`)).toBe('&amp;&lt;&gt;&quot;&#39; é…');
  });
});
