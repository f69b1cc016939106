/**
 * What the receipt transparency log records for a receipt (docs/transparency-log.md): the RFC 8785
 * canonical JSON of the bundle as it is served, `receiptId` included, so anyone holding an entry can
 * recompute the id from the rest and find the receipt by it.
 *
 * A bundle built for a paid turn already had its members canonicalized for its id; the builder
 * hands that text over here (the bundle is frozen, so the text stays its own), and the append in
 * the settling transaction does not serialize the bundle a second time.
 */
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import { canonicalJson } from './canonical-hash.ts';
import { deepFreeze } from '../lib/deep-freeze.ts';

const built = new WeakMap<object, string>();

/** Records the canonical text of a frozen bundle just built. */
export function rememberLogEntry(bundle: ReceiptBundle, canonicalText: string): void {
  if (!Object.isFrozen(bundle)) throw new TypeError('receipt log entry: only a frozen bundle keeps its text');
  built.set(bundle, canonicalText);
}

/**
 * `bundle` (as read from the store) frozen through, with its entry text computed now and kept beside
 * it: a reader that keeps the bundle across rounds (the proofs build) serializes it once, not on
 * every inclusion check.
 */
export function withLogEntry(bundle: ReceiptBundle): ReceiptBundle {
  const frozen = deepFreeze(bundle);
  if (!built.has(frozen)) built.set(frozen, canonicalJson(frozen));
  return frozen;
}

/** The entry's text: RFC 8785 canonical JSON of the whole bundle (a verifier passes the bundle it holds, as parsed). */
export function receiptLogEntryText(bundle: unknown): string {
  return (typeof bundle === 'object' && bundle !== null ? built.get(bundle) : undefined) ?? canonicalJson(bundle);
}

/** The entry's bytes, UTF-8. */
export const receiptLogEntry = (bundle: unknown): Uint8Array => new TextEncoder().encode(receiptLogEntryText(bundle));
