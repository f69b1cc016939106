/**
 * Starts the built production server (`dist/server/fast-entry.mjs`, as `npm run serve` does) on a
 * free loopback port and stops it after the suite. Contract tests talk to it over real HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** DIST_DIR lets parallel work build into its own folder (`astro build --outDir $DIST_DIR`). */
export const DIST_DIR = process.env.DIST_DIR ?? `${ROOT}dist`;
const ENTRY = `${DIST_DIR}/server/fast-entry.mjs`;

export interface RunningServer {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * `warmStore` waits until the embedded store has opened (its first open in a fresh DATA_DIR runs
 * initdb, seconds on a loaded machine), so suites that read store-backed routes do not race it.
 */
export async function startBuiltServer(env: Record<string, string> = {}, options: { warmStore?: boolean } = {}): Promise<RunningServer> {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first (npm test does).`);
  // PGlite serves one process per DATA_DIR: each server gets its own unless the test names one.
  const ownDataDir = env.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'agent-economy-data-'));
  const child = spawn(process.execPath, [ENTRY], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 15 s: ${stderr}`)), 15_000);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const record = JSON.parse(line) as { msg?: string; url?: string };
          if (record.msg !== 'listening' || !record.url) continue;
          clearTimeout(timer);
          // Drain the request log unread from here on.
          child.stdout!.off('data', onData);
          child.stdout!.resume();
          resolve(record.url);
          return;
        } catch {
          // a log line that is not JSON: keep waiting
        }
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  if (ownDataDir) child.once('exit', () => rmSync(ownDataDir, { recursive: true, force: true }));
  if (options.warmStore) await (await fetch(`${url}/api/agent-economy/live`, { signal: AbortSignal.timeout(120_000) })).arrayBuffer();
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
