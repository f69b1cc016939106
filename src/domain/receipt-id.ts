/**
 * The receipt id of a receipt bundle: blake2b256 of the RFC 8785 canonical JSON of the bundle
 * without its `receiptId` member. Anyone holding a bundle can recompute it offline, so a stored or
 * published receipt cannot be altered without its id changing.
 */
import { canonicalHash } from './canonical-hash.ts';

/** The id of a bundle; pass the bundle without `receiptId` (a present one is refused, not ignored). */
export function computeReceiptId(bundleWithoutId: Record<string, unknown>): string {
  if ('receiptId' in bundleWithoutId) throw new TypeError('computeReceiptId: pass the bundle without its receiptId member');
  return canonicalHash(bundleWithoutId);
}
