/**
 * What this service signs under x402's offer-receipt extension (v1.0, JWS): the payload of an offer
 * for one `accepts` entry and of a receipt for a paid answer, and the did:web names a client resolves
 * the signing key by. Pure: the signing itself is @x402/extensions' (src/services/x402-signing-key.ts).
 *
 * Both payloads are the library's (an offer's version, resourceUrl, scheme, network, asset, payTo,
 * amount, validUntil; a receipt's version, network, resourceUrl, payer, issuedAt, transaction) with
 * the fields that bind them to this service's records, which a client that knows only the extension
 * ignores: an offer names its quote, a receipt its entry in the receipt log and the offer it paid.
 */
import { createHash } from 'node:crypto';
import type { DidDocument, Ed25519Jwk } from '../../../schemas/did.ts';
import type { X402Requirements } from '../../../schemas/x402.ts';

/** The extension's name, the key of its entry in `extensions` (the same constant as @x402/extensions' OFFER_RECEIPT). */
export const OFFER_RECEIPT = 'offer-receipt';
/** The payload schema version both artifacts carry, as the library writes it. */
export const OFFER_RECEIPT_VERSION = 1;
/** The JWS algorithm of the Ed25519 key. */
export const OFFER_RECEIPT_ALGORITHM = 'EdDSA';
/** The fragment naming the key in the DID document. */
const KEY_FRAGMENT = 'x402-offer-receipt';

/** The did:web of the site at `baseUrl` (an origin): its host, a port's colon written `%3A`, resolved at `/.well-known/did.json`. */
export const didWebOf = (baseUrl: string): string => `did:web:${encodeURIComponent(new URL(baseUrl).host)}`;

/** The `kid` signed offers and receipts name: the key's id in the site's DID document. */
export const offerReceiptKeyId = (baseUrl: string): string => `${didWebOf(baseUrl)}#${KEY_FRAGMENT}`;

/** The DID document that publishes `publicKeyJwk` as the one key of the site's offers and receipts. */
export function didDocumentOf(baseUrl: string, publicKeyJwk: Ed25519Jwk): DidDocument {
  const id = didWebOf(baseUrl);
  const kid = offerReceiptKeyId(baseUrl);
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id,
    verificationMethod: [{ id: kid, type: 'JsonWebKey2020', controller: id, publicKeyJwk }],
    assertionMethod: [kid],
  };
}

export interface OfferPayload {
  version: number;
  resourceUrl: string;
  scheme: string;
  network: string;
  asset: string;
  payTo: string;
  amount: string;
  /** Unix seconds: the quote's expiry, so the offer of one quote is the same whenever it is made. */
  validUntil: number;
  /** The stored quote these terms are for: a Note pays this quote, not any quote of this price. */
  quoteId: string;
}

/** The offer of `requirements` for the resource at `resourceUrl`, valid while their quote (expiring at `expiresAt`) is. */
export function offerPayloadOf(resourceUrl: string, requirements: X402Requirements, expiresAt: Date): OfferPayload {
  return {
    version: OFFER_RECEIPT_VERSION,
    resourceUrl,
    scheme: requirements.scheme,
    network: requirements.network,
    asset: requirements.asset,
    payTo: requirements.payTo,
    amount: requirements.amount,
    validUntil: Math.floor(expiresAt.getTime() / 1000),
    quoteId: requirements.extra.quoteId,
  };
}

export interface ReceiptPayload {
  version: number;
  network: string;
  resourceUrl: string;
  /** The Note's funding address when the chain said; otherwise the Note's box id, which only the payer made. */
  payer: string;
  issuedAt: number;
  /** The settlement transaction: the receipt is bound to a payment anyone can read on chain. */
  transaction: string;
  /** The receipt bundle, and so the receipt log's entry, of this payment (GET /api/assistant/receipt/{receiptId}). */
  receiptId: string;
  quoteId: string;
  /** SHA-256 (hex) of the RFC 8785 JSON of the offer paid: the payload bytes of its JWS. */
  offer: string;
}

/** The digest a receipt names its offer by: SHA-256 of the offer payload's canonical bytes, as its JWS carries them. */
export const offerDigest = (canonicalOfferPayload: Uint8Array | string): string => createHash('sha256').update(canonicalOfferPayload).digest('hex');

/** The receipt of a settled payment of `offer`, issued at `issuedAt`. */
export function receiptPayloadOf(
  offer: { payload: OfferPayload; canonical: string },
  settled: { receiptId: string; transaction: string; payer: string | null; noteBoxId: string },
  issuedAt: Date,
): ReceiptPayload {
  return {
    version: OFFER_RECEIPT_VERSION,
    network: offer.payload.network,
    resourceUrl: offer.payload.resourceUrl,
    payer: settled.payer ?? settled.noteBoxId,
    issuedAt: Math.floor(issuedAt.getTime() / 1000),
    transaction: settled.transaction,
    receiptId: settled.receiptId,
    quoteId: offer.payload.quoteId,
    offer: offerDigest(offer.canonical),
  };
}

/** Why a verified receipt payload is not the receipt of `bundle` (its receipt log entry), or undefined when it is. */
export function receiptBindingMismatch(payload: Record<string, unknown>, bundle: { receiptId: string; settlementTxId: string; quoteId: string }): string | undefined {
  const wrong = [
    payload.receiptId !== bundle.receiptId && `names receipt ${String(payload.receiptId)}, not ${bundle.receiptId}`,
    payload.transaction !== bundle.settlementTxId && `names transaction ${String(payload.transaction)}, not the settlement ${bundle.settlementTxId}`,
    payload.quoteId !== bundle.quoteId && `names quote ${String(payload.quoteId)}, not ${bundle.quoteId}`,
  ].filter(Boolean);
  return wrong.length ? wrong.join('; ') : undefined;
}

/** The JSON Schema an extension entry carries for its `info`, the spec's JWS form (§6.3, §6.7). */
const jwsArtifact = (what: string) => ({
  type: 'object',
  properties: { format: { type: 'string', const: 'jws' }, signature: { type: 'string', description: `JWS compact serialization containing the ${what} payload` } },
  required: ['format', 'signature'],
});

/** `extensions["offer-receipt"]` of a 402: the signed offers, one per `accepts` entry. */
export const offersExtension = (offers: readonly unknown[]): Record<string, unknown> => ({
  info: { version: OFFER_RECEIPT_VERSION, offers },
  schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { version: { type: 'integer' }, offers: { type: 'array', items: jwsArtifact('offer') } }, required: ['version', 'offers'] },
});

/** `extensions["offer-receipt"]` of a settlement: the signed receipt. */
export const receiptExtension = (receipt: unknown): Record<string, unknown> => ({
  info: { version: OFFER_RECEIPT_VERSION, receipt },
  schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { version: { type: 'integer' }, receipt: jwsArtifact('receipt') }, required: ['version', 'receipt'] },
});
