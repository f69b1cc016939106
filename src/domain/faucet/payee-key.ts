/**
 * What the faucet's per-address limit counts. Address text is not it: one key can be written as a
 * P2PK address and as many P2S addresses (the same `ProveDlog` with or without constant
 * segregation, the size flag, another header version), and each would get its own day's payout.
 * The limit counts what the address pays instead (domain/ergo/canonical-tree.ts), hashed so the key
 * kept in the rate limiter is short whatever the script's length.
 */
import { hex } from '@fleet-sdk/crypto';
import { blake2b256Hex } from '../canonical-hash.ts';
import { canonicalErgoTree } from '../ergo/canonical-tree.ts';

/** The limit key of an address's ErgoTree (hex, as decodeAddress reports it): the same for every address of one key or script. */
export function payeeKey(ergoTreeHex: string): string {
  return blake2b256Hex(canonicalErgoTree(hex.decode(ergoTreeHex)));
}
