/**
 * The sandbox chain: real box ids, registers serialized as the Accord v0 Note needs, a height that
 * moves, the Explorer API v1 and node shapes, and the two commands a newcomer runs
 * (`npm run sandbox`, `npm run sandbox:pay`) started as real processes.
 */
import { blake2b256, hex } from '@fleet-sdk/crypto';
import { parse, serializeBox } from '@fleet-sdk/serializer';
import { spawn } from 'node:child_process';
import { ErgoBox } from 'ergo-lib-wasm-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSandboxConfig } from '../../src/config/sandbox.ts';
import { createChainClient } from '../../src/services/chain/explorer-client.ts';
import { payQuote } from '../../src/sandbox/pay.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { ROOT } from '../helpers/built-server.ts';
import { startFakeServer } from '../helpers/fake-http.ts';
import { makeQuote } from '../helpers/store-fixtures.ts';
import { premiumQuoteBody } from '../../src/domain/assistant/pricing.ts';

const RECEIVER = '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt';
const RESERVE = '5a'.repeat(32);
const TASK = 'a5'.repeat(32);

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, startHeight: 2_000 });
});
afterAll(async () => {
  await sandbox.close();
});

async function call(path: string, body?: unknown): Promise<{ status: number; headers: Headers; text: string; json: Record<string, any> }> {
  const response = await fetch(`${sandbox.url}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as Record<string, any> };
}

describe('sandbox chain', () => {
  it('mints a Note whose box id is the blake2b256 of its serialized bytes', async () => {
    const minted = await call('/sandbox/notes', { value: '25000000', receiver: RECEIVER, reserveBoxId: RESERVE, expiryHeight: 2_720, taskHash: TASK });
    expect(minted.status).toBe(201);
    const box = sandbox.chain.box(minted.json.boxId as string)!;
    const bytes = serializeBox({
      boxId: box.boxId,
      value: box.value,
      ergoTree: box.ergoTree,
      creationHeight: box.creationHeight,
      assets: [],
      additionalRegisters: box.registers,
      transactionId: box.transactionId,
      index: box.index,
    }).toBytes();
    expect(hex.encode(blake2b256(bytes))).toBe(minted.json.boxId);
    // sigma-rust parses the same bytes back to the same box.
    expect(ErgoBox.sigma_parse_bytes(bytes).box_id().to_str()).toBe(minted.json.boxId);
    expect(minted.json.transactionId).toMatch(/^[0-9a-f]{64}$/);
    expect(minted.json.transactionId).not.toBe('00'.repeat(32));
  });

  it('serializes R4, R5 and R6 as Coll[Byte], Int and Coll[Byte] and renders them as the explorer does', async () => {
    const minted = await call('/sandbox/notes', { value: 25_000_000, receiver: RECEIVER, reserveBoxId: RESERVE, expiryHeight: 2_720, taskHash: TASK });
    const explorer = await call(`/api/v1/boxes/${minted.json.boxId}`);
    const registers = explorer.json.additionalRegisters;
    expect(hex.encode(parse<Uint8Array>(registers.R4.serializedValue))).toBe(RESERVE);
    expect(parse<number>(registers.R5.serializedValue)).toBe(2_720);
    expect(hex.encode(parse<Uint8Array>(registers.R6.serializedValue))).toBe(TASK);
    expect([registers.R4.sigmaType, registers.R5.sigmaType, registers.R6.sigmaType]).toEqual(['Coll[SByte]', 'SInt', 'Coll[SByte]']);
    expect([registers.R4.renderedValue, registers.R5.renderedValue]).toEqual([RESERVE, '2720']);
    expect(explorer.json).toMatchObject({ boxId: minted.json.boxId, address: RECEIVER, settlementHeight: minted.json.inclusionHeight, mainChain: true, spentTransactionId: null });
  });

  it('keeps a Note value above 2^53 exact on the way in and out', async () => {
    const minted = await call('/sandbox/notes', `{"value": 9007199254740993, "receiver": "${RECEIVER}", "taskHash": "${TASK}", "reserveBoxId": "${RESERVE}", "expiryHeight": 3000}`);
    expect(minted.json.value).toBe('9007199254740993');
    const explorer = await call(`/api/v1/boxes/${minted.json.boxId}`);
    expect(explorer.text).toContain('"value":9007199254740993,');
  });

  it('advances the height: a block per Note, on demand, or to a given height, never back', async () => {
    const start = sandbox.chain.height;
    const minted = await call('/sandbox/notes', { value: 5_000_000, receiver: RECEIVER, confirmations: 3 });
    expect(minted.json).toMatchObject({ inclusionHeight: start + 1, height: start + 3, confirmations: 3 });
    expect((await call('/sandbox/mine', { blocks: 2 })).json.height).toBe(start + 5);
    expect((await call('/sandbox/mine', '')).json.height).toBe(start + 6);
    expect((await call('/sandbox/height', { height: start + 50 })).json.height).toBe(start + 50);
    expect((await call('/api/v1/networkState')).json.height).toBe(start + 50);
    const back = await call('/sandbox/height', { height: start });
    expect(back.status).toBe(409);
    expect(back.json.detail).toMatch(/never goes back/);
  });

  it('keeps an unconfirmed Note in the mempool: unknown to the explorer, found by the node UTXO endpoint', async () => {
    const minted = await call('/sandbox/notes', { value: 5_000_000, receiver: RECEIVER, confirmations: 0 });
    expect(minted.json).toMatchObject({ inclusionHeight: null, confirmations: 0 });
    expect((await call(`/api/v1/boxes/${minted.json.boxId}`)).status).toBe(404);
    expect((await call(`/blockchain/box/byId/${minted.json.boxId}`)).status).toBe(404);
    expect((await call(`/utxo/withPool/byId/${minted.json.boxId}`)).json.boxId).toBe(minted.json.boxId);
    const height = (await call('/sandbox/mine')).json.height as number;
    expect((await call(`/api/v1/boxes/${minted.json.boxId}`)).json.settlementHeight).toBe(height);
    expect((await call(`/blockchain/box/byId/${minted.json.boxId}`)).json.inclusionHeight).toBe(height);
  });

  it('chains its transactions: each Note spends the change of the previous one', async () => {
    const first = await call('/sandbox/notes', { value: 5_000_000, receiver: RECEIVER });
    const outputs = sandbox.chain.outputsOf(first.json.transactionId as string);
    expect(outputs.map((box) => box.index)).toEqual([0, 1, 2]);
    expect(outputs[0]!.boxId).toBe(first.json.boxId);
    const change = outputs[1]!;
    expect((await call(`/utxo/withPool/byId/${change.boxId}`)).status).toBe(200);

    const second = await call('/sandbox/notes', { value: 5_000_000, receiver: RECEIVER });
    expect(second.json.transactionId).not.toBe(first.json.transactionId);
    const spent = await call(`/blockchain/box/byId/${change.boxId}`);
    expect(spent.json).toMatchObject({ spentTransactionId: second.json.transactionId, spendingHeight: second.json.inclusionHeight });
    expect((await call(`/utxo/withPool/byId/${change.boxId}`)).status).toBe(404);
  });

  it('refuses bad mint requests with 400 and a reason', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ value: 5_000_000, receiver: '9fRAWhdxEsTcdb8PhGNrZfwqa65zfkuYHAMmkQLcic1gdLSV5vA' }, /testnet address/],
      [{ value: 5_000_000, receiver: 'not-an-address' }, /base58 Ergo address or ErgoTree/],
      [{ value: 0, receiver: RECEIVER }, /value/],
      [{ value: 5_000_000, receiver: RECEIVER, colour: 'red' }, /colour/],
      [{ value: 5_000_000, receiver: RECEIVER, registers: { R6: 'zz' } }, /registers\.R6/],
      [{ value: 5_000_000, receiver: RECEIVER, registers: { R6: 'ffff' } }, /R6 is not a serialized constant/],
      [{ value: 5_000_000, receiver: RECEIVER, taskHash: TASK }, /not valid/],
      ['{"value":', /not JSON/],
    ];
    for (const [body, reason] of cases) {
      const answer = await call('/sandbox/notes', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.detail).toMatch(reason);
    }
  });

  it('marks every answer as the sandbox and describes itself', async () => {
    for (const path of ['/sandbox', '/api/v1/networkState', `/api/v1/boxes/${'00'.repeat(32)}`, '/nowhere']) {
      expect((await call(path)).headers.get('x-ergo-sandbox')).toBe('true');
    }
    expect((await call('/sandbox')).json).toMatchObject({ sandbox: true, explorer_api: `${sandbox.url}/api/v1` });
  });
});

describe('paying a quote on the sandbox', () => {
  it('mints the Note a premium quote asks for, with the confirmations it needs', async () => {
    const quote = makeQuote({ issuedHeight: sandbox.chain.height, minConfirmations: 2 });
    const payment = await payQuote(premiumQuoteBody(quote), { sandboxUrl: sandbox.url });
    expect(payment).toMatchObject({ quoteId: quote.quoteId, valueNanoErg: quote.priceNanoErg.toString(), confirmations: 2 });

    const chain = createChainClient({ explorerUrl: sandbox.url, timeoutMs: 2_000, retries: 0, source: 'sandbox' });
    const box = (await chain.getBox(payment.noteBoxId))!;
    const height = await chain.height();
    await chain.close();
    expect(box.value).toBe(quote.priceNanoErg);
    expect(box.address).toBe(quote.receiverAddress);
    expect(hex.encode(parse<Uint8Array>(box.registers.R4!))).toBe(quote.reserveBoxId);
    expect(hex.encode(parse<Uint8Array>(box.registers.R6!))).toBe(quote.taskHash);
    const expiry = parse<number>(box.registers.R5!);
    expect(expiry).toBe(payment.expiryHeight);
    expect(expiry).toBeGreaterThanOrEqual(quote.noteExpiryMinHeight);
    expect(expiry).toBeGreaterThan(height);
    expect(height - box.inclusionHeight! + 1).toBe(2);
    expect(box.creationHeight).toBeGreaterThanOrEqual(quote.issuedHeight);
  });

  it('refuses a free-tier decision and any server that is not the sandbox', async () => {
    await expect(payQuote({ tier: 'free', type: 'x' }, { sandboxUrl: sandbox.url })).rejects.toThrow(/free-tier decision goes straight to chat/);
    const impostor = await startFakeServer();
    try {
      impostor.set('/api/v1/networkState', { status: 200, body: '{"height": 10}' });
      await expect(payQuote(premiumQuoteBody(makeQuote()), { sandboxUrl: impostor.url })).rejects.toThrow(/not the sandbox chain/);
      expect(impostor.hits('/sandbox/notes')).toBe(0);
    } finally {
      await impostor.close();
    }
  });
});

describe('sandbox commands', () => {
  function run(script: string, args: string[], env: Record<string, string>, stdin?: string) {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(stdin ?? '');
    const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
    return { child, exited, output: () => ({ stdout, stderr }) };
  }

  it('`npm run sandbox` listens on loopback, and `npm run sandbox:pay` pays a quote from stdin, by id or by question', async () => {
    const server = run('src/sandbox/main.ts', [], { SANDBOX_PORT: '0', SANDBOX_START_HEIGHT: '9000' });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${server.output().stderr}`)), 15_000);
        const poll = setInterval(() => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output().stdout);
          if (match) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve(match[1]!);
          }
        }, 50);
      });
      expect(server.output().stdout).toContain('height 9000');

      const quote = makeQuote({ issuedHeight: 9000 });
      const pay = run('src/sandbox/pay-command.ts', ['-'], { SANDBOX_URL: url }, JSON.stringify(premiumQuoteBody(quote)));
      expect(await pay.exited).toBe(0);
      const noteBoxId = pay.output().stdout.trim();
      expect(noteBoxId).toMatch(/^[0-9a-f]{64}$/);
      expect(pay.output().stderr).toContain(`paid quote ${quote.quoteId}`);
      const explorer = (await (await fetch(`${url}/api/v1/boxes/${noteBoxId}`)).json()) as { value: number };
      expect(BigInt(explorer.value)).toBe(quote.priceNanoErg);

      // --question: asks the service for the quote, pays it, prints the verify-payment body.
      const api = await startFakeServer();
      try {
        // A quote id: the quote is read back from the service (GET /api/assistant/quote/{id}).
        const stored = makeQuote({ issuedHeight: 9000 });
        api.set(`/api/assistant/quote/${stored.quoteId}`, { status: 200, body: JSON.stringify(premiumQuoteBody(stored)) });
        const byId = run('src/sandbox/pay-command.ts', [stored.quoteId, '--base', api.url], { SANDBOX_URL: url });
        expect(await byId.exited).toBe(0);
        expect(byId.output().stderr).toContain(`paid quote ${stored.quoteId}`);
        const unknown = run('src/sandbox/pay-command.ts', ['no-such-quote', '--base', api.url], { SANDBOX_URL: url });
        expect(await unknown.exited).toBe(1);
        expect(unknown.output().stderr).toMatch(/no-such-quote answered HTTP 404/);

        const premium = premiumQuoteBody(makeQuote({ issuedHeight: 9000 }));
        api.set('/api/assistant/quote', { status: 200, body: JSON.stringify(premium) });
        const asked = run('src/sandbox/pay-command.ts', ['--question', 'What does a receipt prove?', '--base', api.url], { SANDBOX_URL: url });
        expect(await asked.exited).toBe(0);
        expect(JSON.parse(asked.output().stdout)).toEqual({
          quote: { quoteId: premium.quoteId },
          question: 'What does a receipt prove?',
          noteBoxId: expect.stringMatching(/^[0-9a-f]{64}$/),
        });
        api.set('/api/assistant/quote', { status: 200, body: '{"tier":"free","reason":"short question"}' });
        const free = run('src/sandbox/pay-command.ts', ['--question', 'Hi?', '--base', api.url], { SANDBOX_URL: url });
        expect(await free.exited).toBe(0);
        expect(free.output().stdout).toBe('');
        expect(free.output().stderr).toMatch(/free tier \(short question\); no payment needed/);
      } finally {
        await api.close();
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});

describe('sandbox configuration', () => {
  it('defaults to port 4323 on loopback and names a malformed variable', () => {
    expect(loadSandboxConfig({})).toEqual({ port: 4323, startHeight: 1_000, blockSeconds: 0, url: 'http://127.0.0.1:4323' });
    expect(loadSandboxConfig({ SANDBOX_PORT: '5000', SANDBOX_BLOCK_SECONDS: '2' })).toMatchObject({ port: 5000, blockSeconds: 2, url: 'http://127.0.0.1:5000' });
    expect(() => loadSandboxConfig({ SANDBOX_PORT: '70000' })).toThrow(/SANDBOX_PORT must be a whole number of port from 0 to 65535/);
  });
});
