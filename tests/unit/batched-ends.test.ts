import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { batchThisTurn, endWithBatch } from '../../src/server/batched-ends.ts';

/** A response that records its end, or throws from it; `onEnd` runs after the end is recorded. */
function fakeResponse(log: string[], name: string, throws = false, onEnd?: () => void) {
  return {
    end(body: string | undefined, encoding: string) {
      if (throws) throw new Error('write failed');
      log.push(`${name}:${body ?? '(none)'}:${encoding}`);
      onEnd?.();
    },
    destroy() {
      log.push(`${name}:destroyed`);
    },
  } as unknown as http.ServerResponse;
}

const afterThisTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('answers ended together', () => {
  it('ends every answer of a turn after the turn, in the order given', async () => {
    const log: string[] = [];
    batchThisTurn();
    endWithBatch(fakeResponse(log, 'a'), '{"a":1}', 'latin1');
    endWithBatch(fakeResponse(log, 'b'), undefined);
    await Promise.resolve();
    // Not during the turn: the answers wait for it to end.
    expect(log).toEqual([]);
    await afterThisTurn();
    expect(log).toEqual(['a:{"a":1}:latin1', 'b:(none):utf8']);
  });

  it('ends the others when one write throws, and destroys that one', async () => {
    const log: string[] = [];
    batchThisTurn();
    endWithBatch(fakeResponse(log, 'a'), 'x');
    endWithBatch(fakeResponse(log, 'broken', true), 'y');
    endWithBatch(fakeResponse(log, 'c'), 'z');
    await afterThisTurn();
    expect(log).toEqual(['a:x:utf8', 'broken:destroyed', 'c:z:utf8']);
  });

  it("ends at once an answer made after the turn's batch has gone (in the check phase, after a store's group commit), without waiting a turn", async () => {
    const log: string[] = [];
    batchThisTurn();
    // What a route queues for the same check phase runs after the batch, queued first.
    setImmediate(() => endWithBatch(fakeResponse(log, 'after commit'), 'late'));
    endWithBatch(fakeResponse(log, 'sync'), 'now');
    await afterThisTurn();
    expect(log).toEqual(['sync:now:utf8', 'after commit:late:utf8']);
    // The next request's event opens a new batch.
    batchThisTurn();
    endWithBatch(fakeResponse(log, 'next'), 'x');
    expect(log).toHaveLength(2);
    await afterThisTurn();
    expect(log).toHaveLength(3);
  });
});
