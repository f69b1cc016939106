/**
 * Receipts kept in memory once they are in a checkpoint (issue 53): bounded by bytes, the least
 * recently used going first, a receipt kept under two ids counted once, and its brotli and gzip
 * variants made off the event loop and counted when they exist.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { keptReceipts } from '../../src/services/kept-receipts.ts';
import { strongEtag } from '../../src/lib/etag.ts';

const receipt = (n: number, size = 1_000) => JSON.stringify({ receiptId: String(n).padStart(64, '0'), filler: 'x'.repeat(size) });
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('kept receipts', () => {
  it('keeps the body with its strong ETag, under each id, counted once, and adds its compressed variants', async () => {
    const kept = keptReceipts(1_000_000);
    const body = receipt(1, 4_000);
    const one = kept.keep(['a'.repeat(64), 'b'.repeat(64)], body);
    expect(one).toMatchObject({ body: Buffer.from(body), etag: strongEtag(Buffer.from(body)) });
    expect(kept.get('a'.repeat(64))).toBe(one);
    expect(kept.get('b'.repeat(64))).toBe(one);
    expect(kept.bytes).toBe(body.length);
    for (let i = 0; i < 40 && !(one.br && one.gzip); i++) await settle();
    expect(brotliDecompressSync(one.br!).toString()).toBe(body);
    expect(gunzipSync(one.gzip!).toString()).toBe(body);
    expect(kept.bytes).toBe(body.length + one.br!.length + one.gzip!.length);
  });

  it('drops the least recently used past its budget, and a small body is not compressed', async () => {
    const kept = keptReceipts(2_500);
    kept.keep(['1'], receipt(1));
    kept.keep(['2'], receipt(2));
    kept.get('1');
    kept.keep(['3'], receipt(3));
    expect([kept.get('1'), kept.get('2'), kept.get('3')].map((entry) => entry !== undefined)).toEqual([true, false, true]);
    expect(kept.bytes).toBeLessThanOrEqual(2_500 + 2_000);
    const small = kept.keep(['4'], '{"a":1}');
    await settle();
    expect(small.br).toBeUndefined();
    expect(small.gzip).toBeUndefined();
    // Kept again under the same id: the older body is no longer counted.
    const before = kept.bytes;
    kept.keep(['4'], '{"a":2}');
    expect(kept.bytes).toBe(before);
  });
});
