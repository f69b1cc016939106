/**
 * The sandbox chain: real box ids, registers serialized as the Accord v0 Note needs, a height that
 * moves, the Explorer API v1 and node shapes, the chain kept in its file across restarts, and the
 * two commands a newcomer runs (`npm run sandbox`, `npm run sandbox:pay`) started as real processes.
 */
import { blake2b256, hex } from '@fleet-sdk/crypto';
import { parse, serializeBox } from '@fleet-sdk/serializer';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ErgoBox } from 'ergo-lib-wasm-nodejs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSandboxConfig, SANDBOX_VARIABLES } from '../../src/config/sandbox.ts';
import { createChainClient } from '../../src/services/chain/explorer-client.ts';
import { payQuote } from '../../src/sandbox/pay.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { SandboxChain } from '../../src/sandbox/chain.ts';
import { chainFileText, readChainFile } from '../../src/sandbox/chain-file.ts';
import { ROOT } from '../helpers/built-server.ts';
import { startFakeServer } from '../helpers/fake-http.ts';
import { makeQuote } from '../helpers/store-fixtures.ts';
import { premiumQuoteBody } from '../../src/domain/assistant/pricing.ts';

const RECEIVER = '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt';
const RESERVE = '5a'.repeat(32);
const TASK = 'a5'.repeat(32);

let sandbox: RunningSandbox;
const scratch = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, startHeight: 2_000 });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function callAt(url: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; text: string; json: Record<string, any> }> {
  const response = await fetch(`${url}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as Record<string, any> };
}
const call = (path: string, body?: unknown) => callAt(sandbox.url, path, body);

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

describe('a sandbox chain kept in its file', () => {
  type Minted = { boxId: string; transactionId: string };

  /** Every answer about the two Notes and the chain, as status and body text. */
  async function answersAbout(url: string, note: Minted, pending: Minted): Promise<Record<string, string>> {
    const paths = [
      '/api/v1/networkState',
      '/info',
      `/api/v1/boxes/${note.boxId}`,
      `/blockchain/box/byId/${note.boxId}`,
      `/utxo/withPool/byId/${note.boxId}`,
      `/api/v1/transactions/${note.transactionId}`,
      `/blockchain/transaction/byId/${note.transactionId}`,
      `/api/v1/boxes/${pending.boxId}`,
      `/utxo/withPool/byId/${pending.boxId}`,
    ];
    const answers = await Promise.all(paths.map(async (path) => callAt(url, path)));
    return Object.fromEntries(paths.map((path, index) => [path, `${answers[index]!.status} ${answers[index]!.text}`]));
  }

  it('answers the same about its Notes after a restart on the same file, and goes on from them', async () => {
    const file = join(scratch, 'restart', 'sandbox-chain.json');
    const first = await startSandbox({ port: 0, startHeight: 5_000, chainFile: file });
    expect(first.kept).toEqual({ file, start: 'new' });
    const note = (await callAt(first.url, '/sandbox/notes', { value: 25_000_000, receiver: RECEIVER, reserveBoxId: RESERVE, expiryHeight: 5_720, taskHash: TASK, confirmations: 2 })).json as Minted;
    const pending = (await callAt(first.url, '/sandbox/notes', { value: 5_000_000, receiver: RECEIVER, confirmations: 0 })).json as Minted;
    // Written before it was answered: the file already holds the Note still in the mempool.
    expect(readFileSync(file, 'utf8')).toContain(pending.boxId);
    const before = await answersAbout(first.url, note, pending);
    expect(before[`/api/v1/boxes/${note.boxId}`]).toMatch(/^200 /);
    expect(before[`/utxo/withPool/byId/${pending.boxId}`]).toMatch(/^200 /);
    await first.close();

    const second = await startSandbox({ port: 0, startHeight: 1, chainFile: file });
    try {
      expect(second.kept).toEqual({ file, start: 'continued' });
      expect(await answersAbout(second.url, note, pending)).toEqual(before);
      // The Note left in the mempool is mined by the next block, at the kept height plus one.
      expect((await callAt(second.url, '/sandbox/mine', {})).json.height).toBe(5_003);
      expect((await callAt(second.url, `/api/v1/boxes/${pending.boxId}`)).json.settlementHeight).toBe(5_003);
      // The next Note spends the change of the last one made before the restart.
      const change = second.chain.outputsOf(pending.transactionId)[1]!;
      const next = (await callAt(second.url, '/sandbox/notes', { value: 5_000_000, receiver: RECEIVER })).json as Minted;
      expect((await callAt(second.url, `/blockchain/box/byId/${change.boxId}`)).json).toMatchObject({ spentTransactionId: next.transactionId, spendingHeight: 5_004 });
    } finally {
      await second.close();
    }
    // Each write replaced the file whole: nothing is left beside it.
    expect(readdirSync(join(scratch, 'restart'))).toEqual(['sandbox-chain.json']);
  });

  it('starts empty when fresh, at the start height, and the empty chain replaces the file', async () => {
    const file = join(scratch, 'fresh.json');
    const first = await startSandbox({ port: 0, startHeight: 5_000, chainFile: file });
    const note = (await callAt(first.url, '/sandbox/notes', { value: 5_000_000, receiver: RECEIVER })).json as Minted;
    await first.close();

    const fresh = await startSandbox({ port: 0, startHeight: 7_000, chainFile: file, fresh: true });
    expect(fresh.kept).toEqual({ file, start: 'fresh' });
    expect([fresh.chain.height, fresh.chain.boxCount]).toEqual([7_000, 1]);
    expect((await callAt(fresh.url, `/api/v1/boxes/${note.boxId}`)).status).toBe(404);
    await fresh.close();

    const again = await startSandbox({ port: 0, startHeight: 1, chainFile: file });
    expect(again.kept!.start).toBe('continued');
    expect([again.chain.height, again.chain.boxCount]).toEqual([7_000, 1]);
    expect((await callAt(again.url, `/utxo/withPool/byId/${note.boxId}`)).status).toBe(404);
    await again.close();
  });

  it('mines on time from the kept height and keeps every block it mines', async () => {
    const file = join(scratch, 'timed.json');
    const first = await startSandbox({ port: 0, startHeight: 8_000, chainFile: file });
    await callAt(first.url, '/sandbox/height', { height: 8_100 });
    await first.close();

    const timed = await startSandbox({ port: 0, startHeight: 1, blockSeconds: 1, chainFile: file });
    try {
      expect(timed.chain.height).toBe(8_100);
      await vi.waitFor(() => expect(timed.chain.height).toBeGreaterThan(8_100), { timeout: 5_000, interval: 50 });
    } finally {
      await timed.close();
    }
    expect(readChainFile(file)!.height).toBe(timed.chain.height);
  });

  const valid = () => JSON.parse(chainFileText(new SandboxChain(100).state())) as Record<string, any>;
  it.each<[string, () => string, RegExp]>([
    ['cut short', () => chainFileText(new SandboxChain(100).state()).slice(0, 200), /is not JSON/],
    ['of another layout', () => JSON.stringify({ ...valid(), format: 'ergo-sandbox-chain/0' }), /is not a sandbox chain of format ergo-sandbox-chain\/1 \(its format: "ergo-sandbox-chain\/0"\)/],
    ['missing a box value', () => JSON.stringify({ ...valid(), boxes: valid().boxes.map(({ value: _value, ...box }: Record<string, unknown>) => box) }), /is not a sandbox chain: boxes\.0\.value/],
    ['naming a funding box it lacks', () => JSON.stringify({ ...valid(), fundingBoxId: 'ab'.repeat(32) }), /does not hold together: the funding box abab/],
  ])('refuses a file %s, naming it and how to start afresh, and leaves it as it was', async (name, text, problem) => {
    const file = join(scratch, `corrupt-${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, text());
    const kept = readFileSync(file, 'utf8');
    const start = startSandbox({ port: 0, startHeight: 100, chainFile: file });
    await expect(start).rejects.toThrow(problem);
    await expect(start).rejects.toThrow(`the sandbox chain file ${file} `);
    await expect(start).rejects.toThrow('`npm run sandbox -- --fresh` starts an empty chain in its place');
    expect(readFileSync(file, 'utf8')).toBe(kept);

    const fresh = await startSandbox({ port: 0, startHeight: 100, chainFile: file, fresh: true });
    await fresh.close();
    expect(readChainFile(file)!.height).toBe(100);
  });

  it('refuses a file it cannot read, naming it', async () => {
    const file = join(scratch, 'a-folder');
    mkdirSync(file);
    await expect(startSandbox({ port: 0, startHeight: 100, chainFile: file })).rejects.toThrow(new RegExp(`the sandbox chain file ${file} cannot be read \\(EISDIR`));
  });

  it('lives in memory only unless given a file', () => {
    expect(sandbox.kept).toBeUndefined();
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

  /** The URL a started `npm run sandbox` prints once it listens. */
  function listening(server: ReturnType<typeof run>): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${server.output().stderr}`)), 15_000);
      const poll = setInterval(() => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output().stdout);
        if (match || server.child.exitCode !== null) {
          clearInterval(poll);
          clearTimeout(timer);
          if (match) resolve(match[1]!);
          else reject(new Error(`sandbox exited: ${server.output().stderr}`));
        }
      }, 50);
    });
  }

  it('`npm run sandbox` listens on loopback, and `npm run sandbox:pay` pays a quote from stdin, by id or by question', async () => {
    const server = run('src/sandbox/main.ts', [], { SANDBOX_PORT: '0', SANDBOX_START_HEIGHT: '9000', SANDBOX_CHAIN_FILE: join(scratch, 'commands.json') });
    try {
      const url = await listening(server);
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

  it('`npm run sandbox` keeps its chain in its file across restarts, says where and how to start afresh, and refuses what it does not take', async () => {
    const file = join(scratch, 'command', 'sandbox-chain.json');
    const env = { SANDBOX_PORT: '0', SANDBOX_START_HEIGHT: '9000', SANDBOX_CHAIN_FILE: file };
    const stop = async (server: ReturnType<typeof run>) => {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    };

    const first = run('src/sandbox/main.ts', [], env);
    const note = (await callAt(await listening(first), '/sandbox/notes', { value: 5_000_000, receiver: RECEIVER, confirmations: 3 })).json as { boxId: string };
    expect(first.output().stdout).toContain(`chain kept in ${file} (a new one; a restart continues it); \`npm run sandbox -- --fresh\` starts an empty one in its place`);
    await stop(first);

    const second = run('src/sandbox/main.ts', [], env);
    const url = await listening(second);
    expect(second.output().stdout).toContain('(height 9003;');
    expect(second.output().stdout).toContain(`chain kept in ${file}, continued from the last run (4 boxes)`);
    expect((await callAt(url, `/api/v1/boxes/${note.boxId}`)).json.settlementHeight).toBe(9001);
    await stop(second);

    const fresh = run('src/sandbox/main.ts', ['--fresh'], env);
    const freshUrl = await listening(fresh);
    expect(fresh.output().stdout).toContain('(height 9000;');
    expect(fresh.output().stdout).toContain(`chain kept in ${file}, started empty (--fresh) in place of the one kept there`);
    expect((await callAt(freshUrl, `/api/v1/boxes/${note.boxId}`)).status).toBe(404);
    await stop(fresh);

    const unknown = run('src/sandbox/main.ts', ['--frsh'], env);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output().stderr).toMatch(/^sandbox: unknown argument '--frsh'\nusage: npm run sandbox \[-- --fresh\]/);

    writeFileSync(file, '{"format":"ergo-sandbox-chain/1","tip":');
    const corrupt = run('src/sandbox/main.ts', [], env);
    expect(await corrupt.exited).toBe(1);
    expect(corrupt.output().stderr).toContain(`sandbox: the sandbox chain file ${file} is not JSON`);
    expect(corrupt.output().stderr).toContain('`npm run sandbox -- --fresh` starts an empty chain in its place');
    expect(corrupt.output().stdout).toBe('');
  });
});

describe('sandbox configuration', () => {
  it('defaults to port 4323 on loopback and the chain file in DATA_DIR, and names a malformed variable', () => {
    expect(loadSandboxConfig({})).toEqual({ port: 4323, startHeight: 1_000, blockSeconds: 0, chainFile: resolve('.data/sandbox-chain.json'), url: 'http://127.0.0.1:4323' });
    expect(loadSandboxConfig({ SANDBOX_PORT: '5000', SANDBOX_BLOCK_SECONDS: '2' })).toMatchObject({ port: 5000, blockSeconds: 2, url: 'http://127.0.0.1:5000' });
    expect(loadSandboxConfig({ DATA_DIR: '/srv/state' }).chainFile).toBe('/srv/state/sandbox-chain.json');
    expect(loadSandboxConfig({ DATA_DIR: '/srv/state', SANDBOX_CHAIN_FILE: 'chains/mine.json' }).chainFile).toBe(resolve('chains/mine.json'));
    expect(() => loadSandboxConfig({ SANDBOX_PORT: '70000' })).toThrow(/SANDBOX_PORT must be a whole number of port from 0 to 65535/);
  });

  it('names each variable it reads in the README\'s configuration table and in its own table, and no other', () => {
    const named = (text: string, row: RegExp) => [...text.matchAll(row)].map(([, name]) => name!).sort();
    expect(named(readFileSync(join(ROOT, 'README.md'), 'utf8'), /^\| `(SANDBOX_[A-Z_]+)` \|/gm)).toEqual([...SANDBOX_VARIABLES].sort());
    expect(named(readFileSync(join(ROOT, 'src/config/sandbox.ts'), 'utf8'), /^ \* \| `(SANDBOX_[A-Z_]+)` +\|/gm)).toEqual([...SANDBOX_VARIABLES].sort());
  });
});
