/**
 * The A2A agent card claims only what is served: @a2a-js/sdk's card resolver reads it, its client
 * factory picks the JSON-RPC transport it names, and a message through that client gets the
 * assistant's free-tier answer from the built server, as an A2A 1.0 client (`SendMessage`) and as a
 * 0.3 one (the SDK's legacy transport, `message/send`, finding the endpoint where 0.3 put it). The
 * raw endpoint takes `application/a2a+json` as well as JSON, answers the operations the card
 * declares unsupported with the errors A2A names for them, and the assistant's refusals as errors
 * carrying its problem.
 */
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
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
  it('serves a card in A2A 1.0\'s shape whose JSON-RPC endpoint is this site\'s /a2a, with the owner credential as an optional bearer scheme', async () => {
    const card = agentCardSchema.parse(await (await fetch(`${server.url}/.well-known/agent-card.json`)).json());
    expect(card.supportedInterfaces[0]).toMatchObject({ protocolBinding: 'JSONRPC', protocolVersion: '1.0', url: routeUrl('a2a') });
    expect(card.capabilities).toMatchObject({ streaming: false, pushNotifications: false, extendedAgentCard: false });
    expect(card.securitySchemes.a2aTaskOwner.httpAuthSecurityScheme.scheme).toBe('Bearer');
    // What a 0.3 client reads to find the same endpoint.
    expect(card).toMatchObject({ protocolVersion: '0.3', preferredTransport: 'JSONRPC', url: routeUrl('a2a') });
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

  it('an A2A 0.3 client (the SDK\'s legacy transport, finding the endpoint in url, preferredTransport and protocolVersion) gets the same answer over message/send', async () => {
    const raw = (await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
    // A 0.3 client knows nothing of supportedInterfaces.
    const { supportedInterfaces: _newer, ...legacy } = raw;
    const resolver = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } });
    const card = resolver.normalizeAgentCard({ ...legacy, url: onServer(String(legacy.url)) });
    expect(card.supportedInterfaces).toEqual([expect.objectContaining({ protocolBinding: 'JSONRPC', protocolVersion: '0.3' })]);
    const sent: string[] = [];
    const fetchImpl: typeof fetch = async (input, init) => {
      sent.push(String(JSON.parse(String(init?.body)).method));
      return fetch(input, init);
    };
    const legacyFactory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true }, fetchImpl })] }));
    const client = await legacyFactory.createFromAgentCard(card);
    const result = (await client.sendMessage({
      message: { messageId: 'test-2', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: 'What is a receipt?' } }] },
    } as never)) as { role: Role; parts: Array<{ content?: { $case: string; value: unknown } }> };
    expect(result.role).toBe(Role.ROLE_AGENT);
    expect(result.parts[1]?.content).toMatchObject({ $case: 'data', value: { tier: 'free' } });
    expect(sent).toEqual(['message/send']);
  });

  it('takes a body sent as application/a2a+json and answers it as JSON-RPC over application/json; a body of another type is 415', async () => {
    const request = { jsonrpc: '2.0', id: 'a2a-json', method: 'SendMessage', params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'What is a receipt?' }] } } };
    for (const contentType of ['application/a2a+json', 'application/a2a+json; charset=utf-8']) {
      const response = await fetch(`${server.url}/a2a`, { method: 'POST', headers: { 'content-type': contentType, 'a2a-version': '1.0' }, body: JSON.stringify(request) });
      expect(response.status, contentType).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(a2aResponseSchema.parse(await response.json())).toMatchObject({ id: 'a2a-json', result: { message: { role: 'ROLE_AGENT' } } });
    }
    const plain = await fetch(`${server.url}/a2a`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(request) });
    expect(plain.status).toBe(415);
  });

  it('lets a page of another origin send the owner credential and the A2A service parameters (CORS preflight)', async () => {
    const preflight = await fetch(`${server.url}/a2a`, {
      method: 'OPTIONS',
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, a2a-version, a2a-extensions, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = preflight.headers.get('access-control-allow-headers')!.split(',').map((name) => name.trim());
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'a2a-version', 'a2a-extensions', 'x-a2a-extensions', 'content-type']));
  });

  it('the SDK reads the card\'s capabilities: its streaming send falls back to one message, and a resubscription is refused as UnsupportedOperationError', async () => {
    const resolved = await new DefaultAgentCardResolver().resolve(server.url);
    const client = await new ClientFactory().createFromAgentCard({ ...resolved, supportedInterfaces: resolved.supportedInterfaces.map((entry) => ({ ...entry, url: onServer(entry.url) })) });
    const events = [];
    for await (const event of client.sendMessageStream({ message: { messageId: 'test-3', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: 'What is a Note?' } }] } } as never)) events.push(event);
    expect(events).toHaveLength(1);
    const resubscribe = async () => {
      for await (const _event of client.resubscribeTask({ id: crypto.randomUUID() } as never)) break;
    };
    await expect(resubscribe()).rejects.toMatchObject({ name: 'UnsupportedOperationError' });
  });

  it('answers JSON-RPC errors for what it does not serve, each with its code', async () => {
    const message = { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hello' }] };
    expect(await rpc({ jsonrpc: '2.0', id: 7, method: 'SendStreamingMessage', params: { message } })).toMatchObject({ id: 7, error: { code: A2A_ERROR_CODES.unsupported_operation } });
    expect(await rpc({ jsonrpc: '2.0', id: 10, method: 'tasks/pushNotificationConfig/set', params: { taskId: 'x' } })).toMatchObject({ id: 10, error: { code: A2A_ERROR_CODES.push_notification_not_supported } });
    expect(await rpc({ jsonrpc: '2.0', id: 11, method: 'GetExtendedAgentCard' })).toMatchObject({ id: 11, error: { code: A2A_ERROR_CODES.unsupported_operation } });
    expect(await rpc({ jsonrpc: '2.0', id: 12, method: 'tasks/list', params: {} })).toMatchObject({ id: 12, error: { code: A2A_ERROR_CODES.method_not_found } });
    expect(await rpc({ jsonrpc: '2.0', id: 13, method: 'ListTasks', params: {} })).toMatchObject({ id: 13, error: { code: A2A_ERROR_CODES.assistant_refused, data: { status: 401, code: 'authorization_required' } } });
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
