/**
 * The production entry's own behaviour: validators and compressed variants for static files, the
 * hub host's aliases, and the 4xx answers of the shared body reader.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { site } from '../../src/config/site.ts';
import { HUB_ALIASES } from '../../src/catalogue/hub-aliases.ts';
import { allRoutes } from '../../src/routes/table.ts';
import net from 'node:net';
import { request } from 'undici';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(async () => server?.stop());

const hubHost = new URL(site.agent_hub_url).host;

describe('static files from memory', () => {
  it('answers 304 to a matching If-None-Match and serves brotli and gzip variants', async () => {
    const first = await request(`${server.url}/api/agents/registry`, { headers: { 'accept-encoding': 'identity' } });
    const etag = first.headers.etag as string;
    const identity = Buffer.from(await first.body.arrayBuffer());
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toContain('max-age');
    const again = await request(`${server.url}/api/agents/registry`, { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    await again.body.dump();
    for (const encoding of ['br', 'gzip']) {
      const compressed = await request(`${server.url}/api/agents/registry`, { headers: { 'accept-encoding': encoding } });
      expect(compressed.headers['content-encoding']).toBe(encoding);
      const raw = Buffer.from(await compressed.body.arrayBuffer());
      expect(raw.length).toBeLessThan(identity.length);
    }
  });

  it('answers HEAD without a body and refuses POST to a static document with 405', async () => {
    const head = await fetch(`${server.url}/api/jobs`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${server.url}/api/jobs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.headers.get('content-type')).toContain('application/problem+json');
  });

  it('serves human pages for every page the route table names', async () => {
    const pages = new Set(allRoutes().flatMap((route) => (route.page ? [route.page] : [])));
    for (const page of ['/', ...pages]) {
      const response = await fetch(`${server.url}${page}`);
      expect(response.status, page).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('testnet');
    }
  });

  it('answers unknown API paths with a 404 problem and unknown pages with the 404 page', async () => {
    const api = await fetch(`${server.url}/api/nope`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { code: string }).code).toBe('not_found');
    const page = await fetch(`${server.url}/no-such-page`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Not found');
  });

  it('echoes a request id, or makes one, on static, dynamic and error answers', async () => {
    const made = new Set<string | null>();
    for (const path of ['/api/jobs', '/api/agent-economy/live', '/api/nope', '/no-such-page']) {
      const echoed = await fetch(`${server.url}${path}`, { headers: { 'x-request-id': 'trace-42' } });
      expect(echoed.headers.get('x-request-id'), path).toBe('trace-42');
      for (const headers of [{ 'x-request-id': 'bad id with spaces' }, {}] as Array<Record<string, string>>) {
        const id = (await fetch(`${server.url}${path}`, { headers })).headers.get('x-request-id');
        expect(id, path).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        made.add(id);
      }
    }
    // Made ids are unique: one per request.
    expect(made.size).toBe(8);
  });

  it('sends security and CORS headers', async () => {
    const response = await fetch(`${server.url}/.well-known/agent-economy.json`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('agent hub aliases', () => {
  it.each(HUB_ALIASES.map((a) => [a.alias, a.routeId] as const))('%s redirects permanently to the canonical URL', async (alias, routeId) => {
    const route = allRoutes().find((r) => r.id === routeId)!;
    const concrete = alias.replace('{id}', 'abc123');
    const response = await request(`${server.url}${concrete}?x=1`, { headers: { host: hubHost } });
    await response.body.dump();
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe(`${site.base_url}${route.path.replace('{id}', 'abc123')}?x=1`);
  });

  it('keeps method and body for POST aliases (308) and 404s an unknown alias', async () => {
    const post = await request(`${server.url}/policy-check`, { method: 'POST', headers: { host: hubHost, 'content-type': 'application/json' }, body: '{}' });
    await post.body.dump();
    expect(post.statusCode).toBe(308);
    const unknown = await request(`${server.url}/nothing-here`, { headers: { host: hubHost } });
    expect(unknown.statusCode).toBe(404);
    expect(((await unknown.body.json()) as { code: string }).code).toBe('unknown_alias');
  });

  it('does not redirect on the canonical host', async () => {
    const response = await fetch(`${server.url}/discovery`, { redirect: 'manual' });
    expect(response.status).toBe(200);
  });
});

describe('the shared JSON body reader', () => {
  const post = (body: string | Buffer, contentType = 'application/json') =>
    request(`${server.url}/api/agent-economy/wallet-agent/policy-check`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it.each([
    ['no JSON content type', '{}', 'text/plain', 415, 'unsupported_media_type'],
    ['an empty body', '', 'application/json', 400, 'empty_body'],
    ['a body that is not JSON', '{"a":', 'application/json', 400, 'invalid_json'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), 'application/json', 400, 'invalid_utf8'],
    ['a body over the limit', 'x'.repeat(70_000), 'application/json', 413, 'payload_too_large'],
    ['a body of the wrong shape', '{"unexpected":true}', 'application/json', 400, 'invalid_request'],
  ] as const)('refuses %s', async (_what, body, contentType, status, code) => {
    const response = await post(body as string, contentType);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toContain('application/problem+json');
    const problem = (await response.body.json()) as { code: string; status: number; type: string };
    expect(problem.code).toBe(code);
    expect(problem.status).toBe(status);
    expect(problem.type).toBe(`${site.base_url}/problems/#${code}`);
  });

  it('names each offending field of an invalid body', async () => {
    const response = await post(JSON.stringify({ profile: {}, proposed_action: {}, extra: 1 }));
    const problem = (await response.body.json()) as { errors: Array<{ path: string }> };
    const paths = problem.errors.map((e) => e.path);
    expect(paths).toContain('/extra');
    expect(paths.some((p) => p.startsWith('/profile/'))).toBe(true);
    expect(paths.some((p) => p.startsWith('/proposed_action/'))).toBe(true);
  });
});

describe('answers written together', () => {
  it('answers requests pipelined on one connection in their order, each whole', async () => {
    // Route answers wait for the end of the event loop's turn (batched-ends.ts); a static file does
    // not. On one connection they must still go out in the order asked, none cut or merged.
    const policy = JSON.parse(await (await fetch(`${server.url}/api/agent-economy/wallet-agent/policy-check`)).text()) as { example_request: unknown };
    const example = JSON.stringify(policy.example_request);
    const post = (path: string, body: string, id: string) =>
      `POST ${path} HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const requests = [
      post('/api/agent-economy/wallet-agent/policy-check', example, 'one'),
      'GET /api/agents/registry HTTP/1.1\r\nHost: x\r\nX-Request-Id: two\r\n\r\n',
      post('/api/agent-economy/wallet-agent/policy-check', '{"a":', 'three'),
      'HEAD /api/jobs HTTP/1.1\r\nHost: x\r\nX-Request-Id: four\r\n\r\n',
      post('/api/dev/tools', JSON.stringify({ action: 'hash', input: 'agent-economy', encoding: 'utf8', network: 'testnet' }), 'five'),
    ];
    const { port, hostname } = new URL(server.url);
    const raw = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = net.connect(Number(port), hostname, () => socket.end(requests.join('')));
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('close', () => resolve(received));
      // A reset after answers arrived (the server closed while this side still wrote a body it
      // would not read, as after a 413, which happens under load) ends the exchange like a close;
      // a reset before any answer is still the failure.
      socket.on('error', (error) => (received ? resolve(received) : reject(error)));
    });
    const answers: Array<{ status: number; id: string; body: string }> = [];
    for (let rest = raw; rest.length > 0; ) {
      const headEnd = rest.indexOf('\r\n\r\n');
      const head = rest.slice(0, headEnd);
      // The fourth is the HEAD: its content-length is the GET's, with no body.
      const length = answers.length === 3 ? 0 : Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      answers.push({ status: Number(head.slice(9, 12)), id: /x-request-id: (\S+)/i.exec(head)?.[1] ?? '', body: rest.slice(headEnd + 4, headEnd + 4 + length) });
      rest = rest.slice(headEnd + 4 + length);
    }
    expect(answers.map(({ status, id }) => `${id} ${status}`)).toEqual(['one 200', 'two 200', 'three 400', 'four 200', 'five 200']);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ type: 'svc.agent_economy.wallet_agent_policy_verdict.v0', allowed: true });
    expect(JSON.parse(answers[1]!.body)).toMatchObject({ type: 'svc.agent_economy.agent_service_registry.v0' });
    expect(JSON.parse(answers[2]!.body)).toMatchObject({ code: 'invalid_json' });
    expect(JSON.parse(answers[4]!.body)).toMatchObject({ action: 'hash', result: { algorithm: 'blake2b256' } });
  });

  /** Everything the server sends back on one connection to `writes`, written one after the other at once, until it closes. */
  const exchange = (...writes: string[]) =>
    new Promise<string>((resolve, reject) => {
      const { port, hostname } = new URL(server.url);
      let received = '';
      const socket = net.connect(Number(port), hostname, () => writes.forEach((bytes) => socket.write(bytes)));
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('close', () => resolve(received));
      // A reset after answers arrived (the server closed while this side still wrote a body it
      // would not read, as after a 413, which happens under load) ends the exchange like a close;
      // a reset before any answer is still the failure.
      socket.on('error', (error) => (received ? resolve(received) : reject(error)));
    });

  it('answers a request followed by bytes that are no request, then closes: the good one gets its own answer, not a 400', async () => {
    const example = JSON.stringify((JSON.parse(await (await fetch(`${server.url}/api/agent-economy/wallet-agent/policy-check`)).text()) as { example_request: unknown }).example_request);
    const good = {
      'GET (batched)': 'GET /api/assistant/terms HTTP/1.1\r\nHost: x\r\n\r\n',
      'POST (answered once its body is read)': `POST /api/agent-economy/wallet-agent/policy-check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(example)}\r\n\r\n${example}`,
      'GET with Connection: close': 'GET /api/assistant/terms HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    };
    for (const [what, request] of Object.entries(good)) {
      for (const [after, bytes] of Object.entries({ garbage: 'NOT HTTP AT ALL\r\n\r\n', 'a bad header': 'GET / HTTP/1.1\r\nBad Header Line\r\n\r\n' })) {
        const received = await exchange(request + bytes);
        expect(received.slice(0, 15), `${what} + ${after}`).toBe('HTTP/1.1 200 OK');
        const length = Number(/content-length: (\d+)/i.exec(received)?.[1]);
        expect(received.length - received.indexOf('\r\n\r\n') - 4, `${what} + ${after}: one whole answer`).toBe(length);
      }
    }
    // Bytes that are no request on a connection with nothing else still get Node's 400.
    expect(await exchange('NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it('answers nothing after a 413 on its connection, which closes', async () => {
    const big = 'x'.repeat(70_000);
    for (const path of ['/api/dev/tools', '/api/agents/publish']) {
      for (let round = 0; round < 10; round++) {
        const received = await exchange(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n${big}`,
          'GET /api/assistant/terms HTTP/1.1\r\nHost: x\r\n\r\n',
        );
        // An answer's head follows the one before it directly, not on a line of its own.
        expect(received.match(/HTTP\/1\.1 \d{3} /g), `${path}, round ${round}`).toEqual(['HTTP/1.1 413 ']);
      }
    }
  });
});
