/**
 * Starts the built production server (`dist/server/fast-entry.mjs`, as `npm run serve` does) on a
 * free loopback port and stops it after the suite. Contract tests talk to it over real HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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

export async function startBuiltServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first (npm test does).`);
  const child = spawn(process.execPath, [ENTRY], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
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
