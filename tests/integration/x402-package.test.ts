/**
 * packages/x402-ergo with x402's own libraries, against the sandbox chain: @x402/fetch's wrapper with
 * the package's client scheme and its sandbox wallet runs one whole paid turn on the built server;
 * @x402/core's HTTPFacilitatorClient talks to the service's facilitator; the package's own
 * facilitator verifies a Note through the Explorer API and settles it once.
 */
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { HTTPFacilitatorClient } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { wrapFetchWithPayment } from '@x402/fetch';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ergoNoteRequirements, ExactErgoFacilitator, ExactErgoScheme, sandboxWallet } from '../../packages/x402-ergo/index.js';
import { chatResponseSchema } from '../../schemas/assistant.ts';
import { type Stack, startStack, uniquePremiumQuestion } from '../helpers/paid-turn.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const chatInit = (text: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: text }] }) });

/** A wallet-side x402 client: the package's scheme paying on the sandbox, ERG allowed up to a cap. */
function wallet() {
  return x402Client.fromConfig({
    schemes: [{ network: 'ergo:sandbox', client: new ExactErgoScheme({ payNote: sandboxWallet(stack.sandbox.url) }) }],
    spendControls: { allowedAssets: [{ network: 'ergo:sandbox', asset: 'ERG', maxAmountPerPayment: '100000000' }] },
  });
}

/** A premium offer of the chat, read as an x402 client reads it. */
async function offer(text: string): Promise<PaymentRequired> {
  const unpaid = await fetch(`${stack.server.url}/api/assistant/chat`, chatInit(text));
  expect(unpaid.status).toBe(402);
  return new x402HTTPClient(wallet()).getPaymentRequiredResponse((name) => unpaid.headers.get(name));
}

describe('packages/x402-ergo', () => {
  it('pays a whole premium turn through @x402/fetch: 402, the Note paid by the wallet callback, the retry answered with PAYMENT-RESPONSE', async () => {
    const client = wallet();
    const paidFetch = wrapFetchWithPayment(fetch, client);
    const response = await paidFetch(`${stack.server.url}/api/assistant/chat`, chatInit(uniquePremiumQuestion()));
    expect(response.status, await response.clone().text()).toBe(200);
    expect(chatResponseSchema.parse(await response.json())).toMatchObject({ tier: 'premium', model: { provider: 'docs' } });
    const settled = new x402HTTPClient(client).getPaymentSettleResponse((name) => response.headers.get(name));
    expect(settled).toMatchObject({ success: true, network: 'ergo:sandbox', transaction: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('puts a fresh payment-identifier in each payload, so the same payload (and only it) gets a settled turn back after a lost answer', async () => {
    const text = uniquePremiumQuestion();
    const required = await offer(text);
    const client = new x402HTTPClient(wallet());
    const payload = await client.createPaymentPayload(required);
    const id = (payload.extensions?.['payment-identifier'] as { info: { id: string } }).info.id;
    expect(id).toMatch(/^pay_[0-9a-f]{32}$/);
    expect((await client.createPaymentPayload(await offer(uniquePremiumQuestion()))).extensions?.['payment-identifier']).not.toEqual(payload.extensions?.['payment-identifier']);
    // Settled by the facilitator, its answer never seen by the payer.
    const facilitator = new HTTPFacilitatorClient({ url: `${stack.server.url}/api/x402/facilitator` });
    expect(await facilitator.settle(payload, required.accepts[0]!)).toMatchObject({ success: true });
    const answered = await fetch(`${stack.server.url}/api/assistant/chat`, { ...chatInit(text), headers: { 'content-type': 'application/json', ...client.encodePaymentSignatureHeader(payload) } });
    expect(answered.status, await answered.clone().text()).toBe(200);
  });

  it('builds the requirements a server offers from a premium quote, as the service offers them', async () => {
    const required = await offer(uniquePremiumQuestion());
    const quote = await (await fetch(`${stack.server.url}/api/assistant/quote/${(required.accepts[0]!.extra as { quoteId: string }).quoteId}`)).json();
    expect(ergoNoteRequirements(quote, { maxTimeoutSeconds: required.accepts[0]!.maxTimeoutSeconds, network: 'ergo:sandbox' })).toEqual(required.accepts[0]);
  });

  it('talks to the service facilitator through @x402/core\'s HTTPFacilitatorClient: supported, verify, settle once', async () => {
    const facilitator = new HTTPFacilitatorClient({ url: `${stack.server.url}/api/x402/facilitator` });
    expect(await facilitator.getSupported()).toEqual({ kinds: [{ x402Version: 2, scheme: 'exact', network: 'ergo:sandbox' }], extensions: ['bazaar', 'payment-identifier', 'offer-receipt'], signers: {} });
    const required = await offer(uniquePremiumQuestion());
    const payload = await new x402HTTPClient(wallet()).createPaymentPayload(required);
    expect(await facilitator.verify(payload, required.accepts[0]!)).toMatchObject({ isValid: true });
    expect(await facilitator.settle(payload, required.accepts[0]!)).toMatchObject({ success: true, network: 'ergo:sandbox' });
    expect(await facilitator.settle(payload, required.accepts[0]!)).toMatchObject({ success: false, errorReason: 'note_already_used' });
  });

  it('verifies a Note through the Explorer API with its own facilitator, refuses a wrong one by reason, and settles each Note once', async () => {
    const required = await offer(uniquePremiumQuestion());
    const requirements = required.accepts[0]!;
    const payload = await new x402HTTPClient(wallet()).createPaymentPayload(required);
    // A facilitator reading the sandbox explorer as if it were the testnet's settles nothing it offers.
    const testnet = new ExactErgoFacilitator({ explorerUrl: stack.sandbox.url });
    expect(await testnet.verify(payload, requirements)).toMatchObject({ isValid: false, invalidReason: 'unsupported_scheme', invalidMessage: expect.stringContaining('reads ergo:testnet') });
    expect(await testnet.settle(payload, { ...requirements, network: 'ergo:testnet' })).toMatchObject({ success: false, errorReason: 'network_mismatch', network: 'ergo:testnet' });
    const facilitator = new ExactErgoFacilitator({ explorerUrl: stack.sandbox.url, network: 'ergo:sandbox' });
    expect(await facilitator.verify(payload, requirements)).toEqual({ isValid: true });
    const other = { ...requirements, extra: { ...requirements.extra, taskHash: 'ee'.repeat(32) } };
    expect(await facilitator.verify(payload, other)).toMatchObject({ isValid: false, invalidReason: 'task_hash_mismatch' });
    const dearer = { ...requirements, amount: (BigInt(requirements.amount) + 1n).toString() };
    expect(await facilitator.verify(payload, dearer)).toMatchObject({ isValid: false, invalidReason: 'insufficient_value' });
    const missing = { ...payload, payload: { noteBoxId: 'ab'.repeat(32) } };
    expect(await facilitator.verify(missing, requirements)).toMatchObject({ isValid: false, invalidReason: 'note_not_found' });
    const settles = await Promise.all([facilitator.settle(payload, requirements), facilitator.settle(payload, requirements)]);
    expect(settles.filter((settle) => settle.success)).toHaveLength(1);
    expect(settles.find((settle) => !settle.success)).toMatchObject({ errorReason: 'note_already_used' });
  });
});
