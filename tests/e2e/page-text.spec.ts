/**
 * Pages say in words what their data means. On no built page (its scripts run, so data read at run
 * time counts too) does a heading stand over a bare value, a `true`, a `false`, a number or `none`,
 * which tells a reader nothing. And the guide pages whose descriptor states a posture open with what
 * it means: readiness for mainnet in words, its value, and while the gate is closed, every blocker
 * the mainnet gate's own JSON names.
 */
import { expect, test } from '@playwright/test';
import { routePath } from '../../src/catalogue/lookup.ts';
import { builtPages } from './site-pages.ts';

test.use({ baseURL: process.env.E2E_BASE_URL });

test('no heading stands over a bare value', async ({ page }) => {
  test.setTimeout(300_000);
  const found: string[] = [];
  for (const path of builtPages()) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const bare = await page.locator('main').evaluate((main) => {
      const problems: string[] = [];
      for (const heading of Array.from(main.querySelectorAll('h2, h3, h4, h5, h6'))) {
        const level = Number(heading.tagName[1]);
        // What the heading introduces: its following siblings up to the next heading of its level or above.
        let text = '';
        for (let node = heading.nextElementSibling; node; node = node.nextElementSibling) {
          if (/^H[1-6]$/.test(node.tagName) && Number(node.tagName[1]) <= level) break;
          text += ` ${node.textContent ?? ''}`;
        }
        text = text.trim();
        if (/^(true|false|none|null|-?\d+(\.\d+)?)$/i.test(text)) problems.push(`"${heading.textContent?.trim()}" over a bare ${text}`);
      }
      return problems;
    });
    for (const problem of bare) found.push(`${path}: ${problem}`);
  }
  expect(found).toEqual([]);
});

for (const path of ['/first-receipt/', '/onboarding/', '/developers/', '/mainnet-gate/']) {
  test(`${path} opens with what its posture means`, async ({ page, request }) => {
    await page.goto(path);
    const json = await page.locator('link[rel="alternate"][type="application/json"]:not([title="Discovery descriptor"])').first().getAttribute('href');
    const body = (await (await request.get(json!)).json()) as { posture?: { mainnet_ready: boolean }; mainnet_ready?: boolean };
    const ready = body.posture?.mainnet_ready ?? body.mainnet_ready;
    expect(typeof ready, `${json} states mainnet_ready`).toBe('boolean');
    const opening = page.locator('main h1 + p');
    await expect(opening).toContainText(`Mainnet: ${ready ? 'ready' : 'not ready'}`);
    await expect(opening).toContainText(`mainnet_ready: ${ready}`);
    if (!ready) {
      const gate = (await (await request.get(routePath('mainnet-gate'))).json()) as { blockers: Array<{ label: string }> };
      expect(gate.blockers.length).toBeGreaterThan(0);
      for (const { label } of gate.blockers) await expect(opening).toContainText(label.slice(1));
    }
  });
}
