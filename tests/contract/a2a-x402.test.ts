/**
 * a2a-x402 v0.2 (standalone flow) on POST /a2a, against the built server and the sandbox chain:
 * @a2a-js/sdk's client resolves the card, activates the extension, gets a task waiting for payment,
 * pays the Note its offer asks for, sends the payload on the task and gets the completed task with
 * the answer and its receipt, which `agent-economy verify-receipt` verifies. The same client, as
 * A2A 1.0 and as 0.3 (its legacy transport), owns the task it created with a bearer credential:
 * it lists it (1.0) and cancels it, and a stranger does neither. A2A 0.3 over raw JSON-RPC: the
 * hostile inputs (unknown and ended tasks, malformed, foreign and oversized payloads, a Note of
 * another task, each leaving the task waiting), a Note not yet confirmed, races of one Note on one
 * task and on two, and a task continued by another instance on the same store.
 */
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, ServiceParameters, withA2AExtensions } from '@a2a-js/sdk/client';
import { ListTasksRequest, Role } from '@a2a-js/sdk';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { A2A_ERROR_CODES, A2A_X402_EXTENSION, a2aResponseSchema } from '../../schemas/a2a.ts';
import { agentCardSchema } from '../../schemas/agent-card.ts';
import { x402PaymentRequiredSchema, type X402Requirements } from '../../schemas/x402.ts';
import { a2aPaymentMetadata, sandboxWallet } from '../../packages/x402-ergo/index.js';
import { payQuote } from '../../src/sandbox/pay.ts';
import { DIST_DIR, ROOT, startBuiltServer } from '../helpers/built-server.ts';
import { sandboxServerEnv, type Stack, startStack, uniquePremiumQuestion } from '../helpers/paid-turn.ts';
import { verifiedOffers, verifiedReceipt } from '../helpers/offer-receipt.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_QUOTE_PER_MINUTE: '1000', RATE_LIMIT_CHAT_PER_MINUTE: '1000', RATE_LIMIT_VERIFY_PER_MINUTE: '1000' } });
});
afterAll(() => stack?.stop());

const onServer = (url: string) => `${stack.server.url}${new URL(url).pathname}`;

type Rpc = { result?: any; error?: { code: number; message: string; data?: any } };

/** One A2A JSON-RPC call; with `activate`, the a2a-x402 extension named in 0.3's header; with `authorization`, an owner credential. */
async function rpc(method: string, params: unknown, activate = true, authorization?: string): Promise<Rpc & { headers: Headers }> {
  const response = await fetch(`${stack.server.url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(activate ? { 'x-a2a-extensions': A2A_X402_EXTENSION } : {}), ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(response.status).toBe(200);
  const body = await response.json();
  // Every answer is one the OpenAPI document describes.
  a2aResponseSchema.parse(body);
  return { ...body, headers: response.headers };
}

const ask = (text: string, activate = true, authorization?: string) =>
  rpc('message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } }, activate, authorization);
const send = (taskId: string, metadata: Record<string, unknown>, authorization?: string) =>
  rpc('message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', taskId, parts: [{ kind: 'text', text: 'Here is the payment.' }], metadata } }, true, authorization);

const OWNER = 'Bearer owner-secret-0123456789abcdefghijklmnop';
const STRANGER = 'Bearer stranger-secret-0123456789abcdefghijklmno';
const getTask = async (id: string) => (await rpc('tasks/get', { id })).result;

/** A premium question as an A2A 0.3 task waiting for payment, with the requirements it offers; owned by `authorization` when given. */
async function openTask(text = uniquePremiumQuestion(), authorization?: string): Promise<{ task: any; requirements: X402Requirements }> {
  const { result } = await ask(text, true, authorization);
  expect(result).toMatchObject({ kind: 'task', status: { state: 'input-required', message: { metadata: { 'x402.payment.status': 'payment-required' } } } });
  const offer = x402PaymentRequiredSchema.parse(result.status.message.metadata['x402.payment.required']);
  return { task: result, requirements: offer.accepts[0]! };
}

/** Mints, on the sandbox, the Note `requirements` ask for; `confirmations` 0 leaves it unconfirmed. */
async function payNote(requirements: X402Requirements): Promise<string> {
  const payment = await payQuote({ tier: 'premium', priceNanoErg: requirements.amount, receiverAddress: requirements.payTo, ...requirements.extra }, { sandboxUrl: stack.sandbox.url });
  return payment.noteBoxId;
}

const payloadOf = (requirements: unknown, noteBoxId: string) => ({
  'x402.payment.status': 'payment-submitted',
  'x402.payment.payload': { x402Version: 2, accepted: requirements, payload: { noteBoxId } },
});

const receiptsOf = (task: any) => task.status.message.metadata['x402.payment.receipts'] as Array<Record<string, any>>;

describe('a2a-x402 through @a2a-js/sdk (A2A 1.0)', () => {
  it('resolves the card, activates the extension, pays the task and gets the answer with a receipt that verifies', async () => {
    const resolved = await new DefaultAgentCardResolver().resolve(stack.server.url);
    const declared = agentCardSchema.parse(await (await fetch(`${stack.server.url}/.well-known/agent-card.json`)).json()).capabilities.extensions.find((entry) => entry.uri === A2A_X402_EXTENSION);
    expect(declared).toMatchObject({ required: false });
    const card = { ...resolved, supportedInterfaces: resolved.supportedInterfaces.map((entry) => ({ ...entry, url: onServer(entry.url) })) };
    const client = await new ClientFactory().createFromAgentCard(card);
    const options = { serviceParameters: ServiceParameters.create(withA2AExtensions(A2A_X402_EXTENSION)) };
    const text = uniquePremiumQuestion();

    const opened = (await client.sendMessage({ message: { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }] } } as never, options as never)) as any;
    expect(opened.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(opened.status.state).toBe(6); // TASK_STATE_INPUT_REQUIRED
    const metadata = opened.status.message.metadata;
    expect(metadata['x402.payment.status']).toBe('payment-required');
    const [requirements] = x402PaymentRequiredSchema.parse(metadata['x402.payment.required']).accepts;
    expect(requirements).toMatchObject({ scheme: 'exact', network: 'ergo:sandbox', asset: 'ERG' });
    // The same signed offer as the chat's 402, verified with the key of the site's did:web document.
    const [signedOffer] = await verifiedOffers(stack.server.url, x402PaymentRequiredSchema.parse(metadata['x402.payment.required']));
    expect(signedOffer!.payload).toMatchObject({ payTo: requirements!.payTo, amount: requirements!.amount, network: 'ergo:sandbox', quoteId: requirements!.extra.quoteId });
    // The offer is a stored quote, as the chat's PAYMENT-REQUIRED is.
    expect((await fetch(`${stack.server.url}/api/assistant/quote/${requirements!.extra.quoteId}`)).status).toBe(200);

    // The scheme package pays the Note the task asks for and writes the message's metadata.
    const payment = await a2aPaymentMetadata(metadata, { payNote: sandboxWallet(stack.sandbox.url) });
    const noteBoxId = payment['x402.payment.payload'].payload.noteBoxId as string;
    const done = (await client.sendMessage(
      {
        message: {
          messageId: crypto.randomUUID(),
          role: Role.ROLE_USER,
          taskId: opened.id,
          contextId: opened.contextId,
          parts: [{ content: { $case: 'text', value: 'Here is the payment.' } }],
          metadata: payment,
        },
      } as never,
      options as never,
    )) as any;
    expect(done.status.state).toBe(3); // TASK_STATE_COMPLETED
    expect(done.status.message.metadata['x402.payment.status']).toBe('payment-completed');
    const [receipt] = done.status.message.metadata['x402.payment.receipts'];
    expect(receipt).toMatchObject({ success: true, network: 'ergo:sandbox', extra: { receiptId: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    // The settlement carries the signed receipt: it names this receipt, its settlement and the quote paid.
    expect((await verifiedReceipt(stack.server.url, receipt)).payload).toMatchObject({ receiptId: receipt.extra.receiptId, transaction: receipt.transaction, quoteId: requirements!.extra.quoteId });
    const [answer] = done.artifacts;
    expect(answer.parts[1].content).toMatchObject({ $case: 'data', value: { tier: 'premium', receiptId: receipt.extra.receiptId } });

    // GetTask reads the same task from the store.
    const read = (await client.getTask({ id: opened.id } as never)) as any;
    expect(read.status.state).toBe(3);
    expect(read.status.message.metadata['x402.payment.receipts']).toEqual([receipt]);
    // The package pays only a task that asks for its scheme: never a completed one again.
    await expect(a2aPaymentMetadata(read.status.message.metadata, { payNote: sandboxWallet(stack.sandbox.url) })).rejects.toThrow(/asks for no exact payment on ergo:testnet or ergo:sandbox/);

    // The receipt is the service's own, settled by this Note, and verifies with the command line.
    const stored = await (await fetch(`${stack.server.url}/api/assistant/receipt/${receipt.extra.receiptId}`)).json();
    expect(stored).toMatchObject({ noteBoxId, settlementTxId: receipt.transaction });
    // With the signed receipt too, checked against the key the site's did:web document names.
    const signed = JSON.stringify(receipt.extensions['offer-receipt'].info.receipt);
    const run = await promisify(execFile)(process.execPath, [`${DIST_DIR}/cli/agent-economy.mjs`, 'verify-receipt', receipt.extra.receiptId, '--base', stack.server.url, '--explorer', stack.sandbox.url, '--signed-receipt', signed], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    expect(run.stdout).toMatch(/\bOK\b|verified/i);
    expect(run.stdout).toMatch(/PASS\s+signed_receipt .*names this receipt/);
  });
});

/** A client of the SDK for the card this server serves: A2A 1.0, or 0.3 through the SDK's legacy transport (the endpoint found where 0.3 put it). */
async function sdkClient(version: '1.0' | '0.3') {
  const raw = (await (await fetch(`${stack.server.url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
  if (version === '1.0') {
    const resolved = await new DefaultAgentCardResolver().resolve(stack.server.url);
    return new ClientFactory().createFromAgentCard({ ...resolved, supportedInterfaces: resolved.supportedInterfaces.map((entry) => ({ ...entry, url: onServer(entry.url) })) });
  }
  const { supportedInterfaces: _newer, ...legacy } = raw;
  const card = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }).normalizeAgentCard({ ...legacy, url: onServer(String(legacy.url)) });
  return new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })] })).createFromAgentCard(card);
}

/** The SDK's per-call options: the extension activated, and an owner credential when given. */
const callOptions = (authorization?: string) => ({ serviceParameters: { ...ServiceParameters.create(withA2AExtensions(A2A_X402_EXTENSION)), ...(authorization ? { Authorization: authorization } : {}) } }) as never;

describe('task ownership through @a2a-js/sdk, as A2A 1.0 and as 0.3', () => {
  it.each(['1.0', '0.3'] as const)('A2A %s: the task created with a bearer credential is listed (1.0) and canceled by it, and by no stranger', async (version) => {
    const client = await sdkClient(version);
    const message = { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: uniquePremiumQuestion() } }] };
    const opened = (await client.sendMessage({ message } as never, callOptions(OWNER))) as any;
    expect(opened.status.state).toBe(6); // TASK_STATE_INPUT_REQUIRED
    if (version === '1.0') {
      const mine = (await client.listTasks(ListTasksRequest.fromJSON({ pageSize: 100 }), callOptions(OWNER))) as any;
      expect(mine.tasks.map((task: { id: string }) => task.id)).toContain(opened.id);
      expect(mine.totalSize).toBeGreaterThanOrEqual(1);
      const theirs = (await client.listTasks(ListTasksRequest.fromJSON({ pageSize: 100 }), callOptions(STRANGER))) as any;
      expect(theirs.tasks.map((task: { id: string }) => task.id)).not.toContain(opened.id);
    } else {
      // 0.3 has no tasks/list over JSON-RPC: the SDK says so itself, without asking.
      await expect(client.listTasks(ListTasksRequest.fromJSON({}), callOptions(OWNER))).rejects.toThrow(/tasks\/list/);
    }
    await expect(client.cancelTask({ id: opened.id } as never, callOptions(STRANGER))).rejects.toThrow(/Only the client that created task/);
    await expect(client.cancelTask({ id: opened.id } as never, callOptions())).rejects.toThrow(/Authorization: Bearer/);
    const canceled = (await client.cancelTask({ id: opened.id } as never, callOptions(OWNER))) as any;
    expect(canceled).toMatchObject({ id: opened.id, status: { state: 5 } }); // TASK_STATE_CANCELED
    await expect(client.cancelTask({ id: opened.id } as never, callOptions(OWNER))).rejects.toMatchObject({ name: 'TaskNotCancelableError' });
    expect(((await client.getTask({ id: opened.id } as never)) as any).status.state).toBe(5);
  });
});

describe('a2a-x402 over A2A 0.3 JSON-RPC', () => {
  it('without the extension, a premium question keeps the payment_required error; with it, the answer names the extension', async () => {
    const text = uniquePremiumQuestion();
    const plain = await ask(text, false);
    expect(plain.error).toMatchObject({ code: A2A_ERROR_CODES.assistant_refused, data: { code: 'payment_required' } });
    const activated = await ask(text);
    expect(activated.result.kind).toBe('task');
    expect(activated.headers.get('x-a2a-extensions')).toBe(A2A_X402_EXTENSION);
  });

  it('refuses what does not continue a task waiting for payment, and leaves the task waiting', async () => {
    const { task, requirements } = await openTask();
    expect((await send(crypto.randomUUID(), payloadOf(requirements, 'ab'.repeat(32)))).error).toMatchObject({ code: A2A_ERROR_CODES.task_not_found });
    // No payload, a malformed one, a hostile size: invalid params naming the field.
    expect((await send(task.id, {})).error).toMatchObject({ code: A2A_ERROR_CODES.invalid_params, data: [{ path: '/params/message/metadata/x402.payment.payload' }] });
    const malformed = await send(task.id, { 'x402.payment.payload': { x402Version: 2, accepted: requirements, payload: { noteBoxId: 'not hex' } } });
    expect(malformed.error).toMatchObject({ code: A2A_ERROR_CODES.invalid_params, data: [{ path: expect.stringContaining('/payload/noteBoxId') }] });
    const huge = await send(task.id, { 'x402.payment.payload': { x402Version: 2, accepted: requirements, payload: { noteBoxId: 'ab'.repeat(32) }, padding: 'x'.repeat(20_000) } });
    expect(huge.error).toMatchObject({ code: A2A_ERROR_CODES.invalid_params });
    expect(await getTask(task.id)).toMatchObject({ status: { state: 'input-required' } });
  });

  it('a payload for another network leaves the task waiting with its code; a task its owner rejected takes no more messages', async () => {
    const { task, requirements } = await openTask(uniquePremiumQuestion(), OWNER);
    const refused = (await send(task.id, payloadOf({ ...requirements, network: 'ergo:mainnet' }, 'ab'.repeat(32)))).result;
    expect(refused).toMatchObject({ kind: 'task', id: task.id, status: { state: 'input-required', message: { metadata: { 'x402.payment.status': 'payment-required', 'x402.payment.error': 'unsupported_scheme' } } } });
    expect(refused.status.message.metadata['x402.payment.required']).toEqual(task.status.message.metadata['x402.payment.required']);
    // A stranger's rejection changes nothing; the owner's ends the task.
    expect((await send(task.id, { 'x402.payment.status': 'payment-rejected' }, STRANGER)).error).toMatchObject({ code: A2A_ERROR_CODES.assistant_refused, data: { code: 'not_task_owner' } });
    expect((await send(task.id, { 'x402.payment.status': 'payment-rejected' }, OWNER)).result.status).toMatchObject({ state: 'failed', message: { metadata: { 'x402.payment.status': 'payment-rejected' } } });
    expect((await send(task.id, payloadOf(requirements, 'ab'.repeat(32)))).error).toMatchObject({ code: A2A_ERROR_CODES.unsupported_operation });
  });

  it('requirements other than the task\'s offer leave it waiting, naming the fields, before any Note is read', async () => {
    const { task, requirements } = await openTask();
    const refused = (await send(task.id, payloadOf({ ...requirements, amount: String(BigInt(requirements.amount) / 100n) }, 'ab'.repeat(32)))).result;
    expect(refused.status.state).toBe('input-required');
    expect(refused.status.message.metadata['x402.payment.error']).toBe('requirements_mismatch');
    expect(refused.status.message.parts[0].text).toContain('x402.payment.payload.accepted.amount');
  });

  it('a Note paying another task leaves this one waiting; the Note still pays its own, and this task\'s own Note then pays it', async () => {
    const first = await openTask();
    const second = await openTask();
    const noteBoxId = await payNote(second.requirements);
    // The other task's Note, sent with this task's offer: the Note's task hash is not this quote's.
    const refused = (await send(first.task.id, payloadOf(first.requirements, noteBoxId))).result;
    expect(refused.status.state).toBe('input-required');
    expect(refused.status.message.metadata['x402.payment.error']).toBe('task_hash_mismatch');
    const paid = (await send(second.task.id, payloadOf(second.requirements, noteBoxId))).result;
    expect(paid.status.state).toBe('completed');
    const own = (await send(first.task.id, payloadOf(first.requirements, await payNote(first.requirements)))).result;
    expect(own.status.state).toBe('completed');
  });

  it('a Note not yet seen by the chain leaves the task waiting; the same payment then completes it', async () => {
    const { task, requirements } = await openTask();
    const unknownNote = 'cd'.repeat(32);
    const waiting = (await send(task.id, payloadOf(requirements, unknownNote))).result;
    expect(waiting).toMatchObject({ status: { state: 'input-required', message: { metadata: { 'x402.payment.status': 'payment-required', 'x402.payment.error': 'note_not_found' } } } });
    expect(waiting.status.message.metadata['x402.payment.required']).toBeDefined();
    const noteBoxId = await payNote(requirements);
    const done = (await send(task.id, payloadOf(requirements, noteBoxId))).result;
    expect(done.status.state).toBe('completed');
  });

  it('one Note sent on one task by racing requests answers once', async () => {
    const { task, requirements } = await openTask();
    const noteBoxId = await payNote(requirements);
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(task.id, payloadOf(requirements, noteBoxId))));
    const states = answers.map((answer) => answer.result?.status.state ?? `error ${answer.error?.code}`);
    expect(states.filter((state) => state === 'completed')).toHaveLength(1);
    // The others saw it held (working) or ended; none failed and none paid a second answer.
    for (const state of states) expect(['completed', 'working', `error ${A2A_ERROR_CODES.unsupported_operation}`]).toContain(state);
    const final = await getTask(task.id);
    expect(final.status.state).toBe('completed');
    expect(receiptsOf(final)).toHaveLength(1);
  });

  it('one Note sent on two tasks at once completes exactly one of them', async () => {
    const text = uniquePremiumQuestion();
    const first = await openTask(text);
    const second = await openTask(text);
    const noteBoxId = await payNote(first.requirements);
    // Each payload names its own task's offer; the Note can pay one of them, and is claimed once.
    const [a, b] = await Promise.all([send(first.task.id, payloadOf(first.requirements, noteBoxId)), send(second.task.id, payloadOf(second.requirements, noteBoxId))]);
    // The other task still waits for a Note of its own.
    expect([a.result.status.state, b.result.status.state].sort()).toEqual(['completed', 'input-required']);
    const settled = (await fetch(`${stack.server.url}/api/assistant/receipt/${receiptsOf(a.result.status.state === 'completed' ? a.result : b.result)[0]!.extra.receiptId}`)).status;
    expect(settled).toBe(200);
  });

  it('a task opened on one instance is paid on another sharing the store, and each reads it completed', async () => {
    const { task, requirements } = await openTask();
    const other = await startBuiltServer(sandboxServerEnv(stack.sandbox.url, stack.dataDir));
    try {
      const noteBoxId = await payNote(requirements);
      const response = await fetch(`${other.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-extensions': A2A_X402_EXTENSION },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'message/send', params: { message: { kind: 'message', messageId: 'm', role: 'user', taskId: task.id, parts: [{ kind: 'text', text: 'paid' }], metadata: payloadOf(requirements, noteBoxId) } } }),
      });
      expect(response.headers.get('a2a-extensions')).toBe(A2A_X402_EXTENSION);
      expect(((await response.json()) as Rpc).result.status.state).toBe('completed');
    } finally {
      await other.stop();
    }
    expect(await getTask(task.id)).toMatchObject({ status: { state: 'completed' }, artifacts: [{ name: 'answer' }] });
  });

  it('GetTask of an unknown task, and task ids of hostile length or content, answer JSON-RPC errors', async () => {
    expect((await rpc('tasks/get', { id: 'missing' })).error).toMatchObject({ code: A2A_ERROR_CODES.task_not_found });
    expect((await rpc('tasks/get', { id: 'x'.repeat(10_000) })).error).toMatchObject({ code: A2A_ERROR_CODES.invalid_params });
    expect((await send('x'.repeat(10_000), {})).error).toMatchObject({ code: A2A_ERROR_CODES.task_not_found });
    expect((await send('\u0000', {})).error).toMatchObject({ code: A2A_ERROR_CODES.task_not_found });
    // A conversation id the store could not keep (U+0000) is refused naming the field, before any quote.
    const nul = await rpc('message/send', { message: { kind: 'message', messageId: 'm', contextId: 'a\u0000b', role: 'user', parts: [{ kind: 'text', text: uniquePremiumQuestion() }] } });
    expect(nul.error).toMatchObject({ code: A2A_ERROR_CODES.invalid_params, data: [{ path: '/params/message/contextId' }] });
  });
});
