/**
 * Realistic rows for the store suite: a stored premium quote and a receipt bundle that passes the
 * published receipt schema, so the store is shown to round-trip exactly what the service writes.
 */
import { SByte, SColl, SInt } from '@fleet-sdk/serializer';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { receiptBundleSchema, TASK_HASH_DERIVATION, VERIFICATION_CHECKS, type ReceiptBundle } from '../../schemas/receipt.ts';
import { premiumQuoteBody } from '../../src/domain/assistant/pricing.ts';
import type { AssistantStore, StoredQuote } from '../../src/domain/ports.ts';
import { createStore } from '../../src/services/store/index.ts';
import { SQLITE_FILE_NAME } from '../../src/services/store/sqlite-database.ts';

export const hex32 = (): string => randomBytes(32).toString('hex');

const RECEIVER = '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt';

export function makeQuote(overrides: Partial<StoredQuote> = {}): StoredQuote {
  const quoteId = overrides.quoteId ?? `q_${randomBytes(12).toString('base64url')}`;
  const taskHash = overrides.taskHash ?? hex32();
  const reserveBoxId = overrides.reserveBoxId ?? hex32();
  const priceNanoErg = overrides.priceNanoErg ?? 10_000_000n;
  const issuedHeight = overrides.issuedHeight ?? 1_000;
  const noteExpiryMinHeight = overrides.noteExpiryMinHeight ?? issuedHeight + 720;
  const minConfirmations = overrides.minConfirmations ?? 1;
  const issuedAt = overrides.issuedAt ?? new Date('2026-01-02T03:04:05.678Z');
  const expiresAt = overrides.expiresAt ?? new Date(issuedAt.getTime() + 15 * 60_000);
  return {
    quoteId,
    taskHash,
    questionHash: overrides.questionHash ?? hex32(),
    priceNanoErg,
    receiverAddress: RECEIVER,
    reserveBoxId,
    noteExpiryMinHeight,
    minConfirmations,
    issuedHeight,
    issuedAt,
    expiresAt,
  };
}

export function makeReceipt(quote: StoredQuote, noteBoxId: string, options: { settlementTxId?: string; chain?: 'testnet' | 'sandbox' } = {}): ReceiptBundle {
  const settlementTxId = options.settlementTxId ?? hex32();
  const chain = options.chain ?? 'sandbox';
  const premium = premiumQuoteBody(quote);
  return receiptBundleSchema.parse({
    receiptId: hex32(),
    version: 'v0',
    receipt_type: 'full_receipt_bundle',
    completeness: 'full_receipt_bundle',
    status: 'settled_on_chain',
    chain,
    noteBoxId,
    settlementTxId,
    taskHash: quote.taskHash,
    agreement: {
      quoteId: quote.quoteId,
      taskHash: quote.taskHash,
      price: premium.price,
      priceNanoErg: premium.priceNanoErg,
      receiverAddress: quote.receiverAddress,
      reserveBoxId: quote.reserveBoxId,
      noteExpiryMinHeight: quote.noteExpiryMinHeight,
      minConfirmations: quote.minConfirmations,
      issuedHeight: quote.issuedHeight,
      expiresAt: quote.expiresAt.toISOString(),
      terms: { deliverable: 'one premium answer', payment_rail: 'accord_v0_note', single_use: true, payment_token_lifetime_seconds: 1800 },
    },
    verification_receipt: {
      noteBoxId,
      checks: VERIFICATION_CHECKS.map((code) => ({ code, ok: true, detail: `${code} passed` })),
      checkedAt: '2026-01-02T03:10:00.000Z',
      chain: { source: chain, via: 'explorer_api_v1', explorer: 'http://127.0.0.1:4323', height: quote.issuedHeight + 3 },
    },
    settlement_receipt: {
      settlementTxId,
      noteBoxId,
      valueNanoErg: premium.priceNanoErg,
      creationHeight: quote.issuedHeight + 1,
      inclusionHeight: quote.issuedHeight + 2,
      confirmations: 2,
      registers: {
        R4: { serializedValue: SColl(SByte, quote.reserveBoxId).toHex(), value: quote.reserveBoxId },
        R5: { serializedValue: SInt(quote.noteExpiryMinHeight).toHex(), value: quote.noteExpiryMinHeight },
        R6: { serializedValue: SColl(SByte, quote.taskHash).toHex(), value: quote.taskHash },
      },
    },
    quote_evidence: { quote: premium, task_hash_derivation: TASK_HASH_DERIVATION },
    issued_at: '2026-01-02T03:10:00.000Z',
  });
}

/** One paid turn stored as the service stores it (a fresh quote, its receipt, no payer): the receipt. */
export async function settleTurn(store: AssistantStore): Promise<ReceiptBundle> {
  const quote = makeQuote();
  await store.insertQuote(quote);
  const noteBoxId = hex32();
  const receipt = makeReceipt(quote, noteBoxId);
  await store.settlePayment({ quoteId: quote.quoteId, noteBoxId, receipt, tokenHash: hex32(), tokenExpiresAt: new Date(Date.now() + 60_000), questionHash: quote.questionHash, payerAddress: null, retryKeyHash: null });
  return receipt;
}

/** The newest migration a store records, in either ledger (migrations.ts says which goes where). */
export const NEWEST_RECORDED_VERSION = 'SELECT max(version) AS version FROM (SELECT version FROM schema_migrations UNION ALL SELECT version FROM schema_expansions)';

/**
 * An embedded store in `dataDir` as a newer build would leave it after a contraction this build does
 * not know: migrated, then one more version recorded where contractions are.
 */
export async function storeFromNewerBuild(dataDir: string, version: number): Promise<void> {
  const store = createStore({ driver: 'sqlite', dataDir, statementTimeoutMs: 2_000, connectTimeoutMs: 2_000 });
  await store.ready();
  await store.close();
  const file = new DatabaseSync(join(dataDir, SQLITE_FILE_NAME));
  file.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(version, 'from a newer build');
  file.close();
}
