/**
 * What this service holds, said once: every descriptor that states it (the mainnet gate, the review
 * pack, the capability manifest) takes these words, so none can say "holds no keys" while the
 * receipt log's checkpoint key exists. Its two keys are the log's (src/config/receipt-log.ts), whose
 * checkpoints witnesses cosign (LOG_WITNESSES), and the x402 signing key (src/config/x402-signing.ts).
 */
export const CUSTODY =
  "holds no funds and no wallet keys, and never signs or broadcasts a transaction; its two private keys sign no transaction: the receipt log's Ed25519 checkpoint key (`LOG_SIGNING_KEY_FILE`) signs the log's checkpoints, which independent witnesses (`LOG_WITNESSES`) may cosign, and the key in `X402_SIGNING_KEY_FILE` signs x402 offers and receipts";

/** `text` with `{custody}` replaced by CUSTODY; content that states custody writes the placeholder, never its own words. */
export function withCustody(text: string, where: string): string {
  if (!text.includes('{custody}')) throw new Error(`${where}: states no custody through {custody}`);
  return text.replaceAll('{custody}', CUSTODY);
}
