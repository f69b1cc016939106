/**
 * Only a task's creator ends it by its own choice (issue 55): a stranger who learnt a task id (it is
 * in every answer the creator shares, logs, proxies) sends a rejection, a payment of another scheme,
 * requirements other than the offer, or another task's Note, and the task still waits; the owner's
 * right payment then completes it. CancelTask and ListTasks act for the bearer credential the task
 * was created with and nobody else. Each attack failed before the change (f88e96e): the stranger's
 * message failed the task, and CancelTask and ListTasks were unknown methods. The other tests hold
 * what must keep working: an expired quote, the owner's own rejection, the free tier.
 */
import { describe, expect, it } from 'vitest';
import { A2A_ERROR_CODES } from '../../schemas/a2a.ts';
import { ACTIVATED, ask, bearer, body, openTask, payloadOf, rpc, send } from '../helpers/a2a-fakes.ts';
import { fakeDeps } from '../helpers/fakes.ts';

const OWNER = bearer('owner-secret-0123456789abcdefghijklmnop');
const STRANGER = bearer('stranger-secret-0123456789abcdefghijklmno');
const REJECTED = { 'x402.payment.status': 'payment-rejected' };

const refusal = (answer: any) => answer.error?.data?.code;

describe('a stranger who learnt a task id cannot end the task', () => {
  it('a stranger\'s rejection is refused and the task still waits; the owner\'s payment then completes it', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, payload } = await openTask(deps, { headers: OWNER });
    const rejected = body(await a2a(send(taskId, REJECTED, STRANGER)));
    expect(rejected.error).toMatchObject({ code: A2A_ERROR_CODES.assistant_refused, data: { status: 403, code: 'not_task_owner' } });
    // Without any credential: the owner's is what is asked for.
    expect(refusal(body(await a2a(send(taskId, REJECTED, ACTIVATED))))).toBe('authorization_required');
    expect(body(await a2a(rpc('tasks/get', { id: taskId }))).result.status.state).toBe('input-required');
    expect(body(await a2a(send(taskId, payload))).result.status.state).toBe('completed');
  });

  it('a payment of another scheme or network leaves the task waiting, naming why; the owner\'s payment then completes it', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, requirements, payload } = await openTask(deps, { headers: OWNER });
    const foreign = body(await a2a(send(taskId, payloadOf({ ...requirements, network: 'ergo:mainnet' }, 'ab'.repeat(32)), STRANGER))).result;
    expect(foreign.status).toMatchObject({ state: 'input-required', message: { metadata: { 'x402.payment.status': 'payment-required', 'x402.payment.error': 'unsupported_scheme' } } });
    expect(foreign.status.message.metadata['x402.payment.required']).toBeDefined();
    expect(foreign.status.message.parts[0].text).toMatch(/^A payment sent on this task was refused \(unsupported_scheme\).*still waits/);
    expect(body(await a2a(send(taskId, payload, OWNER))).result.status.state).toBe('completed');
  });

  it('requirements other than the task\'s offer leave it waiting, naming the fields; the right payment then completes it', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, requirements, payload } = await openTask(deps, { headers: OWNER });
    const cheaper = body(await a2a(send(taskId, payloadOf({ ...requirements, amount: '1' }, 'ab'.repeat(32)), STRANGER))).result;
    expect(cheaper.status).toMatchObject({ state: 'input-required', message: { metadata: { 'x402.payment.error': 'requirements_mismatch' } } });
    expect(cheaper.status.message.parts[0].text).toContain('x402.payment.payload.accepted.amount');
    // Whoever pays it, the right payment completes it: paying someone's task only answers it for them.
    expect(body(await a2a(send(taskId, payload, STRANGER))).result.status.state).toBe('completed');
  });

  it('another task\'s Note (a Note that fails verify-payment\'s rules here) leaves the task waiting; its own Note then completes it', async () => {
    const deps = fakeDeps();
    const mine = await openTask(deps, { headers: OWNER });
    const theirs = await openTask(deps, { question: `${mine.requirements.extra.quoteId}: what does R6 bind? `.repeat(8), a2a: mine.a2a });
    const foreignNote = body(await mine.a2a(send(mine.taskId, payloadOf(mine.requirements, theirs.noteBoxId), STRANGER))).result;
    expect(foreignNote.status).toMatchObject({ state: 'input-required', message: { metadata: { 'x402.payment.error': 'task_hash_mismatch' } } });
    expect(deps.store.usedNotes.size).toBe(0);
    expect(body(await mine.a2a(send(mine.taskId, mine.payload))).result.status.state).toBe('completed');
    // The foreign Note still pays its own task.
    expect(body(await mine.a2a(send(theirs.taskId, theirs.payload))).result.status.state).toBe('completed');
  });

  it('a quote that expired still ends its task: nothing can pay it any more', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, payload } = await openTask(deps, { headers: OWNER });
    deps.fakeClock.advance(16 * 60_000);
    const ended = body(await a2a(send(taskId, payload, STRANGER))).result;
    expect(ended.status).toMatchObject({ state: 'failed', message: { metadata: { 'x402.payment.error': 'quote_expired' } } });
  });

  it('the owner\'s own rejection ends the task', async () => {
    const deps = fakeDeps();
    const { a2a, taskId } = await openTask(deps, { headers: OWNER });
    expect(body(await a2a(send(taskId, REJECTED, OWNER))).result.status).toMatchObject({ state: 'failed', message: { metadata: { 'x402.payment.status': 'payment-rejected' } } });
  });

  it('a task created without a credential is nobody\'s: no rejection or cancel ends it, its payment does', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, payload } = await openTask(deps);
    expect(deps.store.a2aTasks.get(taskId)?.ownerHash).toBeUndefined();
    expect(refusal(body(await a2a(send(taskId, REJECTED, OWNER))))).toBe('not_task_owner');
    expect(refusal(body(await a2a(rpc('CancelTask', { id: taskId }, OWNER))))).toBe('not_task_owner');
    expect(body(await a2a(rpc('ListTasks', {}, OWNER))).result.tasks).toEqual([]);
    expect(body(await a2a(send(taskId, payload))).result.status.state).toBe('completed');
  });
});

describe('CancelTask acts for the task\'s owner only', () => {
  it('refuses a stranger and a caller without credential; the owner cancels, and the canceled task takes no more messages', async () => {
    const deps = fakeDeps();
    const { a2a, taskId, payload } = await openTask(deps, { headers: OWNER });
    expect(body(await a2a(rpc('CancelTask', { id: taskId }, STRANGER))).error).toMatchObject({ code: A2A_ERROR_CODES.assistant_refused, data: { status: 403, code: 'not_task_owner' } });
    expect(body(await a2a(rpc('tasks/cancel', { id: taskId }, ACTIVATED))).error).toMatchObject({ code: A2A_ERROR_CODES.assistant_refused, data: { status: 401, code: 'authorization_required' } });
    expect(body(await a2a(rpc('GetTask', { id: taskId }))).result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

    const canceled = body(await a2a(rpc('CancelTask', { id: taskId }, OWNER))).result;
    expect(canceled).toMatchObject({ id: taskId, status: { state: 'TASK_STATE_CANCELED', message: { role: 'ROLE_AGENT', parts: [{ text: expect.stringMatching(/^Canceled by the client that created this task/) }] } } });
    expect(body(await a2a(rpc('tasks/get', { id: taskId }))).result.status.state).toBe('canceled');
    expect(body(await a2a(send(taskId, payload, OWNER))).error.code).toBe(A2A_ERROR_CODES.unsupported_operation);
    expect(deps.store.usedNotes.size).toBe(0);
    // Canceling again: the task has ended (A2A's TaskNotCancelableError), for the owner; still nobody else's business.
    expect(body(await a2a(rpc('tasks/cancel', { id: taskId }, OWNER))).error).toMatchObject({ code: A2A_ERROR_CODES.task_not_cancelable, message: expect.stringContaining('has ended (canceled)') });
    expect(refusal(body(await a2a(rpc('CancelTask', { id: taskId }, STRANGER))))).toBe('not_task_owner');
  });
});

describe('ListTasks shows a caller its own tasks and nobody else\'s', () => {
  it('the owner lists its task; a stranger\'s list, filtered or not, never shows it; no credential is refused', async () => {
    const deps = fakeDeps();
    const a2a = (await openTask(deps, { headers: OWNER })).a2a;
    const { taskId } = await openTask(deps, { headers: OWNER, question: `Which registers does a Note carry, and why R6? `.repeat(8), a2a });
    const mine = body(await a2a(rpc('ListTasks', {}, OWNER))).result;
    expect(mine.tasks.map((task: { id: string }) => task.id)).toContain(taskId);
    expect(mine).toMatchObject({ totalSize: 2, pageSize: 50, nextPageToken: '' });
    const opened = body(await a2a(rpc('GetTask', { id: taskId }))).result;
    for (const params of [{}, { contextId: opened.contextId }, { status: 'TASK_STATE_INPUT_REQUIRED' }, { pageSize: 100 }]) {
      expect(body(await a2a(rpc('ListTasks', params, STRANGER))).result, JSON.stringify(params)).toEqual({ tasks: [], nextPageToken: '', pageSize: params.pageSize ?? 50, totalSize: 0 });
    }
    // The owner's page token does not open the owner's list to a stranger.
    const page = body(await a2a(rpc('ListTasks', { pageSize: 1 }, OWNER))).result;
    expect(page.nextPageToken).not.toBe('');
    expect(body(await a2a(rpc('ListTasks', { pageToken: page.nextPageToken }, STRANGER))).result.tasks).toEqual([]);
    expect(body(await a2a(rpc('ListTasks', {}, ACTIVATED))).error).toMatchObject({ code: A2A_ERROR_CODES.assistant_refused, data: { status: 401, code: 'authorization_required' } });
  });
});

describe('the owner credential', () => {
  it('a malformed Authorization header is refused before anything is read: no quote, no task, no free turn', async () => {
    const deps = fakeDeps();
    const { a2a } = await openTask(deps);
    const quotes = deps.store.quotes.size;
    for (const authorization of ['Bearer short', 'Basic dXNlcjpwYXNzd29yZA==', `Bearer ${'x'.repeat(31)}`, `Bearer ${'é'.repeat(40)}`, 'Bearer', `Bearer ${'x'.repeat(1025)}`]) {
      const refused = body(await a2a(ask('What is a Note?', { ...ACTIVATED, authorization })));
      expect(refused.error, authorization).toMatchObject({ code: A2A_ERROR_CODES.assistant_refused, data: { status: 401, code: 'invalid_authorization', errors: [{ path: '/headers/authorization' }] } });
    }
    expect(body(await a2a(ask('Explain every register of a Note in detail. '.repeat(40), { ...ACTIVATED, authorization: 'Bearer short' }))).error.data.code).toBe('invalid_authorization');
    expect(deps.store.quotes.size).toBe(quotes);
    expect(deps.store.a2aTasks.size).toBe(1);
  });

  it('the store keeps only a hash of the credential, never the secret', async () => {
    const deps = fakeDeps();
    const secret = 'owner-secret-0123456789abcdefghijklmnop';
    const { taskId } = await openTask(deps, { headers: bearer(secret) });
    const stored = deps.store.a2aTasks.get(taskId)!;
    expect(stored.ownerHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('a free-tier question with a credential is answered as before: no task to own', async () => {
    const deps = fakeDeps();
    const { a2a } = await openTask(deps);
    expect(body(await a2a(ask('What is a Note?', OWNER))).result.kind).toBe('message');
  });
});

describe('the owner credential, read and compared (src/domain/assistant/a2a-task-owner.ts)', () => {
  const secret = 'a'.repeat(32);

  it('reads a Bearer credential whatever the scheme\'s case and spacing, and the secret exactly', async () => {
    const { ownerCredentialOf, hashOwnerCredential } = await import('../../src/domain/assistant/a2a-task-owner.ts');
    expect(ownerCredentialOf(undefined)).toEqual({ kind: 'none' });
    for (const header of [`Bearer ${secret}`, `bearer ${secret}`, `BEARER   ${secret}`, `  Bearer ${secret}  `]) {
      expect(ownerCredentialOf(header), header).toEqual({ kind: 'owner', ownerHash: hashOwnerCredential(secret) });
    }
    expect(ownerCredentialOf(`Bearer ${secret.toUpperCase()}`)).not.toEqual(ownerCredentialOf(`Bearer ${secret}`));
  });

  it('refuses anything else, saying why', async () => {
    const { ownerCredentialOf } = await import('../../src/domain/assistant/a2a-task-owner.ts');
    const why = (header: string) => {
      const read = ownerCredentialOf(header);
      return read.kind === 'invalid' ? read.message : read.kind;
    };
    expect(why(`Basic ${secret}`)).toMatch(/this one is not a Bearer credential$/);
    expect(why(`Bearer${secret}`)).toMatch(/this one is not a Bearer credential$/);
    expect(why(`Bearer ${secret} more`)).toMatch(/this one is not a Bearer credential$/);
    expect(why(`x Bearer ${secret}`)).toMatch(/this one is not a Bearer credential$/);
    expect(why('Bearer short')).toMatch(/; its secret has 5 characters$/);
    expect(why(`Bearer ${'a'.repeat(31)}`)).toMatch(/; its secret has 31 characters$/);
    expect(why(`Bearer ${'a'.repeat(1025)}`)).toMatch(/; its secret is longer than 1024 characters$/);
    expect(why(`Bearer ${'a'.repeat(40)}!`)).toMatch(/; its secret holds a character outside that set$/);
    expect(why(`Bearer ${'a'.repeat(1024)}`)).toBe('owner');
  });

  it('owns a task only with the same hash: never without one, never another of any length', async () => {
    const { hashOwnerCredential, isTaskOwner } = await import('../../src/domain/assistant/a2a-task-owner.ts');
    const owner = hashOwnerCredential(secret);
    expect(isTaskOwner(owner, owner)).toBe(true);
    expect(isTaskOwner(owner, hashOwnerCredential(`${secret}b`))).toBe(false);
    expect(isTaskOwner(undefined, owner)).toBe(false);
    expect(isTaskOwner(owner, undefined)).toBe(false);
    expect(isTaskOwner(undefined, undefined)).toBe(false);
    expect(isTaskOwner('', '')).toBe(false);
    expect(isTaskOwner(owner, owner.slice(0, 32))).toBe(false);
    expect(isTaskOwner(owner.slice(0, 32), owner)).toBe(false);
  });
});
