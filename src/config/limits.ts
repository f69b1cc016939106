/**
 * Fixed limits that the contract documents and the services apply: the route catalogue quotes them
 * in its descriptions, the services enforce them, so each is written once, here.
 */

/** Time each live-status probe gets, and how long probe results are shared. */
export const PROBE_TIMEOUT_MS = 1500;
export const PROBE_CACHE_SECONDS = 5;
/** Live status keeps at most one probe run a minute in the store, and the newest PROBE_HISTORY_RUNS of them (a day at most). */
export const PROBE_HISTORY_INTERVAL_SECONDS = 60;
export const PROBE_HISTORY_RUNS = 1440;
/** Days the proof explorer's receipt timeline draws, ending today (UTC). */
export const RECEIPT_TIMELINE_DAYS = 30;

/** Stored receipts listed by the proof explorer, newest first; older ones stay fetchable by id but leave the board. */
export const PROOF_RECEIPT_LIMIT = 200;
/** Time all chain reads of one proof-explorer answer share, so the endpoint answers promptly when the chain hangs. */
export const PROOF_CHAIN_BUDGET_MS = 4000;
export const PROOFS_CACHE_SECONDS = 5;
/** How long a page of the reputation graph (or of a subject's receipts) is shared by the requests for it; checkpoints come every 5 s. */
export const REPUTATION_CACHE_SECONDS = 2;

/** Signer probe results are reused this long, so public readers cannot turn into a flood of probes. */
export const SIGNER_HEALTH_CACHE_MS = 5000;

/** Events shown by the assistant's activity feed, newest first. */
export const ACTIVITY_LIMIT = 50;

/** Documented limit for every POST body (the contract's largest legitimate body is a few KiB). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The largest JSON answer of any route, whatever the store holds (issue 38: every public answer is
 * bounded; `npm run bench:scale` measures the store-derived ones at a million receipts). The
 * OpenAPI document states it as the bound of every string and array it does not bound more tightly.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;
