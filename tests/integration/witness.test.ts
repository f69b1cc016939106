/**
 * Witnesses as their own processes (issue 51): two `agent-economy witness serve` cosign the log's
 * checkpoints, the log publishes them with both cosignatures (LOG_WITNESSES, LOG_WITNESS_QUORUM), a
 * reader's `verify-receipt` and `monitor` pass with the witnesses' keys and fail with a quorum they do
 * not meet, and a witness refuses the review's rewrite (the same size with another root), before and
 * after a restart on its state file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkCosignatures, parseCosignerKey } from '../../src/domain/tlog/cosignature.ts';
import { formatCheckpoint, openCheckpoint, signCheckpoint } from '../../src/domain/tlog/note.ts';
import { formatAddCheckpoint } from '../../src/domain/tlog/witness-protocol.ts';
import { ROOT, startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { CLI, runCli } from '../helpers/cli.ts';
import { payForTurn, RECEIVER, RESERVE, uniquePremiumQuestion } from '../helpers/paid-turn.ts';
import { startSandbox } from '../../src/sandbox/server.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

const LOG = '/api/transparency/receipts';


interface WitnessProcess {
  url: string;
  verifierKey: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/** `agent-economy witness serve` as its own process, on a free port; resolves once it listens. */
function startWitness(args: string[]): Promise<WitnessProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'witness', 'serve', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      const line = chunk.toString().split('\n').find((text) => text.includes('witness listening'));
      if (!line) return;
      const { url, verifier_key: verifierKey } = JSON.parse(line) as { url: string; verifier_key: string };
      resolve({
        url,
        verifierKey,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`witness exited with ${code}: ${stderr}`)));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'witness-it-'));
const file = (name: string) => join(dir, name);
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let server: RunningServer;
let logKey: string;
let witnesses: WitnessProcess[] = [];
const witnessArgs = (n: number) => ['--key', file(`w${n}.pem`), '--name', `witness.test/w${n}`, '--state', file(`w${n}.state`), '--log', logKey];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, startHeight: 3_000 });
  const env = {
    DATA_DIR: file('data'),
    CHAIN_SOURCE: 'sandbox',
    ERGO_EXPLORER_URL: sandbox.url,
    ASSISTANT_RECEIVER_ADDRESS: RECEIVER,
    ASSISTANT_RESERVE_BOX_ID: RESERVE,
    LOG_CHECKPOINT_INTERVAL_SECONDS: '1',
    LOG_LEVEL: 'warn',
  };
  // The log's key first (its witnesses are told it), then the log with its witnesses.
  const first = await startBuiltServer(env);
  logKey = (await (await fetch(`${first.url}${LOG}/key`)).text()).trim();
  await first.stop();
  for (const n of [1, 2]) {
    const made = await runCli(['witness', 'key', '--key', file(`w${n}.pem`), '--name', `witness.test/w${n}`]);
    expect(made.code).toBe(0);
    // Standard output is the verifier key alone; that the key was made is said on stderr.
    expect(made.stdout).toMatch(new RegExp(`^witness\\.test/w${n}\\+[0-9a-f]{8}\\+B[A-Za-z0-9+/]+=*\\n$`));
    expect(made.stderr).toContain(`made the witness key ${file(`w${n}.pem`)}`);
  }
  witnesses = [await startWitness(witnessArgs(1)), await startWitness(witnessArgs(2))];
  server = await startBuiltServer({ ...env, LOG_WITNESSES: witnesses.map((witness) => `${witness.verifierKey}=${witness.url}`).join(','), LOG_WITNESS_QUORUM: '2' });
});

afterAll(async () => {
  await server?.stop();
  await Promise.all(witnesses.map((witness) => witness.stop()));
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The served checkpoint once it covers `size` entries. */
async function checkpointOf(size: number): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(`${server.url}${LOG}/checkpoint`);
    const note = await response.text();
    const opened = openCheckpoint(note, logKey, logKey.slice(0, logKey.indexOf('+')));
    if (opened.ok && opened.checkpoint.size >= size) return note;
    if (Date.now() > deadline) throw new Error(`no checkpoint of ${size} entries within 20 s: ${server.stderr?.()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('witnesses (c2sp.org/tlog-witness) as their own processes', () => {
  it('prints the same verifier key for a key it made before, and refuses a key file others can read', async () => {
    const again = await runCli(['witness', 'key', '--key', file('w1.pem'), '--name', 'witness.test/w1']);
    expect(again.stdout.trim()).toBe(witnesses[0]!.verifierKey);
    expect(witnesses[0]!.verifierKey).toMatch(/^witness\.test\/w1\+[0-9a-f]{8}\+B/);
    writeFileSync(file('open.pem'), readFileSync(file('w1.pem')), { mode: 0o644 });
    const open = await runCli(['witness', 'key', '--key', file('open.pem'), '--name', 'witness.test/w1']);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('readable or writable by group or others');
  });

  it('publishes each checkpoint with both cosignatures, and readers check them with --witness and --quorum', async () => {
    const turn = await payForTurn({ server, sandbox }, uniquePremiumQuestion());
    const note = await checkpointOf(1);
    const verifiers = witnesses.map((witness) => (parseCosignerKey(witness.verifierKey) as { ok: true; verifier: never }).verifier);
    expect(checkCosignatures(note, verifiers, 2)).toMatchObject({ ok: true });
    // The tlog-proof carries the cosigned checkpoint too.
    const proof = await (await fetch(`${server.url}/api/assistant/receipt/${turn.receiptId}/proof`)).text();
    expect(checkCosignatures(proof.slice(proof.indexOf('\n\n') + 2), verifiers, 2).ok).toBe(true);

    const witnessFlags = witnesses.flatMap((witness) => ['--witness', witness.verifierKey]);
    const verified = await runCli(['verify-receipt', turn.receiptId, '--base', server.url, '--explorer', sandbox.url, '--log-key', logKey, ...witnessFlags, '--json']);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout).checks).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'log_witnesses', ok: true })]));
    // A witness the log never asked: a quorum of two cannot be met.
    const stranger = await runCli(['witness', 'key', '--key', file('stranger.pem'), '--name', 'witness.test/stranger']);
    const refused = await runCli(['verify-receipt', turn.receiptId, '--base', server.url, '--explorer', sandbox.url, '--log-key', logKey, '--witness', witnesses[0]!.verifierKey, '--witness', stranger.stdout.trim(), '--quorum', '2', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).checks).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'log_witnesses', ok: false, detail: expect.stringContaining('1 valid witness cosignature, 2 required') })]));
    const lenient = await runCli(['verify-receipt', turn.receiptId, '--base', server.url, '--explorer', sandbox.url, '--log-key', logKey, '--witness', witnesses[0]!.verifierKey, '--witness', stranger.stdout.trim(), '--quorum', '1']);
    expect(lenient.code, lenient.stderr).toBe(0);
    const reconciled = await runCli(['reconcile', '--base', server.url, '--explorer', sandbox.url, '--sandbox', '--log-key', logKey, ...witnessFlags, '--json']);
    expect(reconciled.code, reconciled.stdout + reconciled.stderr).toBe(0);
    expect(reconciled.stdout).toContain('"id":"log_witnesses","ok":true');
    const unmet = await runCli(['reconcile', '--base', server.url, '--explorer', sandbox.url, '--sandbox', '--log-key', logKey, '--witness', stranger.stdout.trim()]);
    expect(unmet.code).toBe(1);
    const monitored = await runCli(['monitor', '--state', file('monitor.json'), '--base', server.url, '--log-key', logKey, ...witnessFlags]);
    expect(monitored.code, monitored.stderr).toBe(0);
    const strict = await runCli(['monitor', '--state', file('monitor-2.json'), '--base', server.url, '--log-key', logKey, '--witness', stranger.stdout.trim()]);
    expect(strict.code).toBe(1);
  });

  it('refuses the review\'s rewrite (the same size, another root) and keeps refusing it after a restart', async () => {
    const note = await checkpointOf(1);
    const opened = openCheckpoint(note, logKey, logKey.slice(0, logKey.indexOf('+')));
    if (!opened.ok) throw new Error(opened.reason);
    const { size } = opened.checkpoint;
    // The operator's own key signs a tree of the same size with another root: a fork.
    const key = createPrivateKey(readFileSync(join(file('data'), 'log-signing-key.pem')));
    const origin = logKey.slice(0, logKey.indexOf('+'));
    const forked = signCheckpoint(formatCheckpoint({ origin, size, root: new Uint8Array(32).fill(9) }), key, origin);
    const post = (url: string, body: string) => fetch(`${url}/add-checkpoint`, { method: 'POST', body });
    const refused = await post(witnesses[0]!.url, formatAddCheckpoint({ oldSize: size, proof: [], checkpoint: forked }));
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toBe('text/x.tlog.size');
    expect(await refused.text()).toBe(`${size}\n`);
    // Restarted on its state, it remembers what it cosigned.
    await witnesses[0]!.stop();
    witnesses[0] = await startWitness(witnessArgs(1));
    expect((await post(witnesses[0]!.url, formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: forked }))).status).toBe(409);
    expect((await post(witnesses[0]!.url, formatAddCheckpoint({ oldSize: size, proof: [], checkpoint: forked }))).status).toBe(409);
    expect((await post(witnesses[0]!.url, formatAddCheckpoint({ oldSize: size, proof: [], checkpoint: note }))).status).toBe(200);
    expect((await fetch(`${witnesses[0]!.url}/add-checkpoint`)).status).toBe(405);
  });
});
