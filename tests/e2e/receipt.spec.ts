/**
 * The receipt page in a real Chromium. A full bundle, valid against the published receipt schema and
 * identified by its real receipt id, is served in place of the receipt API, so the layout and the
 * in-browser recomputation are tested whether or not this build has a stored receipt; a tampered copy
 * must fail the recomputation. The paid turn itself, against the sandbox chain, is in paid-turn.spec.ts.
 */
import { SByte, SColl, SInt } from '@fleet-sdk/serializer';
import { expect, test } from '@playwright/test';
import { receiptBundleSchema, type ReceiptBundle } from '../../schemas/receipt.ts';
import { typeName } from '../../src/config/site.ts';
import { blake2b256Hex } from '../../src/domain/canonical-hash.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';

test.use({ baseURL: process.env.E2E_BASE_URL });

const hexOf = (label: string) => blake2b256Hex(label);
const collBytes = (hex: string) => SColl(SByte, Buffer.from(hex, 'hex')).toHex();

function fixtureBundle(): ReceiptBundle {
  const taskHash = hexOf('task');
  const reserveBoxId = hexOf('reserve');
  const noteBoxId = hexOf('note');
  const settlementTxId = hexOf('tx');
  const quote = {
    type: typeName('agent_economy.assistant_quote.v0'),
    version: 'v0',
    tier: 'premium' as const,
    quoteId: 'q_fixture_0001',
    taskHash,
    price: '0.010000000',
    priceNanoErg: '10000000',
    receiverAddress: '3WvopqY4wWMLA248gTt9f3knuRDqDJJMB5NewqgRCaohrPcRygfw',
    reserveBoxId,
    noteExpiryMinHeight: 1100,
    minConfirmations: 1,
    issuedHeight: 1000,
    expiresAt: '2026-11-23T12:10:00.000Z',
    noteRequirements: {
      R4: { type: 'Coll[Byte]' as const, meaning: 'Reserve box id.', value: reserveBoxId },
      R5: { type: 'Int' as const, meaning: 'Expiry height.', value: 1100 },
      R6: { type: 'Coll[Byte]' as const, meaning: 'Task hash.', value: taskHash },
    },
  };
  const checkCodes = ['question_matches_quote', 'note_found', 'note_confirmed', 'note_not_expired', 'reserve_matches', 'task_hash_present', 'task_hash_matches', 'pays_receiver', 'value_covers_price', 'created_after_quote', 'note_unused'];
  const withoutId = {
    version: 'v0' as const,
    receipt_type: 'full_receipt_bundle' as const,
    completeness: 'full_receipt_bundle' as const,
    status: 'settled_on_chain' as const,
    chain: 'sandbox' as const,
    noteBoxId,
    settlementTxId,
    taskHash,
    agreement: {
      quoteId: quote.quoteId,
      taskHash,
      price: quote.price,
      priceNanoErg: quote.priceNanoErg,
      receiverAddress: quote.receiverAddress,
      reserveBoxId,
      noteExpiryMinHeight: 1100,
      minConfirmations: 1,
      issuedHeight: 1000,
      expiresAt: quote.expiresAt,
      terms: { deliverable: 'One premium answer from the hosted assistant to the quoted question.', payment_rail: 'accord_v0_note' as const, single_use: true as const, payment_token_lifetime_seconds: 900 },
    },
    verification_receipt: {
      noteBoxId,
      checks: checkCodes.map((code) => ({ code, ok: true, detail: `${code} held for the fixture Note.` })),
      checkedAt: '2026-11-23T12:05:00.000Z',
      chain: { source: 'sandbox' as const, via: 'explorer_api_v1' as const, explorer: 'http://127.0.0.1:4323', height: 1003 },
    },
    settlement_receipt: {
      settlementTxId,
      noteBoxId,
      valueNanoErg: '10000000',
      creationHeight: 1001,
      inclusionHeight: 1002,
      confirmations: 2,
      registers: {
        R4: { serializedValue: collBytes(reserveBoxId), value: reserveBoxId },
        R5: { serializedValue: SInt(1100).toHex(), value: 1100 },
        R6: { serializedValue: collBytes(taskHash), value: taskHash },
      },
    },
    quote_evidence: { quote, task_hash_derivation: 'blake2b256(rfc8785({quoteId, question, history}))' as const },
    issued_at: '2026-11-23T12:05:01.000Z',
  };
  const bundle = { receiptId: computeReceiptId(withoutId), ...withoutId };
  return receiptBundleSchema.parse(bundle);
}

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
