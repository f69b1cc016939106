/**
 * `agent-economy monitor` run as a process against the built server on its embedded store: the
 * first run keeps the key and the checkpoint, a later one accepts the grown log; then the store is
 * tampered with under the running server (node:sqlite on its file, foreign keys off), and the
 * monitor names the entry that no longer hashes to its leaf, the entry whose receipt is gone, and a
 * log that forked or shrank against the state it kept, each with exit 1 and the state unchanged; and
 * the same once the store of a stopped server was changed and the server started again, where the
 * live status's transparency_log probe and the proof explorer say so too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBuiltServer } from '../helpers/built-server.ts';
import { runCli } from '../helpers/cli.ts';
import { type PaidTurn, payForTurn, RECEIVER, RESERVE, type Stack, startStack, uniquePremiumQuestion } from '../helpers/paid-turn.ts';
import type { MonitorState } from '../../src/cli/monitor.ts';
import { formatVerifierKey, generateNoteKey, parseVerifierKey } from '../../src/domain/tlog/note.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const LOG = '/api/transparency/receipts';



let stack: Stack;
let dir: string;
const turns: PaidTurn[] = [];

beforeAll(async () => {
  stack = await startStack({ env: { LOG_CHECKPOINT_INTERVAL_SECONDS: '1' } });
  dir = mkdtempSync(join(tmpdir(), 'tlog-monitor-'));
});
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Waits for a checkpoint of at least `size` entries (they come every second here). */
async function checkpointOf(size: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const note = await (await fetch(`${stack.server.url}${LOG}/checkpoint`)).text();
    if (Number(note.split('\n')[1]) >= size) return;
    if (Date.now() > deadline) throw new Error(`no checkpoint of ${size} entries within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function pay(count: number): Promise<void> {
  for (let i = 0; i < count; i++) turns.push(await payForTurn(stack, uniquePremiumQuestion()));
  await checkpointOf(turns.length);
}

const monitor = (state: string, ...more: string[]) => runCli(['monitor', '--state', state, '--base', stack.server.url, ...more]);
const readState = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as MonitorState;

/** The server's own store file, opened beside it: what an operator (or an intruder) with the disk could do. */
function withStore<T>(change: (database: DatabaseSync) => T): T {
  const database = new DatabaseSync(join(stack.dataDir, 'agent-economy.sqlite'));
  try {
    database.exec('PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = OFF;');
    return change(database);
  } finally {
    database.close();
  }
}

/** The log index of a receipt, as its proof states it. */
async function indexOf(receiptId: string): Promise<number> {
  const proof = await (await fetch(`${stack.server.url}/api/assistant/receipt/${receiptId}/proof`)).text();
  return Number(/^index (\d+)$/m.exec(proof)![1]);
}

describe('agent-economy monitor', () => {
  const state = () => join(dir, 'state.json');

  it('keeps the key and the checkpoint on its first run, and accepts the grown log on the next', async () => {
    await pay(2);
    const key = (await (await fetch(`${stack.server.url}${LOG}/key`)).text()).trim();
    const first = await monitor(state());
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stderr).toContain('trusting the site\'s verifier key on first use');
    expect(first.stdout).toMatch(/^OK {2}log .*: the new checkpoint of size 2, root \S+ is its tiles' tree; all 2 entries checked/);
    const kept = readState(state());
    expect(kept).toMatchObject({ version: 1, verifierKey: key, size: 2, origin: key.slice(0, key.indexOf('+')) });
    expect(kept.checkpoint).toContain(`\n2\n${kept.rootHash}\n`);

    await pay(1);
    const second = await monitor(state(), '--json');
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ ok: true, previous: { size: 2, rootHash: kept.rootHash }, checkpoint: { size: 3 }, entriesChecked: 3 });
    expect(readState(state()).size).toBe(3);
    expect(second.stderr).toBe('');
    // The site agrees with itself before anything is tampered with.
    const live = await (await fetch(`${stack.server.url}/api/agent-economy/live`)).json();
    expect(live.probes.transparency_log).toMatchObject({ ok: true, status: 'consistent', checkpoint: { size: 3 } });
  });

  it('follows the site when it moved: the kept key signing under the new origin\'s name is kept from then on, another key is refused', async () => {
    const kept = readState(state());
    const served = parseVerifierKey(kept.verifierKey);
    if (!served.ok) throw new Error(served.reason);
    // What a monitor kept before SITE_BASE_URL moved: the same Ed25519 key under the old origin's name.
    const oldOrigin = 'old-host.example/api/transparency/receipts';
    const beforeMove = join(dir, 'before-move.json');
    writeFileSync(beforeMove, JSON.stringify({ ...kept, origin: oldOrigin, verifierKey: formatVerifierKey(oldOrigin, served.verifier.publicKey) }));
    const followed = await monitor(beforeMove, '--json');
    expect(followed.code, followed.stdout + followed.stderr).toBe(0);
    expect(JSON.parse(followed.stdout)).toMatchObject({ ok: true, origin: kept.origin, movedFrom: oldOrigin, checkpoint: { size: kept.size } });
    expect(readState(beforeMove)).toMatchObject({ origin: kept.origin, verifierKey: kept.verifierKey });
    // Without --json it says so.
    const toldFile = join(dir, 'before-move-told.json');
    writeFileSync(toldFile, JSON.stringify({ ...kept, origin: oldOrigin, verifierKey: formatVerifierKey(oldOrigin, served.verifier.publicKey) }));
    expect((await monitor(toldFile)).stderr).toContain(`the log moved from ${oldOrigin} to ${kept.origin}`);

    // Another key under the old name is another log: the site's key is not the one kept.
    const strangerFile = join(dir, 'stranger.json');
    const stranger = { ...kept, origin: oldOrigin, verifierKey: formatVerifierKey(oldOrigin, generateNoteKey().publicKey) };
    writeFileSync(strangerFile, JSON.stringify(stranger));
    const refused = await monitor(strangerFile);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the checkpoint .* is refused: .*no signature by old-host\.example/);
    expect(readState(strangerFile)).toEqual(stranger);
  });

  it('refuses a log that forked or shrank against the state it kept, naming both checkpoints', async () => {
    const kept = readState(state());
    const otherRoot = Buffer.alloc(32, 7).toString('base64');

    const forkedFile = join(dir, 'forked.json');
    writeFileSync(forkedFile, JSON.stringify({ ...kept, rootHash: otherRoot }));
    const forked = await monitor(forkedFile);
    expect(forked.code).toBe(1);
    expect(forked.stderr).toContain(`the log forked: the new checkpoint of size ${kept.size}, root ${kept.rootHash} has the size of the kept checkpoint of size ${kept.size}, root ${otherRoot} but another root`);

    // A smaller kept tree whose root is not the tiles' prefix: forked before the new checkpoint.
    const prefixFile = join(dir, 'prefix.json');
    writeFileSync(prefixFile, JSON.stringify({ ...kept, size: 1, rootHash: otherRoot }));
    const prefix = await monitor(prefixFile);
    expect(prefix.code).toBe(1);
    expect(prefix.stderr).toMatch(new RegExp(`the log forked: the tiles of the new checkpoint of size ${kept.size}, root \\S+ give root \\S+ for size 1, but the kept checkpoint of size 1, root ${otherRoot.replace(/[+/]/g, '\\$&')}`));

    const shrunkFile = join(dir, 'shrunk.json');
    writeFileSync(shrunkFile, JSON.stringify({ ...kept, size: 1000 }));
    const shrunk = await monitor(shrunkFile);
    expect(shrunk.code).toBe(1);
    expect(shrunk.stderr).toContain(`the log shrank: the new checkpoint of size ${kept.size}, root ${kept.rootHash} is smaller than the kept checkpoint of size 1000`);
    // Refusals leave the state as it was.
    expect(readState(shrunkFile).size).toBe(1000);

    const otherKey = formatVerifierKey(kept.origin, generateNoteKey().publicKey);
    const wrongKey = await runCli(['monitor', '--state', join(dir, 'fresh-other-key.json'), '--base', stack.server.url, '--log-key', otherKey]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/the checkpoint .* is refused: .*no signature by/);
  });

  it('names the entry that no longer hashes to its leaf when a stored receipt is rewritten, and keeps its state', async () => {
    const victim = turns[1]!;
    const index = await indexOf(victim.receiptId);
    const original = withStore((database) => (database.prepare('SELECT CAST(bundle AS TEXT) AS bundle FROM receipts WHERE receipt_id = ?').get(victim.receiptId) as { bundle: string }).bundle);
    const bundle = JSON.parse(original) as { settlement_receipt: { valueNanoErg: string } };
    bundle.settlement_receipt.valueNanoErg = '1';
    withStore((database) => database.prepare('UPDATE receipts SET bundle = ? WHERE receipt_id = ?').run(JSON.stringify(bundle), victim.receiptId));
    try {
      const before = readFileSync(state(), 'utf8');
      for (const file of [state(), join(dir, 'fresh-after-rewrite.json')]) {
        const run = await monitor(file);
        expect(run.code, run.stdout + run.stderr).toBe(1);
        expect(run.stdout).toMatch(new RegExp(`FAIL {2}entry ${index} \\(receipt ${victim.receiptId}\\) does not hash to its leaf: SHA-256\\(0x00 \\|\\| entry\\) is \\S+, level-0 tile 0 holds \\S+`));
        expect(run.stderr).toContain('1 bad entry');
      }
      expect(readFileSync(state(), 'utf8')).toBe(before);
    } finally {
      withStore((database) => database.prepare('UPDATE receipts SET bundle = ? WHERE receipt_id = ?').run(original, victim.receiptId));
    }
    expect((await monitor(state())).code).toBe(0);
  });

  it('names the entry whose receipt was deleted: the server withholds the bundle with a 503 naming it', async () => {
    const victim = turns[0]!;
    const index = await indexOf(victim.receiptId);
    const row = withStore((database) => database.prepare('SELECT * FROM receipts WHERE receipt_id = ?').get(victim.receiptId) as Record<string, string | null>);
    withStore((database) => database.prepare('DELETE FROM receipts WHERE receipt_id = ?').run(victim.receiptId));
    try {
      const size = readState(state()).size;
      const tile = await fetch(`${stack.server.url}${LOG}/tile/entries/000.p/${size}`);
      expect(tile.status).toBe(503);
      expect(await tile.json()).toMatchObject({ code: 'receipt_storage_unavailable', missingIndexes: [index] });

      const run = await monitor(state());
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toContain(`FAIL  entries 0 to ${size - 1} cannot be read:`);
      expect(run.stdout).toContain(`HTTP 503: The receipt log cannot serve "tile/entries/000.p/${size}": entries ${index} of the log have no receipt in the store`);
    } finally {
      const columns = Object.keys(row);
      withStore((database) => database.prepare(`INSERT INTO receipts (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...Object.values(row)));
    }
    expect((await monitor(state())).code).toBe(0);
  });

  it('catches a receipt rewritten, and one deleted, in the store of a stopped server once it runs again', async () => {
    const [deleted, rewritten] = [turns[0]!, turns[2]!];
    const [deletedIndex, rewrittenIndex] = [await indexOf(deleted.receiptId), await indexOf(rewritten.receiptId)];
    await stack.server.stop();
    withStore((database) => {
      const { bundle } = database.prepare('SELECT CAST(bundle AS TEXT) AS bundle FROM receipts WHERE receipt_id = ?').get(rewritten.receiptId) as { bundle: string };
      const changed = JSON.parse(bundle) as { agreement: { priceNanoErg: string } };
      changed.agreement.priceNanoErg = '1';
      database.prepare('UPDATE receipts SET bundle = ? WHERE receipt_id = ?').run(JSON.stringify(changed), rewritten.receiptId);
    });
    stack.server = await startBuiltServer({ DATA_DIR: stack.dataDir, CHAIN_SOURCE: 'sandbox', ERGO_EXPLORER_URL: stack.sandbox.url, ASSISTANT_RECEIVER_ADDRESS: RECEIVER, ASSISTANT_RESERVE_BOX_ID: RESERVE, LOG_LEVEL: 'warn' });
    const size = readState(state()).size;

    const afterRewrite = await monitor(join(dir, 'fresh-after-restart.json'));
    expect(afterRewrite.code, afterRewrite.stdout + afterRewrite.stderr).toBe(1);
    expect(afterRewrite.stdout).toContain(`FAIL  entry ${rewrittenIndex} (receipt ${rewritten.receiptId}) does not hash to its leaf`);
    // The site's own checks say the same: the live probe is down, and the proof explorer names the receipt.
    const live = await (await fetch(`${stack.server.url}/api/agent-economy/live`)).json();
    expect(live.ok).toBe(false);
    expect(live.probes.transparency_log).toMatchObject({ ok: false, required: true, status: 'entry_mismatch' });
    expect(live.probes.transparency_log.detail).toContain(`${rewrittenIndex}`);
    const board = await (await fetch(`${stack.server.url}/api/agent-economy/proofs`)).json();
    expect(board.receipt_log).toMatchObject({ agrees: false });
    const listed = [...board.proofs, ...board.sandbox_receipts].find((proof: { id: string }) => proof.id === rewritten.receiptId);
    expect(listed.checks.find((check: { id: string }) => check.id === 'log_inclusion')).toMatchObject({ ok: false, detail: expect.stringContaining('changed after it was recorded') });

    await stack.server.stop();
    withStore((database) => database.prepare('DELETE FROM receipts WHERE receipt_id = ?').run(deleted.receiptId));
    stack.server = await startBuiltServer({ DATA_DIR: stack.dataDir, CHAIN_SOURCE: 'sandbox', ERGO_EXPLORER_URL: stack.sandbox.url, ASSISTANT_RECEIVER_ADDRESS: RECEIVER, ASSISTANT_RESERVE_BOX_ID: RESERVE, LOG_LEVEL: 'warn' });
    const afterDelete = await monitor(state());
    expect(afterDelete.code, afterDelete.stdout + afterDelete.stderr).toBe(1);
    expect(afterDelete.stdout).toContain(`entries ${deletedIndex} of the log have no receipt in the store`);
    const liveAfterDelete = await (await fetch(`${stack.server.url}/api/agent-economy/live`)).json();
    expect(liveAfterDelete.probes.transparency_log).toMatchObject({ ok: false, status: 'count_mismatch', detail: expect.stringContaining('receipts were removed after they were logged') });
    expect((await (await fetch(`${stack.server.url}/api/agent-economy/proofs`)).json()).receipt_log).toMatchObject({ agrees: false, detail: expect.stringContaining('receipts were removed') });
    expect(readState(state()).size).toBe(size);
  });
});
