/**
 * The receipt log's read path (docs/transparency-log.md), bound: the newest checkpoint, the tiles,
 * and a receipt's tlog-proof. Each handler only translates the log service's answers to HTTP.
 */
import { CHECKPOINT_CONTENT_TYPE, TILE_CONTENT_TYPE, TLOG_PROOF_CONTENT_TYPE } from '../../catalogue/entries/receipt-log.ts';
import { text, type ApiRequest } from '../../lib/api.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { readReceiptStore } from '../store-read.ts';
import { runtimeModule } from '../lazy-runtime.ts';
import type { Binding } from '../types.ts';

const log = async () => (await runtimeModule()).getReceiptLog();

/** A checkpoint is fresh for seconds: the log grows. */
const SHORT_CACHE = 'public, max-age=5';
const FOREVER = 'public, max-age=31536000, immutable';

async function checkpointHandler() {
  const checkpoint = await readReceiptStore('the log\'s checkpoint cannot be read', async () => {
    const receiptLog = await log();
    // A log always serves a checkpoint (c2sp.org/tlog-tiles): one not signed yet (a store that was down at start) is signed now.
    return (await receiptLog.checkpoint()) ?? (await receiptLog.checkpointNow().catch(() => undefined));
  });
  if (!checkpoint) throw new ProblemError(404, 'not_found', 'No checkpoint yet', 'The receipt log has not signed a checkpoint yet; ask again in a few seconds.');
  return text(200, CHECKPOINT_CONTENT_TYPE, checkpoint.note, { 'cache-control': SHORT_CACHE });
}

async function tileHandler(request: ApiRequest) {
  const path = request.params.tilePath ?? '';
  // A tile has one spelling (c2sp.org/tlog-tiles): a cache keyed by URL must never hold it twice, nor
  // a reader compare two names of one tile. Escapes and dot segments are refused, not resolved.
  const sent = request.sentPath ?? request.path;
  if (sent.includes('%') || /\/\.\.?(?:\/|$)/.test(sent)) {
    throw new ProblemError(400, 'invalid_url', 'Not a tile path', `"${sent.slice(0, 120)}" is not the canonical spelling of a tile path: tile paths are served without percent-escapes or dot segments.`);
  }
  const answer = await readReceiptStore('the tile cannot be read', async () => (await log()).tile(path));
  if (!answer.ok && answer.status === 503) {
    // Documented as the store being unreadable: to a reader it is, for these entries, and retrying will not mend it.
    throw new ProblemError(503, 'receipt_storage_unavailable', 'Receipt log entries missing', `The receipt log cannot serve "tile/${path.slice(0, 80)}": ${answer.reason}. The operator must restore those receipts.`, {
      extra: { missingIndexes: answer.missingIndexes },
    });
  }
  if (!answer.ok) {
    throw answer.status === 400
      ? new ProblemError(400, 'invalid_url', 'Not a tile path', `"tile/${path.slice(0, 80)}" is not a tile path of c2sp.org/tlog-tiles: ${answer.reason}.`)
      : new ProblemError(404, 'not_found', 'No such tile', `The receipt log has no tile "tile/${path.slice(0, 80)}": ${answer.reason}.`);
  }
  return text(200, TILE_CONTENT_TYPE, answer.bytes, {
    'cache-control': answer.full ? FOREVER : SHORT_CACHE,
    ...(answer.encoding ? { 'content-encoding': answer.encoding } : {}),
  });
}

async function receiptProofHandler(request: ApiRequest) {
  const id = (request.params.id ?? '').toLowerCase();
  const answer = await readReceiptStore('the proof cannot be read', async () => (await log()).proofOf(id));
  if (answer.status === 'unlogged') {
    throw new ProblemError(404, 'receipt_not_found', 'Receipt not found', `No receipt with id "${id.slice(0, 80)}" is in the receipt log.`, { headers: { 'cache-control': 'no-store' } });
  }
  if (answer.status === 'gone') {
    throw new ProblemError(404, 'receipt_not_found', 'Receipt not found', `Receipt ${id} was entry ${answer.index} of the receipt log, but the receipt store no longer holds it: no proof is served for a receipt no one can be shown (the live status names the gap).`, {
      headers: { 'cache-control': 'no-store' },
      extra: { index: answer.index },
    });
  }
  if (answer.status === 'pending') {
    throw new ProblemError(409, 'receipt_log_pending', 'Not in a checkpoint yet', `Receipt ${id} is entry ${answer.index} of the receipt log; no checkpoint includes it yet. Ask again in ${answer.retryAfterSeconds} s.`, {
      headers: { 'retry-after': String(answer.retryAfterSeconds) },
      extra: { index: answer.index },
    });
  }
  return text(200, TLOG_PROOF_CONTENT_TYPE, answer.proof, { 'cache-control': SHORT_CACHE });
}

export const receiptLogBindings: Readonly<Record<string, Binding>> = {
  'receipt-log-checkpoint': { handler: checkpointHandler },
  'receipt-log-key': {
    handler: async () => text(200, CHECKPOINT_CONTENT_TYPE, `${await readReceiptStore('the log\'s key cannot be read', async () => (await log()).verifierKey)}\n`, { 'cache-control': 'public, max-age=3600' }),
  },
  'receipt-log-tile': { handler: tileHandler },
  'assistant-receipt-proof': { handler: receiptProofHandler },
};
