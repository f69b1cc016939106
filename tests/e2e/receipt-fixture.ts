/** A full receipt bundle, valid against the published receipt schema and identified by its real receipt id, for pages that show one. */
import { SByte, SColl, SInt } from '@fleet-sdk/serializer';
import { receiptBundleSchema, type ReceiptBundle } from '../../schemas/receipt.ts';
import { typeName } from '../../src/config/site.ts';
import { blake2b256Hex } from '../../src/domain/canonical-hash.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';

const hexOf = (label: string) => blake2b256Hex(label);
const collBytes = (hex: string) => SColl(SByte, Buffer.from(hex, 'hex')).toHex();

export function fixtureBundle(): ReceiptBundle {
  const taskHash = hexOf('task');
  const reserveBoxId = hexOf('reserve');
  const noteBoxId = hexOf('note');
  const settlementTxId = hexOf('tx');
  const quote = {
    type: typeName('agent_economy.assistant_quote.v0'),
    version: 'v0',
    tier: 'premium' as const,
    quoteId: 'q_fixture_0001',
    taskHash,
    price: '0.010000000',
    priceNanoErg: '10000000',
    receiverAddress: '3WvopqY4wWMLA248gTt9f3knuRDqDJJMB5NewqgRCaohrPcRygfw',
    reserveBoxId,
    noteExpiryMinHeight: 1100,
    minConfirmations: 1,
    issuedHeight: 1000,
    expiresAt: '2026-11-23T12:10:00.000Z',
    noteRequirements: {
      R4: { type: 'Coll[Byte]' as const, meaning: 'Reserve box id.', value: reserveBoxId },
      R5: { type: 'Int' as const, meaning: 'Expiry height.', value: 1100 },
      R6: { type: 'Coll[Byte]' as const, meaning: 'Task hash.', value: taskHash },
    },
  };
  const checkCodes = ['question_matches_quote', 'note_found', 'note_confirmed', 'note_not_expired', 'reserve_matches', 'task_hash_present', 'task_hash_matches', 'pays_receiver', 'value_covers_price', 'created_after_quote', 'note_unused'];
  const withoutId = {
    version: 'v0' as const,
    receipt_type: 'full_receipt_bundle' as const,
    completeness: 'full_receipt_bundle' as const,
    status: 'settled_on_chain' as const,
    chain: 'sandbox' as const,
    noteBoxId,
    settlementTxId,
    taskHash,
    agreement: {
      quoteId: quote.quoteId,
      taskHash,
      price: quote.price,
      priceNanoErg: quote.priceNanoErg,
      receiverAddress: quote.receiverAddress,
      reserveBoxId,
      noteExpiryMinHeight: 1100,
      minConfirmations: 1,
      issuedHeight: 1000,
      expiresAt: quote.expiresAt,
      terms: { deliverable: 'One premium answer from the hosted assistant to the quoted question.', payment_rail: 'accord_v0_note' as const, single_use: true as const, payment_token_lifetime_seconds: 900 },
    },
    verification_receipt: {
      noteBoxId,
      checks: checkCodes.map((code) => ({ code, ok: true, detail: `${code} held for the fixture Note.` })),
      checkedAt: '2026-11-23T12:05:00.000Z',
      chain: { source: 'sandbox' as const, via: 'explorer_api_v1' as const, explorer: 'http://127.0.0.1:4323', height: 1003 },
    },
    settlement_receipt: {
      settlementTxId,
      noteBoxId,
      valueNanoErg: '10000000',
      creationHeight: 1001,
      inclusionHeight: 1002,
      confirmations: 2,
      registers: {
        R4: { serializedValue: collBytes(reserveBoxId), value: reserveBoxId },
        R5: { serializedValue: SInt(1100).toHex(), value: 1100 },
        R6: { serializedValue: collBytes(taskHash), value: taskHash },
      },
    },
    quote_evidence: { quote, task_hash_derivation: 'blake2b256(rfc8785({quoteId, question, history}))' as const },
    issued_at: '2026-11-23T12:05:01.000Z',
  };
  const bundle = { receiptId: computeReceiptId(withoutId), ...withoutId };
  return receiptBundleSchema.parse(bundle);
}
