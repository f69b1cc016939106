/**
 * The full receipt bundle of a paid turn: the agreement (the quote's terms), the verification
 * receipt (every check, and the chain it was read from), the settlement receipt (the Note as found
 * on chain, registers serialized and decoded) and the quote as issued, identified by the blake2b256
 * of its canonical JSON. Built only from a Note that passed every rule; the schema's own invariants
 * are checked here, so a bundle that would contradict itself is never stored.
 */
import type { IssuedPremiumQuote } from '../../../schemas/assistant.ts';
import { receiptBundleSchema, TASK_HASH_DERIVATION, type ChainSource, type ReceiptBundle } from '../../../schemas/receipt.ts';
import type { ChainBox } from '../ports.ts';
import { blake2b256Hex, canonicalJsonWithAndWithout } from '../canonical-hash.ts';
import { rememberLogEntry } from '../receipt-log-entry.ts';
import { deepFreeze } from '../../lib/deep-freeze.ts';
import { computeReceiptId } from '../receipt-id.ts';
import type { NoteCheckResult } from './note-rules.ts';

export const PAID_TURN_DELIVERABLE = 'One premium answer from the hosted assistant to the quoted question.';

export interface ChainEvidence {
  source: ChainSource;
  via: 'explorer_api_v1' | 'node_api';
  /** Base URL of the API the Note was read from. */
  explorer: string;
  /** Height at which the checks ran. */
  height: number;
}

export interface ReceiptBundleInput {
  /** The premium quote body exactly as the quote endpoint issued it. */
  quote: IssuedPremiumQuote;
  noteBox: ChainBox;
  /** The Note rules' outcome; every rule must have passed. */
  noteCheck: NoteCheckResult;
  chain: ChainEvidence;
  checkedAt: Date;
  issuedAt: Date;
  tokenLifetimeSeconds: number;
}

export function buildReceiptBundle({ quote, noteBox, noteCheck, chain, checkedAt, issuedAt, tokenLifetimeSeconds }: ReceiptBundleInput): ReceiptBundle {
  const { registers, confirmations } = noteCheck;
  if (noteCheck.failure || !registers || confirmations === undefined || noteBox.inclusionHeight === undefined) {
    throw new Error(`receipt bundle: the Note did not pass every rule (${noteCheck.failure ?? 'unconfirmed'}); no receipt is built for it`);
  }
  const { R4, R5, R6 } = registers;
  if (R4.status !== 'ok' || R5.status !== 'ok' || R6.status !== 'ok') throw new Error('receipt bundle: a Note register did not decode');

  const withoutId = {
    version: 'v0',
    receipt_type: 'full_receipt_bundle',
    completeness: 'full_receipt_bundle',
    status: 'settled_on_chain',
    chain: chain.source,
    noteBoxId: noteBox.boxId,
    settlementTxId: noteBox.transactionId,
    taskHash: quote.taskHash,
    agreement: {
      quoteId: quote.quoteId,
      taskHash: quote.taskHash,
      price: quote.price,
      priceNanoErg: quote.priceNanoErg,
      receiverAddress: quote.receiverAddress,
      reserveBoxId: quote.reserveBoxId,
      noteExpiryMinHeight: quote.noteExpiryMinHeight,
      minConfirmations: quote.minConfirmations,
      issuedHeight: quote.issuedHeight,
      expiresAt: quote.expiresAt,
      terms: {
        deliverable: PAID_TURN_DELIVERABLE,
        payment_rail: 'accord_v0_note',
        single_use: true,
        payment_token_lifetime_seconds: tokenLifetimeSeconds,
      },
    },
    verification_receipt: {
      noteBoxId: noteBox.boxId,
      checks: [
        { code: 'question_matches_quote', ok: true, detail: 'blake2b256 of the question sent equals that of the quoted question.' },
        ...noteCheck.checks,
      ],
      checkedAt: checkedAt.toISOString(),
      chain: { source: chain.source, via: chain.via, explorer: chain.explorer, height: chain.height },
    },
    settlement_receipt: {
      settlementTxId: noteBox.transactionId,
      noteBoxId: noteBox.boxId,
      valueNanoErg: noteBox.value.toString(),
      creationHeight: noteBox.creationHeight,
      inclusionHeight: noteBox.inclusionHeight,
      confirmations,
      registers: {
        R4: { serializedValue: R4.serializedValue, value: R4.value },
        R5: { serializedValue: R5.serializedValue, value: R5.value },
        R6: { serializedValue: R6.serializedValue, value: R6.value },
      },
    },
    quote_evidence: { quote, task_hash_derivation: TASK_HASH_DERIVATION },
    issued_at: issuedAt.toISOString(),
  };
  const parsed = receiptBundleSchema.safeParse({ receiptId: computeReceiptId(withoutId), ...withoutId });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new Error(`receipt bundle: the bundle contradicts its schema (${issues})`);
  }
  // Parsing drops undeclared keys; the id must hold for exactly what is stored and served. The same
  // canonical members give the receipt log's entry, so the settlement serializes the bundle once more, not twice.
  // A stored fact: nothing may change a bundle after its id and its log entry were computed.
  const bundle = deepFreeze(parsed.data);
  const { whole, without } = canonicalJsonWithAndWithout(bundle, 'receiptId');
  if (blake2b256Hex(without) !== bundle.receiptId) throw new Error('receipt bundle: the quote carries keys its schema does not declare');
  rememberLogEntry(bundle, whole);
  return bundle;
}

