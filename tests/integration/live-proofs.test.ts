/**
 * Live status and the proof explorer of the built server, over HTTP: real probes of the store, the
 * sandbox chain, the model provider and the rate limiter; the conformance proofs and a sandbox
 * receipt listed apart; and, with every dependency hanging, answers within the documented bounds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveStatusSchema, proofExplorerSchema } from '../../schemas/live.ts';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { payForTurn, postJson, startStack, type PaidTurn, type Stack } from '../helpers/paid-turn.ts';
import { closedPort, redisAvailable, REDIS_URL, startBlackHole } from '../helpers/services.ts';

const getJson = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
};

describe('live status and proofs with every dependency answering', () => {
  let stack: Stack;
  let turn: PaidTurn;
  beforeAll(async () => {
    stack = await startStack();
    turn = await payForTurn(stack);
  }, 60_000);
  afterAll(async () => stack?.stop());

  it('probes the store, the sandbox chain, the model and the limiter for real, and is ok', async () => {
    const { status, body } = await getJson(`${stack.server.url}/api/agent-economy/live`);
    expect(status).toBe(200);
    const live = liveStatusSchema.parse(body);
    expect(live.ok).toBe(true);
    expect(live.probes.receipt_storage).toMatchObject({ ok: true, backend: 'sqlite' });
    expect(live.probes.chain).toMatchObject({ ok: true, source: 'sandbox', lag_blocks: 0 });
    expect(live.probes.chain.height).toBeGreaterThanOrEqual(3_000);
    expect(live.probes.assistant).toMatchObject({ ok: true, status: 'answering' });
    expect(live.probes.rate_limiter).toMatchObject({ ok: true, mode: 'memory' });
    expect(live.probes.payment_widget.ok).toBe(true);
    // No MCP host runs in this stack: reported, but not required.
    expect(live.probes.mcp_dns).toMatchObject({ ok: false, required: false });
    // The only receipt is a sandbox one, which is never the latest *testnet* receipt.
    expect(live.latest_full_receipt_id).toBeNull();
    expect(live.summary.mainnet_gate_status).toBe('closed');
  });

  it('lists the conformance proofs and the sandbox receipt apart, with every check recomputed and passing', async () => {
    // Its log inclusion is one of the checks: a checkpoint including the receipt is signed right after it is stored.
    const deadline = Date.now() + 15_000;
    while ((await fetch(`${stack.server.url}/api/assistant/receipt/${turn.receiptId}/proof`)).status !== 200) {
      if (Date.now() > deadline) throw new Error('no checkpoint includes the receipt within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { status, body } = await getJson(`${stack.server.url}/api/agent-economy/proofs`);
    expect(status).toBe(200);
    const board = proofExplorerSchema.parse(body);
    expect(board.summary).toMatchObject({ proof_count: 2, receipt_proofs: 0, conformance_proofs: 2, sandbox_receipts_excluded: 1 });
    expect(board.proofs.map((proof) => proof.id)).toEqual(['policy-engine-verdicts', 'published-schemas-validate-descriptors']);
    for (const proof of board.proofs) expect(proof.checks.filter((check) => !check.ok), proof.id).toEqual([]);
    // The build's schema report covers every static descriptor, not a token few.
    expect(board.proofs[1]!.checks.length).toBeGreaterThan(20);
    const sandbox = board.sandbox_receipts[0]!;
    expect(sandbox).toMatchObject({ id: turn.receiptId, kind: 'sandbox_receipt' });
    expect(sandbox.checks.find((check) => check.id === 'settlement_tx')).toMatchObject({ ok: true });
    expect(sandbox.checks.find((check) => check.id === 'log_inclusion')).toMatchObject({ ok: true });
    expect(sandbox.checks.every((check) => check.ok)).toBe(true);
    expect(board.receipt_log).toMatchObject({ entries: 1, agrees: true, checkpoint: { size: 1 } });
    expect(board.posture.mainnet_ready).toBe(false);
  });
});

describe('live status and proofs with every dependency hanging', () => {
  let server: RunningServer;
  let hole: Awaited<ReturnType<typeof startBlackHole>>;
  beforeAll(async () => {
    hole = await startBlackHole();
    const hung = `http://127.0.0.1:${hole.port}`;
    server = await startBuiltServer({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${hole.port}/test`,
      STORE_CONNECT_TIMEOUT_MS: '500',
      STORE_STATEMENT_TIMEOUT_MS: '500',
      ERGO_EXPLORER_URL: hung,
      CHAIN_TIMEOUT_MS: '5000',
      ASSISTANT_MODEL_PROVIDER: 'openai',
      OPENAI_BASE_URL: hung,
      OPENAI_MODEL: 'probe-model',
      SITE_MCP_URL: hung,
      SIGNER_URL: hung,
      LOG_LEVEL: 'silent',
    });
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    await hole?.close();
  });

  it('answers live status within about one probe timeout, not ok, each hung part a timeout, then from cache', async () => {
    const started = performance.now();
    const { status, body } = await getJson(`${server.url}/api/agent-economy/live`);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(status).toBe(200);
    const live = liveStatusSchema.parse(body);
    expect(live.ok).toBe(false);
    expect(live.probes.chain).toMatchObject({ ok: false, status: 'timeout' });
    expect(live.probes.assistant).toMatchObject({ ok: false, status: 'timeout' });
    expect(live.probes.receipt_storage.ok).toBe(false);
    expect(live.probes.mcp_dns.ok).toBe(false);
    expect(live.probes.wallet_agent.ok).toBe(true);
    const again = performance.now();
    const cached = await getJson(`${server.url}/api/agent-economy/live`);
    expect(performance.now() - again).toBeLessThan(200);
    expect(cached.body.checked_at).toBe(live.checked_at);
  });

  it('answers the proof explorer 503 receipt_storage_unavailable within the store timeout', async () => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/agent-economy/proofs`);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ code: 'receipt_storage_unavailable', status: 503 });
  });
});

describe('live status reports how rate limits are kept', () => {
  it('says redis with a reachable Redis, and memory_fallback once Redis is gone', async () => {
    if (!(await redisAvailable())) return;
    const shared = await startStack({ env: { REDIS_URL } });
    try {
      // The limiter connects when first used; give it a moment, then the probe's own request meets Redis.
      await postJson(`${shared.server.url}/api/assistant/quote`, { question: 'What is the mainnet gate?' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const live = await getJson(`${shared.server.url}/api/agent-economy/live`);
      expect(live.body.probes.rate_limiter).toMatchObject({ ok: true, mode: 'redis' });
    } finally {
      await shared.stop();
    }
    const gone = await startStack({ env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
    try {
      // A limited request meets the missing Redis and falls back to per-instance memory.
      const quote = await postJson(`${gone.server.url}/api/assistant/quote`, { question: 'What is the mainnet gate?' });
      expect(quote.status).toBe(200);
      const live = await getJson(`${gone.server.url}/api/agent-economy/live`);
      expect(live.body.probes.rate_limiter).toMatchObject({ ok: false, mode: 'memory_fallback', required: false });
    } finally {
      await gone.stop();
    }
  }, 60_000);
});
