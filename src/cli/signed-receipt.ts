/**
 * verify-receipt's check of a signed x402 receipt (offer-receipt extension, JWS) against the receipt
 * bundle it claims to be for: its signature verifies with the site's x402 key (`--x402-key`, else
 * the key the site's did:web document publishes under the receipt's `kid`, trusted on first use),
 * and what it signs names this bundle: its receipt id, its settlement transaction and its quote.
 * The signature is checked by @x402/extensions' verifier, not by code of ours.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { didDocumentSchema, type Ed25519Jwk } from '../../schemas/did.ts';
import type { ProofCheck } from '../domain/receipt-proof.ts';
import { OFFER_RECEIPT, receiptBindingMismatch } from '../domain/assistant/offer-receipt.ts';
import { CliError, fetchJson } from './output.ts';

export const SIGNED_RECEIPT_CHECK = 'signed_receipt';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The JWS of `--signed-receipt`: the compact JWS itself, the receipt object (`{format, signature}`),
 * or a PAYMENT-RESPONSE header value (base64 JSON whose `extensions["offer-receipt"].info.receipt` it
 * is), given as text or as a file holding it.
 */
export function readSignedReceiptOption(given: string): string {
  const text = (existsSync(given) && statSync(given).isFile() ? readFileSync(given, 'utf8') : given).trim();
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(text)) return text;
  const parsed = parseJsonOrBase64Json(text);
  const receipt = isRecord(parsed) && isRecord(parsed.extensions) ? (parsed.extensions[OFFER_RECEIPT] as { info?: { receipt?: unknown } } | undefined)?.info?.receipt : parsed;
  if (isRecord(receipt) && receipt.format === 'jws' && typeof receipt.signature === 'string') return receipt.signature;
  throw new CliError('--signed-receipt takes a compact JWS, a signed receipt {"format":"jws","signature":...}, or a PAYMENT-RESPONSE header value (or a file holding one)');
}

function parseJsonOrBase64Json(text: string): unknown {
  for (const candidate of [text, Buffer.from(text, 'base64').toString('utf8')]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // Not this spelling; the next one, or none.
    }
  }
  return undefined;
}

/**
 * The key to check with: the one given, or the one the DID document `base` serves names for `kid`
 * among the keys it asserts with. The document read is the one of the site the user named, so a
 * site reached at another address than its own (a proxy, a tunnel, a test's port) is still checked
 * against its own document; a `kid` of another DID than that document's is refused.
 */
async function keyOf(base: string, kid: string | undefined, x402Key: string | undefined): Promise<{ jwk: Ed25519Jwk; from: string } | { failure: string }> {
  if (x402Key) return { jwk: { kty: 'OKP', crv: 'Ed25519', x: x402Key }, from: `the key you gave (${x402Key})` };
  const url = `${base}/.well-known/did.json`;
  const answer = await fetchJson(url);
  const document = answer?.status === 200 ? didDocumentSchema.safeParse(answer.body) : undefined;
  if (!document?.success) return { failure: `${url} does not answer a DID document${answer ? ` (HTTP ${answer.status})` : ''}; no key to check the signed receipt with. Pass --x402-key.` };
  const method = document.data.verificationMethod.find((entry) => entry.id === kid && document.data.assertionMethod.includes(entry.id));
  if (!method || !kid?.startsWith(`${document.data.id}#`)) return { failure: `The signed receipt names the key ${String(kid)}, which the DID document at ${url} (${document.data.id}) does not sign with.` };
  return { jwk: method.publicKeyJwk, from: `the site's key ${method.publicKeyJwk.x} (${url}), trusted on first use: keep it and pass --x402-key` };
}

/** The check of `jws` as the signed receipt of `bundle`. */
export async function signedReceiptCheck(jws: string, bundle: unknown, options: { base: string; x402Key?: string | undefined }): Promise<ProofCheck> {
  const fail = (detail: string): ProofCheck => ({ id: SIGNED_RECEIPT_CHECK, ok: false, detail });
  if (!isRecord(bundle) || typeof bundle.receiptId !== 'string' || typeof bundle.settlementTxId !== 'string' || !isRecord(bundle.agreement)) return fail('The bundle is not a receipt bundle; the signed receipt names nothing to compare with.');
  const { extractJWSHeader, verifyReceiptSignatureJWS } = await import('@x402/extensions/offer-receipt');
  let kid: string | undefined;
  try {
    kid = extractJWSHeader(jws).kid;
  } catch (error) {
    return fail(`The signed receipt is not a JWS: ${(error as Error).message}.`);
  }
  const key = await keyOf(options.base, kid, options.x402Key);
  if ('failure' in key) return fail(key.failure);
  let payload: Record<string, unknown>;
  try {
    payload = (await verifyReceiptSignatureJWS({ format: 'jws', signature: jws }, key.jwk)) as unknown as Record<string, unknown>;
  } catch (error) {
    return fail(`The signed receipt's signature does not verify with ${key.from}: ${(error as Error).message}.`);
  }
  const mismatch = receiptBindingMismatch(payload, { receiptId: bundle.receiptId, settlementTxId: bundle.settlementTxId, quoteId: String(bundle.agreement.quoteId) });
  if (mismatch) return fail(`The signed receipt verifies, but is not this bundle's: it ${mismatch}.`);
  return { id: SIGNED_RECEIPT_CHECK, ok: true, detail: `The signed receipt verifies with ${key.from}, and names this receipt, its settlement transaction and quote ${String(payload.quoteId)} (offer ${String(payload.offer).slice(0, 16)}…).` };
}
