/**
 * The state of the sandbox chain: its tip block, a mempool and boxes with their real ids, all of it
 * plain data that a chain file keeps (`state()`, chain-file.ts). Every Note is an output of a real
 * (unsigned) Ergo transaction built with ergo-lib (sigma-rust): it spends the sandbox's funding box
 * and creates the Note, the change and the miner fee box, so the transaction id is the blake2b256
 * of the transaction bytes and each box id the blake2b256 of the box bytes, exactly as on the
 * testnet. Register constants are serialized with @fleet-sdk/serializer.
 *
 * Nothing is signed: the sandbox checks no proofs and holds no key. Its funding box is guarded by a
 * public key whose secret is 1, the opposite of a secret, to make that plain.
 */
import { ErgoAddress, Network } from '@fleet-sdk/core';
import { hex } from '@fleet-sdk/crypto';
import { blake2b256 } from '../domain/blake2b.ts';
import { decode, SByte, SColl, SInt } from '@fleet-sdk/serializer';
import {
  BoxId,
  BoxValue,
  Constant,
  Contract,
  DataInputs,
  ErgoBox,
  ErgoBoxCandidate,
  ErgoBoxCandidateBuilder,
  ErgoBoxCandidates,
  ErgoTree,
  I64,
  NonMandatoryRegisterId,
  Tokens,
  TxId,
  UnsignedInput,
  UnsignedInputs,
  UnsignedTransaction,
} from 'ergo-lib-wasm-nodejs';

export const REGISTER_IDS = ['R4', 'R5', 'R6', 'R7', 'R8', 'R9'] as const;
export type RegisterId = (typeof REGISTER_IDS)[number];

/** secp256k1's generator: the public key of the secret 1. Anyone could spend it; that is the point. */
const FUNDING_PUBLIC_KEY = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
export const FUNDING_ADDRESS = ErgoAddress.fromPublicKey(FUNDING_PUBLIC_KEY, Network.Testnet);
/** 50 million ERG: more than any test needs, and room for Notes above 2^53 nanoERG. */
export const FUNDING_VALUE = 50_000_000_000_000_000n;
export const MINER_FEE = 1_100_000n;

/** A request the sandbox refuses, with the HTTP status to answer. */
export class SandboxError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'SandboxError';
    this.status = status;
  }
}

export interface SandboxBox {
  boxId: string;
  transactionId: string;
  index: number;
  value: bigint;
  ergoTree: string;
  address: string;
  creationHeight: number;
  registers: Partial<Record<RegisterId, string>>;
  /** Height of the block that included it; undefined while in the mempool. */
  inclusionHeight: number | undefined;
  blockId: string | undefined;
  globalIndex: number | undefined;
  spentTransactionId: string | undefined;
  spendingHeight: number | undefined;
  /** The explorer pretends not to know it (as the public explorer has for unspent boxes); the node does. */
  hiddenFromExplorer: boolean;
}

export interface Block {
  id: string;
  height: number;
  timestamp: number;
}

interface PendingTransaction {
  id: string;
  outputs: SandboxBox[];
  spends: SandboxBox;
}

/**
 * Everything the chain's answers come from, as plain data: what a kept chain writes to its file and
 * starts again from (chain-file.ts). Outputs by transaction and inputs by spending transaction are
 * read back from the boxes themselves.
 */
export interface SandboxChainState {
  tip: Block;
  /** Every box ever created, spent or not, mempool ones included. */
  boxes: SandboxBox[];
  /** Transactions not yet mined, in the order they were sent: the transaction and the box it spends. */
  mempool: Array<{ transactionId: string; spendsBoxId: string }>;
  /** The box the next Note spends: the change of the last one. */
  fundingBoxId: string;
  nextGlobalIndex: number;
}

export interface MintNoteRequest {
  value: bigint;
  ergoTree: string;
  reserveBoxId?: string | undefined;
  expiryHeight?: number | undefined;
  taskHash?: string | undefined;
  /** Serialized constants that replace or add registers, for Notes that must be malformed on purpose. */
  registers?: Partial<Record<RegisterId, string>> | undefined;
  /** Defaults to the current height. */
  creationHeight?: number | undefined;
  /** Confirmations to reach before answering; 0 leaves the transaction in the mempool. */
  confirmations: number;
  hiddenFromExplorer?: boolean | undefined;
}

/** The hex of a serialized constant for each Note register (Accord v0 layout). */
export function noteRegisters(request: Pick<MintNoteRequest, 'reserveBoxId' | 'expiryHeight' | 'taskHash' | 'registers'>): Partial<Record<RegisterId, string>> {
  const registers: Partial<Record<RegisterId, string>> = {};
  if (request.reserveBoxId !== undefined) registers.R4 = SColl(SByte, request.reserveBoxId.toLowerCase()).toHex();
  if (request.expiryHeight !== undefined) registers.R5 = SInt(request.expiryHeight).toHex();
  if (request.taskHash !== undefined) registers.R6 = SColl(SByte, request.taskHash.toLowerCase()).toHex();
  for (const id of REGISTER_IDS) {
    const raw = request.registers?.[id];
    if (raw !== undefined) registers[id] = raw.toLowerCase();
  }
  return registers;
}

/** Explorer API v1 rendering of a register: `sigmaType` in the explorer's spelling and a readable value. */
export function renderRegister(serialized: string): { serializedValue: string; sigmaType: string; renderedValue: string } {
  const constant = decode(serialized);
  if (!constant) return { serializedValue: serialized, sigmaType: 'unknown', renderedValue: serialized };
  const sigmaType = constant.type.toString().replace(/SColl\[/g, 'Coll[');
  const data: unknown = constant.data;
  const renderedValue =
    data instanceof Uint8Array ? hex.encode(data) : typeof data === 'bigint' || typeof data === 'number' || typeof data === 'boolean' ? String(data) : JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? hex.encode(v) : v));
  return { serializedValue: serialized, sigmaType, renderedValue };
}

const boxValue = (value: bigint): BoxValue => BoxValue.from_i64(I64.from_str(value.toString()));

function contractOf(ergoTree: string): Contract {
  try {
    return Contract.new(ErgoTree.from_base16_bytes(ergoTree));
  } catch (error) {
    throw new SandboxError(400, `ergoTree is not a valid ErgoTree: ${(error as Error).message ?? error}`);
  }
}

function setRegisters(builder: ErgoBoxCandidateBuilder, registers: Partial<Record<RegisterId, string>>): void {
  const ids: Record<RegisterId, NonMandatoryRegisterId> = {
    R4: NonMandatoryRegisterId.R4,
    R5: NonMandatoryRegisterId.R5,
    R6: NonMandatoryRegisterId.R6,
    R7: NonMandatoryRegisterId.R7,
    R8: NonMandatoryRegisterId.R8,
    R9: NonMandatoryRegisterId.R9,
  };
  for (const id of REGISTER_IDS) {
    const serialized = registers[id];
    if (serialized === undefined) continue;
    let constant: Constant;
    try {
      constant = Constant.decode_from_base16(serialized);
    } catch (error) {
      throw new SandboxError(400, `${id} is not a serialized constant: ${(error as Error).message ?? error}`);
    }
    builder.set_register_value(ids[id], constant);
  }
}

/** Reads what ergo-lib built back into our plain record (the ids are ergo-lib's, over the real bytes). */
function toSandboxBox(box: ErgoBox, hiddenFromExplorer: boolean): SandboxBox {
  const json = box.to_js_eip12() as { boxId: string; transactionId: string; index: number; value: string; ergoTree: string; creationHeight: number; additionalRegisters: Record<string, string> };
  const registers: Partial<Record<RegisterId, string>> = {};
  for (const id of REGISTER_IDS) if (json.additionalRegisters[id] !== undefined) registers[id] = json.additionalRegisters[id];
  return {
    boxId: json.boxId,
    transactionId: json.transactionId,
    index: json.index,
    value: BigInt(json.value),
    ergoTree: json.ergoTree,
    address: ErgoAddress.fromErgoTree(json.ergoTree, Network.Testnet).encode(Network.Testnet),
    creationHeight: json.creationHeight,
    registers,
    inclusionHeight: undefined,
    blockId: undefined,
    globalIndex: undefined,
    spentTransactionId: undefined,
    spendingHeight: undefined,
    hiddenFromExplorer,
  };
}

export class SandboxChain {
  readonly #boxes = new Map<string, SandboxBox>();
  /** By transaction id, so looking one up costs the same however many Notes the sandbox minted (the bench mints thousands). */
  readonly #outputs = new Map<string, SandboxBox[]>();
  readonly #spentBy = new Map<string, SandboxBox[]>();
  #tip: Block;
  #mempool: PendingTransaction[] = [];
  #funding: SandboxBox;
  #nextGlobalIndex = 0;
  /**
   * Called after every change (a Note, a block) before it is answered, so a chain kept in a file
   * is written before anyone hears of the change.
   */
  onChange: (() => void) | undefined;

  /** A new chain whose genesis block is at `start`, or the chain a kept `start` state describes. */
  constructor(start: number | SandboxChainState) {
    if (typeof start !== 'number') {
      this.#tip = { ...start.tip };
      for (const kept of start.boxes) {
        const box = { ...kept, registers: { ...kept.registers } };
        this.#boxes.set(box.boxId, box);
        const outputs = this.#outputs.get(box.transactionId) ?? [];
        outputs[box.index] = box;
        this.#outputs.set(box.transactionId, outputs);
        if (box.spentTransactionId !== undefined) this.#spentBy.set(box.spentTransactionId, [box]);
      }
      for (const [transactionId, outputs] of this.#outputs) {
        if (outputs.filter(Boolean).length !== outputs.length) throw new Error(`transaction ${transactionId} lacks an output between 0 and ${outputs.length - 1}`);
      }
      const known = (boxId: string, what: string): SandboxBox => {
        const box = this.#boxes.get(boxId);
        if (!box) throw new Error(`${what} ${boxId} is not among its boxes`);
        return box;
      };
      this.#funding = known(start.fundingBoxId, 'the funding box');
      this.#mempool = start.mempool.map(({ transactionId, spendsBoxId }) => {
        const outputs = this.#outputs.get(transactionId);
        if (!outputs) throw new Error(`the mempool transaction ${transactionId} has no outputs among its boxes`);
        return { id: transactionId, outputs, spends: known(spendsBoxId, `the box mempool transaction ${transactionId} spends,`) };
      });
      this.#nextGlobalIndex = start.nextGlobalIndex;
      return;
    }
    this.#tip = { id: hex.encode(blake2b256(new TextEncoder().encode(`sandbox genesis ${start}`))), height: start, timestamp: Date.now() };
    // Like the testnet's genesis boxes, the funding box has the all-zero transaction id.
    const contract = contractOf(FUNDING_ADDRESS.ergoTree);
    const genesis = new ErgoBox(boxValue(FUNDING_VALUE), start, contract, TxId.zero(), 0, new Tokens());
    this.#funding = toSandboxBox(genesis, false);
    this.#outputs.set(this.#funding.transactionId, [this.#funding]);
    this.#include(this.#funding, this.tip);
  }

  /** The chain as plain data, from which `new SandboxChain(state)` answers exactly as this one does. */
  state(): SandboxChainState {
    return {
      tip: { ...this.#tip },
      boxes: [...this.#boxes.values()].map((box) => ({ ...box, registers: { ...box.registers } })),
      mempool: this.#mempool.map((pending) => ({ transactionId: pending.id, spendsBoxId: pending.spends.boxId })),
      fundingBoxId: this.#funding.boxId,
      nextGlobalIndex: this.#nextGlobalIndex,
    };
  }

  get tip(): Block {
    return this.#tip;
  }

  get height(): number {
    return this.tip.height;
  }

  get mempoolSize(): number {
    return this.#mempool.length;
  }

  get boxCount(): number {
    return this.#boxes.size;
  }

  box(boxId: string): SandboxBox | undefined {
    return this.#boxes.get(boxId.toLowerCase());
  }

  /** The outputs of a transaction, in order. */
  outputsOf(transactionId: string): SandboxBox[] {
    const id = transactionId.toLowerCase();
    return [...(this.#outputs.get(id) ?? [])];
  }

  /** A mined transaction: the boxes it spent and the boxes it created, in order; undefined while in the mempool or unknown. */
  transaction(transactionId: string): { id: string; inputs: SandboxBox[]; outputs: SandboxBox[] } | undefined {
    const id = transactionId.toLowerCase();
    const outputs = this.outputsOf(id);
    if (outputs.length === 0 || outputs[0]!.inclusionHeight === undefined) return undefined;
    const inputs = [...(this.#spentBy.get(id) ?? [])];
    return { id, inputs, outputs };
  }

  /** Mines `count` blocks; the first includes every mempool transaction. */
  mine(count = 1): number {
    this.#mine(count);
    this.onChange?.();
    return this.height;
  }

  #mine(count: number): void {
    for (let index = 0; index < count; index++) {
      const pending = this.#mempool;
      this.#mempool = [];
      const previous = this.#tip;
      const height = previous.height + 1;
      const seed = [previous.id, String(height), ...pending.map((tx) => tx.id)].join(':');
      const block: Block = { id: hex.encode(blake2b256(new TextEncoder().encode(seed))), height, timestamp: Date.now() };
      this.#tip = block;
      for (const tx of pending) {
        tx.spends.spentTransactionId = tx.id;
        tx.spends.spendingHeight = height;
        this.#spentBy.set(tx.id, [tx.spends]);
        for (const output of tx.outputs) this.#include(output, block);
      }
    }
  }

  /** Mines empty blocks up to `height` (the chain never goes back). */
  advanceTo(height: number): number {
    if (!Number.isInteger(height) || height < this.height) throw new SandboxError(409, `the sandbox is at height ${this.height} and never goes back; ask for ${this.height} or more`);
    return this.mine(height - this.height);
  }

  /**
   * Creates a Note: a transaction spending the funding box into [Note, change, miner fee], sent to
   * the mempool, then mined until the Note has `confirmations` (height − inclusion height + 1).
   */
  mintNote(request: MintNoteRequest): SandboxBox {
    const creationHeight = request.creationHeight ?? this.height;
    if (creationHeight > this.height + 1) throw new SandboxError(400, `creationHeight ${creationHeight} is above the next block (${this.height + 1})`);
    const change = this.#funding.value - request.value - MINER_FEE;
    if (request.value <= 0n || change <= 1_000_000n) throw new SandboxError(400, `value must be between 1 and ${this.#funding.value - MINER_FEE - 1_000_000n} nanoERG`);

    const noteBuilder = new ErgoBoxCandidateBuilder(boxValue(request.value), contractOf(request.ergoTree), creationHeight);
    setRegisters(noteBuilder, noteRegisters(request));
    let note: ErgoBoxCandidate;
    try {
      note = noteBuilder.build();
    } catch (error) {
      throw new SandboxError(400, `the Note box is not valid: ${(error as Error).message ?? error}`);
    }
    const changeBox = new ErgoBoxCandidateBuilder(boxValue(change), contractOf(FUNDING_ADDRESS.ergoTree), this.height).build();
    const feeBox = ErgoBoxCandidate.new_miner_fee_box(boxValue(MINER_FEE), this.height);
    const candidates = new ErgoBoxCandidates(note);
    candidates.add(changeBox);
    candidates.add(feeBox);
    const inputs = new UnsignedInputs();
    inputs.add(UnsignedInput.from_box_id(BoxId.from_str(this.#funding.boxId)));
    const transaction = new UnsignedTransaction(inputs, new DataInputs(), candidates);
    const txId = transaction.id();
    const outputs = [note, changeBox, feeBox].map((candidate, index) => toSandboxBox(ErgoBox.from_box_candidate(candidate, txId, index), index === 0 && request.hiddenFromExplorer === true));

    const pending: PendingTransaction = { id: txId.to_str(), outputs, spends: this.#funding };
    this.#mempool.push(pending);
    for (const output of outputs) this.#boxes.set(output.boxId, output);
    this.#outputs.set(pending.id, outputs);
    // Mempool transactions chain: the next Note spends this change box even before it is mined.
    this.#funding = outputs[1]!;

    this.#mine(request.confirmations);
    this.onChange?.();
    return outputs[0]!;
  }

  #include(box: SandboxBox, block: Block): void {
    box.inclusionHeight = block.height;
    box.blockId = block.id;
    box.globalIndex = this.#nextGlobalIndex++;
    this.#boxes.set(box.boxId, box);
  }
}
