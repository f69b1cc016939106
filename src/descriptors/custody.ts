/**
 * What this service holds, said once: every descriptor that states it (the mainnet gate, the review
 * pack, the capability manifest) takes these words, so none can say "holds no keys" while the
 * receipt log's checkpoint key exists. The key is the log's (src/config/receipt-log.ts); witnesses
 * cosign what it signs (LOG_WITNESSES).
 */
export const CUSTODY =
  "holds no funds and no wallet keys, and never signs or broadcasts a transaction; its one private key is the receipt log's Ed25519 checkpoint key (`LOG_SIGNING_KEY_FILE`), which signs the log's checkpoints and nothing else, and independent witnesses (`LOG_WITNESSES`) may cosign those";

/** `text` with `{custody}` replaced by CUSTODY; content that states custody writes the placeholder, never its own words. */
export function withCustody(text: string, where: string): string {
  if (!text.includes('{custody}')) throw new Error(`${where}: states no custody through {custody}`);
  return text.replaceAll('{custody}', CUSTODY);
}
