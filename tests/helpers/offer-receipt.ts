/**
 * What a built server signs under x402's offer-receipt extension, verified as an x402 client does
 * it: @x402/extensions reads the `kid` of the JWS, resolves its did:web over HTTP
 * (`/.well-known/did.json`) and verifies with the key found there. The `kid` names the origin the
 * build was made for, not the free port a test's server listens on, so that one request is sent to
 * the test's server; every other request goes where it was going.
 */
import {
  decodeSignedOffers,
  extractJWSHeader,
  extractOffersFromPaymentRequired,
  verifyOfferSignatureJWS,
  verifyReceiptMatchesOffer,
  verifyReceiptSignatureJWS,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  type OfferPayload,
  type ReceiptPayload,
} from '@x402/extensions/offer-receipt';
import { OFFER_RECEIPT } from '../../src/domain/assistant/offer-receipt.ts';

/** `run` with did:web documents fetched from `server` (a base URL) instead of the host the DID names. */
export async function resolvingDidWebAt<T>(server: string, run: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return original(url.pathname === '/.well-known/did.json' ? new URL(url.pathname, server) : input, init);
  }) as typeof fetch;
  try {
    return await run();
  } finally {
    globalThis.fetch = original;
  }
}

export interface VerifiedOffer {
  signed: JWSSignedOffer;
  payload: OfferPayload & { quoteId?: string };
  kid: string;
}

/** Every signed offer of a PaymentRequired, each verified with the key its kid resolves to on `server`; throws when one fails. */
export async function verifiedOffers(server: string, paymentRequired: { extensions?: Record<string, unknown> }): Promise<VerifiedOffer[]> {
  const offers = extractOffersFromPaymentRequired(paymentRequired as never) as JWSSignedOffer[];
  return resolvingDidWebAt(server, () =>
    Promise.all(offers.map(async (signed) => ({ signed, kid: extractJWSHeader(signed.signature).kid!, payload: (await verifyOfferSignatureJWS(signed)) as VerifiedOffer['payload'] }))),
  );
}

/** The signed receipt of a SettlementResponse, verified with the key its kid resolves to on `server`; throws when it fails. */
export async function verifiedReceipt(server: string, settled: { extensions?: Record<string, unknown> }): Promise<{ signed: JWSSignedReceipt; payload: ReceiptPayload & Record<string, unknown>; kid: string }> {
  const signed = (settled.extensions?.[OFFER_RECEIPT] as { info?: { receipt?: JWSSignedReceipt } } | undefined)?.info?.receipt;
  if (!signed) throw new Error(`no signed receipt in ${JSON.stringify(settled)}`);
  const payload = (await resolvingDidWebAt(server, () => verifyReceiptSignatureJWS(signed))) as ReceiptPayload & Record<string, unknown>;
  return { signed, payload, kid: extractJWSHeader(signed.signature).kid! };
}

/** Whether a verified receipt is for `offer` as x402's client helper judges it (same resource, network, payer among `payers`). */
export const receiptMatchesOffer = (receipt: JWSSignedReceipt, offer: JWSSignedOffer, payers: string[]): boolean =>
  verifyReceiptMatchesOffer(receipt, decodeSignedOffers([offer])[0]!, payers);

/**
 * One premium turn paid over x402 on the chat, as an x402 client pays it: the 402's requirements
 * paid with a Note on the sandbox, the retry sent with PAYMENT-SIGNATURE. Its PAYMENT-RESPONSE
 * header (base64 JSON) carries the signed receipt.
 */
export async function paidOverX402(stack: { server: { url: string }; sandbox: { url: string } }, question: string): Promise<{ receiptId: string; paymentResponse: string }> {
  const { payQuote } = await import('../../src/sandbox/pay.ts');
  const chat = (headers: Record<string, string> = {}) =>
    fetch(`${stack.server.url}/api/assistant/chat`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ messages: [{ role: 'user', content: question }] }) });
  const unpaid = await chat();
  const required = unpaid.headers.get('payment-required');
  if (unpaid.status !== 402 || !required) throw new Error(`expected a 402 with PAYMENT-REQUIRED, got ${unpaid.status} ${await unpaid.text()}`);
  await unpaid.body?.cancel();
  const [accepted] = (JSON.parse(Buffer.from(required, 'base64').toString('utf8')) as { accepts: Array<{ amount: string; payTo: string; extra: Record<string, unknown> }> }).accepts;
  const payment = await payQuote({ tier: 'premium', priceNanoErg: accepted!.amount, receiverAddress: accepted!.payTo, ...accepted!.extra }, { sandboxUrl: stack.sandbox.url });
  const signature = Buffer.from(JSON.stringify({ x402Version: 2, accepted, payload: { noteBoxId: payment.noteBoxId } })).toString('base64');
  const paid = await chat({ 'payment-signature': signature });
  const body = (await paid.json()) as { receiptId?: string };
  const paymentResponse = paid.headers.get('payment-response');
  if (paid.status !== 200 || !body.receiptId || !paymentResponse) throw new Error(`expected a paid answer with PAYMENT-RESPONSE, got ${paid.status} ${JSON.stringify(body)}`);
  return { receiptId: body.receiptId, paymentResponse };
}
