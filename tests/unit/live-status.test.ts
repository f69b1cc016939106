/**
 * Live status over fake parts: every probe runs at once under its own timeout (so hung dependencies
 * cost one timeout, not their sum), a required probe failing turns `ok` false, the rate limiter's
 * Redis fallback is reported without failing the whole status, results are shared for a few seconds,
 * and the latest full receipt id is the newest testnet one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveStatusSchema, type LiveStatus } from '../../schemas/live.ts';
import { entryById } from '../../src/catalogue/index.ts';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import { PROBE_CACHE_SECONDS, PROBE_TIMEOUT_MS } from '../../src/config/limits.ts';
import { ChainUnavailableError, StoreUnavailableError } from '../../src/domain/ports.ts';
import { CHAIN_LAG_LIMIT_BLOCKS, probeFailureCause } from '../../src/services/live-probes.ts';
import { logger } from '../../src/services/logger.ts';
import { createLiveStatus, type LiveSources } from '../../src/services/live-status.ts';
import type { LogHealth } from '../../src/domain/tlog/audit.ts';
import type { ReceiptLog } from '../../src/services/receipt-log.ts';
import { noModelProvider } from '../../src/services/model/provider.ts';
import type { RateLimiter } from '../../src/domain/ports.ts';
import { FakeChain, FakeLimiter, FakeModel, FakeStore, storedText } from '../helpers/fakes.ts';
import { loopIterations } from '../helpers/loop-iterations.ts';
import { hex32, makeQuote, makeReceipt } from '../helpers/store-fixtures.ts';

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** A receipt log whose own check answers `health`. */
const fakeLog = (health: Partial<LogHealth> = {}) =>
  ({ health: async () => ({ ok: true, status: 'consistent', detail: 'The log and the store agree.', checkpoint: { size: 0, rootHash: 'x', issuedAt: new Date(0).toISOString() }, ...health }) }) as unknown as ReceiptLog;

function sources(overrides: Partial<{ store: FakeStore; chain: FakeChain; limiter: RateLimiter; model: LiveSources['model']; receiptLog: ReceiptLog }> = {}) {
  const parts = {
    store: overrides.store ?? new FakeStore(),
    chain: overrides.chain ?? new FakeChain(5_000, 'testnet'),
    limiter: overrides.limiter ?? new FakeLimiter(),
  };
  return async (): Promise<LiveSources> => ({
    store: () => parts.store,
    chain: () => parts.chain,
    limiter: () => parts.limiter,
    model: overrides.model ?? (() => new FakeModel()),
    receiptLog: () => overrides.receiptLog ?? fakeLog(),
  });
}

describe('live status', () => {
  it('is ok when every required probe passes, and names the surfaces that are live', async () => {
    const status = liveStatusSchema.parse(await createLiveStatus(sources())());
    expect(status.ok).toBe(true);
    expect(status.probes.receipt_storage).toMatchObject({ ok: true, required: true, backend: 'sqlite' });
    expect(status.probes.chain).toMatchObject({ ok: true, source: 'testnet', height: 5_000, lag_blocks: 0 });
    expect(status.probes.assistant).toMatchObject({ ok: true, status: 'answering' });
    expect(status.probes.rate_limiter).toMatchObject({ ok: true, mode: 'memory', required: false });
    expect(status.probes.payment_widget.ok).toBe(true);
    expect(status.summary.gates_live).toEqual(expect.arrayContaining(['assistant', 'receipt_storage', 'chain', 'payment_widget', 'wallet_agent']));
    expect(status.summary.mainnet_gate_status).toBe('closed');
    expect(status.posture.mainnet_ready).toBe(false);
  });

  it('is not ok when the receipt log and the store disagree: the transparency_log probe is required and says what it found', async () => {
    const detail = 'The receipt store holds 16 receipts and the log 17 entries: receipts were removed after they were logged.';
    const status = liveStatusSchema.parse(await createLiveStatus(sources({ receiptLog: fakeLog({ ok: false, status: 'count_mismatch', detail }) }))());
    expect(status.ok).toBe(false);
    expect(status.probes.transparency_log).toMatchObject({ ok: false, required: true, status: 'count_mismatch', detail });
    expect(status.summary.gates_live).not.toContain('transparency_log');
  });

  it('starts each probe in an event-loop turn of its own, so parts that answer at once do not hold the loop for all ten', async () => {
    const started: Array<[string, number]> = [];
    const loop = loopIterations();
    const store = new FakeStore();
    const ping = store.ping.bind(store);
    const listReceiptTexts = store.listReceiptTexts.bind(store);
    const model = new FakeModel();
    const answer = model.answer.bind(model);
    const chain = new FakeChain(5_000, 'testnet');
    const height = chain.height.bind(chain);
    const log = fakeLog();
    const health = log.health.bind(log);
    const status = await createLiveStatus(
      sources({
        store: Object.assign(store, { ping: () => (started.push(['store', loop.now()]), ping()), listReceiptTexts: (limit: number) => (started.push(['latest', loop.now()]), listReceiptTexts(limit)) }),
        model: () => Object.assign(model, { answer: (...args: Parameters<FakeModel['answer']>) => (started.push(['model', loop.now()]), answer(...args)) }),
        chain: Object.assign(chain, { height: () => (started.push(['chain', loop.now()]), height()) }),
        receiptLog: Object.assign(log, { health: () => (started.push(['log', loop.now()]), health()) }),
      }),
    )();
    loop.stop();
    expect(status.ok).toBe(true);
    expect(started.map(([part]) => part).sort()).toEqual(['chain', 'latest', 'log', 'model', 'store']);
    expect(new Set(started.map(([, turn]) => turn)).size).toBe(started.length);
  });

  it('answers within about one probe timeout when the store, the chain and the model all hang', async () => {
    const store = Object.assign(new FakeStore(), { ping: never, listReceiptTexts: never, recordProbeRun: never });
    const chain = Object.assign(new FakeChain(1, 'testnet'), { height: never });
    const hungModel = Object.assign(new FakeModel(), { answer: never });
    const started = performance.now();
    const status = await createLiveStatus(sources({ store, chain, model: () => hungModel }))();
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(PROBE_TIMEOUT_MS * 2);
    expect(status.ok).toBe(false);
    for (const name of ['receipt_storage', 'chain', 'assistant'] as const) expect(status.probes[name]).toMatchObject({ ok: false, status: 'timeout' });
    expect(status.latest_full_receipt_id).toBeNull();
    expect(status.probes.payment_widget).toMatchObject({ ok: false, status: 'blocked' });
  });

  it('says which part failed without what it said, and logs that with the id of the request that read it', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const chainFailure = new ChainUnavailableError('could not read the explorer network state: connect ECONNREFUSED 10.0.0.7:8080');
    const storeFailure = new StoreUnavailableError('the PostgreSQL database at DATABASE_URL cannot be reached: connect ECONNREFUSED 10.0.0.8:5432');
    const store = Object.assign(new FakeStore(), { ping: () => Promise.reject(storeFailure) });
    const chain = Object.assign(new FakeChain(1, 'testnet'), { height: () => Promise.reject(chainFailure) });
    const status = await createLiveStatus(sources({ store, chain }))('req-5');
    expect(status.probes.chain).toMatchObject({ ok: false, status: 'unreachable', detail: expect.stringMatching(/^The testnet chain source could not be reached/) });
    expect(status.probes.receipt_storage).toMatchObject({ ok: false, status: 'unreachable', detail: expect.stringMatching(/^The receipt store could not be reached/) });
    expect(JSON.stringify(status)).not.toMatch(/ECONNREFUSED|10\.0\.0\.|8080|5432|DATABASE_URL/);
    expect(probeFailureCause(status.probes.chain)).toBe(chainFailure);
    const logged = warn.mock.calls.map(([fields]) => fields as unknown as Record<string, unknown>);
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reqId: 'req-5', probe: 'chain', err: chainFailure }),
        expect.objectContaining({ reqId: 'req-5', probe: 'receipt_storage', err: storeFailure }),
      ]),
    );
    vi.restoreAllMocks();
  });

  it('reports a part that cannot be built as a failing probe rather than an error', async () => {
    const broken = async (): Promise<LiveSources> => ({
      ...(await sources()()),
      store: () => {
        throw new Error('store configuration: DATABASE_URL must be a postgres:// URL');
      },
    });
    const status = await createLiveStatus(broken)();
    expect(status.ok).toBe(false);
    expect(status.probes.receipt_storage).toMatchObject({ ok: false, status: 'unavailable', backend: null });
    expect(status.probes.receipt_storage.detail).toContain('DATABASE_URL');
  });

  it('fails the assistant probe when no model provider is configured', async () => {
    const status = await createLiveStatus(sources({ model: () => noModelProvider }))();
    expect(status.probes.assistant).toMatchObject({ ok: false, status: 'unconfigured', required: true });
    expect(status.ok).toBe(false);
  });

  it('reports the Redis fallback of the rate limiter without failing the whole status', async () => {
    const limiter = Object.assign(new FakeLimiter(), { mode: () => 'memory_fallback' as const });
    const status = await createLiveStatus(sources({ limiter }))();
    expect(status.probes.rate_limiter).toMatchObject({ ok: false, mode: 'memory_fallback', required: false });
    expect(status.ok).toBe(true);
    expect(status.summary.gates_live).not.toContain('rate_limiter');
  });

  it('asks Redis once under its own key before reporting the mode, so the mode is current', async () => {
    let answeredByRedis = false;
    const keys: string[] = [];
    const limiter = Object.assign(new FakeLimiter(), {
      mode: () => (answeredByRedis ? ('redis' as const) : ('memory_fallback' as const)),
      consume: async (bucket: 'quote', key: string) => {
        keys.push(key);
        answeredByRedis = true;
        return new FakeLimiter().consume(bucket, key);
      },
    });
    const status = await createLiveStatus(sources({ limiter }))();
    expect(status.probes.rate_limiter).toMatchObject({ ok: true, mode: 'redis' });
    expect(keys).toEqual(['live-status-probe']);
  });

  it('shares one run between readers for a few seconds', async () => {
    const store = new FakeStore();
    let pings = 0;
    store.ping = async () => void pings++;
    const read = createLiveStatus(sources({ store }));
    const [first, second] = await Promise.all([read(), read()]);
    const third = await read();
    expect(pings).toBe(1);
    expect(second).toBe(first);
    expect(third).toBe(first);
  });

  it('calls a chain source lagging when its height falls far behind what it reported before', async () => {
    const chain = new FakeChain(10_000, 'testnet');
    const read = createLiveStatus(sources({ chain }));
    expect((await read()).probes.chain.ok).toBe(true);
    chain.currentHeight = 10_000 - CHAIN_LAG_LIMIT_BLOCKS - 1;
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    // The read that starts the next run is answered the run before it; the next reads, the new run.
    expect((await read()).probes.chain.ok).toBe(true);
    await vi.waitFor(async () => expect((await read()).probes.chain).toMatchObject({ ok: false, status: 'lagging', lag_blocks: CHAIN_LAG_LIMIT_BLOCKS + 1 }));
  }, 10_000);

  it('answers a run that threw, not the run before it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const working = sources();
      let broken = false;
      const read = createLiveStatus(() => (broken ? Promise.reject(new Error('a bug in a probe')) : working()));
      await read();
      vi.setSystemTime(Date.now() + PROBE_CACHE_SECONDS * 1000);
      broken = true;
      await read().catch(() => undefined);
      await vi.waitFor(() => expect(read()).rejects.toThrow('a bug in a probe'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers the run before while the next one goes on, only of the interval before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const chain = new FakeChain(10_000, 'testnet');
      const read = createLiveStatus(sources({ chain }));
      const first = await read();
      vi.setSystemTime(Date.now() + PROBE_CACHE_SECONDS * 1000);
      let release: (() => void) | undefined;
      const height = chain.height.bind(chain);
      chain.height = () => new Promise((resolve) => (release = () => resolve(height())));
      // The run is held by its chain probe: the run before comes back at once.
      expect(await read()).toBe(first);
      await vi.waitFor(() => expect(release).toBeTypeOf('function'));
      release!();
      await vi.waitFor(async () => expect((await read()).checked_at).not.toBe(first.checked_at));

      // After an idle spell (two intervals), the reader waits for a fresh run.
      vi.setSystemTime(Date.now() + 2 * PROBE_CACHE_SECONDS * 1000);
      release = undefined;
      chain.height = () => new Promise((resolve) => (release = () => resolve(height())));
      let answered: LiveStatus | undefined;
      const askedAt = new Date().toISOString();
      const fresh = read().then((status) => (answered = status));
      await vi.waitFor(() => expect(release).toBeTypeOf('function'));
      expect(answered).toBeUndefined();
      release!();
      expect((await fresh).checked_at).toBe(askedAt);
    } finally {
      vi.useRealTimers();
    }
  });

  it('names the newest full receipt settled on the testnet, skipping sandbox ones', async () => {
    const store = new FakeStore();
    const testnet: ReceiptBundle = makeReceipt(makeQuote(), hex32(), { chain: 'testnet' });
    const sandbox: ReceiptBundle = makeReceipt(makeQuote(), hex32(), { chain: 'sandbox' });
    // Newest first, as the store lists them: the sandbox receipt is newer.
    store.listReceiptTexts = async () => [sandbox, testnet].map(storedText);
    const status = await createLiveStatus(sources({ store }))();
    expect(status.latest_full_receipt_id).toBe(testnet.receiptId);
    expect(status.summary.latest_full_receipt_id).toBe(testnet.receiptId);
  });

  describe('probe history', () => {
    afterEach(() => vi.useRealTimers());
    // Only the clock is faked: the probes' own timers run as they do in production.
    const at = (iso: string) => vi.setSystemTime(new Date(iso));

    it('keeps a reading at most once per interval, each gate with its state and latency', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const store = new FakeStore();
      const chain = new FakeChain(5_000, 'testnet');
      const read = createLiveStatus(sources({ store, chain }), 60_000);
      at('2026-11-25T10:00:00Z');
      const first = await read();
      expect(store.probeRuns).toHaveLength(1);
      expect(store.probeRuns[0]!.at.toISOString()).toBe(first.checked_at);
      const gates = Object.fromEntries(store.probeRuns[0]!.results.map((result) => [result.gate, result]));
      expect(Object.keys(gates)).toEqual(Object.keys(first.probes));
      expect(gates.chain!.state).toBe('up');
      expect(gates.rate_limiter!.state).toBe('up');
      expect(gates.receipt_storage!.latencyMs).toBe(first.probes.receipt_storage.latency_ms ?? null);

      at('2026-11-25T10:00:30Z'); // past the probe cache, within the history interval
      await read();
      expect(store.probeRuns).toHaveLength(1);

      at('2026-11-25T10:01:01Z');
      chain.unavailable = true;
      const second = await read();
      expect(second.probes.chain.ok).toBe(false);
      expect(store.probeRuns).toHaveLength(2);
      expect(store.probeRuns[1]!.results.find((result) => result.gate === 'chain')!.state).toBe('down');
    });

    it('calls an optional probe failing degraded, not down', async () => {
      const store = new FakeStore();
      const limiter = Object.assign(new FakeLimiter(), { mode: () => 'memory_fallback' as const });
      await createLiveStatus(sources({ store, limiter }))();
      expect(store.probeRuns[0]!.results.find((result) => result.gate === 'rate_limiter')!.state).toBe('degraded');
    });

    it('still answers when the store cannot keep the reading', async () => {
      const store = new FakeStore();
      store.recordProbeRun = async () => {
        throw new Error('disk full');
      };
      const status = await createLiveStatus(sources({ store }))();
      expect(status.probes.receipt_storage.ok).toBe(true);
      expect(store.probeRuns).toHaveLength(0);
    });
  });
});

describe('the live status as the catalogue describes it', () => {
  it('names every probe the status carries, by its key', () => {
    const { description } = entryById().get('live') as { description: string };
    for (const probe of Object.keys(liveStatusSchema.shape.probes.shape)) expect(description, probe).toContain(`\`${probe}\``);
  });
});
