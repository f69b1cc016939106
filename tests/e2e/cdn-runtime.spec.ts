/**
 * Issue 55, the static half on a CDN and the runtime apart: a build for SITE_BASE_URL (the CDN) and
 * SITE_RUNTIME_URL (our server elsewhere), `dist/client` served by Cloudflare Pages' own local
 * runtime (`wrangler pages dev`), our built server as the runtime on its own origin. In Chromium, on
 * the CDN's pages, the policy playground and a paid assistant turn run through it: every POST and
 * runtime GET goes to the runtime's origin (the page's CSP allows it, the runtime answers CORS),
 * nothing runtime goes to the CDN, and the receipt opens on the runtime.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { ROOT, startBuiltProcess } from '../helpers/built-server.ts';
import { pagesDevRuns, startPagesDev, type PagesDev } from '../helpers/cloudflare-pages.ts';
import { closedPort } from '../helpers/services.ts';

const sandboxUrl = process.env.E2E_SANDBOX_URL;

test.describe.configure({ mode: 'serial' });

let cdn: PagesDev | undefined;
let runtime: Awaited<ReturnType<typeof startBuiltProcess>> | undefined;
let runtimeOrigin = '';
let outDir = '';
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (!pagesDevRuns()) return;
  const [cdnPort, runtimePort] = [await closedPort(), await closedPort()];
  const cdnOrigin = `http://127.0.0.1:${cdnPort}`;
  runtimeOrigin = `http://127.0.0.1:${runtimePort}`;
  // Inside the project, so the server's bundle finds its packages in node_modules.
  outDir = join(ROOT, `.cdn-e2e-${process.pid}`, 'dist');
  const site = { SITE_BASE_URL: cdnOrigin, SITE_RUNTIME_URL: runtimeOrigin };
  await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir], {
    cwd: ROOT,
    env: { ...process.env, ...site, ASTRO_TELEMETRY_DISABLED: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  dataDir = mkdtempSync(join(tmpdir(), 'cdn-e2e-data-'));
  const { RECEIVER, RESERVE } = await import('../helpers/paid-turn.ts');
  runtime = await startBuiltProcess(join(outDir, 'server', 'fast-entry.mjs'), {
    ...site,
    PORT: String(runtimePort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SITE_MCP_URL: `http://127.0.0.1:${await closedPort()}`,
    ...(sandboxUrl ? { CHAIN_SOURCE: 'sandbox', ERGO_EXPLORER_URL: sandboxUrl, ASSISTANT_RECEIVER_ADDRESS: RECEIVER, ASSISTANT_RESERVE_BOX_ID: RESERVE } : {}),
  }, ['listening']);
  cdn = await startPagesDev(join(outDir, 'client'), cdnPort);
});

test.afterAll(async () => {
  await cdn?.stop();
  await runtime?.stop();
  if (outDir) rmSync(join(outDir, '..'), { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Every request the page makes, by origin: what went to the runtime and what to the CDN. */
function requestsOf(page: import('@playwright/test').Page) {
  const seen: Array<{ method: string; url: string }> = [];
  page.on('request', (request) => seen.push({ method: request.method(), url: request.url() }));
  return seen;
}

test('the policy playground on the CDN\'s page checks an action at the runtime', async ({ page }) => {
  test.skip(!cdn, 'wrangler pages dev needs Node 22.12 or later (npm test runs Node 24)');
  const seen = requestsOf(page);
  await page.goto(`${cdn!.url}/wallet-agent/policy-check/`);
  await page.getByRole('button', { name: 'Check this action' }).click();
  await expect(page.locator('[data-verdict]')).toHaveAttribute('data-verdict', 'allowed');
  const posts = seen.filter((request) => request.method === 'POST');
  expect(posts.map((request) => request.url)).toEqual([`${runtimeOrigin}/api/agent-economy/wallet-agent/policy-check`]);
});

test('a paid assistant turn on the CDN\'s page runs at the runtime, and its receipt opens there', async ({ page }) => {
  const missing = `${process.env.E2E_SANDBOX_SKIP_REASON ?? 'no sandbox chain'}. Run the stack with src/sandbox present.`;
  if (!sandboxUrl && process.env.CI === 'true') throw new Error(`The paid turn is required when CI=true, but ${missing}`);
  test.skip(!cdn || !sandboxUrl, !cdn ? 'wrangler pages dev needs Node 22.12 or later' : `Skipped: ${missing}`);
  test.setTimeout(180_000);
  const { payQuote } = await import('../../src/sandbox/pay.ts');
  const { PREMIUM_QUESTION } = await import('../helpers/paid-turn.ts');
  const seen = requestsOf(page);
  await page.exposeFunction('hostWalletPay', async (quote: unknown) => (await payQuote(quote, { sandboxUrl: sandboxUrl! })).noteBoxId);
  await page.goto(`${cdn!.url}/assistant/`);
  const assistant = page.locator('agent-economy-assistant');
  await assistant.evaluate((element) => {
    (element as HTMLElement & { pay?: unknown }).pay = (quote: unknown) => (window as unknown as { hostWalletPay: (q: unknown) => Promise<string> }).hostWalletPay(quote);
  });
  await assistant.getByLabel('Your question').fill(PREMIUM_QUESTION);
  await assistant.getByRole('button', { name: 'Ask' }).click();
  await expect(assistant.locator('[data-step="premium-quote"]')).toBeVisible();
  await assistant.getByRole('button', { name: 'Pay with my wallet' }).click();
  const verified = assistant.locator('[data-step="payment-verified"]');
  await expect(verified).toBeVisible({ timeout: 60_000 });
  await verified.getByRole('button', { name: 'Continue the turn' }).click();
  const answer = assistant.locator('[data-step="paid-answer"]');
  await expect(answer.locator('.answer')).not.toBeEmpty({ timeout: 60_000 });

  const posts = seen.filter((request) => request.method === 'POST').map((request) => new URL(request.url));
  expect(posts.map((url) => url.pathname)).toEqual(['/api/assistant/quote', '/api/assistant/verify-payment', '/api/assistant/chat']);
  expect(new Set(posts.map((url) => url.origin))).toEqual(new Set([runtimeOrigin]));

  await answer.getByRole('link', { name: 'Open the receipt' }).click();
  await expect(page).toHaveURL(new RegExp(`^${runtimeOrigin}/receipt/[0-9a-f]{64}$`));
  await expect(page.locator('[data-receipt] [data-output]')).toContainText('Settled on chain', { timeout: 30_000 });
});
