/**
 * A PostgreSQL cluster and a Redis server of a test's own, made from the machine's binaries, that
 * the test may stop and start at will: stopping the shared ones on 5432/6379 would break every
 * other suite running in parallel. Both are real servers stopped the real way (`pg_ctl stop`,
 * Redis `SHUTDOWN`). Missing binaries skip the tests that need them, or fail them when CI=true.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { closedPort } from './services.ts';

const run = promisify(execFile);

/** Whether `name` is available; with CI=true a missing one throws, since .ci/run installs it. */
function gate(name: string, found: boolean, hint: string): boolean {
  if (found) return true;
  if (process.env.CI === 'true') throw new Error(`${name} is required when CI=true: ${hint}`);
  console.warn(`[skipped] ${name} fault tests: ${hint} (they are required when CI=true)`);
  return false;
}

/** The newest installed PostgreSQL's bin directory (Debian: /usr/lib/postgresql/<major>/bin). */
function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((entry) => existsSync(join(root, entry, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(root, majors[0]!, 'bin') : undefined;
}

export const postgresBinariesAvailable = (): boolean => gate('PostgreSQL binaries', postgresBinDir() !== undefined, 'no /usr/lib/postgresql/*/bin/pg_ctl');
export const redisBinaryAvailable = (): boolean =>
  gate('redis-server', ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].some((path) => existsSync(path)), 'no redis-server on this machine');

export interface DisposablePostgres {
  url: string;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  destroy: () => Promise<void>;
}

/** initdb and start a cluster on a free loopback port (trust auth, user postgres, database postgres). */
export async function startDisposablePostgres(): Promise<DisposablePostgres> {
  const bin = postgresBinDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'pg-fault-'));
  const data = join(dir, 'data');
  // PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres account.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const pg = (tool: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args));
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await closedPort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => void (await pg('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']));
  const stop = async () => void (await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']));
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface DisposableRedis {
  url: string;
  port: number;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** redis-cli against this server (its stdout). */
  cli: (...args: string[]) => Promise<string>;
}

/** redis-server on a free loopback port, without persistence. */
export async function startDisposableRedis(): Promise<DisposableRedis> {
  const port = await closedPort();
  let child: ChildProcess | undefined;
  const cli = async (...args: string[]) => (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout.trim();
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const deadline = Date.now() + 15_000;
    while ((await cli('ping').catch(() => '')) !== 'PONG') {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within 15 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // SHUTDOWN closes the connection without a reply, so redis-cli may report an error: the exit is what counts.
    await cli('shutdown', 'nosave').catch(() => undefined);
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start, cli };
}
