/**
 * The typed client package (packages/client) works, as an integrator would use it: its types are
 * exactly what openapi-typescript generates with its default options from the built OpenAPI
 * document; a program calling every GET and POST operation of the site through it (POST bodies are
 * the document's own request examples; the dev tool call leaves out `encoding` and `network`, whose
 * defaults make them optional) type-checks with tsc; and the same calls, made through it against the
 * running built server, answer as documented.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientTypes } from '../../scripts/client-types.mjs';
import { createAgentEconomyClient } from '../../packages/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_DIR, ROOT, startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { requestBodyOf } from '../helpers/openapi-components.ts';

const document = JSON.parse(readFileSync(join(DIST_DIR, 'client/agent-economy/openapi.v0.json'), 'utf8')) as {
  paths: Record<string, Record<string, any> & { servers?: unknown }>;
};
/** Inside node_modules so the program resolves openapi-fetch; removed afterwards. */
const WORK_DIR = join(ROOT, 'node_modules', '.cache', `typed-client-${process.pid}`);

interface Call {
  method: 'GET' | 'POST';
  path: string;
  /** Source text of the call's options, as the program writes it. */
  options: string;
  body?: unknown;
  params?: { path?: Record<string, string>; query?: Record<string, string> };
}

/** One call per operation the site itself answers (the MCP host's own paths are left to it). */
function calls(): Call[] {
  const list: Call[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (item.servers) continue;
    if (item.get) {
      const params = path.includes('{') ? Object.fromEntries([...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => [name!, 'e'.repeat(64)])) : undefined;
      // A required query parameter gets its first allowed value, or a name nothing has.
      const required = ((item.get as { parameters?: Array<{ name: string; in: string; required?: boolean; schema?: { enum?: string[] } }> }).parameters ?? []).filter((parameter) => parameter.in === 'query' && parameter.required);
      const query = required.length ? Object.fromEntries(required.map((parameter) => [parameter.name, parameter.schema?.enum?.[0] ?? 'nobody'])) : undefined;
      const all = { ...(params ? { path: params } : {}), ...(query ? { query } : {}) };
      list.push({ method: 'GET', path, options: params || query ? `{ params: ${JSON.stringify(all)} }` : '{}', ...(params || query ? { params: all } : {}) });
    }
    if (item.post) {
      const example = requestBodyOf(document, item.post)?.content?.['application/json']?.examples?.published?.value;
      // The dev tool call relies on the defaults of `encoding` and `network`: the generated type must not require them.
      const body = path === '/api/dev/tools' ? { action: 'hash', input: 'abc' } : example;
      list.push({ method: 'POST', path, options: `{ body: ${JSON.stringify(body)} }`, body });
    }
  }
  return list;
}

describe('a client generated from the OpenAPI document', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startBuiltServer({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTE_PER_MINUTE: '1000', RATE_LIMIT_CHAT_PER_MINUTE: '1000' });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(WORK_DIR, { recursive: true, force: true });
  });

  it('carries the types openapi-typescript generates by default from the built document (npm run client:generate)', async () => {
    expect(readFileSync(join(ROOT, 'packages/client/schema.d.ts'), 'utf8') === (await clientTypes(document)), 'packages/client/schema.d.ts is stale: run npm run client:generate').toBe(true);
  });

  it('type-checks a program calling every GET and POST operation through the package', async () => {
    mkdirSync(WORK_DIR, { recursive: true });
    const list = calls();
    expect(list.filter((call) => call.method === 'POST').length).toBeGreaterThanOrEqual(9);
    writeFileSync(
      join(WORK_DIR, 'client.ts'),
      [
        `import { createAgentEconomyClient } from ${JSON.stringify(join(ROOT, 'packages/client/index.js'))};`,
        "const client = createAgentEconomyClient({ baseUrl: process.env.BASE_URL ?? 'http://127.0.0.1' });",
        'export async function callEverything(): Promise<number> {',
        '  let answered = 0;',
        ...list.map((call) => `  if ((await client.${call.method}(${JSON.stringify(call.path)}, ${call.options})).response.ok) answered++;`),
        '  return answered;',
        '}',
      ].join('\n'),
    );
    writeFileSync(join(WORK_DIR, 'package.json'), '{ "type": "module" }');
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', 'client.ts'],
      { cwd: WORK_DIR, encoding: 'utf8', timeout: 120_000 },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 180_000);

  it('answers every call made through the package as the document says', async () => {
    const client = createAgentEconomyClient({ baseUrl: server.url }) as any;
    for (const call of calls()) {
      // Only the status is judged here; some documents are text (llms.txt), so nothing is parsed.
      const options = { parseAs: 'text' as const, ...(call.method === 'POST' ? { body: call.body } : call.params ? { params: call.params } : {}) };
      const { response } = call.method === 'GET' ? await client.GET(call.path, options) : await client.POST(call.path, options);
      const operation = document.paths[call.path]![call.method.toLowerCase()];
      const documented = Object.keys(operation.responses);
      const status = String(response.status);
      expect(documented.includes(status) || (status.startsWith('4') && documented.includes('4XX')), `${call.method} ${call.path} answered ${status}, documented ${documented.join(', ')}`).toBe(true);
    }
  }, 120_000);
});
