/**
 * The receipt page in a real Chromium. A full bundle, valid against the published receipt schema and
 * identified by its real receipt id, is served in place of the receipt API, so the layout and the
 * in-browser recomputation are tested whether or not this build has a stored receipt; a tampered copy
 * must fail the recomputation. The paid turn itself, against the sandbox chain, is in paid-turn.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { fixtureBundle } from './receipt-fixture.ts';

test.use({ baseURL: process.env.E2E_BASE_URL });


test('the receipt page lays a full bundle out and recomputes its id (screenshot kept)', async ({ page }, testInfo) => {
  const bundle = fixtureBundle();
  await page.route(`**/api/assistant/receipt/${bundle.receiptId}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(bundle) }));
  await page.goto(`/receipt/${bundle.receiptId}`);
  const output = page.locator('[data-receipt] [data-output]');
  await expect(output).toContainText('Settled on chain');
  await expect(output).toContainText('sandbox chain');
  for (const heading of ['1. What was agreed', '2. How the Note was checked', '3. What the chain holds', '4. The quote it answered', '5. Check it yourself']) {
    await expect(output.getByRole('heading', { name: heading })).toBeVisible();
  }
  await expect(output.locator('tr', { hasText: 'value_covers_price' })).toContainText('pass');
  const recomputed = output.getByRole('group', { name: 'Recomputed in this browser' });
  await expect(recomputed).toContainText('pass');
  await expect(recomputed).toContainText(bundle.receiptId);
  await expect(output).toContainText(`verify-receipt ${bundle.receiptId}`);
  await page.screenshot({ path: testInfo.outputPath('receipt-page.png'), fullPage: true });
  await testInfo.attach('receipt-page', { path: testInfo.outputPath('receipt-page.png'), contentType: 'image/png' });
});

test('a tampered bundle fails the in-browser recomputation of its id', async ({ page }) => {
  const bundle = fixtureBundle();
  const tampered = { ...bundle, settlement_receipt: { ...bundle.settlement_receipt, valueNanoErg: '20000000' } };
  await page.route(`**/api/assistant/receipt/${bundle.receiptId}`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(tampered) }));
  await page.goto(`/receipt/?id=${bundle.receiptId}`);
  const recomputed = page.getByRole('group', { name: 'Recomputed in this browser' });
  await expect(recomputed).toContainText('fail');
  await expect(recomputed).toContainText(`declares ${bundle.receiptId}`);
});
