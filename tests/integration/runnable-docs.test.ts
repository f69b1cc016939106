/**
 * The commands the docs mark as runnable work as copied, on ports other than the defaults. A fenced
 * block right after `<!-- runnable -->` is shell, run with the blocks marked before it in the same
 * file as one terminal would run them (`set -euo pipefail`, in a scratch folder inside the checkout
 * so `npm run` finds the project); `<!-- runnable: node -->` is an ES module run by node from the
 * checkout's root; `<!-- runnable: services -->` is how the docs start the services, which this test
 * starts itself the same way: the sandbox chain, and the built site with the MCP host, with the
 * variables that block sets. Only PORT, MCP_PORT and SANDBOX_PORT are given to the commands, as a
 * reader who exported them would have, with the machine's way to the npm registry (its proxy and
 * certificates: `npx` fetches the MCP Inspector); BASE, SANDBOX_URL and MCP are left for the commands
 * to derive.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/paid-turn.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

interface Block {
  kind: 'shell' | 'node' | 'services';
  text: string;
  line: number;
}

/** The marked blocks of a Markdown file, in order. */
export function runnableBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let at = 0; at < lines.length; at++) {
    const marker = /^<!-- runnable(?:: (node|services))? -->$/.exec(lines[at]!.trim());
    if (!marker) continue;
    const fence = /^```(\w*)$/.exec(lines[at + 1]?.trim() ?? '');
    if (!fence) throw new Error(`line ${at + 1}: a runnable marker must stand right above a fenced block`);
    const end = lines.findIndex((line, index) => index > at + 1 && line.trim() === '```');
    blocks.push({ kind: (marker[1] as 'node' | 'services' | undefined) ?? 'shell', text: lines.slice(at + 2, end).join('\n'), line: at + 2 });
    at = end;
  }
  return blocks;
}

/** The files whose blocks may be marked: the README, docs/ and the packages' READMEs. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
  ...readdirSync(join(ROOT, 'packages')).map((name) => `packages/${name}/README.md`),
].filter((path) => existsSync(join(ROOT, path)));

/** The variables the services block sets on the line that runs `npm start`, continuation lines joined. */
function serviceVariables(block: Block): Record<string, string> {
  const start = block.text.replace(/\\\n/g, ' ').split('\n').find((line) => /\bnpm start\b/.test(line));
  if (!start) throw new Error('the services block runs no npm start');
  return Object.fromEntries([...start.matchAll(/\b([A-Z][A-Z0-9_]*)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

/**
 * Runs a command to its end without blocking this process: the sandbox chain answers from it.
 * Killed after two minutes.
 */
function run(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** What each document's blocks must print, beyond finishing without an error. */
const PRINTS: Record<string, RegExp[]> = {
  'README.md': [/"tier":"premium"/, /"status":"settled_on_chain"/, /"success":true/, /"name": "search_docs"/, /"name": "check_wallet_action"/, /Which registers must a Note carry\?/],
  'docs/deployment.md': [/^"0\.\d+\.\d+"$/m, /reconcile/i],
  'packages/x402-ergo/README.md': [/^200 > /m],
};

describe('runnable blocks of the docs', () => {
  let stack: Stack;
  let env: Record<string, string>;
  const scratch = mkdtempSync(join(ROOT, '.runnable-docs-'));
  const marked = DOCUMENTS.map((path) => ({ path, blocks: runnableBlocks(readFileSync(join(ROOT, path), 'utf8')) })).filter(({ blocks }) => blocks.length > 0);

  beforeAll(async () => {
    const services = marked.flatMap(({ blocks }) => blocks).filter((block) => block.kind === 'services');
    expect(services).toHaveLength(1);
    const variables = serviceVariables(services[0]!);
    // The explorer it names is the sandbox's own port, which this test chooses.
    expect(variables.ERGO_EXPLORER_URL).toBe('http://127.0.0.1:${SANDBOX_PORT:-4323}');
    const { ERGO_EXPLORER_URL: _explorer, ...rest } = variables;
    stack = await startStack({ withMcp: true, env: rest });
    const port = (url: string) => new URL(url).port;
    env = {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/root',
      // How this machine reaches the npm registry (its proxy and certificates), as a reader's terminal does: `npx` fetches the MCP Inspector.
      ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => /^(NODE_EXTRA_CA_CERTS|(HTTPS?|NO)_PROXY|(https?|no)_proxy|npm_config_(registry|cafile|proxy|https_proxy|strict_ssl))$/.test(entry[0]) && entry[1] !== undefined)),
      PORT: port(stack.server.url),
      MCP_PORT: port(stack.mcpUrl!),
      SANDBOX_PORT: port(stack.sandbox.url),
    };
    for (const value of [env.PORT, env.MCP_PORT, env.SANDBOX_PORT]) expect(['4321', '4322', '4323']).not.toContain(value);
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('are marked in the README, the deployment guide and the x402 package README, and only above fenced blocks', () => {
    expect(marked.map(({ path }) => path)).toEqual(expect.arrayContaining(['README.md', 'docs/deployment.md', 'packages/x402-ergo/README.md']));
    expect(() => runnableBlocks('<!-- runnable -->\nnot a fence\n')).toThrow(/right above a fenced block/);
  });

  const commands = marked.filter(({ blocks }) => blocks.some((block) => block.kind !== 'services'));
  it.each(commands.map(({ path }) => path))('%s: every marked block runs as copied and prints what it says', async (path) => {
    const blocks = commands.find((entry) => entry.path === path)!.blocks.filter((block) => block.kind !== 'services');
    let printed = '';
    const shell = blocks.filter((block) => block.kind === 'shell');
    if (shell.length > 0) {
      const script = ['set -euo pipefail', ...shell.map((block) => `# ${path}:${block.line}\n${block.text}`)].join('\n');
      // A deployment's docs name its public origin: here, the server this test started.
      const ran = await run('bash', ['-c', script], { cwd: scratch, env: path.startsWith('docs/deployment') ? { ...env, BASE: stack.server.url } : env });
      expect(ran.status, `${path}: ${ran.stderr}`).toBe(0);
      printed += ran.stdout;
    }
    for (const block of blocks.filter((entry) => entry.kind === 'node')) {
      const ran = await run('node', ['--input-type=module', '-e', block.text], { cwd: ROOT, env });
      expect(ran.status, `${path}:${block.line}: ${ran.stderr}`).toBe(0);
      printed += ran.stdout;
    }
    expect(PRINTS[path], `${path}: say what its blocks print`).toBeDefined();
    for (const expected of PRINTS[path]!) expect(printed, path).toMatch(expected);
  }, 240_000);
});
