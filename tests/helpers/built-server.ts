/**
 * Starts the built production server (`dist/server/fast-entry.mjs`, as `npm run serve` does) on a
 * free loopback port and stops it after the suite. Contract tests talk to it over real HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closedPort } from './services.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** DIST_DIR lets parallel work build into its own folder (`astro build --outDir $DIST_DIR`). */
export const DIST_DIR = process.env.DIST_DIR ?? `${ROOT}dist`;
const ENTRY = `${DIST_DIR}/server/fast-entry.mjs`;

const keyFiles = new Map<string, string>();

/** A fresh Ed25519 key file (PKCS#8 PEM, mode 0600) named `name`, one per test run, removed when it exits. */
function sharedKeyFile(name: string): string {
  let file = keyFiles.get(name);
  if (!file) {
    const dir = mkdtempSync(join(tmpdir(), 'key-'));
    file = join(dir, name);
    writeFileSync(file, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    keyFiles.set(name, file);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return file;
}

/**
 * One receipt-log signing key for every server this test run starts on PostgreSQL, as a deployment
 * gives all its instances one (the server refuses to start there without LOG_SIGNING_KEY_FILE).
 */
export const sharedLogKeyFile = (): string => sharedKeyFile('log-signing-key.pem');

/**
 * Likewise one x402 signing key (offers and receipts), another than the log's: instances on one
 * PostgreSQL answer a 402 and its paid retry in turn, so the server refuses to start there without
 * X402_SIGNING_KEY_FILE.
 */
export const sharedX402KeyFile = (): string => sharedKeyFile('x402-signing-key.pem');

export interface RunningServer {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
  /** Everything the process wrote to stderr so far (crashes, warnings), for a failing test to show. */
  stderr?: () => string;
}

/**
 * The built site on a free loopback port; it has opened its embedded store by the time it listens.
 * Each server gets a DATA_DIR of its own (removed when it exits) unless the test names one.
 */
export async function startBuiltServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first (npm test does).`);
  const ownDataDir = env.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'agent-economy-data-'));
  // The MCP host this server probes is one the test names, else a closed port: the default
  // (127.0.0.1:4322) is where a newcomer's own `npm start` runs one beside the tests.
  const mcpUrl: Record<string, string> = env.SITE_MCP_URL ? {} : { SITE_MCP_URL: `http://127.0.0.1:${await closedPort()}` };
  const started = await startBuiltProcess(ENTRY, { PORT: '0', ...mcpUrl, ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}), ...env }, ['listening']);
  const url = started.urls['listening']!;
  const child = started.process;
  if (ownDataDir) child.once('exit', () => rmSync(ownDataDir, { recursive: true, force: true }));
  return { url, process: child, stop: started.stop, stderr: started.stderr };
}

/** A built checkout: its root (package.json, working directory) and the dist folder its entries are in. */
export interface Checkout {
  root: string;
  distDir: string;
}

const THIS_CHECKOUT: Checkout = { root: ROOT, distDir: DIST_DIR };

/**
 * The Node flags of the npm script that runs `entry` (`npm run serve` gives the site its heap sizes,
 * docs/performance.md "Memory"), read from package.json so tests run each entry as it is deployed.
 */
export function nodeFlagsFor(entry: string, checkout: Checkout = THIS_CHECKOUT): string[] {
  const scripts = (JSON.parse(readFileSync(join(checkout.root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const built = entry.slice(checkout.distDir.length);
  // Scripts `exec` node (no shell stays between npm and the server, so signals reach it).
  const command = Object.values(scripts).find((script) => /^(?:exec )?node /.test(script) && script.endsWith(`dist${built}`));
  return command?.split(' ').filter((word) => word.startsWith('--')) ?? [];
}

/**
 * Spawns a built entry on loopback and waits for each of `messages` as a JSON log line with a
 * `url` (the site prints `listening`, the MCP host `mcp listening`); the rest of its log is drained
 * unread. The entry belongs to this checkout unless `checkout` names another build (an older release).
 */
export async function startBuiltProcess(
  entry: string,
  env: Record<string, string>,
  messages: string[],
  checkout: Checkout = THIS_CHECKOUT,
): Promise<{ urls: Record<string, string>; process: ChildProcess; stop: () => Promise<void>; stderr: () => string }> {
  const withKeys = {
    ...(env.DATABASE_URL && !env.LOG_SIGNING_KEY_FILE ? { LOG_SIGNING_KEY_FILE: sharedLogKeyFile() } : {}),
    ...(env.DATABASE_URL && !env.X402_SIGNING_KEY_FILE ? { X402_SIGNING_KEY_FILE: sharedX402KeyFile() } : {}),
  };
  const child = spawn(process.execPath, [...nodeFlagsFor(entry, checkout), entry], { cwd: checkout.root, env: { ...process.env, HOST: '127.0.0.1', ...withKeys, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const urls: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not print ${messages.join(', ')} within 30 s: ${stderr}`));
    }, 30_000);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const record = JSON.parse(line) as { msg?: string; url?: string };
          if (record.msg && record.url && messages.includes(record.msg)) urls[record.msg] = record.url;
        } catch {
          // a log line that is not JSON: keep waiting
        }
      }
      if (messages.every((message) => urls[message])) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${stderr}`)));
  });
  return {
    urls,
    process: child,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        // Ended already, by exiting or by a signal (a test's SIGKILL): nothing to wait for.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
