/**
 * `/receipt/{id}` without a render per request. The page is the `/receipt/` shell with the id in
 * five places (the title, the heading, the form's value, the id the browser script reads, the
 * receipt's JSON path), so the build prerenders it once with a slot in each place and the server
 * fills the slots. Rendering it with Astro on every request cost 2 to 7 ms of the event loop, and
 * loading Astro's server bundle for it about 30 MB of resident memory.
 */
import { routePath } from '../catalogue/lookup.ts';

/** The id as it appears in each of its places on the page, before HTML escaping. */
export interface ReceiptPageText {
  /** In the document title: the first 16 characters. */
  title: string;
  /** In the heading: at most 24 characters, then an ellipsis. */
  heading: string;
  /** In the lookup form's value and the id the browser script reads. */
  id: string;
  /** The receipt's JSON route, linked from the page. */
  jsonPath: string;
}

export function receiptPageText(id: string): ReceiptPageText {
  return {
    title: id.slice(0, 16),
    heading: id.length > 24 ? `${id.slice(0, 24)}…` : id,
    id,
    jsonPath: routePath('assistant-receipt').replace('{id}', encodeURIComponent(id)),
  };
}

/** What the build renders in each place: plain text no HTML escaping changes, found nowhere else on the page. */
export const RECEIPT_PAGE_SLOTS: ReceiptPageText = {
  title: '__receipt_page_title__',
  heading: '__receipt_page_heading__',
  id: '__receipt_page_id__',
  jsonPath: '__receipt_page_json_path__',
};

/** The path segment the build renders the page with the slots under; the build moves it out of the served files. */
export const RECEIPT_PAGE_SLOTS_SEGMENT = 'receipt-page-slots';

/** Where the build leaves the page with its slots, in `dist/server/`. */
export const RECEIPT_PAGE_TEMPLATE_FILE = 'receipt-page.html';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in HTML text and in a quoted attribute value alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

const SLOT_PLACES = new Map(Object.entries(RECEIPT_PAGE_SLOTS).map(([place, slot]) => [slot, place as keyof ReceiptPageText]));
const SLOT_PATTERN = new RegExp([...SLOT_PLACES.keys()].join('|'), 'g');

/**
 * The page for `id`: each slot of `template` replaced by the id's text there, escaped. One pass,
 * so an id that spells a slot is not filled in again.
 */
export function fillReceiptPage(template: string, id: string): string {
  const text = receiptPageText(id);
  return template.replace(SLOT_PATTERN, (slot) => escapeHtml(text[SLOT_PLACES.get(slot)!]));
}
