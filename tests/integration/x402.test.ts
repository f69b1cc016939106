/**
 * The premium turn over x402 v2, driven by @x402/core's own client (x402Client with an Ergo `exact`
 * scheme that pays the Note on the sandbox chain, x402HTTPClient reading and writing the headers)
 * against the built server; and the facilitator's supported, verify and settle, a Note settled once.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { X402_EXTENSIONS } from '../../src/domain/assistant/x402.ts';
import { offerDigest, receiptBindingMismatch } from '../../src/domain/assistant/offer-receipt.ts';
import { didDocumentSchema } from '../../schemas/did.ts';
import { appendPaymentIdentifierToExtensions, declarePaymentIdentifierExtension, generatePaymentId } from '@x402/extensions/payment-identifier';
import type { PaymentRequired, PaymentRequirements, SchemeNetworkClient } from '@x402/core/types';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatResponseSchema } from '../../schemas/assistant.ts';
import { problemSchema } from '../../schemas/problem.ts';
import { x402PaymentRequiredSchema, x402SettleResponseSchema, x402SupportedSchema, x402VerifyResponseSchema } from '../../schemas/x402.ts';
import { payQuote } from '../../src/sandbox/pay.ts';
import { type Stack, startStack, uniquePremiumQuestion } from '../helpers/paid-turn.ts';
import { receiptMatchesOffer, verifiedOffers, verifiedReceipt } from '../helpers/offer-receipt.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let stack: Stack;
beforeAll(async () => {
  // Limits out of the way: this file pays many turns from one address within a minute.
  stack = await startStack({ withMcp: true, env: { RATE_LIMIT_QUOTE_PER_MINUTE: '1000', RATE_LIMIT_CHAT_PER_MINUTE: '1000', RATE_LIMIT_VERIFY_PER_MINUTE: '1000' } });
});
afterAll(() => stack?.stop());

const chatBody = (text: string) => JSON.stringify({ messages: [{ role: 'user', content: text }] });
const chat = (text: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.server.url}/api/assistant/chat`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: chatBody(text) });

/** The Ergo `exact` scheme's client part, as a wallet would run it: mint the Note the requirements ask for. */
function sandboxScheme(paid: Array<{ noteBoxId: string; transactionId: string }>): SchemeNetworkClient {
  return {
    scheme: 'exact',
    async createPaymentPayload(x402Version: number, requirements: PaymentRequirements) {
      const extra = requirements.extra as { quoteId: string; taskHash: string; reserveBoxId: string; noteExpiryMinHeight: number; minConfirmations: number };
      const payment = await payQuote(
        { tier: 'premium', priceNanoErg: requirements.amount, receiverAddress: requirements.payTo, ...extra },
        { sandboxUrl: stack.sandbox.url },
      );
      paid.push(payment);
      return { x402Version, payload: { noteBoxId: payment.noteBoxId } };
    },
  };
}

/**
 * A paying x402 client. With `paymentId`, it sends x402's payment-identifier (the server declares
 * it), the key that lets it, and only it, recover a settled turn.
 */
function x402(paid: Array<{ noteBoxId: string; transactionId: string }> = [], paymentId?: string) {
  // ERG is no default asset of @x402/core's spend controls: a wallet allows it, up to a cap, as here.
  const wallet = x402Client.fromConfig({
    schemes: [{ network: 'ergo:sandbox', client: sandboxScheme(paid) }],
    spendControls: { allowedAssets: [{ network: 'ergo:sandbox', asset: 'ERG', maxAmountPerPayment: '100000000' }] },
  });
  if (paymentId) wallet.onBeforePaymentCreation(async ({ paymentRequired }) => void appendPaymentIdentifierToExtensions((paymentRequired.extensions ??= {}), paymentId));
  return new x402HTTPClient(wallet);
}

/**
 * The PAYMENT-SIGNATURE an attacker builds from what is published about a settled turn: the quote
 * (GET /api/assistant/quote/{id}, named by the receipt) as requirements, and the receipt's Note.
 */
async function signatureFromReceipt(receiptId: string): Promise<Record<string, string>> {
  const receipt = await (await fetch(`${stack.server.url}/api/assistant/receipt/${receiptId}`)).json();
  const quote = await (await fetch(`${stack.server.url}/api/assistant/quote/${receipt.agreement.quoteId}`)).json();
  const accepted = {
    scheme: 'exact',
    network: 'ergo:sandbox',
    asset: 'ERG',
    amount: quote.priceNanoErg,
    payTo: quote.receiverAddress,
    maxTimeoutSeconds: 900,
    extra: { paymentFlow: 'upfront', quoteId: quote.quoteId, taskHash: quote.taskHash, reserveBoxId: quote.reserveBoxId, noteExpiryMinHeight: quote.noteExpiryMinHeight, minConfirmations: quote.minConfirmations },
  };
  const payload = { x402Version: 2, accepted, payload: { noteBoxId: receipt.noteBoxId } };
  return { 'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify(payload)).toString('base64') };
}

/** A premium turn paid and settled through verify-payment (with the payer's Idempotency-Key), its token unspent. */
async function settledUnspent(text: string, retryKey: string) {
  const quote = await (await fetch(`${stack.server.url}/api/assistant/quote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: text }) })).json();
  const payment = await payQuote(quote, { sandboxUrl: stack.sandbox.url });
  const verified = await fetch(`${stack.server.url}/api/assistant/verify-payment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': retryKey },
    body: JSON.stringify({ quote, question: text, noteBoxId: payment.noteBoxId }),
  });
  expect(verified.status).toBe(200);
  return (await verified.json()) as { receiptId: string; paymentToken: string };
}

const paidChat = (text: string, paymentToken: string) =>
  fetch(`${stack.server.url}/api/assistant/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: text }], paymentToken }) });

const headerOf = (response: Response) => (name: string) => response.headers.get(name);

describe('x402 over HTTP on the chat', () => {
  it('offers a stored quote in PAYMENT-REQUIRED, takes the paid retry and answers with PAYMENT-RESPONSE', async () => {
    const text = uniquePremiumQuestion();
    const unpaid = await chat(text);
    expect(unpaid.status).toBe(402);
    const problem = problemSchema.parse(await unpaid.json());
    expect(problem.code).toBe('payment_required');
    const paid: Array<{ noteBoxId: string; transactionId: string }> = [];
    const client = x402(paid);
    const required: PaymentRequired = client.getPaymentRequiredResponse(headerOf(unpaid));
    const offer = x402PaymentRequiredSchema.parse(required);
    expect(offer).toMatchObject({ x402Version: 2, error: 'payment_required', resource: { url: expect.stringMatching(/\/api\/assistant\/chat$/), mimeType: 'application/json' } });
    const [requirements] = offer.accepts;
    expect(requirements).toMatchObject({ scheme: 'exact', network: 'ergo:sandbox', asset: 'ERG', extra: { paymentFlow: 'upfront' } });
    // Bazaar discovery info for facilitator catalogues, valid by x402's own validator; the header stays small.
    expect(validateDiscoveryExtension(offer.extensions!.bazaar as Parameters<typeof validateDiscoveryExtension>[0])).toEqual({ valid: true });
    expect(unpaid.headers.get('payment-required')!.length).toBeLessThan(8 * 1024);
    // payment-identifier, optional, exactly as x402's own helper declares it.
    expect(offer.extensions!['payment-identifier']).toEqual(declarePaymentIdentifierExtension(false));
    // The facilitator's /supported lists exactly the extensions every 402 declares.
    expect(Object.keys(offer.extensions!).sort()).toEqual([...X402_EXTENSIONS].sort());
    const supported = x402SupportedSchema.parse(await (await fetch(`${stack.server.url}/api/x402/facilitator/supported`)).json());
    expect(Object.keys(offer.extensions!).sort()).toEqual([...supported.extensions].sort());
    // The signed offer of the one accepts entry: its kid is the key of the site's did:web document,
    // which x402's verifier resolves over HTTP, and it signs these terms for this quote.
    const did = await fetch(`${stack.server.url}/.well-known/did.json`);
    expect(did.headers.get('cache-control')).toBe('public, max-age=300');
    const document = didDocumentSchema.parse(await did.json());
    const [signedOffer, ...more] = await verifiedOffers(stack.server.url, offer);
    expect(more).toEqual([]);
    expect(signedOffer!.signed).toMatchObject({ format: 'jws', acceptIndex: 0 });
    expect(signedOffer!.kid).toBe(document.assertionMethod[0]);
    expect(signedOffer!.kid).toBe(`${document.id}#x402-offer-receipt`);
    expect(signedOffer!.payload).toEqual({
      version: 1,
      resourceUrl: offer.resource.url,
      scheme: 'exact',
      network: 'ergo:sandbox',
      asset: 'ERG',
      payTo: requirements!.payTo,
      amount: requirements!.amount,
      validUntil: expect.any(Number),
      quoteId: requirements!.extra.quoteId,
    });
    // The quote is stored as the quote endpoint stores one.
    const stored = await (await fetch(`${stack.server.url}/api/assistant/quote/${requirements!.extra.quoteId}`)).json();
    expect(stored).toMatchObject({ quoteId: requirements!.extra.quoteId, priceNanoErg: requirements!.amount, taskHash: requirements!.extra.taskHash });

    const payload = await client.createPaymentPayload(required);
    const signature = client.encodePaymentSignatureHeader(payload);
    expect(Object.keys(signature)).toEqual(['PAYMENT-SIGNATURE']);
    const answered = await chat(text, signature);
    expect(answered.status, await answered.clone().text()).toBe(200);
    const body = chatResponseSchema.parse(await answered.json());
    expect(body).toMatchObject({ tier: 'premium', model: { provider: 'docs' } });
    const settled = x402SettleResponseSchema.parse(client.getPaymentSettleResponse(headerOf(answered)));
    expect(settled).toMatchObject({ success: true, transaction: paid[0]!.transactionId, network: 'ergo:sandbox' });
    const receipt = await (await fetch(`${stack.server.url}/api/assistant/receipt/${body.receiptId}`)).json();
    expect(receipt).toMatchObject({ noteBoxId: paid[0]!.noteBoxId, settlementTxId: paid[0]!.transactionId, quote_evidence: { quote: { quoteId: requirements!.extra.quoteId } } });
    // The signed receipt in PAYMENT-RESPONSE: it verifies with the same did:web key, is for the
    // offer the 402 signed (its digest, and x402's own match of resource, network and payer), and
    // names the receipt log's entry of this payment: its receipt, settlement and quote.
    const signedReceipt = await verifiedReceipt(stack.server.url, settled);
    expect(signedReceipt.kid).toBe(signedOffer!.kid);
    expect(signedReceipt.payload.offer).toBe(offerDigest(Buffer.from(signedOffer!.signed.signature.split('.')[1]!, 'base64url')));
    expect(receiptMatchesOffer(signedReceipt.signed, signedOffer!.signed, [String(signedReceipt.payload.payer)])).toBe(true);
    expect(receiptBindingMismatch(signedReceipt.payload, { receiptId: receipt.receiptId, settlementTxId: receipt.settlementTxId, quoteId: receipt.agreement.quoteId })).toBeUndefined();
    expect(signedReceipt.payload).toMatchObject({ receiptId: body.receiptId, transaction: paid[0]!.transactionId, network: 'ergo:sandbox', resourceUrl: offer.resource.url });

    // A replay of the same payment is refused by name, with a new quote to pay.
    const replay = await chat(text, signature);
    expect(replay.status).toBe(402);
    expect(await replay.json()).toMatchObject({ code: 'x402_payment_refused', payment_error: 'payment_already_answered' });
    const again = x402PaymentRequiredSchema.parse(client.getPaymentRequiredResponse(headerOf(replay)));
    expect(again.error).toBe('payment_already_answered');
    expect(again.accepts[0]!.extra.quoteId).not.toBe(requirements!.extra.quoteId);
  });

  it('hands a settled, unspent turn to no one but its payer: a PAYMENT-SIGNATURE built from the published receipt is refused, the payer\'s own payment-identifier recovers it', async () => {
    const text = uniquePremiumQuestion();
    const payerKey = generatePaymentId();
    const settled = await settledUnspent(text, payerKey);
    const taken = await chat(text, await signatureFromReceipt(settled.receiptId));
    expect(taken.status).toBe(402);
    expect(await taken.json()).toMatchObject({ code: 'x402_payment_refused', payment_error: 'payment_already_settled' });
    // Another id is no better than none.
    const guessed = JSON.parse(Buffer.from((await signatureFromReceipt(settled.receiptId))['PAYMENT-SIGNATURE']!, 'base64').toString());
    guessed.extensions = { 'payment-identifier': { info: { required: false, id: generatePaymentId() } } };
    expect(await (await chat(text, { 'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify(guessed)).toString('base64') })).json()).toMatchObject({ payment_error: 'payment_already_settled' });
    // Neither attempt replaced the payer's token: it pays its turn.
    expect((await paidChat(text, settled.paymentToken)).status).toBe(200);
  });

  it('lets the payer recover its own turn over x402 after the answer was lost, with its payment-identifier', async () => {
    const text = uniquePremiumQuestion();
    const paymentId = generatePaymentId();
    const client = x402([], paymentId);
    const required = client.getPaymentRequiredResponse(headerOf(await chat(text)));
    const payload = await client.createPaymentPayload(required);
    expect(payload.extensions?.['payment-identifier']).toMatchObject({ info: { id: paymentId } });
    // The turn settles (here through the facilitator, as a resource server would) and the answer never reaches the payer.
    const settle = await fetch(`${stack.server.url}/api/x402/facilitator/settle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: required.accepts[0] }),
    });
    expect(await settle.json()).toMatchObject({ success: true });
    // Someone else, with everything but the id, is refused; the payer's same PAYMENT-SIGNATURE is answered.
    const { extensions: _withoutId, ...stripped } = payload;
    expect(await (await chat(text, client.encodePaymentSignatureHeader(stripped))).json()).toMatchObject({ payment_error: 'payment_already_settled' });
    const answered = await chat(text, client.encodePaymentSignatureHeader(payload));
    expect(answered.status, await answered.clone().text()).toBe(200);
    expect(client.getPaymentSettleResponse(headerOf(answered))).toMatchObject({ success: true });
  });

  it('refuses a payment-identifier that breaks x402\'s rule with a 400 naming it', async () => {
    const client = x402();
    const text = uniquePremiumQuestion();
    const required = client.getPaymentRequiredResponse(headerOf(await chat(text)));
    const payload = { x402Version: 2, accepted: required.accepts[0], payload: { noteBoxId: 'ab'.repeat(32) }, extensions: { 'payment-identifier': { info: { required: false, id: 'short' } } } };
    const refused = await chat(text, { 'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify(payload)).toString('base64') });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid_payment_signature', detail: expect.stringContaining('payment-identifier') });
  });

  it('refuses a Note paid for another question, an unknown quote and an unreadable header by name', async () => {
    const paid: Array<{ noteBoxId: string; transactionId: string }> = [];
    const client = x402(paid);
    const first = uniquePremiumQuestion();
    const required = client.getPaymentRequiredResponse(headerOf(await chat(first)));
    const signature = client.encodePaymentSignatureHeader(await client.createPaymentPayload(required));

    const other = await chat(uniquePremiumQuestion(), signature);
    expect(other.status).toBe(402);
    expect(await other.json()).toMatchObject({ code: 'x402_payment_refused', payment_error: 'question_mismatch' });

    const forged = await client.createPaymentPayload(required).then((payload) => ({ ...payload, accepted: { ...payload.accepted, extra: { ...payload.accepted.extra, quoteId: 'no-such-quote' } } }));
    const unknown = await chat(first, client.encodePaymentSignatureHeader(forged));
    expect(await unknown.json()).toMatchObject({ code: 'x402_payment_refused', payment_error: 'quote_not_found' });

    // A Note the chain source does not know yet clears by itself: retry the same payment, no new offer to pay twice.
    const early = await client.createPaymentPayload(required).then((payload) => ({ ...payload, payload: { noteBoxId: 'cd'.repeat(32) } }));
    const notYet = await chat(first, client.encodePaymentSignatureHeader(early));
    expect(notYet.status).toBe(402);
    expect(notYet.headers.get('payment-required')).toBeNull();
    expect(notYet.headers.get('retry-after')).toBe('5');
    expect(await notYet.json()).toMatchObject({ code: 'x402_payment_refused', payment_error: 'note_not_found' });

    for (const garbage of ['not base64!', Buffer.from('{"x402Version":2}').toString('base64'), Buffer.from('[1,2').toString('base64')]) {
      const refused = await chat(first, { 'payment-signature': garbage });
      expect(refused.status, garbage).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'invalid_payment_signature' });
    }
    // The Note paid for `first` still pays it: nothing was claimed by the refusals.
    expect((await chat(first, signature)).status).toBe(200);
  });
});

describe('the x402 facilitator', () => {
  const facilitator = (path: string, body?: unknown) =>
    fetch(`${stack.server.url}/api/x402/facilitator/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('says what it settles', async () => {
    expect(x402SupportedSchema.parse(await (await facilitator('supported')).json())).toEqual({ kinds: [{ x402Version: 2, scheme: 'exact', network: 'ergo:sandbox' }], extensions: ['bazaar', 'payment-identifier', 'offer-receipt'], signers: {} });
  });

  it('verifies without claiming, settles a Note once under concurrent settles, and the payer then gets the answer', async () => {
    const client = x402([], generatePaymentId());
    const text = uniquePremiumQuestion();
    const required = client.getPaymentRequiredResponse(headerOf(await chat(text)));
    const payload = await client.createPaymentPayload(required);
    const request = { x402Version: 2, paymentPayload: payload, paymentRequirements: required.accepts[0] };

    for (let i = 0; i < 2; i++) expect(x402VerifyResponseSchema.parse(await (await facilitator('verify', request)).json())).toMatchObject({ isValid: true });
    const settles = await Promise.all(Array.from({ length: 4 }, async () => x402SettleResponseSchema.parse(await (await facilitator('settle', request)).json())));
    expect(settles.filter((settle) => settle.success)).toHaveLength(1);
    expect(settles.filter((settle) => !settle.success).map((settle) => settle.errorReason)).toEqual(['note_already_used', 'note_already_used', 'note_already_used']);
    expect(await (await facilitator('verify', request)).json()).toMatchObject({ isValid: false, invalidReason: 'note_already_used' });

    const answered = await chat(text, client.encodePaymentSignatureHeader(payload));
    expect(answered.status).toBe(200);
    expect(client.getPaymentSettleResponse(headerOf(answered))).toMatchObject({ success: true, transaction: settles.find((settle) => settle.success)!.transaction });
  });

  it('refuses requirements other than the issued ones (a price x100) on verify and settle, claiming nothing, then settles the issued ones', async () => {
    const client = x402();
    const required = client.getPaymentRequiredResponse(headerOf(await chat(uniquePremiumQuestion())));
    const payload = await client.createPaymentPayload(required);
    const issued = required.accepts[0]!;
    // A resource server selling for 100 times the price, its client agreeing: the Note paid the quote's price.
    const dearer = { ...issued, amount: (BigInt(issued.amount) * 100n).toString() };
    const lie = { x402Version: 2, paymentPayload: { ...payload, accepted: dearer }, paymentRequirements: dearer };

    const verified = x402VerifyResponseSchema.parse(await (await facilitator('verify', lie)).json());
    expect(verified).toMatchObject({ isValid: false, invalidReason: 'requirements_mismatch', invalidMessage: expect.stringContaining('paymentRequirements.amount') });
    const settled = x402SettleResponseSchema.parse(await (await facilitator('settle', lie)).json());
    expect(settled).toMatchObject({ success: false, errorReason: 'requirements_mismatch', errorMessage: expect.stringContaining('paymentRequirements.amount'), transaction: '' });

    const honest = { x402Version: 2, paymentPayload: payload, paymentRequirements: issued };
    expect(await (await facilitator('verify', honest)).json()).toMatchObject({ isValid: true });
    expect(await (await facilitator('settle', honest)).json()).toMatchObject({ success: true, network: 'ergo:sandbox' });
  });

  it('answers a malformed body with a 400 problem naming the field, and a Note that does not exist with its code', async () => {
    const malformed = await facilitator('verify', { x402Version: 2, paymentPayload: { accepted: {} } });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'invalid_request' });
    const client = x402();
    const required = client.getPaymentRequiredResponse(headerOf(await chat(uniquePremiumQuestion())));
    const paymentPayload = { x402Version: 2, accepted: required.accepts[0], payload: { noteBoxId: 'ab'.repeat(32) } };
    expect(await (await facilitator('verify', { x402Version: 2, paymentPayload, paymentRequirements: required.accepts[0] })).json()).toMatchObject({ isValid: false, invalidReason: 'note_not_found' });
    expect(await (await facilitator('settle', { x402Version: 2, paymentPayload, paymentRequirements: required.accepts[0] })).json()).toMatchObject({ success: false, errorReason: 'note_not_found', transaction: '' });
  });
});

describe('x402 over MCP (ask_assistant)', () => {
  it('answers an unpaid premium question with the PaymentRequired as an error result, and a call paid in _meta with the answer and the settlement', async () => {
    const mcp = new Client({ name: 'x402-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${stack.mcpUrl}/mcp`)));
    try {
      const text = uniquePremiumQuestion();
      const unpaid = await mcp.callTool({ name: 'ask_assistant', arguments: { question: text } });
      expect(unpaid.isError).toBe(true);
      const required = x402PaymentRequiredSchema.parse(unpaid.structuredContent);
      expect(JSON.parse((unpaid.content as Array<{ text: string }>)[0]!.text)).toEqual(unpaid.structuredContent);
      expect(required).toMatchObject({ error: 'payment_required', accepts: [{ scheme: 'exact', network: 'ergo:sandbox' }] });
      // The same signed offer as over HTTP: the chat's PaymentRequired, verified with the site's did:web key.
      const [signedOffer] = await verifiedOffers(stack.server.url, required);
      expect(signedOffer!.payload).toMatchObject({ payTo: required.accepts[0]!.payTo, amount: required.accepts[0]!.amount, quoteId: required.accepts[0]!.extra.quoteId });

      const paid: Array<{ noteBoxId: string; transactionId: string }> = [];
      const payload = await x402(paid).createPaymentPayload(required);
      const answered = await mcp.callTool({ name: 'ask_assistant', arguments: { question: text }, _meta: { 'x402/payment': payload } });
      expect(answered.isError, JSON.stringify(answered.content)).toBeFalsy();
      expect(chatResponseSchema.parse(answered.structuredContent)).toMatchObject({ tier: 'premium' });
      const settled = x402SettleResponseSchema.parse(answered._meta?.['x402/payment-response']);
      expect(settled).toMatchObject({ success: true, transaction: paid[0]!.transactionId, network: 'ergo:sandbox' });
      // Its signed receipt verifies and names this answer's receipt and the offer paid.
      const signedReceipt = await verifiedReceipt(stack.server.url, settled);
      expect(signedReceipt.payload).toMatchObject({ receiptId: (answered.structuredContent as { receiptId: string }).receiptId, transaction: paid[0]!.transactionId, quoteId: required.accepts[0]!.extra.quoteId });
      expect(signedReceipt.payload.offer).toBe(offerDigest(Buffer.from(signedOffer!.signed.signature.split('.')[1]!, 'base64url')));

      // The same payment again: refused, with a new PaymentRequired naming why.
      const replay = await mcp.callTool({ name: 'ask_assistant', arguments: { question: text }, _meta: { 'x402/payment': payload } });
      expect(replay.isError).toBe(true);
      expect(x402PaymentRequiredSchema.parse(replay.structuredContent).error).toBe('payment_already_answered');
    } finally {
      await mcp.close();
    }
  });

  it('hands a settled, unspent turn to no one but its payer: a payment in _meta built from the published receipt is refused, the payer\'s payment-identifier gets the answer', async () => {
    const mcp = new Client({ name: 'x402-takeover', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${stack.mcpUrl}/mcp`)));
    try {
      const text = uniquePremiumQuestion();
      const payerKey = generatePaymentId();
      const settled = await settledUnspent(text, payerKey);
      const forged = JSON.parse(Buffer.from((await signatureFromReceipt(settled.receiptId))['PAYMENT-SIGNATURE']!, 'base64').toString());
      const taken = await mcp.callTool({ name: 'ask_assistant', arguments: { question: text }, _meta: { 'x402/payment': forged } });
      expect(taken.isError).toBe(true);
      expect(x402PaymentRequiredSchema.parse(taken.structuredContent).error).toBe('payment_already_settled');
      // The payer's answer was lost: the same payment with its key (the verify-payment key is the x402 id) gets the turn.
      const own = { ...forged, extensions: { 'payment-identifier': { info: { required: false, id: payerKey } } } };
      const answered = await mcp.callTool({ name: 'ask_assistant', arguments: { question: text }, _meta: { 'x402/payment': own } });
      expect(answered.isError, JSON.stringify(answered.content)).toBeFalsy();
      expect(chatResponseSchema.parse(answered.structuredContent)).toMatchObject({ tier: 'premium', receiptId: settled.receiptId });
      // And the attacker's token-less attempt did not cancel anything: the turn answered once, so the first token is now replaced and refused.
      expect((await paidChat(text, settled.paymentToken)).status).toBe(402);
    } finally {
      await mcp.close();
    }
  });
});
