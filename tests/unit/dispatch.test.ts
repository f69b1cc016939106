/**
 * Running a route (src/server/dispatch.ts): a synchronous handler's answer comes back at once, not as
 * a promise (the production entry then answers from the body's last event); an asynchronous one
 * comes back as a promise that never rejects; a refused POST head, a bad body, a thrown problem and
 * a bug each become their problem answer, the bug without its message; a problem's outside cause
 * goes to the log with the request id, never to the answer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { answerRoute, findRoute, refusedPostHead, serializeApiResponse, type RouteRequest } from '../../src/server/dispatch.ts';
import { ProblemError } from '../../src/lib/problem-error.ts';
import type { DynamicRoute } from '../../src/routes/types.ts';
import { JsonText, type ApiResponse } from '../../src/lib/api.ts';
import { logger } from '../../src/services/logger.ts';

const route = (method: 'GET' | 'POST', handler: DynamicRoute['handler'], request?: z.ZodType): DynamicRoute => ({
  id: 'test-route',
  kind: 'dynamic',
  method,
  path: '/api/test',
  summary: 'Test route',
  description: 'A route of this test only.',
  tag: 'Developer',
  responses: { 200: { description: 'OK' } },
  ...(request ? { request: { file: 'test-request.schema.json', name: 'TestRequest', title: 'Test request', schema: request, io: 'input' as const } } : {}),
  handler,
});

const request = (method: 'GET' | 'POST', headers: Record<string, string | undefined> = {}): RouteRequest => ({
  method,
  path: '/api/test',
  query: new URLSearchParams(),
  headers,
  clientIp: '127.0.0.1',
});

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const codeOf = (body: string) => (JSON.parse(body) as { code: string }).code;

describe('answerRoute', () => {
  it('answers at once when the handler does, and with a promise when it does not', async () => {
    const ok: ApiResponse = { status: 200, body: { ok: true } };
    const now = answerRoute({ route: route('GET', () => ok), params: {} }, request('GET'));
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toMatchObject({ status: 200, body: '{"ok":true}' });
    const later = answerRoute({ route: route('GET', async () => ok), params: {} }, request('GET'));
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toMatchObject({ status: 200, body: '{"ok":true}' });
  });

  it('hands a POST handler its validated body, and answers a body the schema refuses with a 400 naming the field', () => {
    const schema = z.strictObject({ amount: z.string().regex(/^\d+$/) });
    const echo = route('POST', (incoming) => ({ status: 200, body: incoming.body }), schema);
    expect(answerRoute({ route: echo, params: {} }, request('POST'), bytes({ amount: '12' }))).toMatchObject({ status: 200, body: '{"amount":"12"}' });
    const refused = answerRoute({ route: echo, params: {} }, request('POST'), bytes({ amount: 12 }));
    expect(refused).toMatchObject({ status: 400 });
    expect((refused as { body: string }).body).toContain('/amount');
    expect(codeOf((answerRoute({ route: echo, params: {} }, request('POST'), new Uint8Array(0)) as { body: string }).body)).toBe('empty_body');
  });

  it('answers a thrown problem with its status, and a bug, thrown or rejected, with a 500 that does not reveal it', async () => {
    const problem = route('GET', () => {
      throw new ProblemError(410, 'quote_expired', 'Quote expired', 'Ask for a new quote.');
    });
    expect(answerRoute({ route: problem, params: {} }, request('GET'))).toMatchObject({ status: 410 });
    const thrown = route('GET', () => {
      throw new Error('secret detail');
    });
    // A synchronous bug is answered at once too.
    expect(answerRoute({ route: thrown, params: {} }, request('GET'))).not.toBeInstanceOf(Promise);
    for (const buggy of [
      thrown,
      route('GET', async () => {
        throw new Error('secret detail');
      }),
    ]) {
      const answer = await answerRoute({ route: buggy, params: {} }, request('GET'));
      expect(answer.status).toBe(500);
      expect(codeOf(String(answer.body))).toBe('internal_error');
      expect(answer.body).not.toContain('secret detail');
    }
  });
});

describe('a problem caused by an outside failure', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs the cause at warn with the request id, and answers only the problem\'s own words', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const cause = new Error('connect ECONNREFUSED 10.0.0.7:5432');
    const failing = route('GET', async (incoming) => {
      expect(incoming.requestId).toBe('req-7');
      throw new ProblemError(503, 'receipt_storage_unavailable', 'Receipt storage unavailable', 'The receipt store cannot be reached right now.', { cause });
    });
    const answer = await answerRoute({ route: failing, params: {} }, { ...request('GET'), requestId: 'req-7' });
    expect(answer.status).toBe(503);
    expect(answer.body).not.toMatch(/ECONNREFUSED|10\.0\.0\.7/);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatchObject({ reqId: 'req-7', code: 'receipt_storage_unavailable', status: 503, err: cause });
    // A problem of the client's own making has no cause and is not logged.
    await answerRoute({ route: route('GET', () => Promise.reject(new ProblemError(410, 'quote_expired', 'Quote expired', 'Ask again.'))), params: {} }, request('GET'));
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('before a POST body is read', () => {
  it('refuses a wrong content type (415) and a declared length past the limit (413), and lets a JSON head through', () => {
    expect(refusedPostHead(request('POST', { 'content-type': 'text/plain' }))?.status).toBe(415);
    expect(refusedPostHead(request('POST', { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) }))?.status).toBe(413);
    expect(refusedPostHead(request('POST', { 'content-type': 'application/json; charset=utf-8', 'content-length': '20' }))).toBeUndefined();
  });

  it('finds the route of a path and method, a 405 naming the allowed methods, or nothing', () => {
    expect(findRoute('POST', '/api/agent-economy/wallet-agent/policy-check')).toMatchObject({ route: { method: 'POST' }, params: {} });
    const wrongMethod = findRoute('GET', '/api/agent-economy/wallet-agent/policy-check');
    expect(wrongMethod && 'answer' in wrongMethod ? wrongMethod.answer.status : undefined).toBe(405);
    expect(findRoute('GET', '/api/assistant/receipt/abc')).toMatchObject({ params: { id: 'abc' } });
    expect(findRoute('GET', '/not/a/route')).toBeUndefined();
  });
});

describe('a JSON answer serialized once and shared (JsonText)', () => {
  it('sends a large text as the same UTF-8 bytes to every request, encoded once, and a small one as its string', () => {
    const large = new JsonText(JSON.stringify({ subjects: Array.from({ length: 400 }, (_, i) => ({ id: `sübject-${i}`, note: 'é'.repeat(40) })) }));
    const first = serializeApiResponse({ status: 200, body: large }).body;
    const second = serializeApiResponse({ status: 200, body: large }).body;
    expect(first).toBeInstanceOf(Uint8Array);
    expect(second).toBe(first);
    expect(Buffer.from(first as Uint8Array).equals(Buffer.from(large.text, 'utf8'))).toBe(true);
    const small = new JsonText('{"ok":true}');
    expect(serializeApiResponse({ status: 200, body: small }).body).toBe('{"ok":true}');
  });
});
