/**
 * A full receipt bundle, valid against the published receipt schema and identified by its real
 * receipt id, for pages that show one; its Note checks are the ones the Note rules write (hashes and
 * an ErgoTree in their words, as a real receipt has them), and beside it what the receipt page reads
 * next: a receipt log proof that includes it and the proof explorer's re-verification.
 */
import { ErgoAddress } from '@fleet-sdk/core';
import { SByte, SColl, SInt } from '@fleet-sdk/serializer';
import type { ProofExplorer } from '../../schemas/live.ts';
import { receiptBundleSchema, type ReceiptBundle } from '../../schemas/receipt.ts';
import { typeName } from '../../src/config/site.ts';
import { checkNote } from '../../src/domain/assistant/note-rules.ts';
import { blake2b256Hex, canonicalJson } from '../../src/domain/canonical-hash.ts';
import type { ChainBox } from '../../src/domain/ports.ts';
import { receiptOfflineChecks, settlementCheck } from '../../src/domain/receipt-proof.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';
import { formatCheckpoint, formatVerifierKey, generateNoteKey, signCheckpoint } from '../../src/domain/tlog/note.ts';
import { formatTlogProof } from '../../src/domain/tlog/tlog-proof.ts';
import { leafHash, nodeHash } from '../../src/domain/tlog/tree.ts';

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
  const noteCheck = checkNote(
    { ...quote, priceNanoErg: BigInt(quote.priceNanoErg) },
    noteBoxOf({ noteBoxId, settlementTxId, receiverAddress: quote.receiverAddress, registers: { R4: collBytes(reserveBoxId), R5: SInt(1100).toHex(), R6: collBytes(taskHash) } }),
    1003,
    false,
    0,
  );
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
      checks: [{ code: 'question_matches_quote', ok: true, detail: 'blake2b256 of the question sent equals that of the quoted question.' }, ...noteCheck.checks],
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

/** The Note box of the fixture as a chain source reports it: 0.01 ERG to the quote's receiver, created at 1001, included at 1002. */
function noteBoxOf({ noteBoxId, settlementTxId, receiverAddress, registers }: { noteBoxId: string; settlementTxId: string; receiverAddress: string; registers: ChainBox['registers'] }): ChainBox {
  return {
    boxId: noteBoxId,
    transactionId: settlementTxId,
    value: 10_000_000n,
    ergoTree: ErgoAddress.decode(receiverAddress).ergoTree,
    address: receiverAddress,
    creationHeight: 1001,
    inclusionHeight: 1002,
    registers,
  };
}

/**
 * A receipt log of two entries, `bundle` first, and the c2sp.org/tlog-proof of its inclusion with the
 * verifier key its checkpoint is signed by (a fresh key named as the log's origin): what the receipt
 * page reads from the proof and key routes, valid for the page's WebCrypto check.
 */
export function fixtureLogProof(bundle: ReceiptBundle): { proofText: string; verifierKey: string } {
  const origin = '127.0.0.1/fixture/receipts';
  const key = generateNoteKey();
  const [first, second] = [canonicalJson(bundle), 'the next receipt'].map((entry) => leafHash(new TextEncoder().encode(entry)));
  const checkpoint = signCheckpoint(formatCheckpoint({ origin, size: 2, root: nodeHash(first!, second!) }), key.privateKey, origin);
  return { proofText: formatTlogProof({ index: 0, proof: [second!], checkpoint }), verifierKey: formatVerifierKey(origin, key.publicKey) };
}

/** The proof explorer's entry for `bundle`: the offline checks and the settlement re-checked against the same Note box, as /api/agent-economy/proofs lists it. */
export function fixtureProof(bundle: ReceiptBundle): ProofExplorer['sandbox_receipts'][number] {
  const box = noteBoxOf({
    noteBoxId: bundle.noteBoxId,
    settlementTxId: bundle.settlementTxId,
    receiverAddress: bundle.agreement.receiverAddress,
    registers: Object.fromEntries((['R4', 'R5', 'R6'] as const).map((register) => [register, bundle.settlement_receipt.registers[register].serializedValue])),
  });
  return {
    id: bundle.receiptId,
    kind: 'sandbox_receipt',
    subject: `Paid assistant turn settled by Note ${bundle.noteBoxId} in transaction ${bundle.settlementTxId} on the ${bundle.chain} chain.`,
    checks: [...receiptOfflineChecks(JSON.stringify(bundle)), settlementCheck(bundle, box, { name: bundle.chain, explorerUrl: bundle.verification_receipt.chain.explorer })],
    verified_at: bundle.issued_at,
    links: {},
    log_index: 0,
  };
}
