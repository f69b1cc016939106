/**
 * The receipt transparency log (docs/transparency-log.md): its signed checkpoint and its tiles, as
 * c2sp.org/tlog-tiles lays them out under one prefix, and each receipt's offline-verifiable proof
 * of inclusion (c2sp.org/tlog-proof). A full tile never changes, so a CDN may keep it for ever.
 */
import { RECEIPT_LOG_PATH } from '../../config/receipt-log.ts';
import type { Entry } from '../types.ts';

export const CHECKPOINT_CONTENT_TYPE = 'text/plain; charset=utf-8';
export const TILE_CONTENT_TYPE = 'application/octet-stream';
export const TLOG_PROOF_CONTENT_TYPE = 'text/plain; charset=utf-8';

const unreadable = { description: 'The receipt store cannot be read (code `receipt_storage_unavailable`).' };

export const RECEIPT_LOG_ENTRIES: readonly Entry[] = [
  {
    id: 'receipt-log-checkpoint',
    kind: 'dynamic',
    method: 'GET',
    path: `${RECEIPT_LOG_PATH}/checkpoint`,
    tag: 'Live proof',
    summary: 'Receipt log: the signed checkpoint',
    description:
      'The receipt log\'s latest checkpoint (c2sp.org/tlog-checkpoint): a signed note of the origin, the tree size and the base64 RFC 6962 root hash, signed with Ed25519 by the key the discovery descriptor publishes. ' +
      'Every instance serves the newest stored one; a new one is signed within seconds of the log growing. Cached for a few seconds at most.',
    responses: {
      200: { description: 'The signed checkpoint.', contentType: CHECKPOINT_CONTENT_TYPE, headers: { 'Cache-Control': '`public, max-age=5`: the log grows.' } },
      404: { description: 'No checkpoint has been signed yet (code `not_found`).' },
      503: unreadable,
    },
    page: '/proofs/',
  },
  {
    id: 'receipt-log-key',
    kind: 'dynamic',
    method: 'GET',
    path: `${RECEIPT_LOG_PATH}/key`,
    tag: 'Live proof',
    summary: 'Receipt log: the verifier key',
    description:
      'The key checkpoints verify with, as a signed-note verifier key: `<origin>+<key id>+<base64 of 0x01 and the Ed25519 public key>`. It signs checkpoints and nothing else: it holds no funds and signs no transaction. ' +
      'A monitor keeps it and refuses any checkpoint that does not verify with it.',
    responses: {
      200: { description: 'The verifier key, one line.', contentType: CHECKPOINT_CONTENT_TYPE },
    },
    page: '/proofs/',
  },
  {
    id: 'receipt-log-tile',
    kind: 'dynamic',
    method: 'GET',
    path: `${RECEIPT_LOG_PATH}/tile/{tilePath+}`,
    tag: 'Live proof',
    summary: 'Receipt log: a tile',
    description:
      'A tile of the receipt log as c2sp.org/tlog-tiles lays them out, `tilePath` spanning several segments: `<L>/<N>[.p/<W>]` (level L hashes of 256 nodes, 32 bytes each) or `entries/<N>[.p/<W>]` ' +
      '(the entries, each the RFC 8785 JSON of a receipt bundle as served, prefixed by its big-endian 16-bit length). N is written in groups of three digits, `x` before all but the last (`x001/x234/067`). ' +
      'A full tile never changes and may be cached for ever; a partial one (`.p/<W>`) only while the log has not grown past it. ' +
      'An entry bundle of 64 KB or more (a full one is about 1.3 MB) is sent with `Content-Encoding: gzip` whatever `Accept-Encoding` says, as tlog-tiles allows, so no answer passes 1 MiB.',
    responses: {
      200: {
        description: 'The tile\'s bytes.',
        contentType: TILE_CONTENT_TYPE,
        headers: { 'Cache-Control': 'Full tiles `public, max-age=31536000, immutable`; partial tiles `public, max-age=5`.', 'Content-Encoding': '`gzip` on an entry bundle of 64 KB or more, whatever the client asked; absent otherwise.' },
      },
      400: { description: 'Not a tile path of the spec: a malformed or non-canonical index, a width of 0 or above 255, a percent-escape or a dot segment anywhere in the path (code `invalid_url`): a tile has one spelling.' },
      404: { description: 'No such tile in the tree as it is now: beyond its size, or partial where it is full (code `not_found`).' },
      503: unreadable,
    },
    page: '/proofs/',
  },
  {
    id: 'assistant-receipt-proof',
    kind: 'dynamic',
    method: 'GET',
    path: '/api/assistant/receipt/{id}/proof',
    tag: 'Assistant',
    summary: 'A receipt\'s proof of inclusion in the receipt log',
    description:
      'A c2sp.org/tlog-proof@v1 text (save it as `.tlog-proof`): the receipt\'s index in the receipt log, its RFC 6962 inclusion proof and a signed checkpoint that includes it. ' +
      'Verifiable offline with the receipt bundle and the log\'s verifier key (`agent-economy verify-receipt --offline`).',
    responses: {
      200: { description: 'The proof.', contentType: TLOG_PROOF_CONTENT_TYPE },
      404: { description: 'No receipt with this id, or its entry is logged but the store no longer holds the receipt (code `receipt_not_found`; `index` names the entry then).' },
      409: {
        description: 'The receipt is logged, but no checkpoint includes it yet (code `receipt_log_pending`): ask again after `Retry-After` seconds.',
        headers: { 'Retry-After': 'Seconds until the next checkpoint is due.' },
      },
      503: unreadable,
    },
  },
];
