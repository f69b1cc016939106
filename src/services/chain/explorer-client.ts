/**
 * ChainClient over undici, speaking the Ergo Explorer API v1:
 * `GET /api/v1/networkState` for the height, `GET /api/v1/boxes/{id}` for a box and
 * `GET /api/v1/transactions/{id}` for a transaction's payer. When the
 * explorer answers 404 and an Ergo node is configured, the node is asked too, first through its
 * blockchain index (`/blockchain/box/byId/{id}`, which knows the inclusion height), then through
 * its UTXO set with the mempool (`/utxo/withPool/byId/{id}`, which does not: a box found only there
 * is reported without an inclusion height, i.e. unconfirmed, so it can never be over-counted).
 *
 * Every call finishes within `timeoutMs`, attempts and fallback included; a transport failure, a
 * 5xx or an answer that is not the API's shape is retried while time remains, then becomes
 * ChainUnavailableError. Amounts are parsed from the JSON text itself (exact-json.ts), never via
 * a double.
 */
import { ErgoAddress, Network } from '@fleet-sdk/core';
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../../lib/lazy-modules.ts';
import { z } from 'zod';
import { ChainUnavailableError, type ChainBox, type ChainClient } from '../../domain/ports.ts';
import { parseJsonExact } from '../../lib/exact-json.ts';
import { recentHeight } from './recent-height.ts';

export interface ExplorerClientOptions {
  explorerUrl: string;
  nodeUrl?: string | undefined;
  timeoutMs: number;
  retries: number;
  source: 'testnet' | 'sandbox';
  /** How old a height `recentHeight()` may serve; 0 reads the chain every time. */
  heightMaxAgeMs?: number;
}

/** Header every response of the sandbox chain carries, so it cannot be mistaken for the testnet. */
export const SANDBOX_MARKER_HEADER = 'x-ergo-sandbox';

/** No box or network-state answer comes near this; a bigger body is not the API talking. */
const MAX_BODY_BYTES = 1_048_576;
const RETRY_BACKOFF_MS = 150;
const MAX_BOX_VALUE = 2n ** 63n - 1n;
const REGISTER_IDS = ['R4', 'R5', 'R6', 'R7', 'R8', 'R9'] as const;

const hex = z.string().regex(/^(?:[0-9a-fA-F]{2})+$/);
const id64 = z.string().regex(/^[0-9a-fA-F]{64}$/);
const height = z.int().min(0).max(2_147_483_647);
const nanoErg = z
  .union([z.bigint(), z.int().min(0), z.string().regex(/^(0|[1-9][0-9]*)$/)])
  .transform((value) => BigInt(value))
  .refine((value) => value >= 0n && value <= MAX_BOX_VALUE, 'must be a 64-bit box value');
/** Explorer registers are objects with `serializedValue`; node registers are bare hex strings. */
const register = z.union([hex, z.looseObject({ serializedValue: hex })]).transform((value) => (typeof value === 'string' ? value : value.serializedValue).toLowerCase());
const registers = z.record(z.string(), z.unknown()).transform((all, ctx) => {
  const out: ChainBox['registers'] = {};
  for (const id of REGISTER_IDS) {
    if (all[id] === undefined || all[id] === null) continue;
    const parsed = register.safeParse(all[id]);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: `register ${id} is not serialized hex`, input: all[id] });
      return z.NEVER;
    }
    out[id] = parsed.data;
  }
  return out;
});

/** Explorer API v1 `OutputInfo` (the fields we read). */
const explorerBoxSchema = z.looseObject({
  boxId: id64,
  transactionId: id64,
  value: nanoErg,
  creationHeight: height,
  settlementHeight: height,
  ergoTree: hex,
  address: z.string().min(1).optional(),
  additionalRegisters: registers.optional(),
  mainChain: z.boolean().optional(),
});

/** Node `IndexedErgoBox` (blockchain index) and `ErgoTransactionOutput` (UTXO set): the fields we read. */
const nodeBoxSchema = z.looseObject({
  boxId: id64,
  transactionId: id64,
  value: nanoErg,
  creationHeight: height,
  inclusionHeight: height.optional(),
  ergoTree: hex,
  address: z.string().min(1).optional(),
  additionalRegisters: registers.optional(),
});

const networkStateSchema = z.looseObject({ height });

/** Explorer API v1 `TransactionInfo` and node `IndexedErgoTransaction`: the first input is all we read. */
const transactionSchema = z.looseObject({
  id: id64,
  inputs: z
    .array(z.looseObject({ boxId: id64, address: z.string().min(1).optional(), ergoTree: hex.optional() }))
    .min(1),
});

/** Answers that may change if asked again: worth a retry while the deadline allows. */
class TransientFailure extends Error {}

/** The fields both sources give a box in, as our ChainBox; a source that answers another box than `id` is retried. */
function chainBox(
  id: string,
  box: z.output<typeof nodeBoxSchema> | z.output<typeof explorerBoxSchema>,
  source: string,
  inclusionHeight: number | undefined,
  via: ChainBox['via'],
): ChainBox {
  if (box.boxId.toLowerCase() !== id) throw new TransientFailure(`${source} answered box ${box.boxId} when asked for ${id}`);
  return {
    boxId: id,
    transactionId: box.transactionId.toLowerCase(),
    value: box.value,
    ergoTree: box.ergoTree.toLowerCase(),
    address: box.address ?? addressOf(box.ergoTree),
    creationHeight: box.creationHeight,
    inclusionHeight,
    registers: box.additionalRegisters ?? {},
    via,
  };
}

interface Answer {
  status: number;
  body: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function addressOf(ergoTree: string): string | undefined {
  try {
    return ErgoAddress.fromErgoTree(ergoTree, Network.Testnet).encode(Network.Testnet);
  } catch {
    return undefined;
  }
}

export class ExplorerChainClient implements ChainClient {
  readonly source: 'testnet' | 'sandbox';
  readonly explorerUrl: string;
  readonly nodeUrl: string | undefined;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #agent: Agent;

  constructor(options: ExplorerClientOptions) {
    this.source = options.source;
    this.explorerUrl = options.explorerUrl.replace(/\/+$/, '');
    this.nodeUrl = options.nodeUrl?.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs;
    this.#retries = options.retries;
    this.#agent = new (undici().Agent)({ connect: { timeout: options.timeoutMs }, keepAliveTimeout: 10_000, connections: 16 });
    this.recentHeight = recentHeight(() => this.height(), options.heightMaxAgeMs ?? 0);
  }

  readonly recentHeight: () => Promise<number>;

  /** Height of the best block the explorer knows. */
  async height(): Promise<number> {
    const deadline = Date.now() + this.#timeoutMs;
    const answer = await this.#get(`${this.explorerUrl}/api/v1/networkState`, deadline, 'the explorer network state', (body) =>
      this.#shape(networkStateSchema, body, 'the explorer network state'),
    );
    if (answer.status !== 200) throw new ChainUnavailableError(`the explorer answered ${answer.status} for its network state`);
    return (answer.body as z.output<typeof networkStateSchema>).height;
  }

  /** The box, or undefined when neither the explorer nor (if configured) the node knows it. */
  async getBox(boxId: string): Promise<ChainBox | undefined> {
    if (!/^[0-9a-fA-F]{64}$/.test(boxId)) throw new TypeError(`chain client: "${boxId}" is not a 64-hex box id`);
    const id = boxId.toLowerCase();
    const deadline = Date.now() + this.#timeoutMs;

    const explorer = await this.#get(`${this.explorerUrl}/api/v1/boxes/${id}`, deadline, `box ${id} from the explorer`, (body) =>
      this.#explorerBox(id, body),
    );
    if (explorer.status === 200) return explorer.body as ChainBox;
    if (explorer.status !== 404) throw new ChainUnavailableError(`the explorer answered ${explorer.status} for box ${id}`);
    if (!this.nodeUrl) return undefined;

    // 404: not indexed (yet); other 4xx or 5xx: most likely a node without the extra index. Either
    // way the UTXO set is asked next, and a node that is down fails there too.
    const indexed = await this.#get(`${this.nodeUrl}/blockchain/box/byId/${id}`, deadline, `box ${id} from the node index`, (body) =>
      this.#nodeBox(id, body, true),
    ).catch((error: unknown) => {
      if (error instanceof ChainUnavailableError && Date.now() < deadline) return { status: 503, body: undefined };
      throw error;
    });
    if (indexed.status === 200) return indexed.body as ChainBox;
    const pooled = await this.#get(`${this.nodeUrl}/utxo/withPool/byId/${id}`, deadline, `box ${id} from the node UTXO set`, (body) =>
      this.#nodeBox(id, body, false),
    );
    if (pooled.status === 200) return pooled.body as ChainBox;
    if (pooled.status === 404) return undefined;
    throw new ChainUnavailableError(`the node answered ${pooled.status} for box ${id}`);
  }

  /**
   * The address of the transaction's first input, from the explorer, else (on 404, when a node is
   * configured) from the node's blockchain index, whose inputs name their box only: that box is then
   * read from the same index. undefined when neither knows the transaction.
   */
  async getTransactionPayer(transactionId: string): Promise<string | undefined> {
    if (!/^[0-9a-fA-F]{64}$/.test(transactionId)) throw new TypeError(`chain client: "${transactionId}" is not a 64-hex transaction id`);
    const id = transactionId.toLowerCase();
    const deadline = Date.now() + this.#timeoutMs;
    const read = (what: string) => (body: unknown) => {
      const transaction = this.#shape(transactionSchema, body, what);
      if (transaction.id.toLowerCase() !== id) throw new TransientFailure(`${what} answered transaction ${transaction.id}`);
      return transaction.inputs[0]!;
    };
    type Input = z.output<typeof transactionSchema>['inputs'][number];
    const addressOfInput = (input: Input) => input.address ?? (input.ergoTree ? addressOf(input.ergoTree) : undefined);

    const explorer = await this.#get(`${this.explorerUrl}/api/v1/transactions/${id}`, deadline, `transaction ${id} from the explorer`, read(`transaction ${id} from the explorer`));
    if (explorer.status === 200) return addressOfInput(explorer.body as Input);
    if (explorer.status !== 404) throw new ChainUnavailableError(`the explorer answered ${explorer.status} for transaction ${id}`);
    if (!this.nodeUrl) return undefined;

    const indexed = await this.#get(`${this.nodeUrl}/blockchain/transaction/byId/${id}`, deadline, `transaction ${id} from the node index`, read(`transaction ${id} from the node index`));
    if (indexed.status === 404) return undefined;
    if (indexed.status !== 200) throw new ChainUnavailableError(`the node answered ${indexed.status} for transaction ${id}`);
    const input = indexed.body as Input;
    const direct = addressOfInput(input);
    if (direct) return direct;
    const inputId = input.boxId.toLowerCase();
    const box = await this.#get(`${this.nodeUrl}/blockchain/box/byId/${inputId}`, deadline, `box ${inputId} from the node index`, (body) => this.#nodeBox(inputId, body, true));
    if (box.status !== 200) throw new ChainUnavailableError(`the node answered ${box.status} for box ${inputId}, the first input of transaction ${id}`);
    return (box.body as ChainBox).address;
  }

  /** Releases pooled connections. */
  async close(): Promise<void> {
    await this.#agent.close();
  }

  #explorerBox(id: string, body: unknown): ChainBox {
    const box = this.#shape(explorerBoxSchema, body, `box ${id} from the explorer`);
    // A box of a block that left the main chain is not settled, whatever height it was seen at.
    return chainBox(id, box, 'the explorer', box.mainChain === false ? undefined : box.settlementHeight, 'explorer_api_v1');
  }

  #nodeBox(id: string, body: unknown, indexed: boolean): ChainBox {
    const box = this.#shape(nodeBoxSchema, body, `box ${id} from the node`);
    return chainBox(id, box, 'the node', indexed ? box.inclusionHeight : undefined, 'node_api');
  }

  #shape<T extends z.ZodType>(schema: T, body: unknown, what: string): z.output<T> {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new TransientFailure(`${what} is not in the API's shape (${issue.path.join('.') || 'body'}: ${issue.message})`);
    }
    return parsed.data;
  }

  /**
   * GET `url` until it yields a definite answer or `deadline` passes. A 200 body goes through
   * `read` (which may reject it as malformed: retried); 404 is an answer; 5xx, 429, transport
   * errors and malformed bodies are retried; other statuses are answers for the caller to judge.
   */
  async #get(url: string, deadline: number, what: string, read: (body: unknown) => unknown = (body) => body): Promise<Answer> {
    let lastFailure = 'no attempt was made';
    for (let attempt = 0; attempt <= this.#retries; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      try {
        const answer = await this.#attempt(url, remaining);
        if (answer.status === 200) return { status: 200, body: read(answer.body) };
        if (answer.status >= 500 || answer.status === 429) throw new TransientFailure(`HTTP ${answer.status}`);
        return answer;
      } catch (error) {
        if (error instanceof ChainUnavailableError) throw error;
        lastFailure = error instanceof Error ? error.message : String(error);
        if (Date.now() >= deadline) {
          lastFailure = `no complete answer within ${this.#timeoutMs} ms`;
          break;
        }
      }
      const pause = Math.min(RETRY_BACKOFF_MS * (attempt + 1), deadline - Date.now());
      if (attempt < this.#retries && pause > 0) await sleep(pause);
    }
    throw new ChainUnavailableError(`could not read ${what}: ${lastFailure}`);
  }

  async #attempt(url: string, remaining: number): Promise<Answer> {
    const response = await undici().request(url, {
      method: 'GET',
      dispatcher: this.#agent as Dispatcher,
      headers: { accept: 'application/json', 'user-agent': 'agent-economy-proof-surface' },
      signal: AbortSignal.timeout(remaining),
      headersTimeout: remaining,
      bodyTimeout: remaining,
    });
    if (this.source === 'testnet' && response.headers[SANDBOX_MARKER_HEADER] !== undefined) {
      await response.body.dump();
      throw new ChainUnavailableError(
        `${new URL(url).origin} is the local sandbox chain, not the Ergo testnet: set CHAIN_SOURCE=sandbox so receipts say so, or point ERGO_EXPLORER_URL at a testnet explorer`,
      );
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      return { status: response.statusCode, body: undefined };
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      response.body.destroy();
      throw new TransientFailure(`answer of ${declared} bytes exceeds ${MAX_BODY_BYTES}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        response.body.destroy();
        throw new TransientFailure(`answer exceeds ${MAX_BODY_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks, size).toString('utf8');
    try {
      return { status: 200, body: parseJsonExact(text) };
    } catch {
      throw new TransientFailure('answer is not JSON');
    }
  }
}

/**
 * Which chain the Explorer API at `explorerUrl` serves, as that API says itself: the sandbox marks
 * every answer with SANDBOX_MARKER_HEADER, so an unmarked answer is taken for the testnet's (and a
 * client made for the testnet refuses any marked answer afterwards). A receipt verifier asks this of
 * the source it chose, so that a bundle claiming another chain is refused before any box is read.
 */
export async function explorerNetwork(explorerUrl: string, timeoutMs: number): Promise<'testnet' | 'sandbox'> {
  const url = `${explorerUrl.replace(/\/+$/, '')}/api/v1/networkState`;
  try {
    const response = await undici().request(url, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': 'agent-economy-proof-surface' },
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await response.body.dump();
    return response.headers[SANDBOX_MARKER_HEADER] !== undefined ? 'sandbox' : 'testnet';
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : ((error as { code?: string }).code ?? (error as Error).message);
    throw new ChainUnavailableError(`could not read ${url}: ${reason}`);
  }
}

/** The client for a chain configuration (config/chain.ts). */
export function createChainClient(options: ExplorerClientOptions): ExplorerChainClient {
  return new ExplorerChainClient(options);
}
