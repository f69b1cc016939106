/**
 * A rolling deploy on one PostgreSQL: the previous release (the commit `.ci/previous-release` names,
 * built from git) serves paid turns; this build starts beside it and migrates the shared schema while
 * the old one keeps serving; then turns go through both, each step (quote, verify-payment raced on
 * two instances, chat, receipt) on whichever instance comes next. Neither answers a 5xx, each Note
 * settles once, every receipt is served by both. Then the old build restarts on the migrated store,
 * as a rollback would: it starts and serves. A migration that takes away something the previous
 * release uses fails this test. Required when CI=true, like the other PostgreSQL tests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { payQuote } from '../../src/sandbox/pay.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { MIGRATIONS } from '../../src/services/store/index.ts';
import { DIST_DIR, startBuiltProcess } from '../helpers/built-server.ts';
import { sandboxServerEnv, uniquePremiumQuestion } from '../helpers/paid-turn.ts';
import { buildPreviousRelease, type BuiltRelease } from '../helpers/previous-release.ts';
import { POSTGRES_URL, postgresAvailable } from '../helpers/services.ts';

const withPostgres = await postgresAvailable();

// Building the previous release takes most of it (about 10 s on an idle machine, more on a busy one).
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

/** Turns while only the old build runs, then with both, then after the old build restarted. */
const TURNS = { oldOnly: 3, both: 15, afterRestart: 4 };
/** However slowly this build starts, the old one alone takes no more turns than this meanwhile. */
const MAX_TURNS = 40;
/** Paid turns in flight at once. */
const CONCURRENCY = 3;
const RETRY_KEY = 'rolling-deploy-payer-key-0123456789';

interface Instance {
  label: string;
  url: string;
  stop: () => Promise<void>;
  stderr: () => string;
}

interface Answered {
  instance: string;
  request: string;
  status: number;
  at: number;
  body: Record<string, any>;
}

interface Settled {
  receiptId: string;
  settlementTxId: string;
  noteBoxId: string;
}

describe.skipIf(!withPostgres)('a rolling deploy from the previous release, on one PostgreSQL', () => {
  const schema = `rolling_${randomBytes(4).toString('hex')}`;
  const dataDirs: string[] = [];
  const instances: Instance[] = [];
  let release: BuiltRelease;
  let sandbox: RunningSandbox;
  const answers: Answered[] = [];

  beforeAll(async () => {
    [release, sandbox] = await Promise.all([buildPreviousRelease(), startSandbox({ port: 0, startHeight: 2_000 })]);
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await sandbox?.close();
    release?.remove();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    if (!withPostgres) return;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  async function start(label: string, build: 'previous' | 'this'): Promise<Instance> {
    const dataDir = mkdtempSync(join(tmpdir(), 'rolling-deploy-'));
    dataDirs.push(dataDir);
    const env = { ...sandboxServerEnv(sandbox.url, dataDir, { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema }), PORT: '0', LOG_LEVEL: 'error' };
    const started =
      build === 'previous'
        ? await startBuiltProcess(release.entry, env, ['listening'], release)
        : await startBuiltProcess(`${DIST_DIR}/server/fast-entry.mjs`, env, ['listening']);
    const instance = { label, url: started.urls['listening']!, stop: started.stop, stderr: started.stderr };
    instances.push(instance);
    return instance;
  }

  async function call(instance: Instance, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answered> {
    const response = await fetch(`${instance.url}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const text = await response.text();
    let parsed: Record<string, any> = {};
    try {
      parsed = JSON.parse(text) as Record<string, any>;
    } catch {
      parsed = { text: text.slice(0, 200) };
    }
    const answered = { instance: instance.label, request: `${body === undefined ? 'GET' : 'POST'} ${path.replace(/[0-9a-f]{64}/, '{id}')}`, status: response.status, at: Date.now(), body: parsed };
    answers.push(answered);
    return answered;
  }

  /** Instances take turns step by step, so one turn's steps land on different builds. */
  let pool: Instance[] = [];
  let next = 0;
  const pick = (): Instance => pool[next++ % pool.length]!;

  /**
   * Which race wins is up to the machine: a build that always lost it would never settle. So every third turn's
   * verification goes to one instance alone, the instances taking those turns in order.
   */
  let soloNext = 0;
  const SOLO_EVERY = 3;

  /** One paid turn as a payer does it, its verification mostly sent twice at once (a retry racing the first attempt). */
  async function paidTurn(index: number): Promise<Settled> {
    const question = uniquePremiumQuestion();
    const quote = await call(pick(), '/api/assistant/quote', { question });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.tier).toBe('premium');
    const payment = await payQuote(quote.body, { sandboxUrl: sandbox.url });
    const verifiers = index % SOLO_EVERY === SOLO_EVERY - 1 ? [pool[soloNext++ % pool.length]!] : [pick(), pick()];
    const verified = await Promise.all(
      verifiers.map((instance) => call(instance, '/api/assistant/verify-payment', { quote: quote.body, question, noteBoxId: payment.noteBoxId }, { 'idempotency-key': RETRY_KEY })),
    );
    // The previous release hands a retry a fresh token; this build does so only for the payer's retry key, which a
    // settlement by the previous release did not store: 409 with the receipt id then. Either way, one settlement.
    for (const answer of verified) expect([200, 409], JSON.stringify(answer)).toContain(answer.status);
    const receiptIds = new Set(verified.map((answer) => answer.body.receiptId as string));
    expect(receiptIds.size, JSON.stringify(verified)).toBe(1);
    const settledBy = verified.find((answer) => answer.status === 200);
    expect(settledBy, JSON.stringify(verified)).toBeDefined();
    // Each reissue replaced the token before it: exactly one of them pays the turn.
    const chats = [];
    for (const answer of verified.filter((each) => each.status === 200)) {
      chats.push(await call(pick(), '/api/assistant/chat', { messages: [{ role: 'user', content: question }], paymentToken: answer.body.paymentToken }));
    }
    expect(chats.filter((chat) => chat.status === 200), JSON.stringify(chats.map((chat) => [chat.instance, chat.status, chat.body.code]))).toHaveLength(1);
    const [receiptId] = receiptIds;
    expect((await call(pick(), `/api/assistant/receipt/${receiptId}`)).status).toBe(200);
    return { receiptId: receiptId!, settlementTxId: settledBy!.body.settlementTxId as string, noteBoxId: payment.noteBoxId };
  }

  let turnsStarted = 0;
  /** Paid turns, CONCURRENCY at a time, for as long as `more()` says. */
  async function turnsWhile(more: () => boolean): Promise<Settled[]> {
    const settled: Settled[] = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (more()) settled.push(await paidTurn(turnsStarted++));
      }),
    );
    return settled;
  }
  const turns = (count: number) => {
    const until = turnsStarted + count;
    return turnsWhile(() => turnsStarted < until);
  };

  const failures = () => answers.filter((answer) => answer.status >= 500).map(({ instance, request, status, body }) => ({ instance, request, status, body }));

  /** Every receipt, by receipt id and by settlement transaction id, from every instance: the same bundle. */
  async function expectEveryReceiptOnEvery(settled: Settled[], on: Instance[]): Promise<void> {
    for (const receipt of settled) {
      const bodies = [];
      for (const instance of on) {
        for (const key of [receipt.receiptId, receipt.settlementTxId]) {
          const answer = await call(instance, `/api/assistant/receipt/${key}`);
          expect(answer.status, `${instance.label} ${key}: ${JSON.stringify(answer.body)}`).toBe(200);
          expect(answer.body).toMatchObject({ receiptId: receipt.receiptId, noteBoxId: receipt.noteBoxId });
          bodies.push(answer.body);
        }
      }
      for (const body of bodies) expect(body).toEqual(bodies[0]);
    }
  }

  it('the previous release keeps serving while this build migrates beside it, both serve every receipt, and the previous release starts again on the migrated store', async () => {
    const started = Date.now();
    const old = await start(`previous release ${release.commit.slice(0, 7)}`, 'previous');
    // The previous release creates the schema, at its own version, before anything else runs.
    const schemaMade = await call(old, '/api/assistant/activity');
    expect(schemaMade.status).toBe(200);
    const oldAnsweredAt = schemaMade.at;
    pool = [old];
    const settled = await turns(TURNS.oldOnly);

    // This build starts while turns keep going through the old one (however long its start takes, within
    // MAX_TURNS); its first store call migrates. Then TURNS.both more go through both.
    let joined: number | undefined;
    const traffic = turnsWhile(() => turnsStarted < MAX_TURNS && (joined === undefined || turnsStarted < joined + TURNS.both));
    const current = await start('this build', 'this');
    pool = [old, current];
    joined = turnsStarted;
    settled.push(...(await traffic));
    expect(turnsStarted, 'the turns ran out before this build took part in enough of them').toBeGreaterThanOrEqual(joined + TURNS.both);
    // Both builds took each step of a turn.
    for (const instance of [old, current]) {
      const served = new Set(answers.filter((answer) => answer.instance === instance.label && answer.status === 200).map((answer) => answer.request.split('/').slice(0, 4).join('/')));
      expect([...served].sort(), instance.label).toEqual(expect.arrayContaining(['GET /api/assistant/receipt', 'POST /api/assistant/chat', 'POST /api/assistant/quote', 'POST /api/assistant/verify-payment']));
    }
    expect(failures(), old.stderr() + current.stderr()).toEqual([]);

    const admin = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${schema}` });
    await admin.connect();
    try {
      // What this build migrated (recorded after the old build had answered) ran while the old build served,
      // and the old build answered writes after it. A release that brings no migration has nothing to check here.
      const { rows: recorded } = await admin.query<{ version: number; at: Date }>(
        'SELECT version, applied_at AS at FROM schema_migrations UNION ALL SELECT version, applied_at AS at FROM schema_expansions',
      );
      expect(Math.max(...recorded.map((row) => row.version))).toBe(MIGRATIONS.at(-1)!.version);
      const byThisBuild = recorded.filter((row) => row.at.getTime() > oldAnsweredAt).map((row) => row.at.getTime());
      if (byThisBuild.length > 0) {
        expect(answers.some((answer) => answer.instance === old.label && answer.at > Math.max(...byThisBuild) && answer.request.startsWith('POST') && answer.status === 200)).toBe(true);
      }
      // One settlement per Note, whichever build settled it.
      const { rows } = await admin.query<{ notes: string; receipts: string }>('SELECT (SELECT count(*) FROM used_notes) AS notes, (SELECT count(DISTINCT note_box_id) FROM receipts) AS receipts');
      expect(rows[0]).toEqual({ notes: String(settled.length), receipts: String(settled.length) });
    } finally {
      await admin.end();
    }
    await expectEveryReceiptOnEvery(settled, [old, current]);

    // A restart (or a rollback) of the previous release on the store this build migrated.
    await old.stop();
    const restarted = await start(`previous release ${release.commit.slice(0, 7)}, restarted`, 'previous');
    const reopened = await call(restarted, '/api/assistant/activity');
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    pool = [restarted, current];
    settled.push(...(await turns(TURNS.afterRestart)));
    await expectEveryReceiptOnEvery(settled, [restarted, current]);
    expect(failures(), restarted.stderr() + current.stderr()).toEqual([]);
    console.info(`rolling deploy: ${answers.length} requests, ${settled.length} paid turns, ${((Date.now() - started) / 1000).toFixed(1)} s after the build`);
  });
});
