/**
 * Standard base64 (RFC 4648 section 4, padded), the encoding every C2SP text format of the receipt
 * log uses (checkpoint root hashes, signatures, verifier keys, tlog-proof hashes). Built on `btoa`
 * and `atob`, which Node and browsers both have, so the receipt page decodes a proof with the same
 * code as the server. `atob` skips whitespace and accepts missing padding, so a text with two
 * spellings of one value would verify; decoding here accepts only the one spelling encoding gives back.
 */

export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The bytes `text` encodes, or null unless it is exactly their canonical standard base64. */
export function decodeBase64(text: string): Uint8Array | null {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return encodeBase64(bytes) === text ? bytes : null;
}
