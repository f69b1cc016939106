/**
 * A whole stack for the MCP, live-status, proof and CLI tests: the sandbox chain, the built server
 * pointed at it (optionally hosting the MCP server in process), and one paid turn carried out the
 * way a client does it (quote, Note minted on the sandbox, verify-payment), so a real receipt
 * bundle is stored. Also the standalone built MCP host (`dist/server/mcp.mjs`).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { payQuote } from '../../src/sandbox/pay.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { DIST_DIR, startBuiltProcess, startBuiltServer, type RunningServer } from './built-server.ts';

export const RECEIVER = '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt';
export const RESERVE = '5a'.repeat(32);
/** Longer than the free tier's 200 characters, so the quote is premium. */
export const PREMIUM_QUESTION = 'How is a receipt bundle of a paid turn verified, hash by hash, and what does the Note binding prove? '.repeat(3);
/**
 * A premium question of its own (its own task hash) that the site answers: a test's label or a long
 * random tag would be words the site does not know, and a quote is refused for a question the site
 * does not answer (question_unanswerable) once they outweigh the rest.
 */
export const uniquePremiumQuestion = (): string => `${PREMIUM_QUESTION}Turn ${randomBytes(6).toString('hex')}.`;

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

/**
 * The environment of a built server that takes Note payments on the sandbox at `sandboxUrl`: its own
 * embedded store in `dataDir`, memory rate limits raised out of the way, the docs model provider,
 * quiet logs. `overrides` set the rest (receiver, confirmations, a PostgreSQL, faults...).
 */
export function sandboxServerEnv(sandboxUrl: string, dataDir: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    ERGO_EXPLORER_URL: sandboxUrl,
    ERGO_NODE_URL: '',
    CHAIN_SOURCE: 'sandbox',
    ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
    ASSISTANT_RESERVE_BOX_ID: RESERVE,
    ASSISTANT_MODEL_PROVIDER: 'docs',
    RATE_LIMIT_QUOTE_PER_MINUTE: '100000',
    RATE_LIMIT_CHAT_PER_MINUTE: '100000',
    RATE_LIMIT_VERIFY_PER_MINUTE: '100000',
    ...overrides,
  };
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** The sandbox and the built server configured to take Note payments on it. */
export async function startStack(options: { withMcp?: boolean; env?: Record<string, string> } = {}): Promise<Stack> {
  const sandbox = await startSandbox({ port: 0, startHeight: 3_000 });
  const dataDir = mkdtempSync(join(tmpdir(), 'issue7-stack-'));
  const env = {
    DATA_DIR: dataDir,
    CHAIN_SOURCE: 'sandbox',
    ERGO_EXPLORER_URL: sandbox.url,
    ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
    ASSISTANT_RESERVE_BOX_ID: RESERVE,
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  let server: RunningServer;
  let mcpUrl: string | undefined;
  if (options.withMcp) {
    // The MCP host in the site process, on a port of its own choosing (MCP_PORT=0): both listening lines name the URLs.
    const started = await startBuiltProcess(`${DIST_DIR}/server/fast-entry.mjs`, { ...env, PORT: '0', MCP_WITH_SITE: 'true', MCP_PORT: '0' }, ['listening', 'mcp listening']);
    server = { url: started.urls['listening']!, process: started.process, stop: started.stop };
    mcpUrl = started.urls['mcp listening']!;
  } else {
    server = await startBuiltServer(env);
  }
  const stack: Stack = {
    sandbox,
    server,
    dataDir,
    ...(mcpUrl ? { mcpUrl } : {}),
    // The server running now: a test may restart it on the same data (tests/integration/monitor.test.ts),
    // and the one it started last must not outlive the suite.
    stop: async () => {
      await stack.server.stop();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}

/** Quote, pay on the sandbox, verify: a stored receipt and an unspent payment token. */
export async function payForTurn(stack: { server: { url: string }; sandbox: { url: string } }, question = PREMIUM_QUESTION): Promise<PaidTurn> {
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
  const started = await startBuiltProcess(`${DIST_DIR}/server/mcp.mjs`, { MCP_PORT: '0', LOG_LEVEL: 'warn', ...env }, ['mcp listening']);
  return { url: started.urls['mcp listening']!, process: started.process, stop: started.stop };
}
