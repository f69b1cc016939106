/**
 * The MCP tool list as one source: the manifest is generated from it with the SDK's own schema
 * conversion, each tool runs its domain function in process and answers structured content plus
 * text, failures are tool errors naming the field, and a bug never leaks its message. Also the MCP
 * host's configuration and the docs index behind search_docs.
 */
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { x402PaymentRequiredSchema } from '../../schemas/x402.ts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { economicMcpToolsSchema } from '../../schemas/mcp-tools.ts';
import { loadMcpConfig } from '../../src/config/mcp.ts';
import { site } from '../../src/config/site.ts';
import { buildMcpToolsManifest } from '../../src/descriptors/mcp-tools.ts';
import { examplePolicyCheckRequest } from '../../src/domain/policy-examples.ts';
import { exampleServiceManifest } from '../../src/descriptors/registry.ts';
import { callTool } from '../../src/mcp/tool-server.ts';
import { MCP_TOOLS, type McpToolDefinition, type ToolContext } from '../../src/mcp/tools.ts';
import { searchDocs } from '../../src/services/docs-index.ts';
import { routeSchemaUrl } from '../../src/catalogue/lookup.ts';
import { toJsonSchemaDocument } from '../../src/catalogue/published.ts';
import { routeById } from '../../src/routes/table.ts';
import type { DynamicRoute } from '../../src/routes/types.ts';
import { fakeDeps } from '../helpers/fakes.ts';
import { memoryReceiptLog } from '../helpers/memory-receipt-log.ts';
import { hex32, makeQuote, makeReceipt } from '../helpers/store-fixtures.ts';
import { useCorpus } from '../../src/services/docs-index.ts';
import { siteAnswerIndex, siteDocuments } from '../../src/build/site-documents.ts';
import { useAnswerIndex } from '../../src/services/answer-index.ts';

// As the server and the MCP host do at start: the index reads the site's own documents.
useCorpus(siteDocuments);
useAnswerIndex(siteAnswerIndex);

const tool = (name: string): McpToolDefinition => MCP_TOOLS.find((candidate) => candidate.name === name)!;

function context(deps = fakeDeps(), memory = memoryReceiptLog(() => deps.store.receipts)): ToolContext {
  return {
    clientIp: '127.0.0.9',
    now: () => new Date('2026-11-23T12:00:00Z'),
    services: { assistant: async () => deps, liveStatus: async () => ({}) as never, receiptLog: async () => memory.log },
  };
}

async function run(name: string, args: unknown, ctx = context()) {
  const definition = tool(name);
  // The SDK validates arguments with the tool's schema before calling it; so do these tests.
  return callTool(definition, definition.input.parse(args), ctx);
}

describe('one tool list for the server and the manifest', () => {
  const manifest = economicMcpToolsSchema.parse(buildMcpToolsManifest());

  it('publishes every registered tool, in order, with the input schema the SDK lists (inline, or the same schema published)', () => {
    expect(manifest.tools.map((entry) => entry.name)).toEqual(MCP_TOOLS.map((definition) => definition.name));
    for (const definition of MCP_TOOLS) {
      const entry = manifest.tools.find((candidate) => candidate.name === definition.name)!;
      const { $schema: _dialect, ...listed } = toJsonSchemaCompat(definition.input, { strictUnions: true, pipeStrategy: 'input' }) as Record<string, unknown>;
      if (entry.input_schema_url) {
        const route = routeById().get(definition.requestOf!) as DynamicRoute;
        expect(entry.input_schema_url).toBe(routeSchemaUrl(definition.requestOf!));
        const { $schema: _published, $id: _id, title: _title, ...published } = toJsonSchemaDocument(route.request!);
        expect(listed, definition.name).toEqual(published);
      } else {
        expect(entry.input_schema, definition.name).toEqual({ $schema: _dialect, ...listed });
      }
      expect(entry.title).toBe(definition.title);
      expect(entry.read_only).toBe(definition.readOnly);
      expect(entry.signs_transactions).toBe(false);
    }
  });

  it('links the published request schema of every tool whose arguments are a request body', () => {
    const withUrl = manifest.tools.filter((entry) => entry.input_schema_url).map((entry) => entry.name);
    expect(withUrl).toEqual(['policy_check', 'validate_service_manifest', 'validate_job_acceptance', 'validate_job_quote']);
  });

  it('covers every tool the contract names and nothing that signs', () => {
    expect(MCP_TOOLS.map((definition) => definition.name)).toEqual(
      expect.arrayContaining(['search_docs', 'list_jobs', 'get_job', 'list_services', 'policy_check', 'get_receipt', 'ask_assistant', 'live_status', 'dev_hash', 'dev_address', 'dev_box', 'dev_tx', 'dev_receipt']),
    );
    expect(manifest.runtime_boundary.mcp_tools_sign_transactions).toBe(false);
  });
});

describe('tools run their domain functions in process', () => {
  it('answers structured content with the same JSON as text', async () => {
    const result = await run('dev_hash', { input: 'abc' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ action: 'hash', result: { digest: 'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319' } });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  });

  it('filters jobs and services, and names the field of an unknown job id', async () => {
    const jobs = (await run('list_jobs', { status: 'open' })).structuredContent as { count: number; jobs: Array<{ status: string }> };
    expect(jobs.count).toBeGreaterThan(0);
    expect(jobs.jobs.every((job) => job.status === 'open')).toBe(true);
    const services = (await run('list_services', { capability: 'policy-check' })).structuredContent as { services: Array<{ capabilities: string[] }> };
    expect(services.services.length).toBeGreaterThan(0);
    expect(services.services.every((service) => service.capabilities.includes('policy-check'))).toBe(true);
    const unknown = await run('get_job', { job_id: 'job-does-not-exist' });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ error: { code: 'job_not_found', field: 'job_id' } });
  });

  it('checks a policy and validates a manifest with the endpoints’ own functions', async () => {
    const verdict = await run('policy_check', structuredClone(examplePolicyCheckRequest));
    expect(verdict.structuredContent).toMatchObject({ allowed: true, summary: 'policy_allows_exact_testnet_action' });
    const validation = await run('validate_service_manifest', exampleServiceManifest());
    expect(validation.structuredContent).toMatchObject({ accepted_for_operator_review: true, published: false });
  });

  it('turns an unreadable developer-tool input into a tool error naming the field', async () => {
    const truncated = await run('dev_box', { input: 'e091', encoding: 'hex' });
    expect(truncated.isError).toBe(true);
    expect(truncated.structuredContent).toMatchObject({ error: { field: 'input' } });
    const notHex = await run('dev_box', { input: 'zz', encoding: 'hex' });
    expect(notHex.structuredContent).toMatchObject({ error: { code: 'invalid_request', field: 'input' } });
  });

  it('fetches a stored receipt, and answers receipt_not_found for an unknown id', async () => {
    const deps = fakeDeps();
    const receipt = makeReceipt(makeQuote(), hex32());
    deps.store.receipts.push(receipt);
    const found = await run('get_receipt', { id: receipt.receiptId }, context(deps));
    expect(found.structuredContent).toMatchObject({ receiptId: receipt.receiptId });
    const missing = await run('get_receipt', { id: 'f'.repeat(64) }, context(deps));
    expect(missing.structuredContent).toMatchObject({ error: { code: 'receipt_not_found' } });
  });

  it('checks a stored receipt against the receipt log: included, pending, a tampered proof refused naming why, an unknown id naming the field', async () => {
    const deps = fakeDeps();
    const memory = memoryReceiptLog(() => deps.store.receipts);
    const [first, second] = [makeReceipt(makeQuote(), hex32()), makeReceipt(makeQuote(), hex32())];
    deps.store.receipts.push(first, second);
    memory.append(first);
    const ctx = context(deps, memory);

    const pending = await run('check_receipt_inclusion', { id: first.receiptId }, ctx);
    expect(pending.structuredContent).toMatchObject({ status: 'pending', index: 0, retryAfterSeconds: 5 });
    const unlogged = await run('check_receipt_inclusion', { id: second.receiptId }, ctx);
    expect(unlogged.structuredContent).toMatchObject({ status: 'failed', checks: [{ id: 'log_inclusion', ok: false, detail: 'This receipt has no entry in the receipt log.' }] });

    memory.append(second);
    await memory.log.checkpointNow();
    const included = await run('check_receipt_inclusion', { id: first.receiptId.toUpperCase() }, ctx);
    expect(included.isError).toBeUndefined();
    expect(included.structuredContent).toMatchObject({ status: 'included', index: 0, treeSize: 2, verifierKey: memory.log.verifierKey, receiptId: first.receiptId });
    expect((included.structuredContent as { checks: Array<{ ok: boolean }> }).checks.map((check) => check.ok)).toEqual([true, true]);

    // The proof of another receipt, passed for this one: the signature holds, the inclusion does not.
    const otherProof = (await run('check_receipt_inclusion', { id: second.receiptId }, ctx)).structuredContent as { proof: string };
    const swapped = await run('check_receipt_inclusion', { id: first.receiptId, proof: otherProof.proof }, ctx);
    expect(swapped.structuredContent).toMatchObject({ status: 'failed', checks: [{ id: 'log_checkpoint', ok: true }, { id: 'log_inclusion', ok: false, detail: expect.stringContaining('is not entry 1 of that tree') }] });
    const forged = await run('check_receipt_inclusion', { id: first.receiptId, proof: otherProof.proof.replace(/— \S+/, '— AAAA') }, ctx);
    expect(forged.structuredContent).toMatchObject({ status: 'failed', checks: [{ id: 'log_checkpoint', ok: false }] });

    const missing = await run('check_receipt_inclusion', { id: 'f'.repeat(64) }, ctx);
    expect(missing.structuredContent).toMatchObject({ error: { code: 'receipt_not_found', field: 'id' } });
    expect(() => tool('check_receipt_inclusion').input.parse({ id: 'abc' })).toThrow(/64 hexadecimal characters/);
  });

  it('answers a free question, and a long one with x402\'s PaymentRequired as its error result (one stored quote)', async () => {
    const deps = fakeDeps();
    const free = await run('ask_assistant', { question: 'What is the mainnet gate?' }, context(deps));
    expect(free.structuredContent).toMatchObject({ tier: 'free', receiptId: null });
    const premium = await run('ask_assistant', { question: 'why '.repeat(100) }, context(deps));
    expect(premium.isError).toBe(true);
    const required = x402PaymentRequiredSchema.parse(premium.structuredContent);
    expect(required).toMatchObject({ x402Version: 2, error: 'payment_required', accepts: [{ scheme: 'exact', network: 'ergo:sandbox', asset: 'ERG' }] });
    expect(JSON.parse((premium.content as Array<{ text: string }>)[0]!.text)).toEqual(premium.structuredContent);
    expect(deps.store.quotes.size).toBe(1);
    expect(deps.store.quotes.has(required.accepts[0]!.extra.quoteId)).toBe(true);
  });

  it('answers a bug as internal_error without its message', async () => {
    const broken: McpToolDefinition = { ...tool('live_status'), run: async () => Promise.reject(new Error('secret connection string')) };
    const result = await callTool(broken, {}, context());
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain('secret');
    expect(result.structuredContent).toMatchObject({ error: { code: 'internal_error' } });
  });
});

describe('MCP host configuration', () => {
  it('listens on 4322 with DNS rebinding protection for the MCP host name and loopback by default', () => {
    const config = loadMcpConfig({});
    expect(config.port).toBe(4322);
    expect(config.apiKey).toBeNull();
    expect(config.allowedHosts).toEqual(expect.arrayContaining([new URL(site.mcp_url).hostname, 'localhost', '127.0.0.1', '[::1]']));
    expect(config.allowedOrigins).toEqual(expect.arrayContaining([new URL(site.base_url).origin, new URL(site.mcp_url).origin]));
    expect(config.withSite).toBe(false);
    expect(config.maxSessions).toBe(100);
    expect(config.maxSessionsPerClient).toBe(8);
    expect(config.maxConnections).toBe(512);
  });

  it('names the variable of a malformed value and never repeats the API key', () => {
    expect(() => loadMcpConfig({ MCP_PORT: 'http' })).toThrow(/MCP_PORT/);
    expect(() => loadMcpConfig({ MCP_MAX_SESSIONS: '0' })).toThrow(/MCP_MAX_SESSIONS/);
    expect(() => loadMcpConfig({ MCP_MAX_SESSIONS_PER_CLIENT: 'eight' })).toThrow(/MCP_MAX_SESSIONS_PER_CLIENT/);
    expect(() => loadMcpConfig({ MCP_MAX_CONNECTIONS: '0' })).toThrow(/MCP_MAX_CONNECTIONS/);
    expect(() => loadMcpConfig({ MCP_ALLOWED_ORIGINS: 'https://app.example.org/path' })).toThrow(/MCP_ALLOWED_ORIGINS/);
    expect(() => loadMcpConfig({ MCP_API_KEY: 'short-secret' })).toThrow(/MCP_API_KEY/);
    expect(() => loadMcpConfig({ MCP_API_KEY: 'short-secret' })).not.toThrow(/short-secret/);
  });

  it('takes explicit host names and origins', () => {
    const config = loadMcpConfig({ MCP_ALLOWED_HOSTS: 'mcp.example.org, LOCALHOST', MCP_ALLOWED_ORIGINS: 'http://localhost:6274' });
    expect(config.allowedHosts).toEqual(['mcp.example.org', 'localhost']);
    expect(config.allowedOrigins).toEqual(['http://localhost:6274']);
  });
});

describe('docs index', () => {
  it('finds the page about a topic, best first, within the limit, and nothing for gibberish', () => {
    const results = searchDocs('faucet proof of work challenge', 3);
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(3);
    expect(results[0]!.url).toContain('faucet');
    expect(z.array(z.object({ title: z.string(), url: z.url(), excerpt: z.string().min(1), score: z.number() })).safeParse(results).success).toBe(true);
    expect(searchDocs('qqqzzzxxyy', 5)).toEqual([]);
  });
});
