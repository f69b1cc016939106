/**
 * The rows the assistant's store reads, as the drivers hand them back, and the few conversions
 * between them and the port's types: timestamps to Date, ids normalised, list limits clamped,
 * receipt bundles read back in their documented key order.
 */
import { receiptBundleSchema, type ReceiptBundle } from '../../../schemas/receipt.ts';
import type { ReceiptSummary } from '../../../schemas/reputation.ts';
import { type ActivityEvent } from '../../domain/ports.ts';
import type { GateState } from '../../domain/probe-history.ts';
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
 * A stored receipt bundle in its documented key order. SQLite gives back the text it stored, already
 * in that order; PostgreSQL's jsonb reorders keys, so the schema puts them back (the receipt id is
 * over canonical JSON, so order never changes it). A bundle stored under an older schema is served as stored.
 */
export function readBundle(dialect: Dialect, text: string): ReceiptBundle {
  const bundle = JSON.parse(text) as ReceiptBundle;
  if (dialect.jsonKeepsText) return bundle;
  const ordered = receiptBundleSchema.safeParse(bundle);
  return ordered.success ? ordered.data : bundle;
}

export const INSERT_ACTIVITY = 'INSERT INTO activity (kind, at, amount_nano_erg, task_hash, receipt_id) VALUES ($1, $2, $3, $4, $5)';

/** An activity event as the five values of an `activity` row. */
export function activityValues(event: ActivityEvent): unknown[] {
  return [event.kind, event.at.toISOString(), event.amountNanoErg === undefined ? null : event.amountNanoErg.toString(), event.taskHash ?? null, event.receiptId ?? null];
}
