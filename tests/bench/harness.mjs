// What the benches share: servers pinned to core 0, the load generator pinned to core 1 (when the
// machine has `taskset` and more than one core), wrk or autocannon's command line, and the
// server's resident memory and CPU time read from /proc.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeFlagsFor } from '../helpers/built-server.ts';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const pinning = cpus().length > 1 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** `command args` pinned to `core` when pinning is possible. */
export const onCore = (core, command, args) => (pinning ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]);

/**
 * A server process on core 0, with the Node flags its npm script gives it (`npm run serve`'s heap
 * sizes for the site); resolves at its `listening` line with its URL and when it started.
 */
export function start(script, env = {}, checkout = undefined) {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const [command, args] = onCore(0, process.execPath, [...nodeFlagsFor(script, checkout), script]);
    const child = spawn(command, args, { cwd: checkout?.root ?? root, env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    const onData = (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        try {
          const record = JSON.parse(line);
          if (record.msg !== 'listening') continue;
          // From here on the log is drained unread, as a log shipper would.
          child.stdout.off('data', onData);
          child.stdout.resume();
          resolve({ child, url: record.url, startedAt });
          return;
        } catch {}
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

export const stop = (child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM'))));
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** CPU time (user + system) the process has used so far, in microseconds (clock ticks of 10 ms). */
export function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * The load generator: wrk (C, epoll) when the machine has it, else autocannon's command line
 * (BENCH_LOAD=wrk|autocannon chooses). On one core of its own, autocannon parsing the site's 15
 * response headers ran out of CPU before the server did (the static case then measured the client),
 * where wrk uses about half of its core at the same rate; `load cpu` in the table says how busy
 * the generator was, so a saturated one shows.
 */
const wrkFound = spawnSync('wrk', ['--version']).error === undefined;
export const generator = process.env.BENCH_LOAD ?? (wrkFound ? 'wrk' : 'autocannon');
/** Where wrk's request script (method, content type, body) is written before each POST run. */
export const scriptDir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));

/** `command` on core 1 under bash's `time`; resolves with its stdout and the CPU seconds it used. */
export function timed(command, args) {
  const [pinned, pinnedArgs] = onCore(1, command, args);
  const quoted = [pinned, ...pinnedArgs].map((word) => `'${String(word).replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `TIMEFORMAT='%U %S'; time ${quoted}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('exit', (code) => {
      const [user, system] = err.trim().split('\n').pop().split(' ').map(Number);
      if (code === 0) resolve({ out, cpuSeconds: user + system });
      else reject(new Error(`${command} exited with ${code}: ${err}`));
    });
  });
}

/** wrk's "1.23ms" as milliseconds. */
export const wrkMs = (text) => {
  const [, value, unit] = /([\d.]+)(us|ms|s)/.exec(text);
  // Rounded to the microsecond: 691.00us is 0.691 ms, not 0.6910000000000001.
  return Math.round(Number(value) * { us: 1, ms: 1000, s: 1_000_000 }[unit]) / 1000;
};

/** One load run for `duration` seconds: requests per second and in all, p50 and p99 latency, failures, and the generator's busy share of its core. */
export async function load(target, { duration, connections }) {
  if (generator === 'wrk') {
    const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', ...Object.entries(target.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`])];
    if (target.method) {
      const script = join(scriptDir, 'post.lua');
      writeFileSync(script, `wrk.method = "${target.method}"\nwrk.headers["content-type"] = "application/json"\nwrk.body = [=====[${target.body}]=====]\n`);
      args.push('-s', script);
    } else if (target.paths) {
      // A mixed load: each request takes the next path in turn.
      const script = join(scriptDir, 'paths.lua');
      writeFileSync(script, `local paths = { ${target.paths.map((path) => `[=====[${path}]=====]`).join(', ')} }\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n`);
      args.push('-s', script);
    }
    const { out, cpuSeconds } = await timed('wrk', [...args, target.url]);
    const total = Number(/(\d+) requests in/.exec(out)[1]);
    const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1).reduce((sum, count) => sum + Number(count), 0) ?? 0;
    return {
      requests: { average: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]), total },
      latency: { p50: wrkMs(/ 50%\s+(\S+)/.exec(out)[1]), p99: wrkMs(/ 99%\s+(\S+)/.exec(out)[1]) },
      errors: socketErrors,
      non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
      loadCpu: cpuSeconds / duration,
    };
  }
  const args = [`${root}node_modules/autocannon/autocannon.js`, '--json', '-c', String(connections), '-d', String(duration)];
  if (target.method) args.push('-m', target.method, '-H', 'content-type=application/json', '-b', target.body);
  for (const [name, value] of Object.entries(target.headers ?? {})) args.push('-H', `${name}=${value}`);
  const { out, cpuSeconds } = await timed(process.execPath, [...args, target.url]);
  return { ...JSON.parse(out), loadCpu: cpuSeconds / duration };
}

/** Removes the generator's scripts. */
export const cleanUp = () => rmSync(scriptDir, { recursive: true, force: true });
