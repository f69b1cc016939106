import AxeBuilder from '@axe-core/playwright';
import { test } from '@playwright/test';
test.use({ baseURL: process.env.E2E_BASE_URL });
test('timing', async ({ page }) => {
  test.setTimeout(600_000);
  for (const path of ['/api-reference/', '/discovery/', '/developers/', '/launch-kit/', '/review-pack/']) {
    await page.goto(path);
    const t = Date.now();
    const { violations } = await new AxeBuilder({ page }).analyze();
    console.log(path, 'axe', Date.now() - t, violations.length, await page.evaluate(() => document.querySelectorAll('*').length));
  }
});
