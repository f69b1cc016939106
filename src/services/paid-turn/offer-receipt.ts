/**
 * Signed offers and receipts (x402 offer-receipt extension) for the paid turn, one way for every
 * door: the chat's 402 (and so MCP's and A2A's, which carry the chat's PaymentRequired) signs an
 * offer per `accepts` entry; a paid answer, over HTTP, MCP or A2A, carries a receipt naming its
 * receipt log entry and the offer it paid. A server without a signer (a test's) signs nothing and
 * honours the extension nowhere (x402-extensions.ts).
 */
import type { X402Network, X402Requirements } from '../../../schemas/x402.ts';
import { routeUrl } from '../../catalogue/lookup.ts';
import { issuedRequirementsOf } from '../../domain/assistant/facilitator-requirements.ts';
import { OFFER_RECEIPT, offersExtension, receiptExtension } from '../../domain/assistant/offer-receipt.ts';
import type { StoredQuote } from '../../domain/ports.ts';
import type { AssistantDeps } from './deps.ts';
import type { Settlement } from './paid-turn.ts';

/** The resource every door sells, as offers and receipts name it: one premium answer of the chat. */
export const paidResourceUrl = (): string => routeUrl('assistant-chat');

/** `extensions["offer-receipt"]` for a 402 offering `accepts` for a quote expiring at `expiresAt`; undefined without a signer. */
export async function signedOffers({ offerReceipts }: Pick<AssistantDeps, 'offerReceipts'>, accepts: readonly X402Requirements[], expiresAt: Date): Promise<Record<string, unknown> | undefined> {
  if (!offerReceipts) return undefined;
  return offersExtension(await offerReceipts.signOffers(paidResourceUrl(), accepts, expiresAt));
}

/**
 * The extensions of a paid answer's SettlementResponse: the signed receipt of `settlement`, bound to
 * the offer of `stored` (the same offer the 402 signed) and to its receipt; undefined without a signer.
 */
export async function signedReceiptExtensions(
  { offerReceipts, clock }: Pick<AssistantDeps, 'offerReceipts' | 'clock'>,
  stored: StoredQuote,
  { receipt, payerAddress }: Pick<Settlement, 'receipt' | 'payerAddress'>,
  network: X402Network,
): Promise<Record<string, unknown> | undefined> {
  if (!offerReceipts) return undefined;
  const signed = await offerReceipts.signReceipt(
    paidResourceUrl(),
    issuedRequirementsOf(stored, network),
    stored.expiresAt,
    { receiptId: receipt.receiptId, transaction: receipt.settlementTxId, payer: payerAddress, noteBoxId: receipt.noteBoxId },
    clock(),
  );
  return { [OFFER_RECEIPT]: receiptExtension(signed) };
}
