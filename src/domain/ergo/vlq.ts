/** Ergo's unsigned VLQ numbers (LEB128): seven bits a byte, lowest first, the high bit set on all but the last. */

/** The number at `offset` and where the next field starts; undefined when the bytes end inside it. */
export function readVlq(bytes: Uint8Array, offset: number): { value: number; next: number } | undefined {
  let value = 0;
  for (let shift = 0, index = offset; index < bytes.length && shift < 64; shift += 7, index++) {
    value += (bytes[index]! & 0x7f) * 2 ** shift;
    if ((bytes[index]! & 0x80) === 0) return { value, next: index + 1 };
  }
  return undefined;
}

export function writeVlq(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}
