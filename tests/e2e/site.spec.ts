/**
 * The human site in a real Chromium: every built page loads with 200 and no console error (a CSP
 * violation is a console error), every internal link resolves, site search finds the policy check,
 * and axe-core reports no violation on any page, in the light and the dark colour scheme.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { builtPages, UNKNOWN_RECEIPT_PATH } from './site-pages.ts';

test.use({ baseURL: process.env.E2E_BASE_URL });

const PAGES = builtPages();

/** Console errors and uncaught exceptions of a page, collected while `run` drives it. */
async function consoleErrorsOf(page: Page, run: () => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await run();
  return errors;
}

test('the build has every page the issue names', () => {
  for (const path of [
    '/', '/discovery/', '/agents/', '/registry/', '/jobs/', '/reputation/', '/mcp-tools/', '/onboarding/', '/publish/', '/jobs/accept/',
    '/jobs/quote/', '/wallet-boundary/', '/wallet-agent/', '/wallet-agent/reference-flow/', '/wallet-agent/policy-check/', '/roadmap/',
    '/launch-kit/', '/first-receipt/', '/release/', '/release/watchlist/', '/mainnet-gate/', '/review-pack/', '/developers/',
    '/developers/tools/', '/developers/faucet/', '/assistant/', '/api-reference/', '/live/', '/proofs/', '/receipt/', '/search/',
  ]) {
    expect(PAGES, path).toContain(path);
  }
  expect(PAGES.filter((path) => /^\/jobs\/job-[a-z0-9-]+\/$/.test(path)).length).toBeGreaterThan(0);
});

test.describe('every page', () => {
  for (const path of [...PAGES, UNKNOWN_RECEIPT_PATH]) {
    test(`${path} answers 200 without console errors`, async ({ page }) => {
      const errors = await consoleErrorsOf(page, async () => {
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        const csp = response?.headers()['content-security-policy'] ?? '';
        expect(csp).toMatch(/script-src 'self'[^;]*;/);
        expect(/script-src[^;]*unsafe-inline/.test(csp)).toBe(false);
        await page.waitForLoadState('networkidle');
        await expect(page.locator('.posture')).toContainText('testnet only', { ignoreCase: true });
        await expect(page.locator('h1')).toHaveCount(1);
      });
      // The unknown receipt's 404 is the answer under test there; the browser logs it as a failed resource.
      const expected = path === UNKNOWN_RECEIPT_PATH ? errors.filter((error) => !/status of 404/.test(error)) : errors;
      expect(expected).toEqual([]);
    });
  }
});

test('the unknown receipt shows the 404 problem the API answered', async ({ page }) => {
  await page.goto(UNKNOWN_RECEIPT_PATH);
  await expect(page.locator('[data-receipt] [data-output]')).toContainText('answered 404');
  await expect(page.locator('[data-receipt] [data-output]')).toContainText('receipt_not_found');
});

/** Statuses the OpenAPI document gives each path; a link to an endpoint resolves when it answers one of them. */
async function documentedStatuses(request: APIRequestContext): Promise<Array<{ pattern: RegExp; statuses: number[] }>> {
  const openapi = (await (await request.get('/agent-economy/openapi.v0.json')).json()) as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
  return Object.entries(openapi.paths).map(([path, item]) => ({
    pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    // A POST-only endpoint answers a GET with 405 and the methods it allows: it exists.
    statuses: item.get ? Object.keys(item.get.responses ?? {}).map(Number) : [405],
  }));
}

test('every internal link resolves', async ({ page, request, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const documented = await documentedStatuses(request);
  const targets = new Map<string, string>();
  for (const path of PAGES) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const hrefs = await page.locator('a[href]').evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
    for (const href of hrefs) {
      const url = new URL(href);
      if (url.origin !== origin) continue;
      const key = url.pathname + url.search + url.hash;
      if (!targets.has(key)) targets.set(key, path);
    }
  }
  expect(targets.size).toBeGreaterThan(100);
  const fragmentsByPage = new Map<string, Set<string>>();
  for (const [target, from] of targets) {
    const url = new URL(target, origin);
    const response = await request.get(url.pathname + url.search);
    const endpoint = documented.find((entry) => entry.pattern.test(url.pathname));
    const resolves = response.status() < 400 || (endpoint?.statuses.includes(response.status()) ?? false);
    expect(resolves, `${target} (linked from ${from}) answered ${response.status()}`).toBe(true);
    if (!url.hash) continue;
    let ids = fragmentsByPage.get(url.pathname);
    if (!ids) {
      await page.goto(url.pathname);
      ids = new Set(await page.locator('[id]').evaluateAll((nodes) => nodes.map((node) => node.id)));
      fragmentsByPage.set(url.pathname, ids);
    }
    expect(ids.has(decodeURIComponent(url.hash.slice(1))), `${target} (linked from ${from}): no element with that id`).toBe(true);
  }
});

test('the reputation page shows the graph the API derives, with its totals and method', async ({ page, request }) => {
  const graph = (await (await request.get('/api/agents/reputation')).json()) as { summary: { receipts_counted: number; sandbox_receipts_excluded: number }; subjects: unknown[] };
  await page.goto('/reputation/');
  const output = page.locator('[data-reputation-graph] [data-output]');
  await expect(output.locator('dt', { hasText: 'Receipts counted' })).toBeVisible();
  await expect(output.locator('div', { has: page.locator('dt', { hasText: 'Receipts counted' }) }).locator('dd')).toContainText(`${graph.summary.receipts_counted},`);
  await expect(output.locator('div', { has: page.locator('dt', { hasText: 'Not counted' }) }).locator('dd')).toContainText(`${graph.summary.sandbox_receipts_excluded} sandbox receipts`);
  await expect(output.locator('ol.cards > li')).toHaveCount(graph.subjects.length);
  await expect(output).toContainText('first input of the settlement transaction');
});

test('the assistant page shows the terms this server runs, as its terms endpoint answers them', async ({ page, request }) => {
  const terms = (await (await request.get('/api/assistant/terms')).json()) as { free_tier: { daily_limit: number; max_characters: number }; premium: { price: string; min_confirmations: number }; note_rules: unknown[] };
  await page.goto('/assistant/');
  const output = page.locator('[data-assistant-terms] [data-output]');
  await expect(output.locator('div', { has: page.locator('dt', { hasText: 'Free questions' }) }).locator('dd')).toHaveText(`${terms.free_tier.daily_limit} a day per client, up to ${terms.free_tier.max_characters} characters each`);
  await expect(output.locator('div', { has: page.locator('dt', { hasText: 'Premium turn' }) }).locator('dd')).toContainText(`${terms.premium.price} testnet ERG`);
  await expect(output.locator('div', { has: page.locator('dt', { hasText: 'Confirmations needed' }) }).locator('dd')).toHaveText(String(terms.premium.min_confirmations));
  await expect(output.locator('ul > li')).toHaveCount(terms.note_rules.length);
});

test('site search finds the policy-check page for "policy", from the form on any page', async ({ page }) => {
  const errors = await consoleErrorsOf(page, async () => {
    await page.goto('/jobs/');
    await page.getByRole('search').getByLabel('Search').fill('policy');
    await page.getByRole('search').getByRole('button', { name: 'Go' }).click();
    await expect(page).toHaveURL(/\/search\/\?q=policy$/);
    await expect(page.locator('[data-search-results] a[href="/wallet-agent/policy-check/"]')).toBeVisible();
    await expect(page.locator('[data-search-state]')).toContainText('found for “policy”');
  });
  expect(errors).toEqual([]);
});

test.describe('axe-core finds no violation', () => {
  // The full rule set in the light scheme; in the dark scheme only colours change, so only contrast is re-run.
  for (const path of [...PAGES, UNKNOWN_RECEIPT_PATH, '/search/?q=receipt']) {
    test(`on ${path}, light and dark`, async ({ page }) => {
      test.setTimeout(180_000);
      const report = async (scheme: 'light' | 'dark') => {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        const builder = new AxeBuilder({ page });
        const { violations } = await (scheme === 'dark' ? builder.withRules(['color-contrast']) : builder).analyze();
        return violations.map((violation) => ({ scheme, id: violation.id, impact: violation.impact, nodes: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')) }));
      };
      expect([...(await report('light')), ...(await report('dark'))]).toEqual([]);
    });
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('every page fits the screen without sideways scrolling', async ({ page }) => {
    test.setTimeout(300_000);
    const wide: string[] = [];
    for (const path of [...PAGES, UNKNOWN_RECEIPT_PATH]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) wide.push(`${path}: ${overflow}px wider than the screen`);
    }
    expect(wide).toEqual([]);
  });
});

test('the start page shows the five-minute path (screenshot kept)', async ({ page }, testInfo) => {
  await page.goto('/');
  const steps = page.locator('section[aria-labelledby="five-minutes"] > ol > li');
  await expect(steps).toHaveCount(7);
  await expect(steps.first()).toContainText('Check the live state');
  await page.screenshot({ path: testInfo.outputPath('start-page.png'), fullPage: true });
  await testInfo.attach('start-page', { path: testInfo.outputPath('start-page.png'), contentType: 'image/png' });
});

test('the API reference has one section per OpenAPI operation, each with a curl command', async ({ page, request }) => {
  const openapi = (await (await request.get('/agent-economy/openapi.v0.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.values(openapi.paths).flatMap((item) => Object.keys(item).filter((key) => key === 'get' || key === 'post'));
  await page.goto('/api-reference/');
  const sections = page.locator('section[id^="op-"]');
  await expect(sections).toHaveCount(operations.length);
  await expect(page.locator('section[id^="op-"]:not(:has(pre code))')).toHaveCount(0);
  const policy = page.locator('#op-policy-check');
  for (const status of ['200', '400', '413', '415']) await expect(policy.locator('tbody th', { hasText: new RegExp(`^${status}$`) })).toHaveCount(1);
  await expect(policy.locator('pre code')).toContainText('curl -sS -X POST');
});

test('live status and the proof explorer show their server-drawn pictures, with the same in words', async ({ page }) => {
  for (const [path, words] of [
    ['/live/', /^Probe results of \d+ kept runs? from .*receipt_storage: (up|degraded|down) since /],
    ['/proofs/', /^Receipts settled per UTC day from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d; sandbox receipts are never proofs\. testnet: \d+ receipts?/],
  ] as const) {
    await page.goto(path);
    const figure = page.locator('figure.timeline');
    await expect(figure.locator('figcaption')).toHaveText(words);
    const image = figure.locator('img');
    await expect(image).toHaveAttribute('src', /^data:image\/svg\+xml;charset=utf-8,/);
    await expect(image).toHaveAttribute('alt', /.{20,}/);
    expect(await image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(760);
  }
});
