/**
 * Starts the stack once for the browser tests: the sandbox chain (`npm run sandbox`) and the built
 * production server pointed at it, each on a free loopback port, with a private store. Their URLs
 * reach the tests through E2E_BASE_URL and E2E_SANDBOX_URL. Without the sandbox module the server
 * starts on its defaults and the paid-turn test says why it is skipped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuiltServer } from '../helpers/built-server.ts';

interface Sandbox {
  url: string;
  close(): Promise<void>;
}

async function startSandboxIfPresent(): Promise<{ sandbox?: Sandbox; reason?: string }> {
  try {
    const { startSandbox } = await import('../../src/sandbox/server.ts');
    return { sandbox: await startSandbox({ port: 0, startHeight: 2_000 }) };
  } catch (error) {
    return { reason: `the sandbox chain (src/sandbox/server.ts) could not start: ${(error as Error).message}` };
  }
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'issue8-e2e-'));
  let stopping = false;
  const { sandbox, reason } = await startSandboxIfPresent();
  const { RECEIVER, RESERVE } = await import('../helpers/paid-turn.ts').catch(() => ({ RECEIVER: '', RESERVE: '' }));
  const server = await startBuiltServer({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(sandbox && RECEIVER
      ? {
          CHAIN_SOURCE: 'sandbox',
          ERGO_EXPLORER_URL: sandbox.url,
          ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
          ASSISTANT_RESERVE_BOX_ID: RESERVE,
          RATE_LIMIT_QUOTE_PER_MINUTE: '10000',
          RATE_LIMIT_CHAT_PER_MINUTE: '10000',
          RATE_LIMIT_VERIFY_PER_MINUTE: '10000',
        }
      : {}),
  });
  let stderrTail = '';
  server.process.stderr?.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-4000)));
  server.process.once('exit', (code, signal) => {
    if (!stopping) console.error(`e2e: the built server exited early (code ${code}, signal ${signal}); its last output:\n${stderrTail}`);
  });
  // The embedded store opens in the background after `listening`; let it finish before browsers
  // start competing for the CPU, so the first page of every worker is not the one that waits.
  for (const path of ['/', '/api/agent-economy/live', '/api/agent-economy/proofs']) await (await fetch(`${server.url}${path}`)).arrayBuffer();
  process.env.E2E_BASE_URL = server.url;
  if (sandbox) process.env.E2E_SANDBOX_URL = sandbox.url;
  else process.env.E2E_SANDBOX_SKIP_REASON = reason ?? 'the sandbox chain is not part of this build';
  return async () => {
    stopping = true;
    await server.stop();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
