/**
 * Many receipts (`npm run bench:scale`, the scale tests), stored through the store's own API as the paid turn stores
 * them: a premium quote (insertQuote), its receipt bundle built by the service's own builder from a
 * Note that passes every rule (settlePayment, which also appends the receipt log's entry), and the
 * turn's two activity events. Payers follow a long tail (a few busy agents, many occasional ones);
 * settlements are spread over the year before `now`, so the proofs picture has a row per day.
 */
import { ErgoAddress } from '@fleet-sdk/core';
import { SByte, SColl, SInt } from '@fleet-sdk/serializer';
import { randomBytes } from 'node:crypto';
import { premiumQuoteBody } from '../../src/domain/assistant/pricing.ts';
import { checkNote } from '../../src/domain/assistant/note-rules.ts';
import { buildReceiptBundle } from '../../src/domain/assistant/receipt-bundle.ts';
import type { AssistantStore, ChainBox, StoredQuote } from '../../src/domain/ports.ts';
import { RECEIVER, RESERVE } from './paid-turn.ts';

const hex32 = (): string => randomBytes(32).toString('hex');
const DAY_MS = 86_400_000;
/** Settlements stored at once: the store's group commit takes them in a few transactions. */
const IN_FLIGHT = 256;

/** `count` testnet P2PK addresses. */
function payers(count: number): string[] {
  return Array.from({ length: count }, () => ErgoAddress.fromPublicKey(Uint8Array.from([2, ...randomBytes(32)]), 16).encode(16));
}

/** One paid turn's rows, settled at `at`. */
function turn(at: Date): { quote: StoredQuote; box: ChainBox; height: number } {
  const issuedHeight = 1_000_000 + Math.floor(at.getTime() / 120_000) % 1_000_000;
  const quote: StoredQuote = {
    quoteId: `q_${randomBytes(12).toString('base64url')}`,
    taskHash: hex32(),
    questionHash: hex32(),
    priceNanoErg: 10_000_000n,
    receiverAddress: RECEIVER,
    reserveBoxId: RESERVE,
    noteExpiryMinHeight: issuedHeight + 720,
    minConfirmations: 1,
    issuedHeight,
    issuedAt: new Date(at.getTime() - 60_000),
    expiresAt: new Date(at.getTime() + 14 * 60_000),
  };
  const box: ChainBox = {
    boxId: hex32(),
    transactionId: hex32(),
    value: quote.priceNanoErg,
    ergoTree: ErgoAddress.decode(RECEIVER).ergoTree,
    address: RECEIVER,
    creationHeight: issuedHeight + 1,
    inclusionHeight: issuedHeight + 2,
    registers: { R4: SColl(SByte, quote.reserveBoxId).toHex(), R5: SInt(quote.noteExpiryMinHeight).toHex(), R6: SColl(SByte, quote.taskHash).toHex() },
  };
  return { quote, box, height: issuedHeight + 3 };
}

async function settle(store: AssistantStore, payer: string, at: Date): Promise<void> {
  const { quote, box, height } = turn(at);
  await store.insertQuote(quote);
  const noteCheck = checkNote(quote, box, height, false, 30);
  const receipt = buildReceiptBundle({
    quote: premiumQuoteBody(quote),
    noteBox: box,
    noteCheck,
    chain: { source: 'testnet', via: 'explorer_api_v1', explorer: 'https://api-testnet.ergoplatform.com', height },
    checkedAt: at,
    issuedAt: at,
    tokenLifetimeSeconds: 1_800,
  });
  await store.settlePayment({ quoteId: quote.quoteId, noteBoxId: box.boxId, receipt, tokenHash: hex32(), tokenExpiresAt: new Date(at.getTime() + 1_800_000), questionHash: quote.questionHash, payerAddress: payer, retryKeyHash: null });
  await store.recordActivity({ kind: 'payment_verified', at, amountNanoErg: box.value, taskHash: quote.taskHash, receiptId: receipt.receiptId });
  await store.recordActivity({ kind: 'turn_answered', at, taskHash: quote.taskHash, receiptId: receipt.receiptId });
}

export interface SeedOptions {
  /** Called now and then with how many are stored. */
  progress?: (stored: number) => void;
  now?: Date;
}

/**
 * Stores `count` paid turns in `store`, oldest first, spread over the year before `now`, from
 * `count / 20` payers (at least one) picked along a long tail.
 */
export async function seedReceipts(store: AssistantStore, count: number, { progress, now = new Date() }: SeedOptions = {}): Promise<void> {
  const agents = payers(Math.max(1, Math.floor(count / 20)));
  const first = now.getTime() - 365 * DAY_MS;
  for (let start = 0; start < count; start += IN_FLIGHT) {
    const batch: Promise<void>[] = [];
    for (let index = start; index < Math.min(count, start + IN_FLIGHT); index++) {
      const payer = agents[Math.floor(agents.length * Math.random() ** 3)]!;
      batch.push(settle(store, payer, new Date(first + Math.floor((index / count) * 365 * DAY_MS))));
    }
    await Promise.all(batch);
    progress?.(Math.min(count, start + IN_FLIGHT));
  }
}
