/**
 * Standard base64 (RFC 4648 section 4, padded), the encoding every C2SP text format of the receipt
 * log uses (checkpoint root hashes, signatures, verifier keys, tlog-proof hashes). Node's decoder
 * skips characters it does not know and accepts missing padding, so a text with two spellings of
 * one value would verify; decoding here accepts only the one spelling encoding gives back.
 */

export const encodeBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** The bytes `text` encodes, or null unless it is exactly their canonical standard base64. */
export function decodeBase64(text: string): Uint8Array | null {
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? new Uint8Array(bytes) : null;
}
