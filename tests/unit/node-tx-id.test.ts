/**
 * The id the Ergo node computes when a context extension has more than four entries: the node
 * (sigmastate-interpreter on Scala 2.12) writes such an extension in its HashMap order, so the
 * `tx` tool answers that id, and gives the id of the bytes as given (sigma-rust's) beside it with a
 * warning. Up to four entries the order as given (as written, for JSON) is the node's. The
 * reference's own vector for this case is in tests/vectors (run by tests/unit/reference-vectors.test.ts).
 */
import { Transaction, UnsignedTransaction } from 'ergo-lib-wasm-nodejs';
import { describe, expect, it } from 'vitest';
import { devToolRequestSchema } from '../../schemas/dev-tools.ts';
import { devToolResultSchema } from '../../schemas/dev-tool-results.ts';
import { runDevTool } from '../../src/domain/dev-tools.ts';
import { nodeExtensionOrder } from '../../src/domain/ergo/node-order.ts';
import { FLEET_SIGNED_TRANSACTIONS } from '../fixtures/ergo-reference-vectors.ts';

const [, signed] = FLEET_SIGNED_TRANSACTIONS;

function tx(input: string, encoding: 'utf8' | 'hex' = 'utf8') {
  const result = runDevTool(devToolRequestSchema.parse({ action: 'tx', input, encoding, network: 'mainnet' }));
  return JSON.parse(JSON.stringify(devToolResultSchema.parse(result))) as any;
}

/** `Int` constants 0, 1, 2... as serialized (type 04, zigzag VLQ value). */
const intConstant = (value: number) => `04${(value * 2).toString(16).padStart(2, '0')}`;

/** Input 0's extension with `keys`, in that order, as JSON text. */
const extensionText = (keys: number[]) => `{${keys.map((key) => `"${key}":"${intConstant(key)}"`).join(',')}}`;

/** The signed Fleet transaction with input 0's extension written with `keys`, in that order. */
function withExtension(keys: number[]): string {
  const json = structuredClone(signed.json) as any;
  json.inputs[0].spendingProof.extension = '@EXT@';
  return JSON.stringify(json).replace('"@EXT@"', extensionText(keys));
}

/** What sigma-rust alone says of the same transaction: its id, output ids and bytes (the order as given). */
function sigmaRustIds(keys: number[]): { id: string; outputs: string[]; bytes: string } {
  const json = signed.json as any;
  const unsignedText = JSON.stringify({
    inputs: json.inputs.map((input: any, index: number) => ({ boxId: input.boxId, extension: index === 0 ? '@EXT@' : {} })),
    dataInputs: json.dataInputs,
    outputs: json.outputs,
  }).replace('"@EXT@"', extensionText(keys));
  const proofs = json.inputs.map((input: any) => Buffer.from(input.spendingProof.proofBytes, 'hex'));
  const built = Transaction.from_unsigned_tx(UnsignedTransaction.from_json(unsignedText), proofs);
  const outputs = built.outputs();
  return {
    id: built.id().to_str(),
    outputs: Array.from({ length: outputs.len() }, (_, index) => outputs.get(index).box_id().to_str()),
    bytes: Buffer.from(built.sigma_serialize_bytes()).toString('hex'),
  };
}

describe('nodeExtensionOrder', () => {
  it('keeps up to four keys as given and puts more in Scala 2.12 HashMap order', () => {
    expect(nodeExtensionOrder([3, 1, 0])).toEqual([3, 1, 0]);
    expect(nodeExtensionOrder([4, 3, 2, 1])).toEqual([4, 3, 2, 1]);
    expect(nodeExtensionOrder([0, 1, 2, 3, 4, 5, 6])).toEqual([0, 5, 1, 6, 2, 3, 4]);
    expect(nodeExtensionOrder([6, 5, 4, 3, 2, 1, 0])).toEqual([0, 5, 1, 6, 2, 3, 4]);
    // Keys above 127 are negative Scala Bytes; the order stays a function of the set of keys.
    const high = [255, 128, 7, 0, 64];
    expect(nodeExtensionOrder(high)).toEqual(nodeExtensionOrder([...high].reverse()));
  });
});

describe('tx: extensions of more than four entries', () => {
  it('answers the node id with the given-order id beside it, from JSON and from bytes, output ids following', () => {
    const text = withExtension([0, 1, 2, 3, 4, 5, 6]);
    const reference = sigmaRustIds([0, 1, 2, 3, 4, 5, 6]);
    const fromJson = tx(text).result;
    expect(fromJson.tx_id_given_order).toBe(reference.id);
    expect(fromJson.tx_id).not.toBe(reference.id);
    expect(fromJson.outputs.map((output: any) => output.box_id_given_order)).toEqual(reference.outputs);
    expect(fromJson.outputs.map((output: any) => output.box_id)).not.toEqual(reference.outputs);

    const answer = tx(reference.bytes, 'hex');
    expect(answer.result.tx_id).toBe(fromJson.tx_id);
    expect(answer.result.tx_id_given_order).toBe(reference.id);
    expect(answer.result.outputs.map((output: any) => output.box_id)).toEqual(fromJson.outputs.map((output: any) => output.box_id));
    const warning = answer.warnings.find((item: any) => item.code === 'extension_order_differs');
    expect(warning.message).toContain('input 0');
    expect(warning.message).toContain(fromJson.tx_id);
    expect(warning.message).toContain(reference.id);
  });

  it('gives the same node id whatever order the entries come in, while the given-order id moves', () => {
    const ascending = tx(withExtension([0, 1, 2, 3, 4, 5, 6])).result;
    const descending = tx(withExtension([6, 5, 4, 3, 2, 1, 0])).result;
    const nodeOrder = tx(withExtension([0, 5, 1, 6, 2, 3, 4])).result;
    expect(descending.tx_id).toBe(ascending.tx_id);
    expect(nodeOrder.tx_id).toBe(ascending.tx_id);
    expect(descending.tx_id_given_order).not.toBe(ascending.tx_id_given_order);
    // Written in the node's own order, the bytes are the node's: one id, no warning.
    expect(nodeOrder.tx_id_given_order).toBeNull();
  });

  it('reads up to four entries in the order written, as the node does, with one id', () => {
    const written = tx(withExtension([1, 0])).result;
    const ascending = tx(withExtension([0, 1])).result;
    expect(written.tx_id_given_order).toBeNull();
    expect(ascending.tx_id_given_order).toBeNull();
    expect(written.tx_id).toBe(sigmaRustIds([1, 0]).id);
    expect(written.tx_id).not.toBe(ascending.tx_id);
  });

  it('leaves a transaction without long extensions as it was: the declared id, no warning', () => {
    const answer = tx(JSON.stringify(signed.json));
    expect(answer.result).toMatchObject({ tx_id: signed.json.id, tx_id_given_order: null, tx_id_matches: true });
    expect(answer.result.outputs.every((output: any) => output.box_id_given_order === null)).toBe(true);
    expect(answer.warnings).toEqual([]);
  });
});
