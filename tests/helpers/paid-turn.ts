/**
 * A whole stack for the MCP, live-status, proof and CLI tests: the sandbox chain, the built server
 * pointed at it (optionally hosting the MCP server in process), and one paid turn carried out the
 * way a client does it (quote, Note minted on the sandbox, verify-payment), so a real receipt
 * bundle is stored. Also the standalone built MCP host (`dist/server/mcp.mjs`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { payQuote } from '../../src/sandbox/pay.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { DIST_DIR, ROOT, startBuiltServer, type RunningServer } from './built-server.ts';
import { closedPort } from './services.ts';

export const RECEIVER = '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt';
export const RESERVE = '5a'.repeat(32);
/** Longer than the free tier's 200 characters, so the quote is premium. */
export const PREMIUM_QUESTION = 'How is a receipt bundle of a paid turn verified, hash by hash, and what does the Note binding prove? '.repeat(3);

export interface PaidTurn {
  quote: Record<string, unknown>;
  receiptId: string;
  settlementTxId: string;
  noteBoxId: string;
  paymentToken: string;
  question: string;
}

export interface Stack {
  sandbox: RunningSandbox;
  server: RunningServer;
  dataDir: string;
  /** Set when the server hosts the MCP server (`withMcp`). */
  mcpUrl?: string;
  stop: () => Promise<void>;
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** The sandbox and the built server configured to take Note payments on it. */
export async function startStack(options: { withMcp?: boolean; env?: Record<string, string> } = {}): Promise<Stack> {
  const sandbox = await startSandbox({ port: 0, startHeight: 3_000 });
  const dataDir = mkdtempSync(join(tmpdir(), 'issue7-stack-'));
  const mcpPort = options.withMcp ? await closedPort() : undefined;
  const server = await startBuiltServer({
    DATA_DIR: dataDir,
    CHAIN_SOURCE: 'sandbox',
    ERGO_EXPLORER_URL: sandbox.url,
    ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
    ASSISTANT_RESERVE_BOX_ID: RESERVE,
    LOG_LEVEL: 'warn',
    ...(mcpPort ? { MCP_WITH_SITE: 'true', MCP_PORT: String(mcpPort), SITE_MCP_URL: `http://127.0.0.1:${mcpPort}` } : {}),
    ...options.env,
  });
  const mcpUrl = mcpPort ? `http://127.0.0.1:${mcpPort}` : undefined;
  if (mcpUrl) await waitForHealth(mcpUrl);
  return {
    sandbox,
    server,
    dataDir,
    ...(mcpUrl ? { mcpUrl } : {}),
    stop: async () => {
      await server.stop();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitForHealth(mcpUrl: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`${mcpUrl}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the MCP host at ${mcpUrl} did not answer /health within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Quote, pay on the sandbox, verify: a stored receipt and an unspent payment token. */
export async function payForTurn(stack: Stack, question = PREMIUM_QUESTION): Promise<PaidTurn> {
  const quote = await postJson(`${stack.server.url}/api/assistant/quote`, { question });
  if (quote.status !== 200 || quote.body.tier !== 'premium') throw new Error(`expected a premium quote, got ${quote.status} ${JSON.stringify(quote.body)}`);
  const payment = await payQuote(quote.body, { sandboxUrl: stack.sandbox.url });
  const verified = await postJson(`${stack.server.url}/api/assistant/verify-payment`, { quote: quote.body, question, noteBoxId: payment.noteBoxId });
  if (verified.status !== 200) throw new Error(`verify-payment answered ${verified.status} ${JSON.stringify(verified.body)}`);
  return {
    quote: quote.body,
    receiptId: verified.body.receiptId,
    settlementTxId: verified.body.settlementTxId,
    noteBoxId: payment.noteBoxId,
    paymentToken: verified.body.paymentToken,
    question,
  };
}

export interface McpProcess {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** The built standalone MCP host (`npm run mcp`) on a free loopback port. */
export async function startBuiltMcp(env: Record<string, string> = {}): Promise<McpProcess> {
  const child = spawn(process.execPath, [`${DIST_DIR}/server/mcp.mjs`], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', MCP_PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the MCP host did not start within 15 s: ${stderr}`)), 15_000);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const record = JSON.parse(line) as { msg?: string; url?: string };
          if (record.msg !== 'mcp listening' || !record.url) continue;
          clearTimeout(timer);
          child.stdout!.off('data', onData);
          child.stdout!.resume();
          resolve(record.url);
          return;
        } catch {
          // not a JSON line
        }
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the MCP host exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
