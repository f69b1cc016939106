/**
 * What the sandbox chain reads and answers, in the shapes of the services it stands in for: the
 * bodies of its own control requests (mint a Note, mine, set the height), and boxes as Explorer API
 * v1 `OutputInfo` and as the node's `ErgoTransactionOutput` / `IndexedErgoBox`.
 */
import { ErgoAddress, Network } from '@fleet-sdk/core';
import { z } from 'zod';
import { REGISTER_IDS, renderRegister, SandboxError, type SandboxBox } from './chain.ts';

export const hexBytes = z.string().regex(/^(?:[0-9a-fA-F]{2})+$/, 'must be hex of whole bytes');
export const hex64 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters');
export const int32 = z.int().min(0).max(2_147_483_647);

export const mintRequestSchema = z.strictObject({
  value: z
    .union([z.bigint(), z.int().min(1), z.string().regex(/^[1-9][0-9]{0,18}$/, 'must be a positive whole number of nanoERG')])
    .transform((value) => BigInt(value))
    .describe('Note value in nanoERG (number or decimal string).'),
  receiver: z.string().min(1).describe('Testnet address or ErgoTree hex the Note is made out to.'),
  reserveBoxId: hex64.optional().describe('R4: reserve box id, as Coll[Byte].'),
  expiryHeight: int32.optional().describe('R5: expiry height, as Int.'),
  taskHash: hex64.optional().describe('R6: task hash, as Coll[Byte].'),
  registers: z.partialRecord(z.enum(REGISTER_IDS), hexBytes).optional().describe('Raw serialized constants replacing or adding registers.'),
  creationHeight: int32.optional(),
  confirmations: z.int().min(0).max(100_000).default(1),
  hiddenFromExplorer: z.boolean().default(false),
});

export const mineRequestSchema = z.strictObject({ blocks: z.int().min(1).max(100_000).default(1) });
export const heightRequestSchema = z.strictObject({ height: int32 });

export interface Answer {
  status: number;
  body: unknown;
}

export function receiverTree(receiver: string): string {
  if (/^(?:[0-9a-fA-F]{2})+$/.test(receiver)) return receiver.toLowerCase();
  let valid = false;
  try {
    valid = ErgoAddress.validate(receiver);
  } catch {
    // Not even base58.
  }
  if (!valid) throw new SandboxError(400, 'receiver must be a base58 Ergo address or ErgoTree hex');
  if (ErgoAddress.getNetworkType(receiver) !== Network.Testnet) throw new SandboxError(400, 'receiver must be a testnet address: the sandbox stands in for the Ergo testnet');
  return ErgoAddress.fromBase58(receiver).ergoTree;
}

export const registersOf = (box: SandboxBox) => Object.fromEntries(Object.entries(box.registers).map(([id, serialized]) => [id, renderRegister(serialized!)]));

/** Explorer API v1 `OutputInfo`. */
export function explorerBox(box: SandboxBox) {
  return {
    boxId: box.boxId,
    transactionId: box.transactionId,
    blockId: box.blockId,
    value: box.value,
    index: box.index,
    globalIndex: box.globalIndex,
    creationHeight: box.creationHeight,
    settlementHeight: box.inclusionHeight,
    ergoTree: box.ergoTree,
    address: box.address,
    assets: [],
    additionalRegisters: registersOf(box),
    spentTransactionId: box.spentTransactionId ?? null,
    mainChain: true,
  };
}

/** Node `ErgoTransactionOutput`, plus the index fields of `IndexedErgoBox` when `indexed`. */
export function nodeBox(box: SandboxBox, indexed: boolean) {
  return {
    boxId: box.boxId,
    value: box.value,
    ergoTree: box.ergoTree,
    creationHeight: box.creationHeight,
    assets: [],
    additionalRegisters: box.registers,
    transactionId: box.transactionId,
    index: box.index,
    ...(indexed
      ? {
          address: box.address,
          spentTransactionId: box.spentTransactionId ?? null,
          spendingHeight: box.spendingHeight ?? null,
          inclusionHeight: box.inclusionHeight,
          spendingProof: null,
          globalIndex: box.globalIndex,
        }
      : {}),
  };
}

export const explorerNotFound = (what: string): Answer => ({ status: 404, body: { status: 404, reason: `Not found ${what}` } });
export const nodeNotFound = (what: string): Answer => ({ status: 404, body: { error: 404, reason: 'not-found', detail: `${what} not found` } });
