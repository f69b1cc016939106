/**
 * Issue 52, "derive, don't write": the developer services index says of each endpoint whether this
 * build answers it (`available`); `false` would mean it answers 501 Not Implemented. Every entry is
 * asked here, on the built site and on the MCP host it runs beside it, with its own method (a POST
 * with an empty JSON object, a path parameter filled with a value that names nothing): whatever it
 * answers (a 400 naming the field, a 404, a 402), it is 501 exactly when the index says unavailable.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { closedPort } from '../helpers/services.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

interface Service {
  id: string;
  method: 'GET' | 'POST';
  url: string;
  host: 'site' | 'mcp';
  available: boolean;
}

let server: RunningServer;
let mcpOrigin: string;

beforeAll(async () => {
  const mcpPort = await closedPort();
  mcpOrigin = `http://127.0.0.1:${mcpPort}`;
  server = await startBuiltServer({ MCP_WITH_SITE: 'true', MCP_PORT: String(mcpPort), SITE_MCP_URL: mcpOrigin });
});
afterAll(async () => server?.stop());

describe('the developer services index says which endpoints this build answers', () => {
  it('lists an endpoint as unavailable exactly when it answers 501, asked on its own host with its own method', async () => {
    const index = (await (await fetch(`${server.url}/api/dev/services`)).json()) as { services: Service[] };
    expect(index.services.length).toBeGreaterThan(40);
    const answers: Array<{ id: string; status: number; available: boolean }> = [];
    for (const service of index.services) {
      const url = new URL(service.url.replace(/\{[^}]+\}/g, '0'.repeat(64)));
      const origin = service.host === 'mcp' ? mcpOrigin : server.url;
      const response = await fetch(`${origin}${url.pathname}${url.search}`, {
        method: service.method,
        headers: service.method === 'POST' ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {},
        body: service.method === 'POST' ? '{}' : undefined,
        signal: AbortSignal.timeout(15_000),
      });
      await response.body?.cancel();
      answers.push({ id: service.id, status: response.status, available: service.available });
    }
    expect(answers.filter((answer) => (answer.status === 501) === answer.available)).toEqual([]);
    // Both hosts were asked, and none of them answered with a server error.
    expect(new Set(index.services.map((service) => service.host))).toEqual(new Set(['site', 'mcp']));
    expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 501 && answer.status !== 503)).toEqual([]);
  });
});
