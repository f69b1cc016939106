/**
 * The sandbox chain over HTTP, on loopback only. It answers the paths the chain client reads, in
 * the shapes the real services use, so the service runs against it unchanged:
 *
 * - Explorer API v1: `GET /api/v1/networkState`, `GET /api/v1/boxes/{id}` (confirmed boxes only,
 *   as the public explorer), `GET /api/v1/transactions/{id}` (mined transactions);
 * - Ergo node: `GET /info`, `GET /blockchain/box/byId/{id}` (confirmed), `GET /utxo/withPool/byId/{id}`
 *   (unspent, mempool included), `GET /blockchain/transaction/byId/{id}` (mined; inputs by box id);
 * - sandbox controls: `GET /sandbox`, `POST /sandbox/notes` (mint a Note), `POST /sandbox/mine`,
 *   `POST /sandbox/height`.
 *
 * Every answer carries `x-ergo-sandbox: true`, so a client configured for the testnet refuses it and
 * no sandbox receipt can pass for a testnet proof.
 *
 * Given a chain file (`npm run sandbox` gives SANDBOX_CHAIN_FILE), the chain continues from it and
 * every change is written to it before it is answered; without one (tests, the bench) it lives in
 * memory only.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { parseJsonExact } from '../lib/exact-json.ts';
import { explorerBox, explorerNotFound, heightRequestSchema, hex64, mineRequestSchema, mintRequestSchema, nodeBox, nodeNotFound, receiverTree, registersOf, type Answer } from './api-shapes.ts';
import { SandboxChain, SandboxError, type SandboxBox } from './chain.ts';
import { readChainFile, writeChainFile } from './chain-file.ts';

export const SANDBOX_HOST = '127.0.0.1';
const MAX_BODY_BYTES = 65_536;

/** `JSON.rawJSON` (Node 21+), not yet in TypeScript's library typings. */
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** JSON text in which bigints are bare integer literals (as the explorer writes box values). */
export function stringifyExact(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? rawJSON(item.toString()) : item));
}


export interface SandboxOptions {
  port: number;
  /** Height of a new chain's genesis block; a chain continued from its file keeps its own height. */
  startHeight: number;
  /** Mine a block every this many seconds; 0 mines only on demand. */
  blockSeconds?: number;
  /** Keep the chain in this file: continue from it, write every change to it. Unset: in memory only. */
  chainFile?: string | undefined;
  /** With `chainFile`: start an empty chain at `startHeight` whatever the file holds, and replace it. */
  fresh?: boolean | undefined;
}

export interface RunningSandbox {
  url: string;
  chain: SandboxChain;
  /** Where the chain is kept and how this start found it; undefined when it lives in memory only. */
  kept: { file: string; start: 'continued' | 'new' | 'fresh' } | undefined;
  close(): Promise<void>;
}

export function createSandboxHandler(chain: SandboxChain, baseUrl: () => string) {
  /** The fields the explorer's `TransactionInfo` and the node's `IndexedErgoTransaction` share. */
  const transactionHeader = (transaction: { id: string; outputs: SandboxBox[] }) => {
    const block = transaction.outputs[0]!;
    return { id: transaction.id, blockId: block.blockId, inclusionHeight: block.inclusionHeight, numConfirmations: chain.height - block.inclusionHeight! + 1 };
  };

  const routes: Array<[string, RegExp, (match: RegExpExecArray, body: unknown) => Answer]> = [
    [
      'GET',
      /^\/api\/v1\/networkState$/,
      () => ({
        status: 200,
        body: {
          lastBlockId: chain.tip.id,
          height: chain.height,
          maxBoxGix: chain.boxCount,
          maxTxGix: chain.boxCount,
          params: { height: chain.height, storageFeeFactor: 1_250_000, minValuePerByte: 360, maxBlockSize: 1_271_009, maxBlockCost: 8_001_091, blockVersion: 3, tokenAccessCost: 100, inputCost: 2_407, dataInputCost: 100, outputCost: 197 },
        },
      }),
    ],
    [
      'GET',
      /^\/api\/v1\/boxes\/([^/]+)$/,
      ([, id]) => {
        if (!hex64.safeParse(id).success) return { status: 400, body: { status: 400, reason: `Bad request: Invalid value for: path parameter boxId` } };
        const box = chain.box(id!);
        if (!box || box.inclusionHeight === undefined || box.hiddenFromExplorer) return explorerNotFound(`box with id ${id}`);
        return { status: 200, body: explorerBox(box) };
      },
    ],
    [
      'GET',
      /^\/api\/v1\/transactions\/([^/]+)$/,
      ([, id]) => {
        if (!hex64.safeParse(id).success) return { status: 400, body: { status: 400, reason: `Bad request: Invalid value for: path parameter id` } };
        const transaction = chain.transaction(id!);
        if (!transaction) return explorerNotFound(`transaction with id ${id}`);
        return {
          status: 200,
          body: {
            ...transactionHeader(transaction),
            inputs: transaction.inputs.map((input, index) => ({
              boxId: input.boxId,
              value: input.value,
              index,
              spendingProof: null,
              outputBlockId: input.blockId,
              outputTransactionId: input.transactionId,
              outputIndex: input.index,
              ergoTree: input.ergoTree,
              address: input.address,
              assets: [],
              additionalRegisters: registersOf(input),
            })),
            dataInputs: [],
            outputs: transaction.outputs.map(explorerBox),
          },
        };
      },
    ],
    [
      'GET',
      /^\/blockchain\/transaction\/byId\/([^/]+)$/,
      ([, id]) => {
        const transaction = hex64.safeParse(id).success ? chain.transaction(id!) : undefined;
        if (!transaction) return nodeNotFound(`transaction ${id}`);
        return {
          status: 200,
          body: {
            ...transactionHeader(transaction),
            inputs: transaction.inputs.map((input) => ({ boxId: input.boxId, spendingProof: null })),
            dataInputs: [],
            outputs: transaction.outputs.map((output) => nodeBox(output, true)),
          },
        };
      },
    ],
    ['GET', /^\/info$/, () => ({ status: 200, body: { name: 'ergo-sandbox', appVersion: 'sandbox', network: 'testnet', fullHeight: chain.height, headersHeight: chain.height, bestFullHeaderId: chain.tip.id } })],
    [
      'GET',
      /^\/blockchain\/box\/byId\/([^/]+)$/,
      ([, id]) => {
        const box = hex64.safeParse(id).success ? chain.box(id!) : undefined;
        if (!box || box.inclusionHeight === undefined) return nodeNotFound(`box ${id}`);
        return { status: 200, body: nodeBox(box, true) };
      },
    ],
    [
      'GET',
      /^\/utxo\/withPool\/byId\/([^/]+)$/,
      ([, id]) => {
        const box = hex64.safeParse(id).success ? chain.box(id!) : undefined;
        if (!box || box.spentTransactionId !== undefined) return nodeNotFound(`box ${id}`);
        return { status: 200, body: nodeBox(box, false) };
      },
    ],
    [
      'GET',
      /^\/sandbox\/?$/,
      () => ({
        status: 200,
        body: {
          sandbox: true,
          note: 'A local stand-in for the Ergo testnet. Receipts checked against it say chain "sandbox" and are never testnet proofs.',
          height: chain.height,
          mempool: chain.mempoolSize,
          explorer_api: `${baseUrl()}/api/v1`,
          node_api: baseUrl(),
          mint_note: { method: 'POST', path: '/sandbox/notes', body: { value: 'nanoERG', receiver: 'testnet address or ErgoTree hex', reserveBoxId: 'R4', expiryHeight: 'R5', taskHash: 'R6', confirmations: 1 } },
          mine: { method: 'POST', path: '/sandbox/mine', body: { blocks: 1 } },
          set_height: { method: 'POST', path: '/sandbox/height', body: { height: chain.height + 10 } },
        },
      }),
    ],
    [
      'POST',
      /^\/sandbox\/notes$/,
      (_match, body) => {
        const request = parseBody(mintRequestSchema, body);
        const box = chain.mintNote({ ...request, ergoTree: receiverTree(request.receiver) });
        return {
          status: 201,
          body: {
            boxId: box.boxId,
            transactionId: box.transactionId,
            value: box.value.toString(),
            address: box.address,
            ergoTree: box.ergoTree,
            creationHeight: box.creationHeight,
            inclusionHeight: box.inclusionHeight ?? null,
            height: chain.height,
            confirmations: box.inclusionHeight === undefined ? 0 : chain.height - box.inclusionHeight + 1,
            registers: registersOf(box),
            explorer_url: `${baseUrl()}/api/v1/boxes/${box.boxId}`,
          },
        };
      },
    ],
    ['POST', /^\/sandbox\/mine$/, (_match, body) => ({ status: 200, body: { height: chain.mine(parseBody(mineRequestSchema, body ?? {}).blocks) } })],
    ['POST', /^\/sandbox\/height$/, (_match, body) => ({ status: 200, body: { height: chain.advanceTo(parseBody(heightRequestSchema, body).height) } })],
  ];

  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0]!;
    let answer: Answer;
    try {
      const matches = routes.filter(([, pattern]) => pattern.test(path));
      const route = matches.find(([method]) => method === req.method || (method === 'GET' && req.method === 'HEAD'));
      if (!route) {
        answer = matches.length > 0 ? { status: 405, body: { error: 'method_not_allowed', detail: `${req.method} is not allowed on ${path}` } } : { status: 404, body: { error: 'not_found', detail: `no sandbox path ${path}; see GET /sandbox` } };
      } else {
        const body = route[0] === 'POST' ? await readJson(req) : undefined;
        answer = route[2](route[1].exec(path)!, body);
      }
    } catch (error) {
      answer = error instanceof SandboxError ? { status: error.status, body: { error: 'bad_request', detail: error.message } } : { status: 500, body: { error: 'internal_error', detail: String((error as Error)?.message ?? error) } };
    }
    const text = stringifyExact(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-ergo-sandbox': 'true', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : text);
  };
}

function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SandboxError(400, `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  return parsed.data;
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new SandboxError(413, `body exceeds ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      const text = Buffer.concat(chunks, size).toString('utf8');
      if (text.trim() === '') return resolve(undefined);
      try {
        // Exact: a Note value above 2^53 sent as a JSON number keeps every digit.
        resolve(parseJsonExact(text));
      } catch {
        reject(new SandboxError(400, 'body is not JSON'));
      }
    });
    req.once('error', reject);
  });
}

/**
 * Starts the sandbox on 127.0.0.1:`port` (0 picks a free port). With `chainFile`, the chain is read
 * from it first (a file that is not a sandbox chain stops the start, naming it) and written to it
 * once listening, so a start that fails to listen leaves the file as it was.
 */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const file = options.chainFile;
  const continued = file !== undefined && !options.fresh ? readChainFile(file) : undefined;
  const chain = continued ?? new SandboxChain(options.startHeight);
  let url = '';
  const handler = createSandboxHandler(chain, () => url);
  const server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, SANDBOX_HOST, () => resolve());
  });
  url = `http://${SANDBOX_HOST}:${(server.address() as AddressInfo).port}`;
  let timer: NodeJS.Timeout | undefined;
  const close = () =>
    new Promise<void>((resolve) => {
      if (timer) clearInterval(timer);
      server.close(() => resolve());
      server.closeAllConnections();
    });
  if (file !== undefined) {
    try {
      writeChainFile(file, chain);
    } catch (error) {
      await close();
      throw error;
    }
    chain.onChange = () => writeChainFile(file, chain);
  }
  timer = options.blockSeconds
    ? setInterval(() => {
        try {
          chain.mine(1);
        } catch (error) {
          process.stderr.write(`sandbox: ${(error as Error).message}\n`);
        }
      }, options.blockSeconds * 1000)
    : undefined;
  timer?.unref();
  return {
    url,
    chain,
    kept: file === undefined ? undefined : { file, start: continued ? 'continued' : options.fresh ? 'fresh' : 'new' },
    close,
  };
}
