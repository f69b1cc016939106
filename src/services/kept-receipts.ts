/**
 * Receipt bundles served like static files (issue 53): a receipt in a signed checkpoint can never
 * change without the log refusing to sign again, so its bytes are kept once read, with a strong ETag
 * and brotli and gzip variants made off the event loop, and the server answers them from memory as
 * it answers descriptors: no store read, no serialization, 304 on If-None-Match, a year's immutable
 * caching for a CDN. Kept by the id asked for (the receipt id or its settlement transaction id, in
 * lower-case hex), newest use last; past KEPT_RECEIPT_BYTES the least recently used go first.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { strongEtag } from '../lib/etag.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Memory for kept receipts, their variants included: about 2,000 receipts of 2 KB. */
export const KEPT_RECEIPT_BYTES = 8 * 1024 * 1024;
/** Below this size a compressed variant saves less than its headers cost (as for static files). */
const MIN_COMPRESS_BYTES = 256;

/** What a CDN may do with a receipt in a checkpoint: keep it for ever. */
export const SETTLED_RECEIPT_CACHE = 'public, max-age=31536000, immutable';
/** A receipt not in a checkpoint yet: it will be within seconds, and is then kept. */
export const UNSETTLED_RECEIPT_CACHE = 'public, max-age=5';

export interface KeptReceipt {
  readonly body: Buffer;
  readonly etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

const size = (kept: KeptReceipt) => kept.body.length + (kept.br?.length ?? 0) + (kept.gzip?.length ?? 0);

export interface KeptReceipts {
  get(id: string): KeptReceipt | undefined;
  /** Keeps `body` under each of `ids`; its variants follow once compressed. */
  keep(ids: readonly string[], body: string): KeptReceipt;
  readonly bytes: number;
}

export function keptReceipts(budget = KEPT_RECEIPT_BYTES): KeptReceipts {
  const kept = new Map<string, KeptReceipt>();
  let bytes = 0;
  const counted = new Map<KeptReceipt, number>();
  const account = (receipt: KeptReceipt, change: number) => {
    const holders = counted.get(receipt) ?? 0;
    if (holders + change === 0) {
      counted.delete(receipt);
      bytes -= size(receipt);
    } else {
      if (holders === 0) bytes += size(receipt);
      counted.set(receipt, holders + change);
    }
  };
  const trim = () => {
    for (const [id, receipt] of kept) {
      if (bytes <= budget) break;
      kept.delete(id);
      account(receipt, -1);
    }
  };
  return {
    get(id) {
      const receipt = kept.get(id);
      if (receipt) {
        // Most recently used last, so the oldest use goes first.
        kept.delete(id);
        kept.set(id, receipt);
      }
      return receipt;
    },
    keep(ids, text) {
      const body = Buffer.from(text, 'utf8');
      const receipt: KeptReceipt = { body, etag: strongEtag(body) };
      for (const id of ids) {
        const before = kept.get(id);
        if (before) {
          kept.delete(id);
          account(before, -1);
        }
        kept.set(id, receipt);
        account(receipt, 1);
      }
      trim();
      if (body.length >= MIN_COMPRESS_BYTES) void compress(receipt);
      return receipt;
    },
    get bytes() {
      return bytes;
    },
  };

  /** Variants on libuv's threads; counted once made, dropped with the receipt. */
  async function compress(receipt: KeptReceipt): Promise<void> {
    const [br, gz] = await Promise.all([
      brotliAsync(receipt.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: receipt.body.length } }),
      gzipAsync(receipt.body, { level: 9 }),
    ]).catch(() => [undefined, undefined]);
    const holders = counted.get(receipt);
    if (holders === undefined) return;
    bytes -= size(receipt);
    if (br && br.length < receipt.body.length) receipt.br = br;
    if (gz && gz.length < receipt.body.length) receipt.gzip = gz;
    bytes += size(receipt);
    trim();
  }
}

/** The process's kept receipts: the receipt route keeps them, the server answers them. */
export const servedReceipts = keptReceipts();
