/**
 * The MCP host driven by the SDK's own Client over Streamable HTTP, against the build: the tools it
 * lists are the manifest the site serves, every tool answers a valid call with structured content
 * and an invalid one with a tool error naming the field (the session survives), and the host
 * enforces DNS rebinding protection, its bearer token, its session limits (global, with the oldest
 * idle session evicted, and per client address), its slow-client timeouts, its connection cap and
 * its JSON-RPC batch limit.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { economicMcpToolsSchema, type EconomicMcpTools } from '../../schemas/mcp-tools.ts';
import { site } from '../../src/config/site.ts';
import { openCheckpoint } from '../../src/domain/tlog/note.ts';
import { examplePolicyCheckRequest } from '../../src/domain/policy-examples.ts';
import { exampleAcceptanceIntent, exampleQuoteRequest } from '../../src/descriptors/jobs.ts';
import { exampleServiceManifest } from '../../src/descriptors/registry.ts';
import { createStore } from '../../src/services/store/index.ts';
import { ROOT } from '../helpers/built-server.ts';
import { startBuiltMcp, payForTurn, startStack, type McpProcess, type PaidTurn, type Stack } from '../helpers/paid-turn.ts';
import { hex32, makeQuote, makeReceipt } from '../helpers/store-fixtures.ts';

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'issue7-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

/** Waits until a signed checkpoint includes the receipt (one is signed within LOG_CHECKPOINT_INTERVAL_SECONDS). */
async function provedInLog(serverUrl: string, receiptId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await fetch(`${serverUrl}/api/assistant/receipt/${receiptId}/proof`)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`no checkpoint includes receipt ${receiptId} within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const textOf = (result: ToolResult): string => (result.content as Array<{ type: string; text: string }>).map((item) => item.text).join('\n');

describe('MCP host in the site process, against the built site', () => {
  let stack: Stack;
  let turn: PaidTurn;
  let client: Client;
  let manifest: EconomicMcpTools;

  beforeAll(async () => {
    stack = await startStack({ withMcp: true });
    turn = await payForTurn(stack);
    client = await connect(stack.mcpUrl!);
    manifest = economicMcpToolsSchema.parse(await (await fetch(`${stack.server.url}/api/agents/mcp-tools`)).json());
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  it('answers /health with ok, service and version', async () => {
    const response = await fetch(`${stack.mcpUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, service: 'agent-economy-mcp', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('describes itself at /openapi.json: its health check and its MCP endpoint, on its own server, lint-clean', async () => {
    const response = await fetch(`${stack.mcpUrl}/openapi.json`);
    expect(response.status).toBe(200);
    const source = await response.text();
    const description = JSON.parse(source) as { servers: Array<{ url: string }>; paths: Record<string, Record<string, unknown>> };
    expect(description.servers.map((server) => server.url)).toEqual([site.mcp_url]);
    expect(Object.keys(description.paths).toSorted()).toEqual(['/health', '/mcp']);
    // The limits the host runs (defaults here) are the ones it describes.
    const mcpResponses = (description.paths['/mcp']!.post as { responses: Record<string, { description: string }> }).responses;
    expect(mcpResponses['429']!.description).toContain('8 sessions');
    expect(mcpResponses['400']!.description).toContain('20 messages');
    const config = await createConfig(readFileSync(join(ROOT, 'redocly.yaml'), 'utf8'), { configPath: join(ROOT, 'redocly.yaml') });
    const problems = await lintFromString({ source, absoluteRef: 'mcp-openapi.json', config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`)).toEqual([]);
    // The site's own description no longer carries the MCP host's path.
    const siteDescription = (await (await fetch(`${stack.server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(siteDescription.paths['/health']).toBeUndefined();
  });

  it('lists exactly the tools of the manifest the built site serves, with the same schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(manifest.tools.map((tool) => tool.name));
    for (const tool of tools) {
      const published = manifest.tools.find((entry) => entry.name === tool.name)!;
      expect(tool.title, tool.name).toBe(published.title);
      expect(tool.description, tool.name).toBe(published.description);
      if (published.input_schema_url) {
        // A request body's schema is published at its URL (JSON Schema 2020-12 document): the same schema.
        const document = (await (await fetch(`${stack.server.url}${new URL(published.input_schema_url).pathname}`)).json()) as Record<string, unknown>;
        const { $schema: _published, $id: _id, title: _title, ...servedSchema } = document;
        const { $schema: _dialect, ...listed } = tool.inputSchema as Record<string, unknown>;
        expect(listed, tool.name).toEqual(servedSchema);
      } else {
        expect(tool.inputSchema, tool.name).toEqual(published.input_schema);
      }
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(published.read_only);
    }
  });

  // One valid call per tool; each answers structured content and the same JSON as text.
  const validCalls = (): Record<string, { args: Record<string, unknown>; expect: Record<string, unknown> }> => ({
    search_docs: { args: { query: 'mainnet gate', limit: 3 }, expect: { query: 'mainnet gate' } },
    list_jobs: { args: { status: 'open' }, expect: {} },
    get_job: { args: { job_id: exampleAcceptanceIntent().job_id }, expect: { job: { id: exampleAcceptanceIntent().job_id } } },
    list_services: { args: {}, expect: {} },
    policy_check: { args: structuredClone(examplePolicyCheckRequest) as never, expect: { allowed: true } },
    validate_service_manifest: { args: exampleServiceManifest() as never, expect: { accepted_for_operator_review: true } },
    validate_job_acceptance: { args: exampleAcceptanceIntent() as never, expect: { accepted_for_operator_review: true } },
    validate_job_quote: { args: exampleQuoteRequest() as never, expect: { quote_scaffold_ready: true } },
    dev_hash: { args: { input: 'abc' }, expect: { result: { digest: 'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319' } } },
    dev_address: { args: { input: '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt' }, expect: { action: 'address', result: { network: 'testnet' } } },
    dev_box: { args: { input: '', encoding: 'hex' }, expect: { action: 'box' } },
    dev_tx: { args: { input: '', encoding: 'hex' }, expect: { action: 'tx' } },
    dev_receipt: { args: { input: '' }, expect: { action: 'receipt', result: { verified: true } } },
    get_receipt: { args: { id: turn.settlementTxId }, expect: { receiptId: turn.receiptId } },
    check_receipt_inclusion: { args: { id: turn.receiptId }, expect: { receiptId: turn.receiptId, status: 'included' } },
    ask_assistant: { args: { question: turn.question, paymentToken: turn.paymentToken }, expect: { tier: 'premium', receiptId: turn.receiptId } },
    live_status: { args: {}, expect: { type: `${site.namespace}.agent_economy.live_status.v0` } },
  });

  it('answers a valid call of every tool with structured content and its JSON text', async () => {
    const calls = validCalls();
    // Inputs that need the chain or the store are taken from the paid turn.
    const receipt = await (await fetch(`${stack.server.url}/api/assistant/receipt/${turn.receiptId}`)).text();
    // The developer tools catalogue's own working examples (test vectors), without the action the tool fixes.
    const catalogue = (await (await fetch(`${stack.server.url}/api/dev/tools`)).json()) as { actions: Array<{ action: string; example_request: Record<string, unknown> }> };
    for (const action of ['box', 'tx'] as const) {
      const { action: _fixed, ...example } = catalogue.actions.find((entry) => entry.action === action)!.example_request;
      calls[`dev_${action}`]!.args = example;
    }
    calls.dev_receipt!.args = { input: receipt };
    await provedInLog(stack.server.url, turn.receiptId);
    expect(Object.keys(calls).sort()).toEqual(manifest.tools.map((tool) => tool.name).sort());
    for (const [name, call] of Object.entries(calls)) {
      const result = await client.callTool({ name, arguments: call.args });
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      expect(result.structuredContent, name).toMatchObject(call.expect);
      expect(JSON.parse(textOf(result)), name).toEqual(result.structuredContent);
    }
  }, 60_000);

  it('answers an invalid call of every tool with a tool error naming the field, and keeps the session', async () => {
    const invalid: Record<string, { args: Record<string, unknown>; field: string }> = {
      search_docs: { args: { query: '' }, field: 'query' },
      list_jobs: { args: { status: 'pending' }, field: 'status' },
      get_job: { args: { job_id: 'Not A Job' }, field: 'job_id' },
      list_services: { args: { capability: 'X' }, field: 'capability' },
      policy_check: { args: { profile: {} }, field: 'proposed_action' },
      validate_service_manifest: { args: { ...exampleServiceManifest(), id: 5 }, field: 'id' },
      validate_job_acceptance: { args: { ...exampleAcceptanceIntent(), capabilities: 'all' }, field: 'capabilities' },
      validate_job_quote: { args: { ...exampleQuoteRequest(), private_key: 'x' }, field: 'private_key' },
      dev_hash: { args: { input: 'abc', encoding: 'base64' }, field: 'encoding' },
      dev_address: { args: { input: '' }, field: 'input' },
      dev_box: { args: { input: 42 }, field: 'input' },
      dev_tx: { args: { input: 'ab', network: 'devnet' }, field: 'network' },
      dev_receipt: { args: {}, field: 'input' },
      get_receipt: { args: { id: '' }, field: 'id' },
      check_receipt_inclusion: { args: { id: 'abc' }, field: 'id' },
      ask_assistant: { args: { question: 'hello', paymentToken: 'not a token' }, field: 'paymentToken' },
      live_status: { args: { verbose: true }, field: 'verbose' },
    };
    expect(Object.keys(invalid).sort()).toEqual(manifest.tools.map((tool) => tool.name).sort());
    for (const [name, call] of Object.entries(invalid)) {
      const result = await client.callTool({ name, arguments: call.args });
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toContain(call.field);
    }
    expect((await client.listTools()).tools).toHaveLength(manifest.tools.length);
  }, 30_000);

  it('answers an unknown receipt id and a spent payment token as tool errors with their codes', async () => {
    const missing = await client.callTool({ name: 'get_receipt', arguments: { id: 'e'.repeat(64) } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('receipt_not_found');
    const spent = await client.callTool({ name: 'ask_assistant', arguments: { question: turn.question, paymentToken: turn.paymentToken } });
    expect(spent.isError).toBe(true);
    expect(textOf(spent)).toContain('payment_token_used');
  });

  it('offers the paid turn and the policy check as prompts, and refuses a prompt argument that is not the JSON it names, naming it', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['pay_for_premium_answer', 'check_wallet_action']);
    expect(prompts.find((prompt) => prompt.name === 'check_wallet_action')!.arguments).toEqual([
      expect.objectContaining({ name: 'proposed_action', required: true }),
      expect.objectContaining({ name: 'profile', required: false }),
    ]);
    const question = 'Which registers must a Note carry?';
    const paid = await client.getPrompt({ name: 'pay_for_premium_answer', arguments: { question } });
    const paidText = paid.messages.map((message) => (message.content.type === 'text' ? message.content.text : '')).join('\n');
    for (const part of [question, '`ask_assistant`', `${site.base_url}/api/assistant/verify-payment`, '`check_receipt_inclusion`']) expect(paidText).toContain(part);

    const { profile, proposed_action: action } = examplePolicyCheckRequest;
    const checked = await client.getPrompt({ name: 'check_wallet_action', arguments: { proposed_action: JSON.stringify(action), profile: JSON.stringify(profile) } });
    const checkedText = checked.messages.map((message) => (message.content.type === 'text' ? message.content.text : '')).join('\n');
    for (const part of ['`policy_check`', action.recipient, profile.allowed_recipients[0]!, 'do not sign']) expect(checkedText).toContain(part);
    const withoutProfile = await client.getPrompt({ name: 'check_wallet_action', arguments: { proposed_action: JSON.stringify(action) } });
    expect(JSON.stringify(withoutProfile.messages)).toContain(`${site.base_url}/agent-economy/wallet-agent-policy-profile.template.v0.json`);

    await expect(client.getPrompt({ name: 'check_wallet_action', arguments: { proposed_action: 'send 1 ERG' } })).rejects.toThrow(/proposed_action: not JSON/);
    await expect(client.getPrompt({ name: 'check_wallet_action', arguments: { proposed_action: JSON.stringify({ ...action, human_confirmed: 'yes' }) } })).rejects.toThrow(/proposed_action\.human_confirmed/);
    await expect(client.getPrompt({ name: 'pay_for_premium_answer', arguments: {} })).rejects.toThrow(/question/);
    // The session survives a refused prompt.
    expect((await client.listPrompts()).prompts).toHaveLength(2);
  });

  it('lists every static document and schema as a resource under its public URL, and reads the bytes the site serves', async () => {
    const listed = (await client.listResources()).resources;
    // The list also holds the jobs the job template lists and the log's checkpoint; the static ones are the manifest's, in order.
    const jobs = listed.filter((resource) => /\/jobs\/[^/]+\/$/.test(resource.uri));
    const live = listed.filter((resource) => manifest.resources.live.some((entry) => entry.uri === resource.uri));
    expect(live.map((resource) => resource.uri)).toEqual(manifest.resources.live.map((resource) => resource.uri));
    const resources = listed.filter((resource) => !jobs.includes(resource) && !live.includes(resource));
    expect(jobs.length).toBeGreaterThan(0);
    expect(resources.map((resource) => resource.uri)).toEqual(manifest.resources.static.map((resource) => resource.uri));
    const uris = new Set(resources.map((resource) => resource.uri));
    for (const path of ['/.well-known/agent-economy.json', '/agent-economy/openapi.v0.json', '/api/jobs', '/agent-economy/assistant-receipt.schema.v0.json', '/llms.txt']) {
      expect(uris.has(`${site.base_url}${path}`), path).toBe(true);
    }
    for (const resource of resources) {
      const read = await client.readResource({ uri: resource.uri });
      const served = await fetch(`${stack.server.url}${new URL(resource.uri).pathname}`);
      expect(served.status, resource.uri).toBe(200);
      expect((read.contents[0] as { text: string }).text, resource.uri).toBe(await served.text());
      expect(read.contents[0]!.mimeType).toBe(resource.mimeType);
    }
  }, 60_000);

  it('reads the receipt log\'s newest checkpoint as a resource: a signed note that verifies with the published key and includes the paid turn', async () => {
    await provedInLog(stack.server.url, turn.receiptId);
    const key = (await (await fetch(`${stack.server.url}/api/transparency/receipts/key`)).text()).trim();
    const read = await client.readResource({ uri: `${site.base_url}/api/transparency/receipts/checkpoint` });
    expect(read.contents[0]!.mimeType).toBe('text/plain');
    const opened = openCheckpoint((read.contents[0] as { text: string }).text, key, key.slice(0, key.indexOf('+')));
    expect(opened.ok, JSON.stringify(opened)).toBe(true);
    const proof = await (await fetch(`${stack.server.url}/api/assistant/receipt/${turn.receiptId}/proof`)).text();
    expect(opened.ok && opened.checkpoint.size).toBeGreaterThan(Number(/^index (\d+)$/m.exec(proof)![1]));
  });

  it('reads a job and a receipt through the resource templates, and answers an unknown one as resource not found', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(manifest.resources.templates.map((template) => template.uri_template));
    const board = (await (await fetch(`${stack.server.url}/api/jobs`)).json()) as { jobs: Array<{ id: string }> };
    const job = await client.readResource({ uri: `${site.base_url}/jobs/${board.jobs[0]!.id}/` });
    expect(JSON.parse((job.contents[0] as { text: string }).text)).toEqual(board.jobs[0]);
    const receipt = await client.readResource({ uri: `${site.base_url}/api/assistant/receipt/${turn.receiptId}` });
    const served = await (await fetch(`${stack.server.url}/api/assistant/receipt/${turn.receiptId}`)).json();
    expect(JSON.parse((receipt.contents[0] as { text: string }).text)).toEqual(served);
    await expect(client.readResource({ uri: `${site.base_url}/jobs/no-such-job/` })).rejects.toThrow(/-32002|no job "no-such-job"/);
    await expect(client.readResource({ uri: `${site.base_url}/api/assistant/receipt/${'e'.repeat(64)}` })).rejects.toThrow(/no receipt/);
  });
});

/**
 * A raw request, for headers fetch will not let a caller set (Host) and for a chosen loopback source
 * address (the whole of 127.0.0.0/8 reaches a host listening on 127.0.0.1, as distinct clients).
 * Each on its own connection, closed after its answer, so none lingers against the connection cap.
 */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The JSON-RPC messages of an answer, sent as JSON or as server-sent events. */
function rpcMessages(body: string): Array<{ id?: number | null; result?: unknown; error?: { code: number; message: string } }> {
  const events = body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
  const parsed = (events.length > 0 ? events : [body]).filter((text) => text.trim() !== '').map((text) => JSON.parse(text) as unknown);
  return parsed.flat() as ReturnType<typeof rpcMessages>;
}

/** A raw initialize: its status, its session id when one was made, and the error when refused. */
async function initialize(url: string, options: { headers?: Record<string, string>; localAddress?: string } = {}) {
  const answer = await rawRequest(`${url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...options.headers }, body: INITIALIZE, localAddress: options.localAddress });
  const sessionId = answer.headers['mcp-session-id'];
  return { ...answer, sessionId: typeof sessionId === 'string' ? sessionId : undefined };
}

/** One request (or a batch) within a session. */
function inSession(url: string, sessionId: string, message: unknown, options: { headers?: Record<string, string>; protocolVersion?: string; localAddress?: string } = {}) {
  return rawRequest(`${url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...options.headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': options.protocolVersion ?? '2025-06-18' },
    body: JSON.stringify(message),
    localAddress: options.localAddress,
  });
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

/** Ends a session the way a client does (DELETE with its id). */
const endSession = (url: string, sessionId: string, headers: Record<string, string> = {}) =>
  rawRequest(`${url}/mcp`, { method: 'DELETE', headers: { ...MCP_HEADERS, ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } });

/** Everything a raw connection receives until the host closes it. */
function untilClosed(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(received));
  });
}

describe('standalone MCP host (npm run mcp)', () => {
  const API_KEY = 'test-key-0123456789abcdef';
  let host: McpProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'issue7-mcp-'));
    host = await startBuiltMcp({ MCP_API_KEY: API_KEY, MCP_MAX_SESSIONS: '3', DATA_DIR: dataDir });
  }, 30_000);
  afterAll(async () => {
    await host?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a Host it does not serve and a browser Origin it does not allow (DNS rebinding)', async () => {
    const port = new URL(host.url).port;
    const rebound = await rawRequest(`${host.url}/health`, { headers: { host: `attacker.example:${port}` } });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('attacker.example');
    const foreign = await rawRequest(`${host.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, origin: 'http://attacker.example', authorization: `Bearer ${API_KEY}` }, body: INITIALIZE });
    expect(foreign.status).toBe(403);
    const allowed = await rawRequest(`${host.url}/health`, { headers: { origin: new URL(site.base_url).origin } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(new URL(site.base_url).origin);
  });

  it('requires the bearer token on /mcp but not on /health', async () => {
    expect((await fetch(`${host.url}/health`)).status).toBe(200);
    const without = await rawRequest(`${host.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
    expect(without.status).toBe(401);
    expect(without.headers['www-authenticate']).toContain('Bearer');
    const wrong = await rawRequest(`${host.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: 'Bearer nope-nope-nope-nope' }, body: INITIALIZE });
    expect(wrong.status).toBe(401);
    await expect(connect(host.url)).rejects.toThrow();
  });

  it('evicts the oldest idle session when the session cap is reached, so a new client still gets one; 404 to an unknown session', async () => {
    const auth = { authorization: `Bearer ${API_KEY}` };
    const opened = [];
    for (let index = 0; index < 3; index++) opened.push(await initialize(host.url, { headers: auth }));
    expect(opened.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const [first, second, third] = opened.map((answer) => answer.sessionId!);
    // An initialize the SDK then refuses (no event stream accepted) takes no session's place.
    const refused = await rawRequest(`${host.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...auth, accept: 'application/json' }, body: INITIALIZE });
    expect(refused.status).toBe(406);
    for (const id of [second!, first!]) expect((await inSession(host.url, id, ping(2), { headers: auth })).status).toBe(200);

    // The third is now the one idle the longest.
    const newcomer = await initialize(host.url, { headers: auth, localAddress: '127.0.0.2' });
    expect(newcomer.status).toBe(200);
    expect((await inSession(host.url, third!, ping(3), { headers: auth })).status).toBe(404);
    for (const kept of [first!, second!, newcomer.sessionId!]) expect((await inSession(host.url, kept, ping(4), { headers: auth })).status).toBe(200);

    const unknown = await inSession(host.url, 'no-such-session', ping(5), { headers: auth });
    expect(unknown.status).toBe(404);
    for (const id of [first!, second!, newcomer.sessionId!]) await endSession(host.url, id, auth);
    const client = await connect(host.url, auth);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
  });

  it('shares the embedded store in DATA_DIR with the other processes on it: a receipt written by another process is read', async () => {
    // Another process's write (this test process, a third opener of the same file).
    const writer = createStore({ driver: 'sqlite', dataDir, statementTimeoutMs: 2_000, connectTimeoutMs: 2_000 });
    const quote = makeQuote();
    const noteBoxId = hex32();
    const stored = makeReceipt(quote, noteBoxId);
    await writer.insertQuote(quote);
    await writer.settlePayment({ quoteId: quote.quoteId, noteBoxId, receipt: stored, tokenHash: hex32(), tokenExpiresAt: new Date(Date.now() + 60_000), questionHash: quote.questionHash, payerAddress: null, retryKeyHash: null });
    await writer.close();

    const client = await connect(host.url, { authorization: `Bearer ${API_KEY}` });
    const receipt = await client.callTool({ name: 'get_receipt', arguments: { id: stored.receiptId } });
    expect(receipt.isError, textOf(receipt)).toBeFalsy();
    expect(JSON.stringify(receipt.structuredContent)).toContain(stored.receiptId);
    const live = await client.callTool({ name: 'live_status', arguments: {} });
    expect(live.structuredContent).toMatchObject({ probes: { receipt_storage: { ok: true, backend: 'sqlite' } } });
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
  });
});

describe('standalone MCP host: limits on one client', () => {
  let host: McpProcess;
  let dataDir: string;
  const MAX_CONNECTIONS = 16;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'issue36-mcp-'));
    // Default session limits; short slow-client timeouts and a small connection cap keep it fast.
    host = await startBuiltMcp({ DATA_DIR: dataDir, SERVER_HEADERS_TIMEOUT_MS: '500', SERVER_REQUEST_TIMEOUT_MS: '1000', MCP_MAX_CONNECTIONS: String(MAX_CONNECTIONS) });
  }, 30_000);
  afterAll(async () => {
    await host?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens 8 sessions for one address; a 9th takes the place of its own session idle the longest (a client that never ends its sessions is not locked out), another address untouched', async () => {
    const other = await initialize(host.url, { localAddress: '127.0.0.2' });
    expect(other.status).toBe(200);
    const sessions: string[] = [];
    for (let index = 0; index < 8; index++) {
      const opened = await initialize(host.url, { localAddress: '127.0.0.1' });
      expect(opened.status, `session ${index + 1}`).toBe(200);
      sessions.push(opened.sessionId!);
    }
    // Before: 429 "Too many sessions" until its idle sessions expired (15 minutes).
    for (let again = 0; again < 4; again++) {
      const next = await initialize(host.url, { localAddress: '127.0.0.1' });
      expect(next.status, `connection ${9 + again}`).toBe(200);
      sessions.push(next.sessionId!);
    }
    // Its four oldest sessions made room, and are gone; the newest eight and the other address's stay.
    for (const evicted of sessions.slice(0, 4)) expect((await endSession(host.url, evicted)).status).toBe(404);
    for (const kept of [...sessions.slice(4), other.sessionId!]) expect((await endSession(host.url, kept)).status).toBe(200);
  });

  it('answers 408 and closes the connection when a body, or the headers, never finish arriving', async () => {
    const port = Number(new URL(host.url).port);
    const body = connectRaw(port);
    body.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`);
    expect(await untilClosed(body)).toMatch(/^HTTP\/1\.1 408 /);

    const headers = connectRaw(port);
    headers.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    expect(await untilClosed(headers)).toMatch(/^HTTP\/1\.1 408 /);
    expect((await rawRequest(`${host.url}/health`, {})).status).toBe(200);
  }, 15_000);

  it(`accepts ${MAX_CONNECTIONS} connections at once and closes the next one unanswered`, async () => {
    const port = Number(new URL(host.url).port);
    const health = `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    const held: net.Socket[] = [];
    // Each holds its connection open (keep-alive) once answered, so all count at once.
    for (let index = 0; index < MAX_CONNECTIONS; index++) {
      const socket = connectRaw(port);
      held.push(socket);
      const answered = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString())));
      socket.write(health);
      expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
    }
    const refused = connectRaw(port);
    const received = untilClosed(refused);
    refused.write(health);
    expect(await received).toBe('');
    // Closed by both sides (the host answers the client's end with its own), so no longer counted.
    await Promise.all(held.map((socket) => ((socket.end(), untilClosed(socket)))));
    expect((await rawRequest(`${host.url}/health`, {})).status).toBe(200);
  }, 15_000);

  it('refuses a batch of more than 20 messages with -32600 naming the limit, and any batch under 2025-06-18', async () => {
    const opened = await initialize(host.url, { localAddress: '127.0.0.3' });
    expect(opened.status).toBe(200);
    const listJobs = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_jobs', arguments: {} } });
    // 2025-03-26 is the one protocol version with JSON-RPC batches.
    const hundred = await inSession(host.url, opened.sessionId!, Array.from({ length: 100 }, (_, index) => listJobs(index + 1)), { protocolVersion: '2025-03-26', localAddress: '127.0.0.3' });
    expect(hundred.status).toBe(400);
    const [refusal] = rpcMessages(hundred.body);
    expect(refusal!.error!.code).toBe(-32600);
    expect(refusal!.error!.message).toMatch(/20 messages/);
    expect(hundred.body.length).toBeLessThan(1_000);

    const small = await inSession(host.url, opened.sessionId!, [listJobs(101), listJobs(102)], { protocolVersion: '2025-03-26', localAddress: '127.0.0.3' });
    expect(small.status).toBe(200);
    expect(rpcMessages(small.body).map((message) => message.id).sort()).toEqual([101, 102]);

    const removed = await inSession(host.url, opened.sessionId!, [listJobs(103), listJobs(104)], { protocolVersion: '2025-06-18', localAddress: '127.0.0.3' });
    expect(removed.status).toBe(400);
    expect(rpcMessages(removed.body)[0]!.error).toMatchObject({ code: -32600, message: expect.stringContaining('2025-06-18') });
    await endSession(host.url, opened.sessionId!);
  });
});

/** A plain TCP connection to the host, for requests node:http's client would not send half-written. */
function connectRaw(port: number): net.Socket {
  return net.connect(port, '127.0.0.1');
}
