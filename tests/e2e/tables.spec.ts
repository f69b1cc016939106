/**
 * Tables read on any screen: at 390 px and at 1280 px, on every built page, its collapsed sections
 * opened, no table cell's text is cut (a cell narrower than its content, or a table wider than a box
 * that does not scroll), no word in a cell breaks across lines (long code such as hex may: it is not
 * a word), and no page scrolls sideways. On a wide screen a table scrolls in its own box only when
 * its words need more than the column: never because a long value (a hash, a key, a path) is set so
 * that it cannot wrap; a box that scrolls shows that it does (an edge shadow). The timelines' text is drawn at 11 px or more, the picture
 * scrolling in its box. Besides every built page (the live status with its probe table, which the
 * page fills from the API once it opens): the receipt page with a full bundle, each of its tables
 * filled (the Note's checks, the receipt id recomputed, the receipt log checked in the browser, the
 * proof explorer's re-verification), and the assistant's premium quote (the Note's register table,
 * inside the element's shadow root).
 */
import { expect, test, type Page } from '@playwright/test';
import { routePath } from '../../src/catalogue/lookup.ts';
import { fixtureBundle, fixtureLogProof, fixtureProof } from './receipt-fixture.ts';
import { builtPages } from './site-pages.ts';

test.use({ baseURL: process.env.E2E_BASE_URL });

/** Code at least this long is a value (a hash, an id, a pattern: what pages show as code, format.ts isToken) to break anywhere rather than a word. */
const LONG_CODE = 12;

/**
 * A viewport at least this wide is a desktop's: a table scrolls sideways there only when its words need
 * it. On a phone a table of several columns scrolls by design, its first column kept in view.
 */
const DESKTOP = 1024;

/** Everything wrong with the tables of the page open in `page`, described for the failure message. */
async function tableProblems(page: Page): Promise<string[]> {
  return page.evaluate(({ LONG_CODE, DESKTOP }) => {
    const problems: string[] = [];
    const label = (node: Element) => (node.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60);
    if (document.documentElement.scrollWidth > document.documentElement.clientWidth) {
      problems.push(`the page scrolls sideways by ${document.documentElement.scrollWidth - document.documentElement.clientWidth}px`);
    }
    // Tables inside open shadow roots (the assistant element) count too.
    const roots: Array<Document | ShadowRoot> = [document, ...Array.from(document.querySelectorAll('*')).flatMap((element) => (element.shadowRoot ? [element.shadowRoot] : []))];
    // A box that scrolls sideways shows that it does: the edge shadow of Base.astro's `.scroll`, a gradient fixed to
    // the box under a covering strip that travels with the content.
    for (const box of roots.flatMap((root) => Array.from(root.querySelectorAll<HTMLElement>('.scroll')))) {
      if (box.scrollWidth <= box.clientWidth + 1) continue;
      const style = getComputedStyle(box);
      const layers = style.backgroundImage.split(/,\s*(?=(?:linear|radial)-gradient)/);
      if (layers.length < 2 || !layers.every((layer) => layer.includes('gradient')) || !/local/.test(style.backgroundAttachment) || !/scroll/.test(style.backgroundAttachment)) {
        problems.push(`a box that scrolls sideways with no cue that it does: ${label(box)}`);
      }
    }
    /** The width `table` would take in its box were each long value in it free to wrap: a copy measured there, unseen. */
    const widthWithLongValuesWrapping = (table: HTMLTableElement): number => {
      const copy = table.cloneNode(true) as HTMLTableElement;
      const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
      const texts: Text[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
      for (const text of texts) {
        // A long value as format.ts isToken tells one from a word: no space, something other than letters.
        const parts = (text.textContent ?? '').split(/(\S+)/);
        if (!parts.some(isLongValue)) continue;
        text.replaceWith(...parts.map((part) => (isLongValue(part) ? Object.assign(document.createElement('span'), { textContent: part, style: 'word-break: break-all' }) : part)));
      }
      const holder = Object.assign(document.createElement('div'), { style: `position: absolute; visibility: hidden; width: ${table.parentElement!.clientWidth}px` });
      holder.append(copy);
      table.parentElement!.append(holder);
      const width = copy.getBoundingClientRect().width;
      holder.remove();
      return width;
    };
    const isLongValue = (part: string) => part.length >= LONG_CODE && /[^\p{L}'’.,-]/u.test(part);
    for (const table of roots.flatMap((root) => Array.from(root.querySelectorAll('table')))) {
      const box = table.parentElement!;
      const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
      const width = table.getBoundingClientRect().width;
      if (!scrolls && width > box.clientWidth + 1) problems.push(`a table wider than its box, which does not scroll: ${label(table)}`);
      if (innerWidth >= DESKTOP && scrolls && width > box.clientWidth + 1 && widthWithLongValuesWrapping(table) <= box.clientWidth + 1) {
        problems.push(`a table ${Math.round(width)}px wide in a ${box.clientWidth}px box that would fit were its long values wrapping: ${label(table)}`);
      }
      for (const cell of Array.from(table.querySelectorAll('td, th'))) {
        if (cell.scrollWidth > cell.clientWidth + 1) problems.push(`cut cell: ${label(cell)}`);
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          // Long code (a hash, an id, a pattern) may break anywhere; a short one (a type such as Coll[Byte]) is read as a word.
          // Long code is measured whole: a <wbr> after each separator cuts its text into short nodes.
          const code = node.parentElement?.closest('code, pre');
          if (code && (code.textContent ?? '').length >= LONG_CODE) continue;
          // A break after a hyphen or a slash is where a compound may wrap; inside a word it may not.
          for (const word of text.matchAll(/[^\s\-/]{2,}/g)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            const tops = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)));
            if (tops.size > 1) problems.push(`"${word[0]}" breaks across lines in: ${label(cell)}`);
          }
        }
      }
    }
    return problems;
  }, { LONG_CODE, DESKTOP });
}

/** The timelines' text as rendered: the smallest font size in each SVG, scaled by the picture's width on the page. */
async function timelineProblems(page: Page): Promise<string[]> {
  return page.evaluate(async (MIN_PX) => {
    const problems: string[] = [];
    for (const image of Array.from(document.querySelectorAll<HTMLImageElement>('figure.timeline img'))) {
      const path = image.closest<HTMLElement>('figure')!.dataset.path!;
      const svg = await (await fetch(path)).text();
      const viewBoxWidth = Number(/viewBox="[\d.]+ [\d.]+ ([\d.]+)/.exec(svg)?.[1]);
      const smallest = Math.min(...Array.from(svg.matchAll(/font-size="([\d.]+)"/g), (match) => Number(match[1])));
      const rendered = (smallest * image.getBoundingClientRect().width) / viewBoxWidth;
      if (!(rendered >= MIN_PX)) problems.push(`${path}: text drawn at ${rendered.toFixed(1)} px (${smallest} px in a ${viewBoxWidth} px wide picture shown ${image.getBoundingClientRect().width.toFixed(0)} px wide)`);
    }
    return problems;
  }, 11);
}

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 800 } });

    test('every table reads whole: no cut cell, no word broken, no sideways page', async ({ page }) => {
      test.setTimeout(300_000);
      const found: string[] = [];
      for (const path of builtPages()) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        // A table in a collapsed section (a long list, a schema's fields) is read once opened: open them all.
        await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
        for (const problem of [...(await tableProblems(page)), ...(await timelineProblems(page))]) found.push(`${path}: ${problem}`);
      }
      expect(found).toEqual([]);
    });

    test('the receipt page and the premium quote read whole too', async ({ page }) => {
      const bundle = fixtureBundle();
      const { proofText, verifierKey } = fixtureLogProof(bundle);
      await page.route(`**${routePath('assistant-receipt').replace('{id}', bundle.receiptId)}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(bundle) }));
      await page.route(`**${routePath('assistant-receipt-proof').replace('{id}', bundle.receiptId)}`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: proofText }));
      await page.route(`**${routePath('receipt-log-key')}`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: `${verifierKey}\n` }));
      await page.route(`**${routePath('proofs')}`, async (route) => {
        const response = await route.fetch();
        const board = (await response.json()) as { sandbox_receipts: unknown[] };
        await route.fulfill({ response, json: { ...board, sandbox_receipts: [fixtureProof(bundle), ...board.sandbox_receipts] } });
      });
      await page.goto(`/receipt/${bundle.receiptId}`);
      for (const table of ['Payment checks', 'Recomputed in this browser', 'Receipt log, checked in this browser', 'Proof explorer checks']) await expect(page.getByRole('group', { name: table })).toBeVisible();
      await expect(page.locator('[data-log-check]')).toContainText('Included in the signed checkpoint');
      expect(await tableProblems(page)).toEqual([]);

      const quote = bundle.quote_evidence.quote;
      await page.route('**/api/assistant/quote', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(quote) }));
      await page.goto('/assistant/');
      const assistant = page.locator('agent-economy-assistant');
      await assistant.getByLabel('Your question').fill('Which registers must a Note carry?');
      await assistant.getByRole('button', { name: 'Ask' }).click();
      await expect(assistant.getByRole('group', { name: 'Note registers' })).toBeVisible();
      expect(await tableProblems(page)).toEqual([]);
    });
  });
}
