/**
 * The two interactive pieces in a real Chromium: the policy-check playground against the live
 * endpoint, and the assistant element, which must show the service's own answer whatever its status.
 */
import { expect, test } from '@playwright/test';

test.use({ baseURL: process.env.E2E_BASE_URL });

test.describe('policy-check playground', () => {
  test('allows the published example', async ({ page }) => {
    await page.goto('/wallet-agent/policy-check/');
    await page.getByRole('button', { name: 'Check this action' }).click();
    const verdict = page.locator('[data-verdict]');
    await expect(verdict).toHaveAttribute('data-verdict', 'allowed');
    await expect(verdict).toContainText('policy_allows_exact_testnet_action');
    await expect(page.locator('[data-reasons]')).toHaveCount(0);
  });

  test('denies an amount edited over the per-action cap and explains each reason', async ({ page }) => {
    await page.goto('/wallet-agent/policy-check/');
    const box = page.getByLabel(/Policy-check request/);
    const request = JSON.parse(await box.inputValue()) as { profile: { per_action_spend_cap: string }; proposed_action: Record<string, unknown> };
    const cap = request.profile.per_action_spend_cap;
    const [whole, fraction] = cap.split('.') as [string, string];
    const overCap = (BigInt(whole) * 1_000_000_000n + BigInt(fraction) + 1n).toString().padStart(10, '0');
    request.proposed_action.amount = `${overCap.slice(0, -9)}.${overCap.slice(-9)}`;
    await box.fill(JSON.stringify(request, null, 2));
    await page.getByRole('button', { name: 'Check this action' }).click();

    await expect(page.locator('[data-verdict]')).toHaveAttribute('data-verdict', 'denied');
    const reason = page.locator('[data-reason-code="amount_over_per_action_cap"]');
    await expect(reason).toBeVisible();
    await expect(reason).toContainText('/proposed_action/amount');
    // The explanation is the contract's own text for the code.
    const contract = (await (await page.request.get('/api/agent-economy/wallet-agent/policy-check')).json()) as { reason_codes: Array<{ code: string; meaning: string }> };
    const meaning = contract.reason_codes.find((entry) => entry.code === 'amount_over_per_action_cap')!.meaning.replaceAll('`', '');
    await expect(reason).toContainText(meaning);
    // Every reason the verdict carries is explained, not only the first.
    for (const item of await page.locator('[data-reason-code]').all()) await expect(item).toContainText('What it means:');
  });

  test('presets cover the four denials the contract names', async ({ page }) => {
    await page.goto('/wallet-agent/policy-check/');
    const cases = [
      ['wrong-recipient', 'recipient_not_allowed'],
      ['stale-expiry', 'expiry_height_delta_not_positive'],
      ['no-receipt', 'receipt_expectation_missing'],
    ] as const;
    for (const [preset, code] of cases) {
      await page.locator(`[data-preset-id="${preset}"]`).click();
      await page.getByRole('button', { name: 'Check this action' }).click();
      await expect(page.locator('[data-verdict]')).toHaveAttribute('data-verdict', 'denied');
      await expect(page.locator(`[data-reason-code="${code}"]`)).toBeVisible();
    }
  });

  test('shows the 400 problem for a request the contract refuses', async ({ page }) => {
    await page.goto('/wallet-agent/policy-check/');
    await page.getByLabel(/Policy-check request/).fill('{"profile": {}, "proposed_action": {}, "extra": 1}');
    await page.getByRole('button', { name: 'Check this action' }).click();
    const output = page.locator('[data-playground-output]');
    await expect(output).toContainText('answered 400');
    await expect(output).toContainText('invalid_request');
    await expect(output).toContainText('/extra');
  });
});

test.describe('assistant element', () => {
  test('asks, and shows the free answer, the premium quote or the problem the service answered', async ({ page }) => {
    await page.goto('/assistant/');
    const assistant = page.locator('agent-economy-assistant');
    await assistant.getByLabel('Your question').fill('What is the mainnet gate?');
    await assistant.getByRole('button', { name: 'Ask' }).click();
    const step = assistant.locator('section.step').first();
    await expect(step).toBeVisible();
    const kind = await step.getAttribute('data-step');
    if (kind === 'quote') {
      // The quote endpoint refused: the element must show the status and the problem's code.
      await expect(step.locator('[data-status]')).toBeVisible();
      await expect(step).toContainText(/answered (400|429|501|503)/);
    } else {
      expect(['free-tier', 'premium-quote']).toContain(kind);
    }
  });
});

test.describe('assistant answers', () => {
  test('render their Markdown as text, quotes and links, never as HTML, in the element the page and the bundled widget share', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/assistant/');
    await page.locator('agent-economy-assistant').waitFor();
    const rendered = await page.evaluate(async () => {
      // The bundled widget the site serves, imported by its URL in the page (not resolved by the test's build).
      const widgetUrl = '/assistant-widget.js';
      const { renderAnswer } = (await import(/* @vite-ignore */ widgetUrl)) as { renderAnswer: (markdown: string) => HTMLElement };
      const answer = renderAnswer(
        '**1. Which registers?**\n> The Note carries R4, `R5` and R6. ([Assistant](/assistant/))\n\n' +
          '**2. What else?**\nThis site does not say. <img src=x onerror="window.pwned=1"> [bad](javascript:alert(1))\n\nRead more: [Glossary](https://example.org/glossary/)',
      );
      document.body.append(answer);
      return {
        quote: answer.querySelector('blockquote')?.textContent,
        code: answer.querySelector('blockquote code')?.textContent,
        strong: [...answer.querySelectorAll('strong')].map((node) => node.textContent),
        links: [...answer.querySelectorAll('a')].map((node) => node.getAttribute('href')),
        images: answer.querySelectorAll('img').length,
        text: answer.textContent,
        pwned: (window as unknown as { pwned?: number }).pwned,
      };
    });
    expect(rendered.quote).toContain('The Note carries R4, R5 and R6.');
    expect(rendered.code).toBe('R5');
    expect(rendered.strong).toEqual(['1. Which registers?', '2. What else?']);
    // Only the web and the service's own paths become links; markup in an answer stays text.
    expect(rendered.links).toEqual(['/assistant/', 'https://example.org/glossary/']);
    expect(rendered.images).toBe(0);
    expect(rendered.text).toContain('<img src=x onerror="window.pwned=1">');
    expect(rendered.pwned).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
