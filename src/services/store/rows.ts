/**
 * The rows the assistant's store reads, as the drivers hand them back, and the few conversions
 * between them and the port's types: timestamps to Date, ids normalised, list limits clamped,
 * receipt bundles read back in their documented key order.
 */
import { receiptBundleSchema, type ReceiptBundle } from '../../../schemas/receipt.ts';
import type { ReceiptSummary } from '../../../schemas/reputation.ts';
import type { A2aTaskRecord, A2aTaskState, ActivityEvent, StoredA2aTask } from '../../domain/ports.ts';
import type { GateState } from '../../domain/probe-history.ts';
import { inSchemaOrder } from '../../lib/schema-key-order.ts';
import type { Dialect } from './dialect.ts';

/** Lists never read more rows than this, whatever the caller asks. */
const MAX_LIST_LIMIT = 1_000;

export interface QuoteRow {
  quote_id: string;
  task_hash: string;
  question_hash: string;
  price_nano_erg: string;
  receiver_address: string;
  reserve_box_id: string;
  note_expiry_min_height: number;
  min_confirmations: number;
  issued_height: number;
  issued_at: Date | string;
  expires_at: Date | string;
}

export interface ActivityRow {
  kind: ActivityEvent['kind'];
  at: Date | string;
  amount_nano_erg: string | null;
  task_hash: string | null;
  receipt_id: string | null;
}

export interface ProbeResultRow {
  at: Date | string;
  gate: string;
  state: GateState;
  latency_ms: number | null;
}

export interface ReceiptSummaryRow {
  receipt_id: string;
  chain: ReceiptSummary['chain'];
  settlement_tx_id: string;
  payer_address: string | null;
  settled_at: string;
  value_nano_erg: string;
  receiver_address: string;
}

/** The columns of a receipt summary, read from `r` (receipts) as ReceiptSummaryRow names them. */
export function receiptSummaryColumns(dialect: Dialect): string {
  const field = (...path: string[]) => dialect.jsonText('r.bundle', path);
  return `r.receipt_id, r.chain, r.settlement_tx_id, r.payer_address,
          ${field('verification_receipt', 'checkedAt')} AS settled_at,
          ${field('settlement_receipt', 'valueNanoErg')} AS value_nano_erg,
          ${field('agreement', 'receiverAddress')} AS receiver_address`;
}

export const receiptSummaryOf = (row: ReceiptSummaryRow): ReceiptSummary => ({
  receiptId: row.receipt_id,
  chain: row.chain,
  settledAt: row.settled_at,
  settlementTxId: row.settlement_tx_id,
  valueNanoErg: row.value_nano_erg,
  receiverAddress: row.receiver_address,
  payerAddress: row.payer_address,
});

export interface TokenRow {
  used_at: Date | string | null;
  expires_at: Date | string;
  question_hash: string;
}

export const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export const clampLimit = (limit: number): number => Math.min(Math.max(Math.trunc(Number.isFinite(limit) ? limit : 1), 1), MAX_LIST_LIMIT);

/** Ids this service stores are lower-case hex; a lookup given upper-case hex still finds them. */
export const normaliseId = (id: string): string => (/^[0-9a-fA-F]{64}$/.test(id) ? id.toLowerCase() : id);
/**
 * A stored receipt bundle in its documented key order (the receipt id is over canonical JSON, so
 * order never changes it). SQLite gives back the text it stored: a receipt's RFC 8785 text, members
 * sorted (or, stored by an earlier build, already in order), put in the schema's order without
 * being checked again. PostgreSQL's jsonb reorders keys, and the schema's parse puts them back. A
 * bundle stored under an older schema is served as stored.
 */
export function readBundle(dialect: Dialect, text: string): ReceiptBundle {
  const bundle = JSON.parse(text) as ReceiptBundle;
  if (dialect.jsonKeepsText) return inSchemaOrder(receiptBundleSchema, bundle);
  const ordered = receiptBundleSchema.safeParse(bundle);
  return ordered.success ? ordered.data : bundle;
}

export const INSERT_ACTIVITY = 'INSERT INTO activity (kind, at, amount_nano_erg, task_hash, receipt_id) VALUES ($1, $2, $3, $4, $5)';

/** An activity event as the five values of an `activity` row. */
export function activityValues(event: ActivityEvent): unknown[] {
  return [event.kind, event.at.toISOString(), event.amountNanoErg === undefined ? null : event.amountNanoErg.toString(), event.taskHash ?? null, event.receiptId ?? null];
}

export interface A2aTaskRow {
  task_id: string;
  context_id: string;
  quote_id: string;
  state: A2aTaskState;
  retry_key: string;
  record: string;
  expires_at: Date | string;
  created_at: Date | string;
  updated_at: Date | string;
  owner_hash: string | null;
}

/**
 * The columns a task is read with; the record as text, whichever engine stores it, and a canceled
 * task (stored as `failed` with the instant it was canceled, migration 13) as `canceled`.
 */
export const A2A_TASK_COLUMNS =
  "task_id, context_id, quote_id, CASE WHEN canceled_at IS NULL THEN state ELSE 'canceled' END AS state, retry_key, CAST(record AS TEXT) AS record, expires_at, created_at, updated_at, owner_hash";

/** The condition that a task is in `state` as a2aTaskOf reads it: the stored value it compares, and the condition on its parameter `at`. */
export function a2aTaskStateIs(state: A2aTaskState): { value: string; condition: (at: string) => string } {
  if (state === 'canceled') return { value: 'failed', condition: (at) => `(state = ${at} AND canceled_at IS NOT NULL)` };
  if (state === 'failed') return { value: 'failed', condition: (at) => `(state = ${at} AND canceled_at IS NULL)` };
  return { value: state, condition: (at) => `state = ${at}` };
}

export function a2aTaskOf(row: A2aTaskRow): StoredA2aTask {
  return {
    taskId: row.task_id,
    contextId: row.context_id,
    quoteId: row.quote_id,
    state: row.state,
    retryKey: row.retry_key,
    ...(row.owner_hash === null ? {} : { ownerHash: row.owner_hash }),
    record: JSON.parse(row.record) as A2aTaskRecord,
    expiresAt: toDate(row.expires_at),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}
