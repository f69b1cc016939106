/**
 * Hostile input against every POST route of the route table, on the built server: random JSON of
 * every type (strings of any UTF-16 code units, lone surrogates included), random mutations of each
 * route's example request, prototype-pollution keys, deep nesting, huge numbers, long strings,
 * broken encodings, wrong content types and oversize bodies. The server reads a sandbox chain and
 * has a receiver configured, so nothing outside it fails: every answer must be 2xx or a documented
 * 4xx (the one 5xx allowed is the faucet's documented "payouts are off here" state), never a 500, a
 * hang or a stack trace.
 */
import fc from 'fast-check';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiRequestExample, publishedRequestBody } from '../../src/descriptors/request-examples.ts';
import { allRoutes } from '../../src/routes/table.ts';
import type { DynamicRoute } from '../../src/routes/types.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { RECEIVER, sandboxServerEnv } from '../helpers/paid-turn.ts';
import { anyJson, mutate, mutation, type Json } from '../helpers/json-mutation.ts';

const postRoutes = allRoutes().filter((route): route is DynamicRoute => route.kind === 'dynamic' && route.method === 'POST' && route.host !== 'mcp');

let server: RunningServer;
let sandbox: RunningSandbox;
const dataDir = mkdtempSync(join(tmpdir(), 'hostile-'));
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, startHeight: 2_000 });
  server = await startBuiltServer(sandboxServerEnv(sandbox.url, dataDir, { SERVER_HEADERS_TIMEOUT_MS: '500', SERVER_REQUEST_TIMEOUT_MS: '1500', ASSISTANT_FREE_DAILY_LIMIT: '100000' }));
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Example bodies of the routes whose examples need the caller's own values (a Note, an address). */
const CALLER_EXAMPLES: Record<string, unknown> = {
  'assistant-verify-payment': { quote: { quoteId: 'q_unknownquote000000000000' }, question: 'What is a Note?', noteBoxId: 'ab'.repeat(32) },
  faucet: { address: RECEIVER, challengeToken: 'not-a-token' },
};

/** 2xx, or a documented 4xx; the faucet's 503 says payouts are off here, a state of its configuration. */
function expectNeverServerError(route: DynamicRoute, answer: { status: number; text: string }) {
  const guardedFaucet = route.id === 'faucet' && answer.status === 503 && answer.text.includes('faucet_payouts_guarded');
  expect(answer.status < 500 || guardedFaucet, `${route.path} answered ${answer.status}: ${answer.text}`).toBe(true);
}

/** Statuses a route may answer: its documented ones plus those of the shared body reader. */
function allowedStatuses(route: DynamicRoute): Set<number> {
  return new Set([...Object.keys(route.responses).map(Number), 400, 413, 415, 501]);
}

async function post(path: string, body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const response = await request(`${server.url}${path}`, { method: 'POST', headers, body, headersTimeout: 5_000, bodyTimeout: 5_000 });
  const text = await response.body.text();
  return { status: response.statusCode, contentType: String(response.headers['content-type'] ?? ''), text };
}

function expectCleanAnswer(route: DynamicRoute, answer: { status: number; contentType: string; text: string }) {
  expect(answer.status, answer.text).not.toBe(500);
  expect(allowedStatuses(route).has(answer.status), `${route.path} answered undocumented ${answer.status}: ${answer.text}`).toBe(true);
  expect(answer.contentType).toMatch(/json/);
  expect(answer.text).not.toMatch(/\bat .+\.(m?js|ts):\d+/); // no stack trace
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  if (answer.contentType.includes('problem+json')) expect(typeof body.code).toBe('string');
}

describe.each(postRoutes.map((route) => [route.path, route] as const))('POST %s', (path, route) => {
  it('answers random JSON of every type, lone surrogates included, with 2xx or a documented 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(anyJson, async (value) => {
        const answer = await post(path, JSON.stringify(value));
        expectCleanAnswer(route, answer);
        expectNeverServerError(route, answer);
      }),
      { numRuns: 25 },
    );
  });

  it('answers random mutations of its example request with 2xx or a documented 4xx', async () => {
    const example = (publishedRequestBody(route.id) ?? CALLER_EXAMPLES[route.id] ?? openApiRequestExample(route.id)?.value) as Json;
    expect(example, `no example request for ${route.id}`).toBeDefined();
    await fc.assert(
      fc.asyncProperty(mutation, async ([pick, operation, value, key]) => {
        const answer = await post(path, JSON.stringify(mutate(example, pick, operation, value as Json, key)));
        expectCleanAnswer(route, answer);
        expectNeverServerError(route, answer);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a lone surrogate in a key or a value of its example with 400 naming the pointer', async () => {
    const example = (publishedRequestBody(route.id) ?? CALLER_EXAMPLES[route.id] ?? openApiRequestExample(route.id)?.value) as Record<string, Json>;
    const [firstKey] = Object.keys(example);
    // JSON.stringify writes a lone surrogate as its \u escape: exactly what a hostile client sends.
    for (const [body, pointer] of [
      [{ ...example, [firstKey!]: 'lone \ud800 surrogate' }, `/${firstKey}`],
      [{ ...example, 'key \udfff': 1 }, '/key \udfff'],
    ] as const) {
      const answer = await post(path, JSON.stringify(body));
      expect(answer.status, answer.text).toBe(400);
      const problem = JSON.parse(answer.text) as { code: string; errors: Array<{ path: string; code: string }> };
      expect(problem.code).toBe('invalid_request');
      expect(problem.errors).toEqual([expect.objectContaining({ path: pointer, code: 'ill_formed_unicode' })]);
    }
  });

  it('refuses its example with its first member named twice, the duplicate placed first, with 400 naming the member', async () => {
    const example = (publishedRequestBody(route.id) ?? CALLER_EXAMPLES[route.id] ?? openApiRequestExample(route.id)?.value) as Record<string, Json>;
    const [firstKey] = Object.keys(example);
    const text = JSON.stringify(example);
    // The attack of issue 51: a value another parser would read, placed before the one JSON.parse keeps.
    const answer = await post(path, `{${JSON.stringify(firstKey)}:"another value",${text.slice(1)}`);
    expect(answer.status, answer.text).toBe(400);
    const problem = JSON.parse(answer.text) as { code: string; errors: Array<{ path: string; code: string }> };
    expect(problem.code).toBe('invalid_request');
    expect(problem.errors).toEqual([expect.objectContaining({ path: `/${firstKey!.replaceAll('~', '~0').replaceAll('/', '~1')}`, code: 'duplicate_member' })]);
  });

  it.each([
    ['__proto__ and constructor keys', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'],
    ['numbers beyond 2^53', '{"amount":123456789012345678901234567890,"n":-1e400}'],
    ['a long string', JSON.stringify({ question: 'x'.repeat(60_000) })],
    ['nested arrays 10,000 levels deep', '['.repeat(10_000) + ']'.repeat(10_000)],
    ['an empty body', ''],
    ['a body that is not JSON', 'action=hash&input=abc'],
  ])('answers %s with a documented 4xx (a JSON-RPC route: a JSON-RPC error once the body is JSON)', async (_what, body) => {
    const answer = await post(path, body);
    expectCleanAnswer(route, answer);
    if (route.protocol === 'json-rpc' && answer.status === 200) expect(JSON.parse(answer.text)).toHaveProperty('error.code');
    else {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers invalid UTF-8, a wrong and a missing content type', async () => {
    expect((await post(path, Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]))).status).toBe(400);
    expect((await post(path, '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(path, '{}', {})).status).toBe(415);
  });
});

describe('limits of the server itself', () => {
  /** An 8 MiB body streamed in 64 KiB chunks, so fetch sends it chunked, without a Content-Length. */
  const streamedBody = () => {
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8 * 1024 * 1024) return controller.close();
        sent += 65_536;
        controller.enqueue(new Uint8Array(65_536).fill(0x20));
      },
    });
  };

  it('answers every oversized body with a 413 that fetch receives: a declared 2 MiB, or 8 MiB streamed without a length', async () => {
    const failures: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (const route of postRoutes) {
        for (const [kind, init] of [
          ['2 MiB with Content-Length', { body: Buffer.alloc(2 * 1024 * 1024, 0x20) }],
          ['8 MiB chunked', { body: streamedBody(), duplex: 'half' }],
        ] as const) {
          try {
            const response = await fetch(`${server.url}${route.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, ...init, signal: AbortSignal.timeout(10_000) } as RequestInit);
            const problem = (await response.json()) as { code?: string };
            if (response.status !== 413 || problem.code !== 'payload_too_large') failures.push(`${route.path} ${kind}: ${response.status} ${problem.code}`);
          } catch (error) {
            failures.push(`${route.path} ${kind}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('still cuts a body that never ends, after the bounded drain', async () => {
    const { port, hostname } = new URL(server.url);
    const closedAfter = await new Promise<number>((resolve) => {
      const started = performance.now();
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(`POST ${postRoutes[0]!.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const flood = setInterval(() => socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`), 5);
        socket.on('close', () => {
          clearInterval(flood);
          resolve(performance.now() - started);
        });
      });
      socket.on('error', () => undefined);
    });
    expect(closedAfter).toBeLessThan(10_000);
  });

  it('logs a client that leaves in the middle of its body as gone, not as a server error', async () => {
    // A server of its own: the one above logs nothing.
    const logging = await startBuiltServer({ LOG_LEVEL: 'info' });
    let log = '';
    logging.process.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const { port, hostname } = new URL(logging.url);
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(`POST ${postRoutes[0]!.path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: left-mid-body\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"half":`);
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
    });
    // The server goes on answering, and its log, flushed as it stops, tells what happened.
    expect((await fetch(`${logging.url}/api/jobs`)).status).toBe(200);
    const drained = new Promise((resolve) => logging.process.stdout!.once('close', resolve));
    await logging.stop();
    await drained;
    const lines = log.split('\n').filter((line) => line.includes('left-mid-body')).map((line) => JSON.parse(line) as { level: string; msg: string; status?: number });
    expect(lines).toEqual([expect.objectContaining({ level: 'info', msg: 'request body abandoned by the client' })]);
  });

  it('cuts off a client that trickles its headers', async () => {
    const { port, hostname } = new URL(server.url);
    const closedAfter = await new Promise<number>((resolve) => {
      const started = performance.now();
      const socket = net.connect(Number(port), hostname, () => {
        socket.write('GET /api/jobs HTTP/1.1\r\nHost: x\r\n');
        const trickle = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
        socket.on('close', () => {
          clearInterval(trickle);
          resolve(performance.now() - started);
        });
      });
      socket.on('error', () => undefined);
    });
    expect(closedAfter).toBeLessThan(4_000);
  });

  it('does not grow its memory under a stream of hostile requests', async () => {
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))?.[1]);
    const path = postRoutes[0]!.path;
    for (let i = 0; i < 200; i++) await post(path, '['.repeat(2_000) + ']'.repeat(2_000));
    const before = rss();
    for (let i = 0; i < 1_000; i++) await post(path, i % 2 ? '{"x":' : '['.repeat(2_000) + ']'.repeat(2_000));
    // Generous bound: garbage collection timing varies; a leak of even 1 KiB per request would show.
    expect(rss() - before).toBeLessThan(48 * 1024);
  });
});
