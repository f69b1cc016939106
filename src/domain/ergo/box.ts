/**
 * The `box` tool: a box from its serialized bytes or from node/explorer JSON, parsed by sigma-rust,
 * its id recomputed as blake2b256 of the serialized box (candidate ++ transaction id ++ index), and
 * its fields reported with registers decoded. A declared `boxId` is compared, never trusted.
 */
import { hex } from '@fleet-sdk/crypto';
import type { ErgoBox } from 'ergo-lib-wasm-nodejs';
import { ergoBoxJsonSchema, REGISTER_NAMES, type RegisterName } from '../../../schemas/ergo-json.ts';
import { formatNanoErg } from '../money.ts';
import { encodeErgoTreeAddress, type ErgoNetwork } from './address.ts';
import { parseExactJson, parseShape } from './exact-json.ts';
import { InspectionInputError } from './inspection-error.ts';
import { decodeRegisters, type DecodedRegisterView } from './registers.ts';
import { parseFailure, sigmaRust, withWasmScope, type ParsedThing, type WasmScope } from './sigma-rust.ts';

/** Ergo's consensus limit on one serialized box (`MaxBoxSize`). */
export const MAX_BOX_BYTES = 4096;

export interface ToolWarning {
  code: string;
  message: string;
}

export interface BoxSummary {
  box_id: string;
  value_nanoerg: string;
  value_erg: string;
  ergo_tree: string;
  address: string;
  creation_height: number;
  assets: Array<{ token_id: string; amount: string }>;
  registers: Partial<Record<RegisterName, DecodedRegisterView>>;
}

export interface BoxResult extends BoxSummary {
  declared_box_id: string | null;
  box_id_matches: boolean | null;
  transaction_id: string;
  index: number;
  size_bytes: number;
}

interface Eip12Box {
  boxId: string;
  value: string;
  ergoTree: string;
  creationHeight: number;
  assets: Array<{ tokenId: string; amount: string }>;
  additionalRegisters: Partial<Record<RegisterName, string>>;
  transactionId: string;
  index: number;
}

/** The fields of a parsed box (exact strings from sigma-rust's EIP-12 form), registers decoded. */
export function summarizeBox(box: ErgoBox, network: ErgoNetwork, warnings: ToolWarning[], label = 'the box'): BoxSummary & { transaction_id: string; index: number; size_bytes: number } {
  const plain = box.to_js_eip12() as Eip12Box;
  const registers = decodeRegisters(Object.fromEntries(REGISTER_NAMES.filter((name) => plain.additionalRegisters[name]).map((name) => [name, plain.additionalRegisters[name]!])));
  for (const [name, view] of Object.entries(registers)) {
    if (view.sigma_type === null) {
      warnings.push({ code: 'register_not_decoded', message: `${name} of ${label} is shown serialized only: its constant type is not one the Fleet SDK serializer decodes.` });
    }
  }
  return {
    box_id: plain.boxId,
    value_nanoerg: plain.value,
    value_erg: formatNanoErg(BigInt(plain.value)),
    ergo_tree: plain.ergoTree,
    address: encodeErgoTreeAddress(plain.ergoTree, network),
    creation_height: plain.creationHeight,
    assets: plain.assets.map((asset) => ({ token_id: asset.tokenId, amount: asset.amount })),
    registers,
    transaction_id: plain.transactionId,
    index: plain.index,
    size_bytes: box.sigma_serialize_bytes().length,
  };
}

/**
 * Parses `bytes` with `parse` and insists that they are exactly one object in canonical form: bytes
 * after its end, or a non-canonical encoding, would make the recomputed id describe other bytes.
 */
export function parseCanonicalBytes<T extends { sigma_serialize_bytes(): Uint8Array; free(): void }>(
  scope: WasmScope,
  bytes: Uint8Array,
  what: ParsedThing,
  parse: (bytes: Uint8Array) => T,
): T {
  let parsed: T;
  try {
    parsed = scope.own(parse(bytes));
  } catch (error) {
    throw parseFailure(what, error);
  }
  let again: Uint8Array;
  try {
    again = parsed.sigma_serialize_bytes();
  } catch (error) {
    throw parseFailure(what, error);
  }
  const thing = what.split(' ')[0];
  if (again.length < bytes.length && hex.encode(again) === hex.encode(bytes.subarray(0, again.length))) {
    throw new InspectionInputError('trailing_bytes', `The ${what} hold one ${thing} of ${again.length} bytes followed by ${bytes.length - again.length} more bytes; send exactly one ${thing}.`);
  }
  if (hex.encode(again) !== hex.encode(bytes)) {
    throw new InspectionInputError('non_canonical', `The ${what} parse, but not in the canonical Ergo encoding, so an id computed from them would not be the ${thing}'s id.`);
  }
  return parsed;
}

function boxFromJson(scope: WasmScope, input: string): { box: ErgoBox; declaredId: string | null } {
  const shape = parseShape(ergoBoxJsonSchema, parseExactJson(input, 'box JSON'), 'an Ergo box in node or explorer JSON form', 'invalid_box_json');
  const normalized = {
    value: shape.value,
    ergoTree: shape.ergoTree.toLowerCase(),
    creationHeight: shape.creationHeight,
    assets: shape.assets.map((asset) => ({ tokenId: asset.tokenId.toLowerCase(), amount: asset.amount })),
    additionalRegisters: shape.additionalRegisters,
    transactionId: shape.transactionId.toLowerCase(),
    index: shape.index,
  };
  try {
    return { box: scope.own(sigmaRust().ErgoBox.from_json(JSON.stringify(normalized))), declaredId: shape.boxId?.toLowerCase() ?? null };
  } catch (error) {
    throw parseFailure('box JSON', error);
  }
}

export function inspectBox(input: string, encoding: 'utf8' | 'hex', network: ErgoNetwork): { result: BoxResult; warnings: ToolWarning[] } {
  return withWasmScope((scope) => {
    const warnings: ToolWarning[] = [];
    let box: ErgoBox;
    let declaredId: string | null = null;
    if (encoding === 'hex') {
      const bytes = hex.decode(input.toLowerCase());
      if (bytes.length > MAX_BOX_BYTES) {
        throw new InspectionInputError('box_too_large', `The box bytes are ${bytes.length} bytes long; an Ergo box is at most ${MAX_BOX_BYTES} bytes.`);
      }
      box = parseCanonicalBytes(scope, bytes, 'box bytes', (data) => sigmaRust().ErgoBox.sigma_parse_bytes(data));
    } else {
      ({ box, declaredId } = boxFromJson(scope, input));
    }
    const summary = summarizeBox(box, network, warnings);
    if (summary.size_bytes > MAX_BOX_BYTES) {
      throw new InspectionInputError('box_too_large', `The box serializes to ${summary.size_bytes} bytes; an Ergo box is at most ${MAX_BOX_BYTES} bytes.`);
    }
    const matches = declaredId === null ? null : declaredId === summary.box_id;
    if (matches === false) {
      warnings.push({ code: 'declared_id_mismatch', message: `The declared boxId ${declaredId} is not the id of this box, ${summary.box_id}: some field differs from the box that id names.` });
    }
    return { result: { ...summary, declared_box_id: declaredId, box_id_matches: matches }, warnings };
  });
}
