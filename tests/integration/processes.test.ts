/**
 * Processes that behave: `npm start` runs the site and the MCP host, says where, passes SIGTERM and
 * SIGINT on to them and exits with them, leaving nothing behind; a port in use (the site's or the MCP
 * host's) is said in one line by `npm start`, before it builds anything, and by `npm run serve`; and
 * a server or MCP host listening elsewhere than its build names warns so.
 *
 * `npm start` here runs the build on disk as it is: the test first asks the same plan `npm start`
 * follows whether a rebuild would be due, and fails (rather than rebuild dist/ under the other tests)
 * when it would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { planStart } from '../../src/build/start-plan.ts';
import { readBuildOrigin } from '../../src/config/build-origin.ts';
import { ROOT } from '../helpers/built-server.ts';
import { closedPort } from '../helpers/services.ts';

vi.setConfig({ testTimeout: 60_000 });

const parent = mkdtempSync(join(tmpdir(), 'processes-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const built = readBuildOrigin(join(ROOT, 'dist'));

interface Npm {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function npm(script: string, env: Record<string, string>): Npm {
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn', DATA_DIR: mkdtempSync(join(parent, 'data-')), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function until(condition: () => boolean, what: () => string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const answers = async (port: number): Promise<boolean> =>
  fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  );

/** `npm start` on `port` (and the MCP host on `mcpPort`) with the build's own base URL, so it serves the build on disk as it is. */
function npmStart(port: number, mcpPort: number): Npm {
  const env = { PORT: String(port), MCP_PORT: String(mcpPort), SITE_BASE_URL: built!.base_url, SITE_AGENT_HUB_URL: built!.agent_hub_url, SITE_MCP_URL: built!.mcp_url };
  const plan = planStart(ROOT, { ...process.env, ...env });
  if (plan.rebuild) throw new Error(`npm start would rebuild (${plan.rebuild}): run npm run build before this test`);
  return npm('start', env);
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('passes %s on to the server and exits with it, leaving nothing listening', async (signal) => {
    const [port, mcpPort] = [await closedPort(), await closedPort()];
    const started = npmStart(port, mcpPort);
    await until(() => started.stdout().includes('serving the site'), () => started.stderr());
    expect(await answers(port)).toBe(true);
    // The MCP host runs beside the site, and the addresses are said as a person copies them.
    expect((await fetch(`http://127.0.0.1:${mcpPort}/health`)).status).toBe(200);
    expect(started.stdout()).toContain(`serving the site at http://127.0.0.1:${port}/ and the MCP host at http://127.0.0.1:${mcpPort}/mcp; Ctrl-C stops both`);
    // The build names other origins than these: the site and the MCP host each say so once, on stderr.
    expect(started.stderr()).toContain(`listens on http://127.0.0.1:${port}`);
    expect(started.stderr()).toContain(`the build names the MCP host ${built!.mcp_url} in its descriptors (server.json, discovery), but it listens on http://127.0.0.1:${mcpPort}`);

    started.child.kill(signal);
    expect(await started.exited).toBe(0);
    expect(await answers(port)).toBe(false);
    expect(await fetch(`http://127.0.0.1:${mcpPort}/health`).then(() => true, () => false)).toBe(false);
  });

  it('says in one line that the port is in use, and exits 1', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      for (const run of [() => npmStart(port, 0), () => npm('serve', { PORT: String(port) })]) {
        const refused = run();
        expect(await refused.exited).toBe(1);
        const lines = refused.stderr().trim().split('\n').filter((line) => !line.includes('"origin mismatch"'));
        expect(lines).toEqual([`server: 127.0.0.1:${port} is already in use: stop the process listening there, or set PORT (and HOST) to a free address`]);
      }
    } finally {
      blocker.close();
    }
  });

  it('tries both ports before building: a busy site or MCP port leaves a stale dist/ as it was', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as { port: number }).port;
    const free = await closedPort();
    const watched = ['server/fast-entry.mjs', 'client/.well-known/mcp/server.json', 'server/build-origin.json'].map((file) => join(ROOT, 'dist', file));
    const before = watched.map((file) => [statSync(file).mtimeMs, readFileSync(file, 'utf8')]);
    try {
      // No SITE_* variables: the origins follow the ports, which the build on disk was not made for, so a start that got that far would rebuild.
      for (const [port, mcpPort, variable] of [[busy, free, 'PORT (and HOST)'], [free, busy, 'MCP_PORT (and HOST)']] as const) {
        expect(planStart(ROOT, { ...process.env, PORT: String(port), MCP_PORT: String(mcpPort), SITE_BASE_URL: '', SITE_MCP_URL: '', SITE_AGENT_HUB_URL: '' }).rebuild).toBeDefined();
        const refused = npm('start', { PORT: String(port), MCP_PORT: String(mcpPort), SITE_BASE_URL: '', SITE_MCP_URL: '', SITE_AGENT_HUB_URL: '' });
        expect(await refused.exited).toBe(1);
        expect(refused.stdout()).not.toContain('building for');
        expect(refused.stderr().trim()).toBe(`server: 127.0.0.1:${busy} is already in use: stop the process listening there, or set ${variable} to a free address`);
      }
      expect(watched.map((file) => [statSync(file).mtimeMs, readFileSync(file, 'utf8')])).toEqual(before);
    } finally {
      blocker.close();
    }
  });

  it('refuses a malformed PORT in one line naming it', async () => {
    const refused = npm('start', { PORT: 'eighty' });
    expect(await refused.exited).toBe(1);
    expect(refused.stderr().trim()).toBe('server: server configuration: PORT must be a whole number of port from 0 to 65535');
  });
});
