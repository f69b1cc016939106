/**
 * Register constants (R4 to R9) decoded with the Fleet SDK serializer into an ErgoScript type and a
 * readable value. A register counts as decoded only when the constant serializes back to exactly
 * the bytes it came from (see `decodeConstant`); a SigmaProp, which Fleet reads but cannot write
 * back, counts when it is the `ProveDlog` form Fleet reads, `08cd` followed by its public key.
 * A register Fleet cannot read is still reported, serialized, with no type.
 */
import { hex } from '@fleet-sdk/crypto';
import { decode, isColl, isTuple, SSigmaPropType, type SConstant, type SType } from '@fleet-sdk/serializer';
import type { RegisterName } from '../../../schemas/ergo-json.ts';
import { decodeConstant } from '../assistant/note-registers.ts';

export interface DecodedRegisterView {
  serialized: string;
  /** ErgoScript type, e.g. `Coll[Byte]`, `Int`, `(Coll[Byte], Long)`; null when not decoded. */
  sigma_type: string | null;
  /** The value as text: hex for bytes and points, decimal for numbers; null when not decoded. */
  rendered: string | null;
}

/** Fleet writes types as `SColl[SByte]`; ErgoScript writes `Coll[Byte]` and `Boolean`. */
export function ergoScriptTypeName(type: SType): string {
  return type
    .toString()
    .replace(/\bS(?=[A-Z])/g, '')
    .replace(/\bBool\b/g, 'Boolean');
}

function render(type: SType, data: unknown): string {
  if (data instanceof Uint8Array) return type instanceof SSigmaPropType ? `ProveDlog(${hex.encode(data)})` : hex.encode(data);
  if (typeof data === 'bigint' || typeof data === 'number' || typeof data === 'boolean') return String(data);
  if (data === undefined) return '()';
  if (Array.isArray(data)) {
    if (isTuple(type)) return `(${data.map((item, index) => render(type.elementsType[index]!, item)).join(', ')})`;
    if (isColl(type)) return `[${data.map((item) => render(type.elementsType, item)).join(', ')}]`;
  }
  return JSON.stringify(data, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value instanceof Uint8Array ? hex.encode(value) : value));
}

function decodeSigmaProp(serialized: string): SConstant | undefined {
  try {
    const constant = decode(serialized);
    if (constant?.type instanceof SSigmaPropType && constant.data instanceof Uint8Array && `08cd${hex.encode(constant.data)}` === serialized) return constant;
  } catch {
    // not a constant Fleet can read
  }
  return undefined;
}

export function decodeRegister(serialized: string): DecodedRegisterView {
  const normalized = serialized.toLowerCase();
  const constant = decodeConstant(normalized) ?? decodeSigmaProp(normalized);
  if (!constant) return { serialized: normalized, sigma_type: null, rendered: null };
  return { serialized: normalized, sigma_type: ergoScriptTypeName(constant.type), rendered: render(constant.type, constant.data) };
}

export function decodeRegisters(registers: Partial<Record<RegisterName, string>>): Partial<Record<RegisterName, DecodedRegisterView>> {
  return Object.fromEntries(Object.entries(registers).map(([name, value]) => [name, decodeRegister(value!)])) as Partial<Record<RegisterName, DecodedRegisterView>>;
}
