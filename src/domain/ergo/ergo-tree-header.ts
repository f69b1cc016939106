/**
 * The ErgoTree header byte and what it promises, read without parsing the body: bits 0-2 the
 * version, bit 3 the size flag (the body's byte length follows as a VLQ; required from version 1
 * on, so a reader can skip a body it cannot parse), bit 4 constant segregation, bits 5-7 reserved.
 *
 * An address or a box stays what it is when its tree has a version the parser does not know yet:
 * the header says so, and the body is reported as unparsed rather than as invalid.
 */
import { sigmaRust, withWasmScope } from './sigma-rust.ts';
import { readVlq } from './vlq.ts';

/** The highest ErgoTree version sigma-rust (ergo-lib-wasm-nodejs 0.28) parses. */
export const PARSED_ERGO_TREE_VERSION = 1;

const SIZE_FLAG = 0x08;
const CONSTANT_SEGREGATION_FLAG = 0x10;
const RESERVED_BITS = 0xe0;

export interface ErgoTreeHeader {
  /** The header byte, hex. */
  header: string;
  version: number;
  size_flag: boolean;
  constant_segregation: boolean;
  /** Whether the body was parsed (and so checked); false for a version newer than the parser. */
  body_parsed: boolean;
}

export type ErgoTreeReading =
  | { ok: true; header: ErgoTreeHeader; note: string | null }
  | { ok: false; header: ErgoTreeHeader | null; message: string };


/**
 * Why sigma-rust does not read `tree` whole, or null when it does: it stores unreadable trees
 * without complaint, so the template is asked for.
 */
export function treeParseFailure(tree: Uint8Array): string | null {
  try {
    withWasmScope((scope) => scope.own(sigmaRust().ErgoTree.from_bytes(tree)).template_bytes());
    return null;
  } catch (error) {
    return String(error);
  }
}

const bodyParses = (tree: Uint8Array): boolean => treeParseFailure(tree) === null;

/** Reads the header, checks the size it declares, and parses the body when its version is one the parser knows. */
export function readErgoTree(tree: Uint8Array): ErgoTreeReading {
  if (tree.length === 0) return { ok: false, header: null, message: 'an ErgoTree has at least a header byte' };
  const byte = tree[0]!;
  const header: ErgoTreeHeader = {
    header: byte.toString(16).padStart(2, '0'),
    version: byte & 0x07,
    size_flag: (byte & SIZE_FLAG) !== 0,
    constant_segregation: (byte & CONSTANT_SEGREGATION_FLAG) !== 0,
    body_parsed: false,
  };
  if ((byte & RESERVED_BITS) !== 0) return { ok: false, header, message: `the header byte 0x${header.header} sets reserved bits (0xe0)` };
  if (header.version > 0 && !header.size_flag) return { ok: false, header, message: `an ErgoTree of version ${header.version} must set the size flag (0x08) in its header` };
  if (header.size_flag) {
    const size = readVlq(tree, 1);
    if (!size) return { ok: false, header, message: 'the header sets the size flag but no body size follows' };
    if (size.value !== tree.length - size.next) return { ok: false, header, message: `the header declares a body of ${size.value} bytes, but ${tree.length - size.next} follow` };
  }
  if (header.version > PARSED_ERGO_TREE_VERSION) {
    return {
      ok: true,
      header,
      note: `ErgoTree version ${header.version} is newer than the parser here knows (versions 0 to ${PARSED_ERGO_TREE_VERSION}): its header and size are checked, its body is not.`,
    };
  }
  if (!bodyParses(tree)) return { ok: false, header, message: `the body does not parse as an ErgoTree of version ${header.version} (constants and a SigmaProp expression)` };
  return { ok: true, header: { ...header, body_parsed: true }, note: null };
}
