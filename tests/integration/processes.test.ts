/**
 * Processes that behave: `npm start` passes SIGTERM and SIGINT on to the server it runs and exits
 * with it, leaving nothing behind; a port in use is said in one line by `npm start` and
 * `npm run serve`; and a server listening elsewhere than its build names warns so.
 *
 * `npm start` here runs the build on disk as it is: the test first asks the same plan `npm start`
 * follows whether a rebuild would be due, and fails (rather than rebuild dist/ under the other tests)
 * when it would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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

/** `npm start` on `port` with the build's own base URL, so it serves the build on disk as it is. */
function npmStart(port: number): Npm {
  const env = { PORT: String(port), SITE_BASE_URL: built!.base_url, SITE_AGENT_HUB_URL: built!.agent_hub_url, SITE_MCP_URL: built!.mcp_url };
  const plan = planStart(ROOT, { ...process.env, ...env });
  if (plan.rebuild) throw new Error(`npm start would rebuild (${plan.rebuild}): run npm run build before this test`);
  return npm('start', env);
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('passes %s on to the server and exits with it, leaving nothing listening', async (signal) => {
    const port = await closedPort();
    const started = npmStart(port);
    await until(() => started.stdout().includes('"msg":"listening"'), () => started.stderr());
    expect(await answers(port)).toBe(true);
    // The build names another origin than this one: the server says so once, on stderr.
    expect(started.stderr()).toContain('"msg":"origin mismatch"');
    expect(started.stderr()).toContain(`listens on http://127.0.0.1:${port}`);

    started.child.kill(signal);
    expect(await started.exited).toBe(0);
    expect(await answers(port)).toBe(false);
  });

  it('says in one line that the port is in use, and exits 1', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      for (const run of [() => npmStart(port), () => npm('serve', { PORT: String(port) })]) {
        const refused = run();
        expect(await refused.exited).toBe(1);
        const lines = refused.stderr().trim().split('\n').filter((line) => !line.includes('"origin mismatch"'));
        expect(lines).toEqual([`server: 127.0.0.1:${port} is already in use: stop the process listening there, or set PORT (and HOST) to a free address`]);
      }
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
