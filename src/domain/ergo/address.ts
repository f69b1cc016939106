/**
 * Ergo addresses, decoded with the Fleet SDK (`base58`, `blake2b256`, `validateEcPoint`,
 * `ErgoAddress`) and checked one rule at a time, so an invalid address is answered with the exact
 * rule it breaks. Fleet's own `validateAddress` answers only true or false and does not look at the
 * network, and the faucet must refuse a mainnet address however valid, so the network is reported
 * here and judged by the caller.
 *
 * Layout (ErgoAddressEncoder): prefix byte (network 0x00 mainnet / 0x10 testnet, plus type 1 P2PK,
 * 2 P2SH, 3 P2S) ++ content ++ first 4 bytes of blake2b256(prefix ++ content).
 */
import { AddressType, ErgoAddress, Network } from '@fleet-sdk/core';
import { base58, hex, validateEcPoint } from '@fleet-sdk/crypto';
import { blake2b256 } from '../blake2b.ts';
import type { ADDRESS_INVALID_REASONS } from '../../../schemas/dev-tool-results.ts';
import { readErgoTree, type ErgoTreeHeader, type ErgoTreeReading } from './ergo-tree-header.ts';

export type ErgoNetwork = 'mainnet' | 'testnet';
export type AddressKind = 'P2PK' | 'P2SH' | 'P2S';

/** Why an address (or an ErgoTree given instead of one) is not valid. */
export type AddressInvalidReason = (typeof ADDRESS_INVALID_REASONS)[number];

export type AddressCheck =
  | {
      valid: true;
      /** The base58 address, as given or encoded for the requested network. */
      address: string;
      network: ErgoNetwork;
      type: AddressKind;
      ergoTree: string;
      /** P2PK: compressed secp256k1 public key, hex. */
      publicKey: string | null;
      /** P2SH: the 24-byte script hash, hex. */
      scriptHash: string | null;
      ergoTreeHeader: ErgoTreeHeader;
      /** Set when the tree's body could not be checked (a version newer than the parser). */
      note: string | null;
    }
  | { valid: false; reason: AddressInvalidReason; message: string; network: ErgoNetwork | null };

const CHECKSUM_BYTES = 4;
const P2PK_CONTENT_BYTES = 33;
const P2SH_CONTENT_BYTES = 24;
const NETWORK_BY_PREFIX: Record<number, ErgoNetwork> = { [Network.Mainnet]: 'mainnet', [Network.Testnet]: 'testnet' };
const KIND_BY_TYPE: Record<number, AddressKind> = { [AddressType.P2PK]: 'P2PK', [AddressType.P2SH]: 'P2SH', [AddressType.P2S]: 'P2S' };

export const networkPrefix = (network: ErgoNetwork): Network => (network === 'mainnet' ? Network.Mainnet : Network.Testnet);

const invalid = (reason: AddressInvalidReason, message: string, network: ErgoNetwork | null = null): AddressCheck => ({ valid: false, reason, message, network });

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, index) => byte === b[index]);

function validAddress(ergoTree: Uint8Array, network: ErgoNetwork, address: string, reading: ErgoTreeReading & { ok: true }): AddressCheck {
  const decoded = ErgoAddress.fromErgoTree(ergoTree, networkPrefix(network));
  const type = KIND_BY_TYPE[decoded.type]!;
  return {
    valid: true,
    address,
    network,
    type,
    ergoTree: decoded.ergoTree,
    publicKey: type === 'P2PK' ? hex.encode(decoded.getPublicKeys()[0]!) : null,
    scriptHash: type === 'P2SH' ? hex.encode(ergoTree.subarray(ergoTree.length - 3 - P2SH_CONTENT_BYTES, ergoTree.length - 3)) : null,
    ergoTreeHeader: reading.header,
    note: reading.note,
  };
}

/** Reads a tree the short address forms build (P2PK, P2SH): always of version 0, parsed. */
function knownTree(tree: Uint8Array): ErgoTreeReading & { ok: true } {
  const reading = readErgoTree(tree);
  if (!reading.ok) throw new Error(`an address form built a tree that does not read: ${reading.message}`);
  return reading;
}

/** Decodes a base58 address and checks encoding, length, checksum, prefix, public key and script. */
export function decodeAddress(text: string): AddressCheck {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(text);
  } catch {
    const bad = [...text].find((char) => !/[1-9A-HJ-NP-Za-km-z]/.test(char));
    return invalid('encoding', `not base58: ${bad === undefined ? 'the text' : `the character "${bad}"`} is not in the base58 alphabet (0, O, I and l never occur)`);
  }
  if (bytes.length < 1 + 1 + CHECKSUM_BYTES) {
    return invalid('length', `decodes to ${bytes.length} bytes; an address has a prefix byte, content and a 4-byte checksum`);
  }
  const head = bytes.subarray(0, bytes.length - CHECKSUM_BYTES);
  const checksum = bytes.subarray(bytes.length - CHECKSUM_BYTES);
  if (!sameBytes(blake2b256(head).subarray(0, CHECKSUM_BYTES), checksum)) {
    return invalid('checksum', 'the checksum does not match: a character is wrong, missing or swapped');
  }
  const prefix = head[0]!;
  const network = NETWORK_BY_PREFIX[prefix & 0xf0];
  const type = KIND_BY_TYPE[prefix & 0x0f];
  if (!network) return invalid('prefix', `the prefix byte 0x${prefix.toString(16).padStart(2, '0')} names no Ergo network (0x00 mainnet, 0x10 testnet)`);
  if (!type) return invalid('prefix', `the prefix byte 0x${prefix.toString(16).padStart(2, '0')} names no address type (1 P2PK, 2 P2SH, 3 P2S)`, network);
  const content = head.subarray(1);
  if (type === 'P2PK') {
    if (content.length !== P2PK_CONTENT_BYTES) return invalid('length', `a P2PK address holds a ${P2PK_CONTENT_BYTES}-byte public key; this one holds ${content.length} bytes`, network);
    if (!validateEcPoint(content)) return invalid('public_key', 'the public key is not a point on the secp256k1 curve', network);
    const tree = hex.decode(ErgoAddress.fromPublicKey(content).ergoTree);
    return validAddress(tree, network, text, knownTree(tree));
  }
  if (type === 'P2SH') {
    if (content.length !== P2SH_CONTENT_BYTES) return invalid('length', `a P2SH address holds a ${P2SH_CONTENT_BYTES}-byte script hash; this one holds ${content.length} bytes`, network);
    const tree = hex.decode(ErgoAddress.fromHash(content).ergoTree);
    return validAddress(tree, network, text, knownTree(tree));
  }
  const reading = readErgoTree(content);
  if (!reading.ok) return invalid('ergo_tree', `the script of this P2S address is not an ErgoTree: ${reading.message}`, network);
  return validAddress(content, network, text, reading);
}

/**
 * The address of an ErgoTree on `network`: P2PK and P2SH trees get their short forms, anything else
 * a P2S address that embeds the whole tree.
 */
export function addressOfErgoTree(treeHex: string, network: ErgoNetwork): AddressCheck {
  const tree = hex.decode(treeHex.toLowerCase());
  const reading = readErgoTree(tree);
  if (!reading.ok) return invalid('ergo_tree', `the bytes are not an ErgoTree: ${reading.message}`, network);
  const decoded = ErgoAddress.fromErgoTree(tree, networkPrefix(network));
  if (decoded.type === AddressType.P2PK && !validateEcPoint(decoded.getPublicKeys()[0]!)) {
    return invalid('public_key', 'the tree has the P2PK form but its public key is not a point on the secp256k1 curve', network);
  }
  return validAddress(tree, network, decoded.encode(networkPrefix(network)), reading);
}

/** Address text of a box's ErgoTree for display; trees are already validated by the box parser. */
export function encodeErgoTreeAddress(treeHex: string, network: ErgoNetwork): string {
  return ErgoAddress.fromErgoTree(treeHex.toLowerCase(), networkPrefix(network)).encode(networkPrefix(network));
}
