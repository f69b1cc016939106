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
 * with one request in flight it waits for nothing but the turn's end. `writeHead` only composes the
 * head: its bytes go out with the body, from here. Static files do not wait: they are answered fast
 * enough that the reader is still awake, and batching them measured no gain.
 */
import type http from 'node:http';
import { logger } from '../services/logger.ts';

interface PendingEnd {
  res: http.ServerResponse;
  /** Undefined for an answer without a body (to a HEAD). */
  body: string | undefined;
  encoding: BufferEncoding;
}

let pending: PendingEnd[] = [];

/** Ends `res` with `body` (its head composed by writeHead) with the rest of this turn's answers. */
export function endWithBatch(res: http.ServerResponse, body: string | undefined, encoding: BufferEncoding = 'utf8'): void {
  // setImmediate runs after the poll phase, where most answers are made (from the sockets' events).
  if (pending.length === 0) setImmediate(endPending);
  pending.push({ res, body, encoding });
}

/** Ends the answers waiting for this turn's end now: before anything else is written to their connections. */
export function endPending(): void {
  const batch = pending;
  pending = [];
  for (const { res, body, encoding } of batch) {
    // One failing write must not leave the others unanswered.
    try {
      res.end(body, encoding);
    } catch (error) {
      logger.error({ err: error }, 'answer could not be written');
      res.destroy();
    }
  }
}
