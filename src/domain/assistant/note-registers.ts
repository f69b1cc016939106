/**
 * Reading the Note's registers (R4 `Coll[Byte]` reserve box id, R5 `Int` expiry height, R6
 * `Coll[Byte]` task hash) with the Fleet SDK serializer. The register text from a chain source is a
 * serialized Sigma constant; decoding it, rather than slicing the hex, means a constant of another
 * type or a malformed one is recognised as such instead of being read as a coincidence of bytes.
 */
import { hex } from '@fleet-sdk/crypto';
import { decode, SByteType, SCollType, SIntType, type SConstant } from '@fleet-sdk/serializer';

export type DecodedRegister<T> =
  | { status: 'ok'; serializedValue: string; value: T }
  | { status: 'missing' }
  /** Present, but not a well-formed constant of the expected type; `found` names what it is. */
  | { status: 'wrong_type'; serializedValue: string; found: string };

export interface NoteRegisters {
  R4: DecodedRegister<string>;
  R5: DecodedRegister<number>;
  R6: DecodedRegister<string>;
}

/**
 * Decodes one serialized constant, or undefined when it is not one. Fleet's reader is lenient about
 * truncated input and trailing bytes, so a constant counts only if it serializes back to exactly the
 * bytes it was read from.
 */
export function decodeConstant(serialized: string): SConstant | undefined {
  const normalized = serialized.toLowerCase();
  if (!/^(?:[0-9a-f]{2})+$/.test(normalized)) return undefined;
  try {
    const constant = decode(normalized);
    if (!constant || constant.toHex() !== normalized) return undefined;
    return constant;
  } catch {
    return undefined;
  }
}

const describeType = (constant: SConstant | undefined): string => (constant ? constant.type.toString() : 'not a serialized constant');

/** A `Coll[Byte]` register as lower-case hex of its bytes. */
export function decodeCollByteRegister(serialized: string | undefined): DecodedRegister<string> {
  if (serialized === undefined || serialized === '') return { status: 'missing' };
  const constant = decodeConstant(serialized);
  const type = constant?.type;
  if (!(type instanceof SCollType) || !(type.elementsType instanceof SByteType)) {
    return { status: 'wrong_type', serializedValue: serialized.toLowerCase(), found: describeType(constant) };
  }
  return { status: 'ok', serializedValue: serialized.toLowerCase(), value: hex.encode(constant!.data as Uint8Array) };
}

/** An `Int` register (signed 32-bit). */
export function decodeIntRegister(serialized: string | undefined): DecodedRegister<number> {
  if (serialized === undefined || serialized === '') return { status: 'missing' };
  const constant = decodeConstant(serialized);
  if (!(constant?.type instanceof SIntType)) {
    return { status: 'wrong_type', serializedValue: serialized.toLowerCase(), found: describeType(constant) };
  }
  return { status: 'ok', serializedValue: serialized.toLowerCase(), value: constant.data as number };
}

/** The three registers of a Note, each decoded on its own so one bad register does not hide the others. */
export function decodeNoteRegisters(registers: Partial<Record<string, string>>): NoteRegisters {
  return {
    R4: decodeCollByteRegister(registers.R4),
    R5: decodeIntRegister(registers.R5),
    R6: decodeCollByteRegister(registers.R6),
  };
}
