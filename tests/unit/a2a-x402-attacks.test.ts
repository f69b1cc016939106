/**
 * a2a-x402 on POST /a2a under attack and failure, driven with the in-memory fakes: a paid turn is
 * never lost (a store blip as the task completes, a task swept while its settled turn waits, a
 * token lapsing while the model answers), a request that outlived its claim changes nothing, every
 * refusal is a JSON-RPC error, and a client without the extension is answered as before. Each
 * failed on the first version of the A2A door (09d0c96).
 */
import { describe, expect, it } from 'vitest';
import { A2A_X402_EXTENSION } from '../../schemas/a2a.ts';
import { createA2aHandler } from '../../src/routes/assistant/a2a.ts';
import type { ModelAnswer, ModelRequest } from '../../src/services/model/provider.ts';
import { sweepExpired } from '../../src/services/retention.ts';
import { ask, body, LONG, openTask, rpc, send } from '../helpers/a2a-fakes.ts';
import { fakeDeps, type FakeDeps } from '../helpers/fakes.ts';

/** A model whose answers the test releases one by one. */
function gatedModel(deps: FakeDeps) {
  const waiting: Array<() => void> = [];
  const inner = deps.model;
  (deps as any).model = {
    name: 'docs',
    async answer(request: ModelRequest): Promise<ModelAnswer> {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return inner.answer(request);
    },
  };
  return waiting;
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('a2a-x402 under attack and failure', () => {
  it('the retention sweep keeps a task whose turn settled but was not answered, and the same message then answers it', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, payload } = await openTask(deps);
    deps.model.failure = 'unavailable';
    const first = body(await a2a(send(taskId, payload)));
    expect(first.error.data.code).toBe('model_provider_unavailable');
    expect(deps.store.usedNotes.size).toBe(1); // settled
    deps.fakeClock.advance(15 * 60_000 + 86_400_000 + 1_000); // quote lifetime + default grace
    await sweepExpired(deps.store, { quoteGraceSeconds: 86_400, sweepIntervalSeconds: 60 }, deps.clock());
    deps.model.failure = undefined;
    const retry = body(await a2a(send(taskId, payload)));
    expect(retry.result?.status.state).toBe('completed');
  });

  it('a store blip as the task completes spends nothing, and the same message then gets the paid answer', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, payload } = await openTask(deps);
    const complete = deps.store.completeA2aTask.bind(deps.store);
    let failOnce = true;
    deps.store.completeA2aTask = async (input) => {
      if (failOnce) {
        failOnce = false;
        deps.store.unavailable = true;
        try {
          return await complete(input);
        } finally {
          deps.store.unavailable = false; // a blip: the next statement works
        }
      }
      return complete(input);
    };
    const first = body(await a2a(send(taskId, payload)));
    expect(first.error?.message).toMatch(/waits for the same message again/);
    expect([...deps.store.tokens.values()].every((token) => !token.usedAt)).toBe(true);
    const waiting = body(await a2a(rpc('tasks/get', { id: taskId })));
    expect(waiting.result.status).toMatchObject({ state: 'input-required', message: { metadata: { 'x402.payment.status': 'payment-verified' } } });
    // The payer sends the same message as told: the settled turn is recovered and answered, once.
    const retry = body(await a2a(send(taskId, payload)));
    expect(retry.result?.status.state).toBe('completed');
    expect(deps.store.receipts).toHaveLength(1);
  });

  it('a request that outlived its claim writes nothing: the one that took the task over answers it', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, payload } = await openTask(deps);
    const gates = gatedModel(deps);
    const a = a2a(send(taskId, payload));
    while (gates.length < 1) await tick();
    deps.fakeClock.advance(601_000); // A is far slower than any request may be: its claim is stale
    const b = a2a(send(taskId, payload));
    while (gates.length < 2) await tick();
    gates[0]!(); // A's model answers: its token was replaced by B's recovery, and its claim by B's
    const resultA = body(await a);
    expect(resultA.result.status.state).toBe('working');
    gates[1]!();
    const resultB = body(await b);
    expect(resultB.result.status.state).toBe('completed');
    const stored = body(await a2a(rpc('tasks/get', { id: taskId })));
    expect(stored.result.status.state).toBe('completed');
    expect(deps.store.receipts).toHaveLength(1);
  });

  it('a token that lapses while the model answers leaves the task waiting for the same message, which answers it', async () => {
    const deps = fakeDeps({ config: { tokenLifetimeSeconds: 60 } });
    const { a2a, taskId, payload } = await openTask(deps);
    const inner = deps.model;
    (deps as any).model = {
      name: 'docs',
      async answer(request: ModelRequest) {
        deps.fakeClock.advance(61_000); // MODEL_TIMEOUT_MS may be up to 120 s
        return inner.answer(request);
      },
    };
    const first = body(await a2a(send(taskId, payload)));
    expect(first.result.status).toMatchObject({ state: 'input-required', message: { metadata: { 'x402.payment.error': 'payment_in_progress' } } });
    (deps as any).model = inner;
    expect(body(await a2a(send(taskId, payload))).result.status.state).toBe('completed');
  });

  it('a rate-limited payment message is a JSON-RPC error, not a thrown 429', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, payload } = await openTask(deps);
    deps.limiter.points = 0;
    const answered = await a2a(send(taskId, payload));
    expect(answered.status).toBe(200);
    expect(body(answered).error.data).toMatchObject({ status: 429, code: 'rate_limited' });
  });

  it('a store outage on GetTask is a JSON-RPC error, not a thrown 503', async () => {
    const deps = fakeDeps();
    const { a2a, taskId } = await openTask(deps);
    deps.store.unavailable = true;
    const answered = await a2a(rpc('tasks/get', { id: taskId }));
    expect(answered.status).toBe(200);
    expect(body(answered).error.data).toMatchObject({ status: 503, code: 'receipt_storage_unavailable' });
  });

  it('a free-tier client without the extension that sends a taskId still gets its free answer (as at be8a3d1)', async () => {
    const deps = fakeDeps();
    const a2a = createA2aHandler(deps);
    const answered = body(await a2a(ask('What is a Note?', {}, { taskId: 'some-client-task' })));
    expect(answered.result?.kind).toBe('message');
  });
});

describe('the A2A-Version header (A2A 1.0, VersionNotSupportedError)', () => {
  it('answers -32009 naming the versions it speaks for a version it does not, before reading or charging anything', async () => {
    const deps = fakeDeps();
    const a2a = createA2aHandler(deps);
    for (const version of ['99.0', '2.0', '0.2', 'one', '1']) {
      const refused = body(await a2a(ask('What is a Note?', { 'x-a2a-extensions': A2A_X402_EXTENSION, 'a2a-version': version })));
      expect(refused, version).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32009, message: expect.stringContaining(`A2A-Version ${JSON.stringify(version)} is not a version this agent speaks (1.0, 0.3)`), data: { supportedVersions: ['1.0', '0.3'] } },
      });
    }
    // Refused before anything is read: a premium question under an unsupported version stores no quote, the same one without the header does.
    expect(body(await a2a(ask(LONG, { 'x-a2a-extensions': A2A_X402_EXTENSION, 'a2a-version': '99.0' }))).error.code).toBe(-32009);
    expect(deps.store.quotes.size).toBe(0);
    const premium = body(await a2a(ask(LONG, { 'x-a2a-extensions': A2A_X402_EXTENSION, 'a2a-version': '1.0' })));
    expect(premium.error, JSON.stringify(premium.error)).toBeUndefined();
    expect(deps.store.quotes.size).toBeGreaterThan(0);
    for (const version of ['1.0', '0.3', '1.0.1', ' 1.0 ']) {
      const answered = body(await a2a(ask('What is a Note?', { 'x-a2a-extensions': A2A_X402_EXTENSION, 'a2a-version': version })));
      expect(answered.error, version).toBeUndefined();
    }
    expect(body(await a2a(ask('What is a Note?'))).error).toBeUndefined();
  });
});
