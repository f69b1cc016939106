/**
 * Cloudflare Pages' own local runtime (`wrangler pages dev`, workerd) serving a folder as Pages
 * would: it reads `_headers` and `_redirects` with Pages' rules engine. Offline it logs that it
 * cannot reach Cloudflare and serves anyway. It needs Node 22.12 or later (npm scripts run Node 24).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { closedPort } from './services.ts';

export interface PagesDev {
  url: string;
  stop: () => Promise<void>;
}

/** Whether this Node runs wrangler; with CI=true it must. */
export function pagesDevRuns(): boolean {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  if (major > 22 || (major === 22 && minor >= 12)) return true;
  if (process.env.CI === 'true') throw new Error(`wrangler pages dev is required when CI=true and needs Node 22.12 or later, not ${process.version}`);
  console.warn(`[skipped] Cloudflare Pages tests: wrangler needs Node 22.12 or later, not ${process.version} (run them with npm test, which runs Node 24)`);
  return false;
}

/** Serves `dir` on `port` (a free one when not given). */
export async function startPagesDev(dir: string, port?: number): Promise<PagesDev> {
  port ??= await closedPort();
  const home = mkdtempSync(join(tmpdir(), 'pages-dev-'));
  // The package exports no path to its command: found beside its package.json.
  const wrangler = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
  const child = spawn(process.execPath, [wrangler, 'pages', 'dev', dir, '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(await closedPort()), '--persist-to', join(home, 'state')], {
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', XDG_CONFIG_HOME: home, HOME: home, CI: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler pages dev did not start within 60 s: ${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`Ready on http://127.0.0.1:${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`wrangler pages dev exited with ${code}: ${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.removeAllListeners('exit');
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}
