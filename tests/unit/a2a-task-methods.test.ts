/**
 * ListTasks, CancelTask and the operations the agent card declares unsupported, on POST /a2a with
 * the in-memory fakes, as A2A 1.0.1 specifies them: ListTasks pages the caller's tasks newest status
 * first with a cursor, filters by context, state and time, bounds its page size and names a bad
 * field; CancelTask answers TaskNotCancelableError for a task that has ended, is being settled or
 * was paid; streaming and the extended card answer UnsupportedOperationError, push notification
 * configs PushNotificationNotSupportedError, and any other name method not found.
 */
import { describe, expect, it } from 'vitest';
import { A2A_ERROR_CODES, A2A_UNSUPPORTED_METHODS, a2aResponseSchema } from '../../schemas/a2a.ts';
import { createA2aHandler } from '../../src/routes/assistant/a2a.ts';
import type { ModelAnswer, ModelRequest } from '../../src/services/model/provider.ts';
import { ACTIVATED, bearer, body, LONG, openTask, rpc, send } from '../helpers/a2a-fakes.ts';
import { fakeDeps, type FakeDeps } from '../helpers/fakes.ts';

const OWNER = bearer('owner-secret-0123456789abcdefghijklmnop');

/** `count` tasks of OWNER, one a minute apart, each its own question; ids newest first. */
async function openTasks(deps: FakeDeps, count: number, contextOf: (index: number) => string | undefined = () => undefined) {
  const a2a = createA2aHandler(deps);
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const contextId = contextOf(index);
    const opened = body(
      await a2a(rpc('message/send', { message: { kind: 'message', messageId: `m${index}`, role: 'user', ...(contextId ? { contextId } : {}), parts: [{ kind: 'text', text: `${index}: ${LONG}` }] } }, OWNER)),
    );
    expect(opened.result?.status.state, JSON.stringify(opened)).toBe('input-required');
    ids.unshift(opened.result.id);
    deps.fakeClock.advance(60_000);
  }
  return { a2a, ids };
}

/** A raw JSON-RPC body from OWNER, params and all as given. */
const post = (payload: unknown) => ({ method: 'POST', path: '/a2a', params: {}, query: new URLSearchParams(), headers: OWNER, body: payload, clientIp: '203.0.113.9' });

const list = async (a2a: ReturnType<typeof createA2aHandler>, params: unknown) => {
  const answer = body(await a2a(rpc('ListTasks', params, OWNER)));
  a2aResponseSchema.parse(answer);
  return answer;
};

describe('ListTasks', () => {
  it('pages the caller\'s tasks newest status first, each page after the last, until an empty nextPageToken', async () => {
    const deps = fakeDeps();
    const { a2a, ids } = await openTasks(deps, 5);
    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const { result } = await list(a2a, { pageSize: 2, ...(pageToken ? { pageToken } : {}) });
      expect(result).toMatchObject({ pageSize: 2, totalSize: 5 });
      seen.push(...result.tasks.map((task: { id: string }) => task.id));
      pageToken = result.nextPageToken || undefined;
      pages += 1;
    } while (pageToken);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
    // A task whose status changes moves to the front: the order is the status timestamp's.
    await a2a(send(ids.at(-1)!, { 'x402.payment.status': 'payment-rejected' }, OWNER));
    expect((await list(a2a, { pageSize: 1 })).result.tasks[0]).toMatchObject({ id: ids.at(-1), status: { state: 'TASK_STATE_FAILED' } });
  });

  it('filters by context, by state and by the time of the last change; a state no task here takes lists none', async () => {
    const deps = fakeDeps();
    const { a2a, ids } = await openTasks(deps, 4, (index) => (index % 2 === 0 ? 'even' : undefined));
    const since = deps.clock();
    await a2a(send(ids[0]!, { 'x402.payment.status': 'payment-rejected' }, OWNER));
    const ofEven = (await list(a2a, { contextId: 'even' })).result;
    expect(ofEven.tasks.map((task: { contextId: string }) => task.contextId)).toEqual(['even', 'even']);
    expect(ofEven.totalSize).toBe(2);
    expect((await list(a2a, { status: 'TASK_STATE_FAILED' })).result).toMatchObject({ totalSize: 1, tasks: [{ id: ids[0] }] });
    expect((await list(a2a, { status: 'TASK_STATE_INPUT_REQUIRED' })).result.totalSize).toBe(3);
    expect((await list(a2a, { status: 'TASK_STATE_UNSPECIFIED' })).result.totalSize).toBe(4);
    expect((await list(a2a, { status: 'TASK_STATE_REJECTED' })).result).toEqual({ tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 });
    expect((await list(a2a, { statusTimestampAfter: since.toISOString() })).result).toMatchObject({ totalSize: 1, tasks: [{ id: ids[0] }] });
  });

  it('leaves a completed task\'s answer out unless includeArtifacts, and keeps no history whatever historyLength says', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, payload } = await openTask(deps, { headers: OWNER });
    expect(body(await a2a(send(taskId, payload))).result.status.state).toBe('completed');
    const [bare] = (await list(a2a, { historyLength: 5 })).result.tasks;
    expect(bare.status.state).toBe('TASK_STATE_COMPLETED');
    expect(bare).not.toHaveProperty('artifacts');
    expect(bare).not.toHaveProperty('history');
    const [full] = (await list(a2a, { includeArtifacts: true })).result.tasks;
    expect(full.artifacts).toEqual([expect.objectContaining({ name: 'answer' })]);
  });

  it('names each bad field: a page size out of 1 to 100, a page token it never gave, a state A2A does not have, a malformed instant', async () => {
    const deps = fakeDeps();
    const a2a = createA2aHandler(deps);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pageSize: 0 }, '/params/pageSize'],
      [{ pageSize: 101 }, '/params/pageSize'],
      [{ pageSize: 2.5 }, '/params/pageSize'],
      [{ pageToken: 'not-a-token' }, '/params/pageToken'],
      [{ pageToken: Buffer.from('v1 2026-11-23T12:00:00.000Z ../../etc').toString('base64url') }, '/params/pageToken'],
      [{ status: 'TASK_STATE_RUNNING' }, '/params/status'],
      [{ status: 'completed' }, '/params/status'],
      [{ statusTimestampAfter: 'yesterday' }, '/params/statusTimestampAfter'],
      [{ historyLength: -5 }, '/params/historyLength'],
      [{ includeArtifacts: 'yes' }, '/params/includeArtifacts'],
      [{ contextId: 'a\u0000b' }, '/params/contextId'],
    ];
    for (const [params, path] of cases) {
      const answer = body(await a2a(rpc('ListTasks', params, OWNER)));
      expect(answer.error, JSON.stringify(params)).toMatchObject({ code: A2A_ERROR_CODES.invalid_params, message: expect.stringContaining(path), data: [expect.objectContaining({ path })] });
    }
    // Without params at all it is the first page of everything.
    expect(body(await a2a(post({ jsonrpc: '2.0', id: 3, method: 'ListTasks' })))).toMatchObject({ id: 3, result: { tasks: [], nextPageToken: '', pageSize: 50, totalSize: 0 } });
  });
});

describe('CancelTask', () => {
  it('cancels a waiting task in either version, answered as a task of that version', async () => {
    const deps = fakeDeps();
    const first = await openTask(deps, { headers: OWNER });
    const second = await openTask(deps, { headers: OWNER, question: `Second: ${LONG}`, a2a: first.a2a });
    const v1 = body(await first.a2a(rpc('CancelTask', { id: first.taskId, metadata: { reason: 'changed my mind' } }, OWNER)));
    expect(a2aResponseSchema.parse(v1)).toMatchObject({ result: { id: first.taskId, status: { state: 'TASK_STATE_CANCELED' } } });
    const v0_3 = body(await first.a2a(rpc('tasks/cancel', { id: second.taskId }, OWNER)));
    expect(a2aResponseSchema.parse(v0_3)).toMatchObject({ result: { kind: 'task', id: second.taskId, status: { state: 'canceled' } } });
    expect((await list(first.a2a, { status: 'TASK_STATE_CANCELED' })).result.totalSize).toBe(2);
  });

  it('answers TaskNotCancelableError for a completed task, one being settled, and one whose payment settled but waits for its answer', async () => {
    const deps = fakeDeps();
    const done = await openTask(deps, { headers: OWNER });
    expect(body(await done.a2a(send(done.taskId, done.payload))).result.status.state).toBe('completed');
    expect(body(await done.a2a(rpc('CancelTask', { id: done.taskId }, OWNER))).error).toMatchObject({ code: A2A_ERROR_CODES.task_not_cancelable, message: expect.stringContaining('has ended (completed)') });

    // Being settled: the model has not answered yet.
    const held = await openTask(deps, { headers: OWNER, question: `Held: ${LONG}`, a2a: done.a2a });
    const release: Array<() => void> = [];
    const inner = deps.model;
    (deps as any).model = {
      name: 'docs',
      async answer(request: ModelRequest): Promise<ModelAnswer> {
        await new Promise<void>((resolve) => release.push(resolve));
        return inner.answer(request);
      },
    };
    const paying = held.a2a(send(held.taskId, held.payload));
    while (release.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(body(await held.a2a(rpc('CancelTask', { id: held.taskId }, OWNER))).error).toMatchObject({ code: A2A_ERROR_CODES.task_not_cancelable, message: expect.stringContaining('being settled') });
    release[0]!();
    expect(body(await paying).result.status.state).toBe('completed');

    // Paid, its answer lost: canceling would throw a paid turn away.
    (deps as any).model = inner;
    const paid = await openTask(deps, { headers: OWNER, question: `Paid: ${LONG}`, a2a: done.a2a });
    deps.model.failure = 'unavailable';
    expect(body(await paid.a2a(send(paid.taskId, paid.payload))).error.data.code).toBe('model_provider_unavailable');
    expect(body(await paid.a2a(rpc('CancelTask', { id: paid.taskId }, OWNER))).error).toMatchObject({ code: A2A_ERROR_CODES.task_not_cancelable, message: expect.stringContaining('was paid') });
    deps.model.failure = undefined;
    expect(body(await paid.a2a(send(paid.taskId, paid.payload))).result.status.state).toBe('completed');
  });

  it('an unknown task is TaskNotFoundError, a missing id names the field', async () => {
    const a2a = createA2aHandler(fakeDeps());
    expect(body(await a2a(rpc('CancelTask', { id: crypto.randomUUID() }, OWNER))).error.code).toBe(A2A_ERROR_CODES.task_not_found);
    expect(body(await a2a(rpc('CancelTask', {}, OWNER))).error).toMatchObject({ code: A2A_ERROR_CODES.invalid_params, data: [{ path: '/params/id' }] });
  });
});

describe('operations the agent card declares unsupported', () => {
  it('answers each with the error A2A requires, never method not found; an unknown name is method not found', async () => {
    const a2a = createA2aHandler(fakeDeps());
    const expected = { unsupported_operation: -32004, push_notification_not_supported: -32003 };
    for (const [method, error] of Object.entries(A2A_UNSUPPORTED_METHODS)) {
      const answer = body(await a2a(rpc(method, { id: crypto.randomUUID() }, ACTIVATED)));
      expect(a2aResponseSchema.parse(answer), method).toMatchObject({ id: 7, error: { code: expected[error], message: expect.stringContaining(method) } });
    }
    for (const method of ['SendStreamingMessage', 'message/stream', 'SubscribeToTask', 'tasks/resubscribe', 'GetExtendedAgentCard', 'agent/getAuthenticatedExtendedCard']) {
      expect(body(await a2a(rpc(method, {}))).error.code, method).toBe(-32004);
    }
    for (const method of ['CreateTaskPushNotificationConfig', 'GetTaskPushNotificationConfig', 'ListTaskPushNotificationConfigs', 'DeleteTaskPushNotificationConfig', 'tasks/pushNotificationConfig/set']) {
      expect(body(await a2a(rpc(method, {}))).error.code, method).toBe(-32003);
    }
    // 0.3 has no tasks/list over JSON-RPC; names nobody defines are unknown.
    for (const method of ['tasks/list', 'ListTask', 'sendMessage', 'constructor', '__proto__']) {
      expect(body(await a2a(rpc(method, {}))).error, method).toMatchObject({ code: A2A_ERROR_CODES.method_not_found, message: expect.stringContaining('ListTasks') });
    }
  });
});
