/**
 * The ErgoTrees of a serialized transaction's outputs, found without parsing the transaction as a
 * whole. sigma-rust refuses a transaction outright when one output's tree has a version it does
 * not know; this walk finds each tree so that the tool can name that output instead.
 *
 * The layout is the node's: inputs (box id, proof, context extension), data inputs, the distinct
 * token ids, then the outputs (value, tree, creation height, tokens by index, registers). Constants
 * are skipped with Fleet's reader. A tree with the size flag (every version from 1 on) is skipped by
 * its size; a version 0 tree without it is as long as the prefix sigma-rust reads whole: shorter
 * prefixes end early, longer ones leave bytes over, so its length is found by bisection.
 */
import { hex } from '@fleet-sdk/crypto';
import { SConstant, SigmaByteReader } from '@fleet-sdk/serializer';
import { treeParseFailure } from './ergo-tree-header.ts';

const BOX_ID_BYTES = 32;
const SIZE_FLAG = 0x08;
const MAX_TREE_BYTES = 4_096;

type Fit = 'whole' | 'short' | 'long' | 'invalid';

function fit(prefix: Uint8Array): Fit {
  const failure = treeParseFailure(prefix);
  if (failure === null) return 'whole';
  if (failure.includes('NonConsumedBytes')) return 'long';
  if (failure.includes('failed to fill whole buffer')) return 'short';
  return 'invalid';
}

/**
 * Parses one walk may spend finding unsized trees (about twelve each): a transaction of hundreds of
 * them is not walked, and sigma-rust's own answer stands, so a crafted input costs bounded work.
 */
const MAX_PARSES_PER_WALK = 256;

class WalkBudget {
  private left = MAX_PARSES_PER_WALK;
  spend(): void {
    if (--this.left < 0) throw new Error('the walk would take too many parses');
  }
}

/** The length of the version 0 tree (no size flag) at the start of `rest`, or null when no prefix is one. */
function unsizedTreeLength(rest: Uint8Array, budget: WalkBudget): number | null {
  let low = 1;
  let high = Math.min(rest.length, MAX_TREE_BYTES);
  while (low <= high) {
    const middle = (low + high) >>> 1;
    budget.spend();
    const verdict = fit(rest.subarray(0, middle));
    if (verdict === 'whole') return middle;
    if (verdict === 'invalid') return null;
    if (verdict === 'short') low = middle + 1;
    else high = middle - 1;
  }
  return null;
}

function readTree(reader: SigmaByteReader, budget: WalkBudget): string {
  const start = reader.cursor;
  const header = reader.peek(1)[0]!;
  if ((header & SIZE_FLAG) !== 0) {
    reader.readByte();
    reader.readBytes(reader.readUInt());
  } else {
    const length = unsizedTreeLength(reader.bytes.subarray(start), budget);
    if (length === null) throw new Error('an output tree does not parse');
    reader.readBytes(length);
  }
  return hex.encode(reader.bytes.subarray(start, reader.cursor));
}

/** Each output's ErgoTree in hex, or null when the bytes do not follow the transaction layout. */
export function outputTreesOf(bytes: Uint8Array): string[] | null {
  try {
    const budget = new WalkBudget();
    const reader = new SigmaByteReader(bytes);
    reader.readArray((input) => {
      input.readBytes(BOX_ID_BYTES);
      input.readBytes(input.readUInt());
      const entries = input.readUInt();
      for (let entry = 0; entry < entries; entry++) {
        input.readByte();
        SConstant.from(input);
      }
    });
    reader.readArray((dataInput) => dataInput.readBytes(BOX_ID_BYTES));
    reader.readArray((tokenId) => tokenId.readBytes(BOX_ID_BYTES));
    const trees = reader.readArray((output) => {
      output.readBigUInt();
      const tree = readTree(output, budget);
      output.readUInt();
      output.readArray((token) => {
        token.readUInt();
        token.readBigUInt();
      });
      const registers = output.readByte();
      for (let register = 0; register < registers; register++) SConstant.from(output);
      return tree;
    });
    return reader.isEmpty ? trees : null;
  } catch {
    return null;
  }
}
