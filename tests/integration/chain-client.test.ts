/**
 * The chain client against the sandbox chain (real Explorer API v1 and node shapes, real box ids)
 * and against a scripted fake on a free port for what the sandbox will not do: hang, answer
 * garbage, fail then recover, 404 on the explorer with the box only on a node.
 */
import { Network } from '@fleet-sdk/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadChainConfig } from '../../src/config/chain.ts';
import { createChainClient, type ExplorerChainClient } from '../../src/services/chain/explorer-client.ts';
import { ChainUnavailableError } from '../../src/domain/ports.ts';
import { FUNDING_ADDRESS } from '../../src/sandbox/chain.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { startFakeServer, type FakeServer } from '../helpers/fake-http.ts';
import { closedPort } from '../helpers/services.ts';

const RECEIVER = '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt';
const RESERVE = 'ab'.repeat(32);
const TASK = 'cd'.repeat(32);

const clients: ExplorerChainClient[] = [];
function client(options: Partial<Parameters<typeof createChainClient>[0]> & { explorerUrl: string }): ExplorerChainClient {
  const made = createChainClient({ timeoutMs: 2_000, retries: 1, source: 'sandbox', ...options });
  clients.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((made) => made.close()));
});

async function mint(sandbox: RunningSandbox, body: Record<string, unknown>): Promise<{ boxId: string; transactionId: string; inclusionHeight: number | null }> {
  const response = await fetch(`${sandbox.url}/sandbox/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(201);
  return (await response.json()) as { boxId: string; transactionId: string; inclusionHeight: number | null };
}

describe('chain client against the sandbox chain', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, startHeight: 5_000 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('reads the height and a confirmed Note with its exact value, registers and inclusion height', async () => {
    const chain = client({ explorerUrl: sandbox.url });
    const note = await mint(sandbox, { value: '9007199254740993', receiver: RECEIVER, reserveBoxId: RESERVE, expiryHeight: 6_000, taskHash: TASK, confirmations: 3 });
    expect(await chain.height()).toBe(sandbox.chain.height);
    const box = await chain.getBox(note.boxId.toUpperCase());
    expect(box).toEqual({
      boxId: note.boxId,
      transactionId: note.transactionId,
      value: 9_007_199_254_740_993n,
      ergoTree: sandbox.chain.box(note.boxId)!.ergoTree,
      address: RECEIVER,
      creationHeight: 5_000,
      inclusionHeight: 5_001,
      registers: { R4: `0e20${RESERVE}`, R5: '04e05d', R6: `0e20${TASK}` },
      via: 'explorer_api_v1',
    });
    expect(chain.source).toBe('sandbox');
    expect(chain.explorerUrl).toBe(sandbox.url);
  });

  it('answers undefined for a box the chain does not know', async () => {
    expect(await client({ explorerUrl: sandbox.url }).getBox('00'.repeat(32))).toBeUndefined();
  });

  it('finds a mempool Note only through the node, and reports it unconfirmed', async () => {
    const note = await mint(sandbox, { value: 10_000_000, receiver: RECEIVER, reserveBoxId: RESERVE, expiryHeight: 6_000, taskHash: TASK, confirmations: 0 });
    expect(note.inclusionHeight).toBeNull();
    expect(await client({ explorerUrl: sandbox.url }).getBox(note.boxId)).toBeUndefined();
    const box = await client({ explorerUrl: sandbox.url, nodeUrl: sandbox.url }).getBox(note.boxId);
    expect(box).toMatchObject({ boxId: note.boxId, inclusionHeight: undefined, via: 'node_api', value: 10_000_000n, registers: { R6: `0e20${TASK}` } });
    sandbox.chain.mine(1);
    expect(await client({ explorerUrl: sandbox.url }).getBox(note.boxId)).toMatchObject({ inclusionHeight: sandbox.chain.height, via: 'explorer_api_v1' });
  });

  it('falls back to the node index when the explorer answers 404 for a confirmed Note', async () => {
    const note = await mint(sandbox, { value: 10_000_000, receiver: RECEIVER, reserveBoxId: RESERVE, expiryHeight: 6_000, taskHash: TASK, confirmations: 2, hiddenFromExplorer: true });
    expect(await client({ explorerUrl: sandbox.url }).getBox(note.boxId)).toBeUndefined();
    const box = await client({ explorerUrl: sandbox.url, nodeUrl: sandbox.url }).getBox(note.boxId);
    expect(box).toMatchObject({ boxId: note.boxId, inclusionHeight: sandbox.chain.height - 1, via: 'node_api', address: RECEIVER });
  });

  it('refuses the sandbox while configured for the testnet, so no sandbox proof passes for a testnet one', async () => {
    const chain = client({ explorerUrl: sandbox.url, source: 'testnet' });
    await expect(chain.height()).rejects.toBeInstanceOf(ChainUnavailableError);
    await expect(chain.getBox('00'.repeat(32))).rejects.toThrow(/CHAIN_SOURCE=sandbox/);
  });

  it('names the payer of a mined transaction: its first input, from the explorer or from the node index', async () => {
    const note = await mint(sandbox, { value: 10_000_000, receiver: RECEIVER, reserveBoxId: RESERVE, expiryHeight: 6_000, taskHash: TASK, confirmations: 1 });
    const payer = FUNDING_ADDRESS.encode(Network.Testnet);
    expect(await client({ explorerUrl: sandbox.url }).getTransactionPayer(note.transactionId.toUpperCase())).toBe(payer);
    const unknown = '00'.repeat(31) + '01';
    expect(await client({ explorerUrl: sandbox.url }).getTransactionPayer(unknown)).toBeUndefined();
    // An explorer that does not know the transaction: the node index names the input box, read next.
    const silent = await startFakeServer();
    try {
      expect(await client({ explorerUrl: silent.url, nodeUrl: sandbox.url }).getTransactionPayer(note.transactionId)).toBe(payer);
      expect(await client({ explorerUrl: silent.url, nodeUrl: sandbox.url }).getTransactionPayer(unknown)).toBeUndefined();
    } finally {
      await silent.close();
    }
    // Still in the mempool: not a settlement anyone can read yet.
    const pending = await mint(sandbox, { value: 10_000_000, receiver: RECEIVER, reserveBoxId: RESERVE, expiryHeight: 6_000, taskHash: TASK, confirmations: 0 });
    expect(await client({ explorerUrl: sandbox.url }).getTransactionPayer(pending.transactionId)).toBeUndefined();
    sandbox.chain.mine(1);
  });

  it('reads a Note made out to an ErgoTree given as hex', async () => {
    const note = await mint(sandbox, { value: 2_000_000, receiver: FUNDING_ADDRESS.ergoTree, taskHash: TASK, reserveBoxId: RESERVE, expiryHeight: 7_000 });
    expect((await client({ explorerUrl: sandbox.url }).getBox(note.boxId))?.ergoTree).toBe(FUNDING_ADDRESS.ergoTree);
  });
});

describe('chain client against a scripted server', () => {
  let fake: FakeServer;
  const BOX = 'ef'.repeat(32);
  const TX = '12'.repeat(32);
  const explorerBox = (overrides: Record<string, string> = {}) => {
    const fields: Record<string, string> = {
      boxId: `"${BOX}"`,
      transactionId: `"${TX}"`,
      blockId: `"${'34'.repeat(32)}"`,
      value: '9223372036854775807',
      index: '0',
      globalIndex: '42',
      creationHeight: '100',
      settlementHeight: '101',
      ergoTree: '"0008cd0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"',
      address: '"3WwXpssaZwcNzaGMv3AgxBdTPJQBt5gCmqBsg3DykQ39bYdhJBsN"',
      assets: '[]',
      additionalRegisters: '{"R4":{"serializedValue":"0E20ABAB","sigmaType":"Coll[SByte]","renderedValue":"abab"}}',
      spentTransactionId: 'null',
      mainChain: 'true',
      ...overrides,
    };
    return `{${Object.entries(fields)
      .map(([key, value]) => `"${key}":${value}`)
      .join(',')}}`;
  };

  beforeEach(async () => {
    fake = await startFakeServer();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('retries a transaction answer that is not the API shape, then reports the chain unavailable', async () => {
    fake.set(`/api/v1/transactions/${TX}`, { status: 200, body: '{"id":"nope"}' });
    await expect(client({ explorerUrl: fake.url }).getTransactionPayer(TX)).rejects.toBeInstanceOf(ChainUnavailableError);
    expect(fake.hits(`/api/v1/transactions/${TX}`)).toBe(2);
    fake.set(`/api/v1/transactions/${TX}`, { status: 200, body: `{"id":"${TX}","inputs":[{"boxId":"${BOX}","ergoTree":"0008cd0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"}]}` });
    expect(await client({ explorerUrl: fake.url }).getTransactionPayer(TX)).toBe(FUNDING_ADDRESS.encode(Network.Testnet));
  });

  it('parses the largest 64-bit value exactly from a bare JSON number', async () => {
    fake.set(`/api/v1/boxes/${BOX}`, { status: 200, body: explorerBox() });
    const box = await client({ explorerUrl: fake.url }).getBox(BOX);
    expect(box?.value).toBe(9_223_372_036_854_775_807n);
    expect(box?.registers).toEqual({ R4: '0e20abab' });
    expect(box?.inclusionHeight).toBe(101);
  });

  it('accepts a value written as a decimal string, and reports a box off the main chain as unconfirmed', async () => {
    fake.set(`/api/v1/boxes/${BOX}`, { status: 200, body: explorerBox({ value: '"10000000"', mainChain: 'false' }) });
    const box = await client({ explorerUrl: fake.url }).getBox(BOX);
    expect(box?.value).toBe(10_000_000n);
    expect(box?.inclusionHeight).toBeUndefined();
  });

  it('gives up on a server that never answers within the timeout', async () => {
    fake.set('/api/v1/networkState', { hang: true });
    const started = Date.now();
    await expect(client({ explorerUrl: fake.url, timeoutMs: 400 }).height()).rejects.toBeInstanceOf(ChainUnavailableError);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('gives up on a body that stops half way', async () => {
    fake.set('/api/v1/networkState', { stallBody: true });
    const started = Date.now();
    await expect(client({ explorerUrl: fake.url, timeoutMs: 400 }).height()).rejects.toThrow(/no complete answer within 400 ms/);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('retries garbage, then reports the chain unavailable', async () => {
    fake.set('/api/v1/networkState', { status: 200, body: '<html>502 Bad Gateway</html>' });
    await expect(client({ explorerUrl: fake.url, retries: 2 }).height()).rejects.toThrow(/not JSON/);
    expect(fake.hits('/api/v1/networkState')).toBe(3);
  });

  it('treats a body of the wrong shape as unavailable, not as data', async () => {
    fake.set('/api/v1/networkState', { status: 200, body: '{"height":"soon"}' });
    await expect(client({ explorerUrl: fake.url }).height()).rejects.toBeInstanceOf(ChainUnavailableError);
    fake.set(`/api/v1/boxes/${BOX}`, { status: 200, body: explorerBox({ value: '-5' }) });
    await expect(client({ explorerUrl: fake.url }).getBox(BOX)).rejects.toBeInstanceOf(ChainUnavailableError);
    fake.set(`/api/v1/boxes/${BOX}`, { status: 200, body: explorerBox({ boxId: `"${'00'.repeat(32)}"` }) });
    await expect(client({ explorerUrl: fake.url }).getBox(BOX)).rejects.toThrow(/when asked for/);
    fake.set(`/api/v1/boxes/${BOX}`, { status: 200, body: explorerBox({ additionalRegisters: '{"R4":{"serializedValue":"xyz"}}' }) });
    await expect(client({ explorerUrl: fake.url }).getBox(BOX)).rejects.toBeInstanceOf(ChainUnavailableError);
  });

  it('recovers from a 5xx on retry', async () => {
    fake.set('/api/v1/networkState', { status: 503, body: '' }, { status: 200, body: '{"height": 777, "lastBlockId": "x"}' });
    expect(await client({ explorerUrl: fake.url }).height()).toBe(777);
    expect(fake.hits('/api/v1/networkState')).toBe(2);
  });

  it('does not retry a 404, and answers undefined without a node', async () => {
    fake.set(`/api/v1/boxes/${BOX}`, { status: 404, body: '{"status":404,"reason":"Not found"}' });
    expect(await client({ explorerUrl: fake.url }).getBox(BOX)).toBeUndefined();
    expect(fake.hits(`/api/v1/boxes/${BOX}`)).toBe(1);
  });

  it('after the explorer 404s, asks the node index, then the node UTXO set', async () => {
    const node = await startFakeServer();
    try {
      fake.set(`/api/v1/boxes/${BOX}`, { status: 404 });
      node.set(`/blockchain/box/byId/${BOX}`, { status: 503, body: '{"error":503,"reason":"extra indexing is not enabled"}' });
      node.set(`/utxo/withPool/byId/${BOX}`, {
        status: 200,
        body: `{"boxId":"${BOX}","value":12345678901234567890,"ergoTree":"0008cd0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798","creationHeight":100,"assets":[],"additionalRegisters":{"R5":"04e05d"},"transactionId":"${TX}","index":0}`,
      });
      await expect(client({ explorerUrl: fake.url, nodeUrl: node.url }).getBox(BOX)).rejects.toBeInstanceOf(ChainUnavailableError);

      node.set(`/utxo/withPool/byId/${BOX}`, {
        status: 200,
        body: `{"boxId":"${BOX}","value":5000000,"ergoTree":"0008cd0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798","creationHeight":100,"assets":[],"additionalRegisters":{"R5":"04e05d"},"transactionId":"${TX}","index":0}`,
      });
      const box = await client({ explorerUrl: fake.url, nodeUrl: node.url }).getBox(BOX);
      expect(box).toEqual({
        boxId: BOX,
        transactionId: TX,
        value: 5_000_000n,
        ergoTree: '0008cd0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
        address: '3WwXpssaZwcNzaGMv3AgxBdTPJQBt5gCmqBsg3DykQ39bYdhJBsN',
        creationHeight: 100,
        inclusionHeight: undefined,
        registers: { R5: '04e05d' },
        via: 'node_api',
      });

      node.set(`/utxo/withPool/byId/${BOX}`, { status: 404 });
      node.set(`/blockchain/box/byId/${BOX}`, { status: 404 });
      expect(await client({ explorerUrl: fake.url, nodeUrl: node.url }).getBox(BOX)).toBeUndefined();
    } finally {
      await node.close();
    }
  });

  it('reports the chain unavailable when the explorer 404s and the node cannot be reached', async () => {
    fake.set(`/api/v1/boxes/${BOX}`, { status: 404 });
    const port = await closedPort();
    await expect(client({ explorerUrl: fake.url, nodeUrl: `http://127.0.0.1:${port}` }).getBox(BOX)).rejects.toBeInstanceOf(ChainUnavailableError);
  });

  it('reports the chain unavailable for an explorer that cannot be reached, within the timeout', async () => {
    const port = await closedPort();
    const started = Date.now();
    await expect(client({ explorerUrl: `http://127.0.0.1:${port}`, timeoutMs: 1_000 }).height()).rejects.toBeInstanceOf(ChainUnavailableError);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('treats other statuses as unavailable without retrying', async () => {
    fake.set('/api/v1/networkState', { status: 401, body: '' });
    await expect(client({ explorerUrl: fake.url }).height()).rejects.toThrow(/answered 401/);
    expect(fake.hits('/api/v1/networkState')).toBe(1);
  });

  it('refuses an answer too large to be a box', async () => {
    fake.set('/api/v1/networkState', { status: 200, body: `{"height":1,"pad":"${'x'.repeat(1_100_000)}"}` });
    await expect(client({ explorerUrl: fake.url, retries: 0 }).height()).rejects.toThrow(/exceeds/);
  });

  it('rejects a malformed box id before any request', async () => {
    await expect(client({ explorerUrl: fake.url }).getBox('not-a-box')).rejects.toBeInstanceOf(TypeError);
  });
});

describe('chain configuration', () => {
  it('defaults to the public testnet explorer', () => {
    expect(loadChainConfig({})).toEqual({ explorerUrl: 'https://api-testnet.ergoplatform.com', nodeUrl: undefined, timeoutMs: 5_000, retries: 1, source: 'testnet', heightMaxAgeMs: 5_000 });
  });

  it('reads every variable and names the one that is malformed', () => {
    expect(loadChainConfig({ ERGO_EXPLORER_URL: 'http://127.0.0.1:4323/', ERGO_NODE_URL: 'http://127.0.0.1:9052', CHAIN_TIMEOUT_MS: '800', CHAIN_RETRIES: '0', CHAIN_SOURCE: 'sandbox', CHAIN_HEIGHT_MAX_AGE_MS: '0' })).toEqual({
      explorerUrl: 'http://127.0.0.1:4323',
      nodeUrl: 'http://127.0.0.1:9052',
      timeoutMs: 800,
      retries: 0,
      source: 'sandbox',
      heightMaxAgeMs: 0,
    });
    expect(() => loadChainConfig({ CHAIN_HEIGHT_MAX_AGE_MS: '120000' })).toThrow(/CHAIN_HEIGHT_MAX_AGE_MS must be a whole number of milliseconds from 0/);
    expect(() => loadChainConfig({ CHAIN_SOURCE: 'mainnet' })).toThrow(/CHAIN_SOURCE must be testnet or sandbox/);
    expect(() => loadChainConfig({ CHAIN_TIMEOUT_MS: '5s' })).toThrow(/CHAIN_TIMEOUT_MS must be a whole number of milliseconds/);
    expect(() => loadChainConfig({ ERGO_NODE_URL: 'ftp://node' })).toThrow(/ERGO_NODE_URL must be an absolute http\(s\) URL/);
  });
});
