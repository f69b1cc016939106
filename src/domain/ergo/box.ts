/**
 * The `box` tool: a box from its serialized bytes or from node/explorer JSON, parsed by sigma-rust,
 * its id recomputed as blake2b256 of the serialized box (candidate ++ transaction id ++ index), and
 * its fields reported with registers decoded. A declared `boxId` is compared, never trusted.
 */
import { hex } from '@fleet-sdk/crypto';
import { blake2b256 } from '../blake2b.ts';
import type { ErgoBox } from 'ergo-lib-wasm-nodejs';
import { ergoBoxJsonSchema, REGISTER_NAMES, type RegisterName } from '../../../schemas/ergo-json.ts';
import { formatNanoErg } from '../money.ts';
import { encodeErgoTreeAddress, type ErgoNetwork } from './address.ts';
import { PARSED_ERGO_TREE_VERSION, readErgoTree, type ErgoTreeHeader } from './ergo-tree-header.ts';
import { readVlq } from './vlq.ts';
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
  ergo_tree_header: ErgoTreeHeader;
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

/**
 * A tree of a version sigma-rust cannot parse, and the box's real bytes. sigma-rust refuses a whole
 * box for such a tree, so the box is parsed with a version 0 stand-in in its place (the rest of the
 * box does not depend on the tree), and everything the tree is part of (the tree, the id, the size)
 * is taken from the real bytes.
 */
interface NewerTree {
  tree: string;
  boxBytes: Uint8Array;
}

/** Parses as the stand-in: a version 0 tree (`sigmaProp(true)`, no constants) sigma-rust reads. */
const STAND_IN_TREE = hex.decode('10010101d17300');


/** Where a box's tree lies in its bytes (right after the value), when its header gives its size. */
function sizedTreeAt(bytes: Uint8Array): { start: number; end: number } | undefined {
  const value = readVlq(bytes, 0);
  if (!value || value.next >= bytes.length || (bytes[value.next]! & 0x08) === 0) return undefined;
  const size = readVlq(bytes, value.next + 1);
  return size && { start: value.next, end: size.next + size.value };
}

const splice = (bytes: Uint8Array, start: number, end: number, insert: Uint8Array) => Uint8Array.from([...bytes.subarray(0, start), ...insert, ...bytes.subarray(end)]);

/** The tree's version is one the parser does not know (its header says so; readErgoTree checks the rest). */
const isNewerTree = (tree: Uint8Array) => tree.length > 0 && (tree[0]! & 0x07) > PARSED_ERGO_TREE_VERSION;

/** The fields of a parsed box (exact strings from sigma-rust's EIP-12 form), registers decoded. */
export function summarizeBox(
  box: ErgoBox,
  network: ErgoNetwork,
  warnings: ToolWarning[],
  label = 'the box',
  newer?: NewerTree,
): BoxSummary & { transaction_id: string; index: number; size_bytes: number } {
  const plain = box.to_js_eip12() as Eip12Box;
  if (newer) {
    plain.ergoTree = newer.tree;
    plain.boxId = hex.encode(blake2b256(newer.boxBytes));
  }
  const registers = decodeRegisters(Object.fromEntries(REGISTER_NAMES.filter((name) => plain.additionalRegisters[name]).map((name) => [name, plain.additionalRegisters[name]!])));
  for (const [name, view] of Object.entries(registers)) {
    if (view.sigma_type === null) {
      warnings.push({ code: 'register_not_decoded', message: `${name} of ${label} is shown serialized only: its constant type is not one the Fleet SDK serializer decodes.` });
    }
  }
  const tree = readErgoTree(hex.decode(plain.ergoTree));
  // A tree with the size flag can be skipped unread, so a box may carry one whose body does not
  // parse: the node keeps such a tree unparsed (the box exists, nobody can spend it). Said, not refused.
  if (!tree.ok) warnings.push({ code: 'ergo_tree_not_parsed', message: `The ErgoTree of ${label} is kept unparsed: ${tree.message}; no one can spend a box guarded by it.` });
  else if (tree.note) warnings.push({ code: 'ergo_tree_version_unparsed', message: `${label}: ${tree.note}` });
  const treeHeader = tree.header ?? { header: '', version: 0, size_flag: false, constant_segregation: false, body_parsed: false };
  return {
    box_id: plain.boxId,
    value_nanoerg: plain.value,
    value_erg: formatNanoErg(BigInt(plain.value)),
    ergo_tree: plain.ergoTree,
    ergo_tree_header: treeHeader,
    address: encodeErgoTreeAddress(plain.ergoTree, network),
    creation_height: plain.creationHeight,
    assets: plain.assets.map((asset) => ({ token_id: asset.tokenId, amount: asset.amount })),
    registers,
    transaction_id: plain.transactionId,
    index: plain.index,
    size_bytes: newer ? newer.boxBytes.length : box.sigma_serialize_bytes().length,
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

function boxFromJson(scope: WasmScope, input: string): { box: ErgoBox; declaredId: string | null; newer?: NewerTree } {
  const shape = parseShape(ergoBoxJsonSchema, parseExactJson(input, 'box JSON'), 'an Ergo box in node or explorer JSON form', 'invalid_box_json');
  const tree = hex.decode(shape.ergoTree.toLowerCase());
  const standIn = isNewerTree(tree) && readErgoTree(tree).ok;
  const normalized = {
    value: shape.value,
    ergoTree: standIn ? hex.encode(STAND_IN_TREE) : shape.ergoTree.toLowerCase(),
    creationHeight: shape.creationHeight,
    assets: shape.assets.map((asset) => ({ tokenId: asset.tokenId.toLowerCase(), amount: asset.amount })),
    additionalRegisters: shape.additionalRegisters,
    transactionId: shape.transactionId.toLowerCase(),
    index: shape.index,
  };
  let box: ErgoBox;
  try {
    box = scope.own(sigmaRust().ErgoBox.from_json(JSON.stringify(normalized)));
  } catch (error) {
    throw parseFailure('box JSON', error);
  }
  const declaredId = shape.boxId?.toLowerCase() ?? null;
  if (!standIn) return { box, declaredId };
  const parsed = box.sigma_serialize_bytes();
  const start = readVlq(parsed, 0)!.next;
  return { box, declaredId, newer: { tree: hex.encode(tree), boxBytes: splice(parsed, start, start + STAND_IN_TREE.length, tree) } };
}

/** Box bytes whose tree has a newer version: parsed with the stand-in in its place. */
function boxFromBytesWithNewerTree(scope: WasmScope, bytes: Uint8Array): { box: ErgoBox; newer: NewerTree } | undefined {
  const at = sizedTreeAt(bytes);
  if (!at || at.end > bytes.length) return undefined;
  const tree = bytes.subarray(at.start, at.end);
  if (!isNewerTree(tree) || !readErgoTree(tree).ok) return undefined;
  const box = parseCanonicalBytes(scope, splice(bytes, at.start, at.end, STAND_IN_TREE), 'box bytes', (data) => sigmaRust().ErgoBox.sigma_parse_bytes(data));
  return { box, newer: { tree: hex.encode(tree), boxBytes: bytes } };
}

export function inspectBox(input: string, encoding: 'utf8' | 'hex', network: ErgoNetwork): { result: BoxResult; warnings: ToolWarning[] } {
  return withWasmScope((scope) => {
    const warnings: ToolWarning[] = [];
    let box: ErgoBox;
    let declaredId: string | null = null;
    let newer: NewerTree | undefined;
    if (encoding === 'hex') {
      const bytes = hex.decode(input.toLowerCase());
      if (bytes.length > MAX_BOX_BYTES) {
        throw new InspectionInputError('box_too_large', `The box bytes are ${bytes.length} bytes long; an Ergo box is at most ${MAX_BOX_BYTES} bytes.`);
      }
      const withNewerTree = boxFromBytesWithNewerTree(scope, bytes);
      if (withNewerTree) ({ box, newer } = withNewerTree);
      else box = parseCanonicalBytes(scope, bytes, 'box bytes', (data) => sigmaRust().ErgoBox.sigma_parse_bytes(data));
    } else {
      ({ box, declaredId, newer } = boxFromJson(scope, input));
    }
    const summary = summarizeBox(box, network, warnings, 'the box', newer);
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
