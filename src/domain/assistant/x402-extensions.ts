/**
 * The x402 extensions this service honours, in one list: the chat's 402 declares each of them and
 * the facilitator's `/supported` lists them, both from here, so neither can claim one the other
 * does not. `bazaar` (discovery), `payment-identifier` (the payer's retry key), `offer-receipt`
 * (signed offers and receipts, when the server holds its signing key).
 */
import { OFFER_RECEIPT } from './offer-receipt.ts';
import { PAYMENT_IDENTIFIER } from './retry-key.ts';

export const X402_EXTENSIONS = ['bazaar', PAYMENT_IDENTIFIER, OFFER_RECEIPT] as const;
export type X402Extension = (typeof X402_EXTENSIONS)[number];

/** The extensions honoured by a server that can (`signing`) or cannot sign offers and receipts. */
export const honouredX402Extensions = (signing: boolean): X402Extension[] => X402_EXTENSIONS.filter((name) => name !== OFFER_RECEIPT || signing);
