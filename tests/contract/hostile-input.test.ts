/**
 * Hostile input against every POST route of the route table, on the built server: random JSON of
 * every type, prototype-pollution keys, deep nesting, huge numbers, long strings, broken encodings,
 * wrong content types and oversize bodies. Every answer must be a documented 4xx (or a documented
 * 5xx of an outside dependency), never a 500, a hang or a stack trace.
 */
import fc from 'fast-check';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/routes/table.ts';
import type { DynamicRoute } from '../../src/routes/types.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';

const postRoutes = allRoutes().filter((route): route is DynamicRoute => route.kind === 'dynamic' && route.method === 'POST' && route.host !== 'mcp');

let server: RunningServer;
beforeAll(async () => {
  server = await startBuiltServer({ SERVER_HEADERS_TIMEOUT_MS: '500', SERVER_REQUEST_TIMEOUT_MS: '1500' });
});
afterAll(async () => server?.stop());

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
  it('answers random JSON of every type with a documented status', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => expectCleanAnswer(route, await post(path, JSON.stringify(value)))),
      { numRuns: 25 },
    );
  });

  it.each([
    ['__proto__ and constructor keys', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'],
    ['numbers beyond 2^53', '{"amount":123456789012345678901234567890,"n":-1e400}'],
    ['a long string', JSON.stringify({ question: 'x'.repeat(60_000) })],
    ['nested arrays 10,000 levels deep', '['.repeat(10_000) + ']'.repeat(10_000)],
    ['an empty body', ''],
    ['a body that is not JSON', 'action=hash&input=abc'],
  ])('answers %s with a documented 4xx', async (_what, body) => {
    const answer = await post(path, body);
    expectCleanAnswer(route, answer);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers invalid UTF-8, a wrong and a missing content type', async () => {
    expect((await post(path, Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]))).status).toBe(400);
    expect((await post(path, '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(path, '{}', {})).status).toBe(415);
  });
});

describe('limits of the server itself', () => {
  it('refuses an oversize body with 413 without reading it all', async () => {
    const path = postRoutes[0]!.path;
    const started = performance.now();
    const answer = await post(path, Buffer.alloc(8 * 1024 * 1024, 0x20), { 'content-type': 'application/json' }).catch((error: Error) => ({ status: 0, contentType: '', text: error.message }));
    // Either the 413 arrives, or the server closed the connection after answering it mid-upload.
    if (answer.status !== 0) expect(answer.status).toBe(413);
    expect(performance.now() - started).toBeLessThan(5_000);
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
