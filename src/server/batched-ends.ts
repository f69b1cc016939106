/**
 * Route answers go out together, once this turn of the event loop has handled everything its
 * sockets brought in, rather than one socket write at a time as each is ready.
 *
 * Why: a socket write that hands a sleeping reader its data pays, in the writer's own CPU time,
 * for waking it. A reader on the same host (a reverse proxy, a load balancer, the bench's load
 * generator) sleeps between answers whenever the server is the slower side, so the slower the
 * route, the dearer its write: measured here, a bare server's `res.end` of the same 2.5 KB answer
 * cost 7.6 us per request when it answered at once and 18 us when it first spent 25 us of CPU
 * (docs/performance.md). Written back to back, the first answer of a batch wakes the reader and
 * the others find it awake: the policy check went from 44 to 33 us of server CPU per request.
 *
 * The price: an answer waits for the other answers made in the same turn (under load a handful,
 * tens of microseconds; a slow synchronous handler delays the answers made before it in its turn);
 * with one request in flight it waits for nothing but the turn's end. An answer made after the
 * batch has gone (in the check phase, after a store's group commit) goes out at once: it would
 * otherwise wait a whole turn. `writeHead` only composes the head: its bytes go out with the body,
 * from here. Static files do not wait: they are answered fast enough that the reader is still
 * awake, and batching them measured no gain.
 */
import type http from 'node:http';
import { logger } from '../services/logger.ts';

interface PendingEnd {
  res: http.ServerResponse;
  /** Undefined for an answer without a body (to a HEAD). */
  body: string | Uint8Array | undefined;
  encoding: BufferEncoding;
}

let pending: PendingEnd[] = [];
/** Whether endPending is queued for this turn's check phase. */
let scheduled = false;
/** Whether this turn's batch has been ended: answers made after it (in the check phase) go out at once. */
let batchEnded = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // setImmediate runs after the poll phase, where answers are made from the sockets' events.
  setImmediate(endPending);
}

/**
 * A request's event (its arrival, its body's last chunk) is being handled: answers made from here
 * until this turn's batch is ended go out with it. Called before the route runs, so the batch is
 * queued ahead of whatever the route queues for the same check phase: an answer made there, after
 * the batch (a premium quote, answered once the store's group commit has run), is not held for
 * the next turn, which cost that route a seventh of its CPU per request.
 */
export function batchThisTurn(): void {
  batchEnded = false;
  schedule();
}

/** Ends `res` with `body` (its head composed by writeHead) with the rest of this turn's answers, or at once when they have gone. */
export function endWithBatch(res: http.ServerResponse, body: string | Uint8Array | undefined, encoding: BufferEncoding = 'utf8'): void {
  if (batchEnded) return endNow({ res, body, encoding });
  pending.push({ res, body, encoding });
  schedule();
}

/** Ends the answers waiting for this turn's end now: before anything else is written to their connections. */
export function endPending(): void {
  scheduled = false;
  batchEnded = true;
  const batch = pending;
  pending = [];
  for (const end of batch) endNow(end);
}

function endNow({ res, body, encoding }: PendingEnd): void {
  // One failing write must not leave the others unanswered.
  try {
    res.end(body, encoding);
  } catch (error) {
    logger.error({ err: error }, 'answer could not be written');
    res.destroy();
  }
}
