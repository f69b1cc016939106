import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { endWithBatch } from '../../src/server/batched-ends.ts';

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
    endWithBatch(fakeResponse(log, 'a'), 'x');
    endWithBatch(fakeResponse(log, 'broken', true), 'y');
    endWithBatch(fakeResponse(log, 'c'), 'z');
    await afterThisTurn();
    expect(log).toEqual(['a:x:utf8', 'broken:destroyed', 'c:z:utf8']);
  });

  it('starts a new batch for answers given while a batch is being ended', async () => {
    const log: string[] = [];
    const late = fakeResponse(log, 'late');
    const first = fakeResponse(log, 'first', false, () => endWithBatch(late, 'later'));
    endWithBatch(first, 'now');
    await afterThisTurn();
    expect(log).toEqual(['first:now:utf8']);
    await afterThisTurn();
    expect(log).toEqual(['first:now:utf8', 'late:later:utf8']);
  });
});
