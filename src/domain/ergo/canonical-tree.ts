/**
 * One serialization per spending condition, so that what an address pays can be compared whatever
 * way its ErgoTree was written. A tree whose whole proposition is one public key (`SigmaProp` of
 * `ProveDlog(pk)`, as a constant or as `CreateProveDlog` of a group element, segregated or inline,
 * with or without the size flag, under any header version) becomes the P2PK tree of that key: the
 * P2PK address and every such P2S address pay the same key, and whoever holds it spends them all.
 * Any other tree becomes sigma-rust's own serialization of it.
 *
 * sigma-rust reads the trees and recognises the constant form (`Address.recreate_from_ergo_tree`);
 * only the `CreateProveDlog` form is matched here, on the template and constants sigma-rust reports.
 * sigma-rust reads versions up to PARSED_ERGO_TREE_VERSION: a newer tree is read as that version,
 * which encodes constants and these expressions the same way. At worst that merges a newer tree
 * with its older twin (one count where two were due), never splits one key into two counts.
 */
import { ErgoAddress } from '@fleet-sdk/core';
import { hex, validateEcPoint } from '@fleet-sdk/crypto';
import type { ErgoTree } from 'ergo-lib-wasm-nodejs';
import { PARSED_ERGO_TREE_VERSION } from './ergo-tree-header.ts';
import { sigmaRust, withWasmScope, type WasmScope } from './sigma-rust.ts';
import { writeVlq } from './vlq.ts';

const VERSION_BITS = 0x07;
/** Opcodes of the Ergo serialization: `CreateProveDlog(groupElement)` and a segregated constant's placeholder. */
const CREATE_PROVE_DLOG = 0xcd;
const CONSTANT_PLACEHOLDER = 0x73;
const GROUP_ELEMENT_TYPE = 'SGroupElement';

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, index) => byte === b[index]);

/** The tree with a header version sigma-rust reads; the tree itself when it reads it already. */
function readableVersion(tree: Uint8Array): Uint8Array {
  if ((tree[0]! & VERSION_BITS) <= PARSED_ERGO_TREE_VERSION) return tree;
  const lowered = Uint8Array.from(tree);
  lowered[0] = (tree[0]! & ~VERSION_BITS) | PARSED_ERGO_TREE_VERSION;
  return lowered;
}

/** The public key of a `CreateProveDlog` whose group element is inline or a segregated constant; null otherwise. */
function createProveDlogKey(scope: WasmScope, tree: ErgoTree): Uint8Array | null {
  const template = tree.template_bytes();
  if (template[0] !== CREATE_PROVE_DLOG) return null;
  const argument = template.subarray(1);
  const groupElement = (serialized: Uint8Array): Uint8Array | null => {
    const constant = scope.own(sigmaRust().Constant.decode_from_base16(hex.encode(serialized)));
    // Decoding stops at the constant's end: equal bytes on the way back mean nothing followed it.
    return constant.dbg_tpe() === GROUP_ELEMENT_TYPE && sameBytes(constant.sigma_serialize_bytes(), serialized) ? serialized.subarray(1) : null;
  };
  if (argument[0] !== CONSTANT_PLACEHOLDER) {
    try {
      return groupElement(argument);
    } catch {
      // Not a constant at all: some other expression under CreateProveDlog.
      return null;
    }
  }
  for (let index = 0; index < tree.constants_len(); index++) {
    if (!sameBytes(argument, Uint8Array.from([CONSTANT_PLACEHOLDER, ...writeVlq(index)]))) continue;
    const constant = tree.get_constant(index);
    return constant ? groupElement(scope.own(constant).sigma_serialize_bytes()) : null;
  }
  return null;
}

/** The one public key the tree's proposition is, or null when it is anything else. */
function singleKeyOf(scope: WasmScope, tree: ErgoTree): Uint8Array | null {
  const rust = sigmaRust();
  const address = scope.own(rust.Address.recreate_from_ergo_tree(tree));
  const key = address.address_type_prefix() === rust.AddressTypePrefix.P2Pk ? address.content_bytes() : createProveDlogKey(scope, tree);
  return key && validateEcPoint(key) ? key : null;
}

/**
 * The canonical form of `tree` (ErgoTree bytes): the P2PK tree of its key when it pays exactly one
 * public key, else sigma-rust's serialization of it, else (sigma-rust cannot read it) the bytes as given.
 */
export function canonicalErgoTree(tree: Uint8Array): Uint8Array {
  if (tree.length === 0) return tree;
  return withWasmScope((scope) => {
    try {
      const parsed = scope.own(sigmaRust().ErgoTree.from_bytes(readableVersion(tree)));
      // sigma-rust keeps a tree it cannot read without complaint; asking for its template shows it.
      parsed.template_bytes();
      const key = singleKeyOf(scope, parsed);
      return key ? hex.decode(ErgoAddress.fromPublicKey(key).ergoTree) : parsed.sigma_serialize_bytes();
    } catch {
      return tree;
    }
  });
}
