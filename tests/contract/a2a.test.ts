/**
 * The A2A agent card claims only what is served: @a2a-js/sdk's card resolver reads it, its client
 * factory picks the JSON-RPC transport it names, and `message/send` through that client gets the
 * assistant's free-tier answer from the built server. The raw endpoint answers JSON-RPC errors for
 * what it does not serve, and the assistant's refusals as errors carrying its problem.
 */
import { ClientFactory, DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { Role } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aResponseSchema, A2A_ERROR_CODES } from '../../schemas/a2a.ts';
import { agentCardSchema } from '../../schemas/agent-card.ts';
import { routeUrl } from '../../src/catalogue/lookup.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => server?.stop());

/** The card names the canonical host; the test reaches the same paths on the loopback server. */
const onServer = (url: string) => `${server.url}${new URL(url).pathname}`;

async function rpc(body: unknown) {
  const response = await fetch(`${server.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return a2aResponseSchema.parse(await response.json());
}

describe('A2A', () => {
  it('serves a card whose JSON-RPC endpoint is this site\'s /a2a', async () => {
    const card = agentCardSchema.parse(await (await fetch(`${server.url}/.well-known/agent-card.json`)).json());
    expect(card).toMatchObject({ preferredTransport: 'JSONRPC', url: routeUrl('a2a') });
  });

  it('the SDK resolves the card as A2A 1.0, picks its JSON-RPC interface and gets a free-tier answer to SendMessage', async () => {
    const resolved = await new DefaultAgentCardResolver().resolve(server.url);
    expect(resolved.supportedInterfaces[0]).toMatchObject({ protocolBinding: 'JSONRPC', protocolVersion: '1.0', url: routeUrl('a2a') });
    const local = { ...resolved, supportedInterfaces: resolved.supportedInterfaces.map((entry) => ({ ...entry, url: onServer(entry.url) })) };
    const client = await new ClientFactory().createFromAgentCard(local);
    const result = (await client.sendMessage({
      message: { messageId: 'test-1', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: 'Which registers must a Note carry?' } }] },
    } as never)) as { role: Role; parts: Array<{ content?: { $case: string; value: unknown } }> };
    expect(result.role).toBe(Role.ROLE_AGENT);
    const [text, data] = result.parts;
    expect(text?.content?.$case).toBe('text');
    expect(String(text?.content?.value).length).toBeGreaterThan(0);
    expect(data?.content).toMatchObject({ $case: 'data', value: { tier: 'free', receiptId: null } });
  });

  it('an A2A 0.3 client (the SDK in legacy mode, reading url and preferredTransport) gets the same answer over message/send', async () => {
    const raw = (await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
    const { supportedInterfaces: _newer, ...legacy } = raw;
    const resolver = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } });
    const card = resolver.normalizeAgentCard({ ...legacy, url: onServer(String(legacy.url)) });
    expect(card.supportedInterfaces[0]).toMatchObject({ protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' });
    const client = await new ClientFactory().createFromAgentCard(card);
    const result = (await client.sendMessage({
      message: { messageId: 'test-2', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: 'What is a receipt?' } }] },
    } as never)) as { role: Role; parts: Array<{ content?: { $case: string; value: unknown } }> };
    expect(result.role).toBe(Role.ROLE_AGENT);
    expect(result.parts[1]?.content).toMatchObject({ $case: 'data', value: { tier: 'free' } });
  });

  it('answers JSON-RPC errors for what it does not serve, each with its code', async () => {
    const message = { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hello' }] };
    expect(await rpc({ jsonrpc: '2.0', id: 7, method: 'CancelTask', params: { id: 'x' } })).toMatchObject({ id: 7, error: { code: A2A_ERROR_CODES.method_not_found } });
    expect(await rpc({ jsonrpc: '2.0', id: 6, method: 'GetTask', params: { id: 'no-such-task' } })).toMatchObject({ id: 6, error: { code: A2A_ERROR_CODES.task_not_found } });
    expect(await rpc({ jsonrpc: '2.0', id: 5, method: 'tasks/get', params: {} })).toMatchObject({ id: 5, error: { code: A2A_ERROR_CODES.invalid_params } });
    expect(await rpc({ jsonrpc: '1.0', id: 8, method: 'SendMessage' })).toMatchObject({ id: 8, error: { code: A2A_ERROR_CODES.invalid_request } });
    expect(await rpc({ jsonrpc: '2.0', id: 9, method: 'SendMessage' })).toMatchObject({ id: 9, error: { code: A2A_ERROR_CODES.invalid_params } });
    const file = { ...message, parts: [{ url: 'https://example.org/a.txt' }] };
    expect(await rpc({ jsonrpc: '2.0', id: 'f', method: 'SendMessage', params: { message: file } })).toMatchObject({ id: 'f', error: { code: A2A_ERROR_CODES.content_type_not_supported } });
    const legacyFile = { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'file', file: { uri: 'https://example.org/a.txt' } }] };
    expect(await rpc({ jsonrpc: '2.0', id: 'g', method: 'message/send', params: { message: legacyFile } })).toMatchObject({ id: 'g', error: { code: A2A_ERROR_CODES.content_type_not_supported } });
    // Without the a2a-x402 extension activated, a question beyond the free tier is an error carrying the assistant's 402 problem and where to get a quote.
    const long = { ...message, parts: [{ text: 'Explain every register of a Note in detail. '.repeat(40) }] };
    expect(await rpc({ jsonrpc: '2.0', id: 'l', method: 'SendMessage', params: { message: long } })).toMatchObject({
      id: 'l',
      error: { code: A2A_ERROR_CODES.assistant_refused, data: { status: 402, code: 'payment_required', quote_url: routeUrl('assistant-quote') } },
    });
  });
});
