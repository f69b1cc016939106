/**
 * The transaction id the Ergo node computes, where it differs from the bytes as given.
 *
 * A transaction id is blake2b256 of the bytes to sign: the transaction serialised with empty
 * spending proofs but with each input's context extension. The reference implementation
 * (sigmastate-interpreter, which the node runs on Scala 2.12) parses an extension into a Scala
 * immutable `Map[Byte, _]` and writes it back in that map's iteration order. Maps of up to four
 * entries (`Map1`..`Map4`) keep insertion order; larger ones are a `HashMap` trie that iterates by
 * the improved hash of each key, five bits per level from the lowest. So an extension of more than
 * four entries is written in an order of its own (keys 0-6 become 0, 5, 1, 6, 2, 3, 4), and the id
 * the node recognises is the hash of those bytes, whatever order the transaction arrived in.
 * sigma-rust keeps the order it was given, so its id differs exactly then.
 */
import { blake2b256 } from '../blake2b.ts';
import { readVlq as readVlqOrUndefined, writeVlq as vlq } from './vlq.ts';

function readVlq(bytes: Uint8Array, offset: number): { value: number; next: number } {
  const read = readVlqOrUndefined(bytes, offset);
  if (!read) throw new Error('transaction bytes end inside a VLQ number');
  return read;
}

/** Scala 2.12 `HashMap.improve`: the hash a key is placed by. */
function improve(hashCode: number): number {
  let h = (hashCode + ~(hashCode << 9)) | 0;
  h ^= h >>> 14;
  h = (h + (h << 4)) | 0;
  return h ^ (h >>> 10);
}

/** Context extension keys are Scala `Byte`s: signed, and a Byte's hash code is its value. */
const scalaByte = (key: number): number => (key > 127 ? key - 256 : key);

/** The trie path of a key: its improved hash read five bits at a time from the lowest. */
function triePath(key: number): number[] {
  const hash = improve(scalaByte(key)) >>> 0;
  return Array.from({ length: 7 }, (_, level) => Math.floor(hash / 2 ** (5 * level)) & 31);
}

/** The order the node writes extension keys in: as given up to four entries, Scala's HashMap order beyond. */
export function nodeExtensionOrder(keys: readonly number[]): number[] {
  if (keys.length <= 4) return [...keys];
  const paths = new Map(keys.map((key) => [key, triePath(key)]));
  return [...keys].sort((a, b) => {
    const pa = paths.get(a)!;
    const pb = paths.get(b)!;
    for (let level = 0; level < pa.length; level++) if (pa[level] !== pb[level]) return pa[level]! - pb[level]!;
    return 0;
  });
}

const sameOrder = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((key, index) => key === b[index]);

export interface InputExtension {
  /** Keys in the order given. */
  keys: number[];
  /** Serialized constant of each key. */
  values: Map<number, Uint8Array>;
}



function extensionBytes(extension: InputExtension, order: readonly number[]): number[] {
  return [order.length, ...order.flatMap((key) => [key, ...extension.values.get(key)!])];
}

export interface NodeIds {
  /** blake2b256 of the bytes to sign, extensions in the order given (sigma-rust's id). */
  givenOrderId: string;
  /** The same with the node's extension order: the id the Ergo node computes. */
  nodeId: string;
  /** Inputs whose extension the node writes in another order. */
  reorderedInputs: number[];
}

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * Both ids of a transaction from its serialized (signed) bytes, as sigma-rust writes them, and each
 * input's extension. The bytes to sign are the same bytes with every spending proof emptied; only
 * the inputs' part changes, the rest (data inputs, tokens, outputs) is copied as it is.
 */
export function transactionIds(serialized: Uint8Array, extensions: readonly InputExtension[]): NodeIds {
  const inputCount = readVlq(serialized, 0);
  if (inputCount.value !== extensions.length) throw new Error(`the bytes hold ${inputCount.value} inputs, the parse ${extensions.length}`);
  const given: number[] = [...vlq(inputCount.value)];
  const node: number[] = [...given];
  const reorderedInputs: number[] = [];
  let offset = inputCount.next;
  extensions.forEach((extension, index) => {
    const boxId = serialized.subarray(offset, offset + 32);
    const proof = readVlq(serialized, offset + 32);
    offset = proof.next + proof.value;
    const asGiven = extensionBytes(extension, extension.keys);
    if (hexOf(serialized.subarray(offset, offset + asGiven.length)) !== hexOf(Uint8Array.from(asGiven))) {
      throw new Error(`input ${index}: the extension in the bytes is not the parsed one`);
    }
    offset += asGiven.length;
    const order = nodeExtensionOrder(extension.keys);
    if (!sameOrder(order, extension.keys)) reorderedInputs.push(index);
    given.push(...boxId, 0, ...asGiven);
    node.push(...boxId, 0, ...extensionBytes(extension, order));
  });
  const rest = serialized.subarray(offset);
  return {
    givenOrderId: hexOf(blake2b256(Uint8Array.from([...given, ...rest]))),
    nodeId: hexOf(blake2b256(Uint8Array.from([...node, ...rest]))),
    reorderedInputs,
  };
}

/** A box id for another transaction id: blake2b256(candidate ++ transaction id ++ VLQ index), the candidate taken from the box bytes. */
export function boxIdUnder(boxBytes: Uint8Array, transactionId: string, index: number): string {
  const candidate = boxBytes.subarray(0, boxBytes.length - 32 - vlq(index).length);
  return hexOf(blake2b256(Uint8Array.from([...candidate, ...Buffer.from(transactionId, 'hex'), ...vlq(index)])));
}
