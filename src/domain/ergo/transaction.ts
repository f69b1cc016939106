/**
 * The `tx` tool: a transaction from its serialized bytes (signed, or unsigned with empty proofs) or
 * from node, explorer or EIP-12 JSON, parsed by sigma-rust. The id is recomputed as blake2b256 of
 * the transaction bytes without spending proofs; every output's box id is recomputed from it. The
 * totals are exact nanoERG; the value going in is known only when the input carries it (explorer and
 * EIP-12 forms), since a transaction names its inputs by box id alone.
 */
import { FEE_CONTRACT } from '@fleet-sdk/core';
import { hex } from '@fleet-sdk/crypto';
import type { Transaction } from 'ergo-lib-wasm-nodejs';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { ergoTransactionJsonSchema, type ErgoTransactionJson } from '../../../schemas/ergo-json.ts';
import type { ErgoNetwork } from './address.ts';
import { MAX_BOX_BYTES, parseCanonicalBytes, summarizeBox, type BoxSummary, type ToolWarning } from './box.ts';
import { parseExactJson, parseShape } from './exact-json.ts';
import { InspectionInputError } from './inspection-error.ts';
import { PARSED_ERGO_TREE_VERSION } from './ergo-tree-header.ts';
import { outputTreesOf } from './output-trees.ts';
import { boxIdUnder, transactionIds, type InputExtension, type NodeIds } from './node-order.ts';
import { parseFailure, sigmaRust, withWasmScope, type WasmScope } from './sigma-rust.ts';

export interface TxResult {
  tx_id: string;
  tx_id_given_order: string | null;
  declared_tx_id: string | null;
  tx_id_matches: boolean | null;
  signed: boolean;
  inputs: Array<{ box_id: string; has_proof: boolean; value_nanoerg: string | null }>;
  data_inputs: Array<{ box_id: string }>;
  outputs: Array<BoxSummary & { index: number; box_id_given_order: string | null }>;
  total_input_nanoerg: string | null;
  total_output_nanoerg: string;
  fee_nanoerg: string | null;
  size_bytes: number;
}

interface JsonSide {
  declaredId: string | null;
  inputValues: Array<string | null>;
  outputs: ErgoTransactionJson['outputs'];
}

/** Stands for an input's extension in the JSON handed to sigma-rust until its text, keys in written order, replaces it; no hex-checked field can hold it. */
const EXTENSION_PLACEHOLDER = '\u0000extension ';

/** A transaction whose output trees the parser cannot read is refused by name, before or after sigma-rust tries it. */
function refuseNewerTrees(ergoTrees: readonly string[]): void {
  ergoTrees.forEach((tree, index) => {
    const version = Number.parseInt(tree.slice(0, 2), 16) & 0x07;
    if (version > PARSED_ERGO_TREE_VERSION) {
      throw new InspectionInputError(
        'ergo_tree_version_unsupported',
        `Output ${index} is guarded by an ErgoTree of version ${version}, newer than the transaction parser here knows (0 to ${PARSED_ERGO_TREE_VERSION}); inspect that output with the box tool, which reports such trees.`,
      );
    }
  });
}

/** sigma-rust cannot read a transaction at all when one output's tree has a newer version; output-trees.ts finds which. */
function transactionFromBytes(scope: WasmScope, bytes: Uint8Array): Transaction {
  try {
    return parseCanonicalBytes(scope, bytes, 'transaction bytes', (data) => sigmaRust().Transaction.sigma_parse_bytes(data));
  } catch (failure) {
    const trees = outputTreesOf(bytes);
    if (trees) refuseNewerTrees(trees);
    throw failure;
  }
}

/**
 * Builds the transaction the way a wallet does: the unsigned form (inputs with their context
 * extensions, outputs as candidates), then the proofs. That way an output's `boxId`,
 * `transactionId` and `index` from the JSON are compared rather than required and trusted.
 */
function transactionFromJson(scope: WasmScope, input: string): { tx: Transaction; side: JsonSide } {
  const shape = parseShape(ergoTransactionJsonSchema, parseExactJson(input, 'transaction JSON'), 'an Ergo transaction in node, explorer or EIP-12 JSON form', 'invalid_transaction_json');
  refuseNewerTrees(shape.outputs.map((output) => output.ergoTree));
  const tree = parseTree(input);
  const proofs: Uint8Array[] = [];
  const extensionTexts: string[] = [];
  const inputs = shape.inputs.map((entry, index) => {
    const proof = entry.spendingProof;
    const proofHex = typeof proof === 'string' ? proof : (proof?.proofBytes ?? '');
    proofs.push(hex.decode(proofHex.toLowerCase()));
    const inProof = proof && typeof proof === 'object' && proof.extension !== undefined;
    const extension = (inProof ? proof.extension : entry.extension) ?? {};
    // JavaScript objects list integer-like keys in ascending order; the node reads them in the order written.
    const written = tree && findNodeAtLocation(tree, inProof ? ['inputs', index, 'spendingProof', 'extension'] : ['inputs', index, 'extension']);
    const keys = written?.type === 'object' ? (written.children ?? []).map((property) => String(property.children![0]!.value)) : Object.keys(extension);
    extensionTexts.push(`{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(extension[key]!.toLowerCase())}`).join(',')}}`);
    return { boxId: entry.boxId.toLowerCase(), extension: `${EXTENSION_PLACEHOLDER}${index}` };
  });
  const unsignedJson = {
    inputs,
    dataInputs: shape.dataInputs.map((entry) => ({ boxId: entry.boxId.toLowerCase() })),
    outputs: shape.outputs.map((output) => ({
      value: output.value,
      ergoTree: output.ergoTree.toLowerCase(),
      creationHeight: output.creationHeight,
      assets: output.assets.map((asset) => ({ tokenId: asset.tokenId.toLowerCase(), amount: asset.amount })),
      additionalRegisters: output.additionalRegisters,
    })),
  };
  try {
    const text = extensionTexts.reduce((json, extension, index) => json.replace(JSON.stringify(`${EXTENSION_PLACEHOLDER}${index}`), extension), JSON.stringify(unsignedJson));
    const unsigned = scope.own(sigmaRust().UnsignedTransaction.from_json(text));
    const tx = scope.own(sigmaRust().Transaction.from_unsigned_tx(unsigned, proofs));
    return { tx, side: { declaredId: shape.id?.toLowerCase() ?? null, inputValues: shape.inputs.map((entry) => entry.value ?? null), outputs: shape.outputs } };
  } catch (error) {
    throw parseFailure('transaction JSON', error);
  }
}

function compareDeclaredOutputs(result: TxResult, side: JsonSide, warnings: ToolWarning[]): void {
  side.outputs.forEach((declared, index) => {
    const computed = result.outputs[index]!;
    if (declared.boxId && declared.boxId.toLowerCase() !== computed.box_id) {
      warnings.push({ code: 'declared_id_mismatch', message: `outputs/${index}: the declared boxId ${declared.boxId.toLowerCase()} is not the recomputed ${computed.box_id}.` });
    }
    if (declared.transactionId && declared.transactionId.toLowerCase() !== result.tx_id) {
      warnings.push({ code: 'declared_id_mismatch', message: `outputs/${index}: transactionId ${declared.transactionId.toLowerCase()} is not this transaction's id ${result.tx_id}.` });
    }
    if (declared.index !== undefined && declared.index !== index) {
      warnings.push({ code: 'declared_index_mismatch', message: `outputs/${index}: the declared index is ${declared.index}, but the output is number ${index}.` });
    }
  });
}

/**
 * The id the node computes and the id of the bytes as given (node-order.ts). sigma-rust's own id is
 * the latter; should the two derivations ever disagree on it, only sigma-rust's id is given, and a
 * warning says the node's could not be derived.
 */
function nodeTransactionIds(scope: WasmScope, tx: Transaction, extensions: InputExtension[], warnings: ToolWarning[]): { givenOrderId: string; nodeId: string } {
  const sigmaRustId = scope.own(tx.id()).to_str();
  let ids: NodeIds;
  try {
    ids = transactionIds(tx.sigma_serialize_bytes(), extensions);
  } catch {
    ids = { givenOrderId: '', nodeId: '', reorderedInputs: [] };
  }
  if (ids.givenOrderId !== sigmaRustId) {
    warnings.push({ code: 'node_tx_id_unavailable', message: 'The id the Ergo node computes could not be derived for this transaction; the id given is that of the bytes as serialized, context extensions in the order given.' });
    return { givenOrderId: sigmaRustId, nodeId: sigmaRustId };
  }
  if (ids.reorderedInputs.length > 0) {
    warnings.push({
      code: 'extension_order_differs',
      message:
        `The context extension of input${ids.reorderedInputs.length > 1 ? 's' : ''} ${ids.reorderedInputs.join(', ')} has more than four entries, which the Ergo node writes in its own map order, not in the order given. ` +
        `tx_id is the id the node computes (${ids.nodeId}); tx_id_given_order is blake2b256 of the bytes with the entries as given (${ids.givenOrderId}), an id the node would not recognise. Output box ids follow the node's id.`,
    });
  }
  return ids;
}

const sum = (values: string[]): bigint => values.reduce((total, value) => total + BigInt(value), 0n);

export function inspectTransaction(input: string, encoding: 'utf8' | 'hex', network: ErgoNetwork): { result: TxResult; warnings: ToolWarning[] } {
  return withWasmScope((scope) => {
    const warnings: ToolWarning[] = [];
    let tx: Transaction;
    let side: JsonSide | undefined;
    if (encoding === 'hex') {
      tx = transactionFromBytes(scope, hex.decode(input.toLowerCase()));
    } else {
      ({ tx, side } = transactionFromJson(scope, input));
    }

    const txInputs = scope.own(tx.inputs());
    const inputs: TxResult['inputs'] = [];
    const extensions: InputExtension[] = [];
    for (let index = 0; index < txInputs.len(); index++) {
      const entry = scope.own(txInputs.get(index));
      const proof = scope.own(entry.spending_proof());
      inputs.push({ box_id: scope.own(entry.box_id()).to_str(), has_proof: proof.proof().length > 0, value_nanoerg: side?.inputValues[index] ?? null });
      const extension = scope.own(proof.extension());
      const keys = [...extension.keys()];
      extensions.push({ keys, values: new Map(keys.map((key) => [key, scope.own(extension.get(key)).sigma_serialize_bytes()])) });
    }
    const ids = nodeTransactionIds(scope, tx, extensions, warnings);
    const txDataInputs = scope.own(tx.data_inputs());
    const dataInputs: TxResult['data_inputs'] = [];
    for (let index = 0; index < txDataInputs.len(); index++) dataInputs.push({ box_id: scope.own(scope.own(txDataInputs.get(index)).box_id()).to_str() });
    const txOutputs = scope.own(tx.outputs());
    const outputs: TxResult['outputs'] = [];
    for (let index = 0; index < txOutputs.len(); index++) {
      const box = scope.own(txOutputs.get(index));
      const { transaction_id: _txId, size_bytes: size, ...summary } = summarizeBox(box, network, warnings, `output ${index}`);
      if (size > MAX_BOX_BYTES) throw new InspectionInputError('box_too_large', `Output ${index} serializes to ${size} bytes; an Ergo box is at most ${MAX_BOX_BYTES} bytes.`);
      // The node's box ids hang off the node's transaction id.
      if (ids.givenOrderId === ids.nodeId) outputs.push({ ...summary, box_id_given_order: null });
      else outputs.push({ ...summary, box_id: boxIdUnder(box.sigma_serialize_bytes(), ids.nodeId, index), box_id_given_order: summary.box_id });
    }

    const txId = ids.nodeId;
    const feeOutputs = outputs.filter((output) => output.ergo_tree === FEE_CONTRACT);
    const totalOutput = sum(outputs.map((output) => output.value_nanoerg));
    const inputValues = inputs.map((entry) => entry.value_nanoerg);
    const totalInput = inputValues.every((value) => value !== null) ? sum(inputValues as string[]) : null;
    const result: TxResult = {
      tx_id: txId,
      tx_id_given_order: ids.givenOrderId === txId ? null : ids.givenOrderId,
      declared_tx_id: side?.declaredId ?? null,
      tx_id_matches: side?.declaredId ? side.declaredId === txId : null,
      signed: inputs.every((entry) => entry.has_proof),
      inputs,
      data_inputs: dataInputs,
      outputs,
      total_input_nanoerg: totalInput === null ? null : totalInput.toString(),
      total_output_nanoerg: totalOutput.toString(),
      fee_nanoerg: feeOutputs.length > 0 ? sum(feeOutputs.map((output) => output.value_nanoerg)).toString() : null,
      size_bytes: tx.sigma_serialize_bytes().length,
    };

    if (result.tx_id_matches === false) {
      const because =
        side!.declaredId === result.tx_id_given_order
          ? 'it is the id of the extension entries in the order given, which the node does not compute (see extension_order_differs)'
          : 'some input, output or context extension differs from the transaction that id names';
      warnings.push({ code: 'declared_id_mismatch', message: `The declared id ${side!.declaredId} is not this transaction's id ${txId}: ${because}.` });
    }
    if (side) compareDeclaredOutputs(result, side, warnings);
    if (!result.signed) {
      const missing = inputs.filter((entry) => !entry.has_proof).length;
      warnings.push({
        code: 'unsigned_transaction',
        message: `${missing} of ${inputs.length} inputs carry no spending proof: this is an unsigned transaction (or one spending proof-free boxes). It was only inspected; nothing was signed or sent.`,
      });
    }
    if (totalInput !== null && totalInput !== totalOutput) {
      warnings.push({ code: 'value_not_preserved', message: `Inputs carry ${totalInput} nanoERG and outputs ${totalOutput}; an Ergo transaction must spend exactly what it creates, so the chain would reject it.` });
    }
    return { result, warnings };
  });
}
