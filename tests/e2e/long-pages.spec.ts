/**
 * No page is longer than about 15 phone screens without a way to its sections. At 390×844, every
 * built page taller than 15 screens (once its scripts have filled it) has a table of contents near
 * its top: a `nav` of in-page links that starts within its first three screens, before its first
 * section, and links every section heading (`h2`) of the page, each link landing on an element
 * that exists.
 */
import { expect, test } from '@playwright/test';
import { builtPages } from './site-pages.ts';

test.use({ baseURL: process.env.E2E_BASE_URL, viewport: { width: 390, height: 844 } });

const MAX_SCREENS = 15;
const NEAR_TOP_SCREENS = 3;

test(`every page taller than ${MAX_SCREENS} phone screens has a table of contents near its top`, async ({ page }) => {
  test.setTimeout(300_000);
  const found: string[] = [];
  let long = 0;
  for (const path of builtPages()) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const result = await page.evaluate(
      ({ MAX_SCREENS, NEAR_TOP_SCREENS }) => {
        const screen = innerHeight;
        const screens = document.documentElement.scrollHeight / screen;
        if (screens <= MAX_SCREENS) return { long: false, problems: [] };
        const main = document.querySelector('main')!;
        const navs = Array.from(main.querySelectorAll('nav')).filter((nav) => {
          const links = Array.from(nav.querySelectorAll('a'));
          return links.length > 0 && links.every((link) => link.getAttribute('href')?.startsWith('#'));
        });
        const size = `${screens.toFixed(1)} screens`;
        const toc = navs[0];
        if (!toc) return { long: true, problems: [`${size} with no table of contents`] };
        const problems: string[] = [];
        const sections = Array.from(main.querySelectorAll('h2')).filter((heading) => !toc.contains(heading));
        const top = (toc.getBoundingClientRect().top + scrollY) / screen;
        if (top > NEAR_TOP_SCREENS) problems.push(`${size}: its table of contents starts ${top.toFixed(1)} screens down`);
        if (sections[0] && !(toc.compareDocumentPosition(sections[0]) & Node.DOCUMENT_POSITION_FOLLOWING)) problems.push(`${size}: its table of contents comes after its first section`);
        const targets = Array.from(toc.querySelectorAll('a')).map((link) => decodeURIComponent(link.getAttribute('href')!.slice(1)));
        for (const target of targets) if (!document.getElementById(target)) problems.push(`${size}: its table of contents links #${target}, which no element has`);
        for (const heading of sections) if (!targets.includes(heading.id)) problems.push(`${size}: its table of contents leaves out the section "${heading.textContent?.trim()}"`);
        return { long: true, problems };
      },
      { MAX_SCREENS, NEAR_TOP_SCREENS },
    );
    if (result.long) long += 1;
    for (const problem of result.problems) found.push(`${path}: ${problem}`);
  }
  expect(found).toEqual([]);
  // The check ran on long pages: the API reference alone is far longer than 15 screens.
  expect(long).toBeGreaterThan(0);
});
