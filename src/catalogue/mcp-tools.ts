/**
 * The MCP tools as data: name, words, argument schema, the HTTP route giving the same result, and
 * what each may change. The economic MCP tools manifest (`/api/agents/mcp-tools`) is built from
 * this list and the MCP server (src/mcp/tools.ts) binds a run function to each name, so the two
 * cannot drift. Every argument schema comes from `schemas/`.
 */
import type { z } from 'zod';
import {
  askAssistantArgumentsSchema,
  devToolArgumentsSchema,
  getJobArgumentsSchema,
  getReceiptArgumentsSchema,
  checkReceiptInclusionArgumentsSchema,
  listJobsArgumentsSchema,
  listServicesArgumentsSchema,
  liveStatusArgumentsSchema,
  searchDocsArgumentsSchema,
} from '../../schemas/mcp-tools.ts';
import { DEV_TOOL_ACTIONS, type DevToolAction } from '../../schemas/dev-tools.ts';
import { jobAcceptanceIntentSchema, jobQuoteRequestSchema } from '../../schemas/job-validations.ts';
import { serviceManifestSchema } from '../../schemas/registry.ts';
import { policyCheckRequestSchema } from '../../schemas/policy-check.ts';

export interface McpToolEntry {
  name: string;
  title: string;
  description: string;
  /** zod schema of the arguments (from `schemas/`); the SDK validates calls and lists it as JSON Schema. */
  input: z.ZodObject;
  /** Route id whose request body `input` is, so the manifest can also link its published JSON Schema. */
  requestOf?: string;
  /** The HTTP endpoint giving an agent without MCP the same result; null when none exists. */
  backedBy: { route: string; fixedFields?: Record<string, string>; note?: string } | null;
  /** True when the tool changes no state anywhere (MCP `readOnlyHint`). */
  readOnly: boolean;
  payment: 'free' | 'testnet_note';
}

/** Validation results answer 200 or 400 over HTTP with the same body; as a tool both are results. */
const validationNote = (what: string) => `Both 200 and 400 answers carry the ${what} and are returned as the tool result.`;

const DEV_TOOL_TEXT: Record<DevToolAction, { title: string; description: string }> = {
  hash: { title: 'blake2b256 hash', description: 'blake2b256 digest of UTF-8 text or hex bytes, the hash Ergo uses for ids and task hashes.' },
  address: {
    title: 'Decode an Ergo address',
    description: 'Decodes a base58 Ergo address: network, type (P2PK, P2SH, P2S), the ErgoTree it stands for and its public key or script hash.',
  },
  box: {
    title: 'Inspect a box',
    description: 'Parses a box (node/explorer JSON or serialized hex), recomputes its id and decodes value, ErgoTree, address, tokens and registers.',
  },
  tx: {
    title: 'Inspect a transaction',
    description: 'Parses a transaction (JSON or serialized hex), recomputes its id and its outputs’ box ids, and lists inputs, data inputs, outputs and the fee.',
  },
  receipt: {
    title: 'Check that a receipt bundle agrees with itself',
    description:
      'Checks a full receipt bundle given as JSON text, offline, against itself: its shape, the receipt id recomputed, every agreement between its parts, the serialized registers, the Note binding, amount and confirmations. It reads no chain, so it does not show that the payment happened; `agent-economy verify-receipt` re-reads the Note from a testnet explorer. get_receipt fetches a stored bundle by id.',
  },
};

/** The name of the tool running one developer-tool action. */
export const devToolName = (action: DevToolAction): string => `dev_${action}`;

function devToolEntry(action: DevToolAction): McpToolEntry {
  return {
    name: devToolName(action),
    ...DEV_TOOL_TEXT[action],
    input: devToolArgumentsSchema(action),
    backedBy: { route: 'dev-tools', fixedFields: { action } },
    readOnly: true,
    payment: 'free',
  };
}

export const MCP_TOOL_ENTRIES: readonly McpToolEntry[] = [
  {
    name: 'search_docs',
    title: 'Search the site’s pages',
    description: 'Full-text search over the human pages and descriptors of this site; returns titles, URLs and the matching excerpt of each page.',
    input: searchDocsArgumentsSchema,
    backedBy: null,
    readOnly: true,
    payment: 'free',
  },
  {
    name: 'list_jobs',
    title: 'List jobs',
    description: 'Jobs of the board with testnet rewards, required capabilities, acceptance predicates, receipt requirements and deadlines, optionally filtered by status and capability.',
    input: listJobsArgumentsSchema,
    backedBy: { route: 'jobs', note: 'The board lists every job; the tool filters jobs[] by status and required_capabilities.' },
    readOnly: true,
    payment: 'free',
  },
  {
    name: 'get_job',
    title: 'Get one job',
    description: 'One job of the board by id, with its reward, acceptance predicates, receipt requirements and deadline.',
    input: getJobArgumentsSchema,
    backedBy: { route: 'jobs', note: 'The board lists every job; the tool selects jobs[] by id, and an unknown id is a tool error.' },
    readOnly: true,
    payment: 'free',
  },
  {
    name: 'list_services',
    title: 'List registry services',
    description: 'Services of the registry with capabilities, pricing, accepted payment rails, predicate requirements, evidence and posture, optionally filtered by capability.',
    input: listServicesArgumentsSchema,
    backedBy: { route: 'registry', note: 'The registry lists every service; the tool filters services[] by capabilities.' },
    readOnly: true,
    payment: 'free',
  },
  {
    name: 'policy_check',
    title: 'Check a wallet action against a policy',
    description:
      'Deterministic allow or deny verdict on a proposed testnet wallet action against a policy profile, every failing check named. Run it before the host wallet signs; an allow is advice, not authority.',
    input: policyCheckRequestSchema,
    requestOf: 'policy-check',
    backedBy: { route: 'policy-check' },
    readOnly: true,
    payment: 'free',
  },
  {
    name: 'validate_service_manifest',
    title: 'Validate a service manifest',
    description:
      'Runs the publish validation on a service manifest and returns the result with errors, warnings and next steps. Accepted manifests go to operator review; nothing is published.',
    input: serviceManifestSchema,
    requestOf: 'publish',
    backedBy: { route: 'publish', note: validationNote('validation result') },
    readOnly: true,
    payment: 'free',
  },
  {
    name: 'validate_job_acceptance',
    title: 'Validate a job acceptance intent',
    description: 'Runs the acceptance validation on an intent for an open job. Accepted intents go to operator review; no job is assigned.',
    input: jobAcceptanceIntentSchema,
    requestOf: 'jobs-accept',
    backedBy: { route: 'jobs-accept', note: validationNote('acceptance result') },
    readOnly: true,
    payment: 'free',
  },
  {
    name: 'validate_job_quote',
    title: 'Build a job quote scaffold',
    description:
      'Runs the quote validation and, when every check passes, returns the agreement draft and the settlement handoff. No work is assigned and no value is held.',
    input: jobQuoteRequestSchema,
    requestOf: 'jobs-quote',
    backedBy: { route: 'jobs-quote', note: validationNote('quote result') },
    readOnly: true,
    payment: 'free',
  },
  ...DEV_TOOL_ACTIONS.map(devToolEntry),
  {
    name: 'get_receipt',
    title: 'Fetch a receipt',
    description: 'A stored receipt by receipt id or settlement transaction id; paid turns return the full receipt bundle.',
    input: getReceiptArgumentsSchema,
    backedBy: { route: 'assistant-receipt', note: 'The id goes into the path; an unknown id (404) is a tool error naming the id.' },
    readOnly: true,
    payment: 'free',
  },
  {
    name: 'check_receipt_inclusion',
    title: 'Prove a receipt is in the receipt log',
    description:
      'Verifies that a stored receipt is in the receipt transparency log: its tlog-proof (the site\'s current one, or one you pass) against the log\'s verifier key (the Ed25519 signature and origin of its checkpoint), and the receipt\'s own canonical JSON folded to the signed root. Answers the index, the tree size and root and each step; `pending` when no checkpoint includes it yet.',
    input: checkReceiptInclusionArgumentsSchema,
    backedBy: { route: 'assistant-receipt-proof', note: 'The HTTP route serves the proof text; agent-economy verify-receipt checks it the same way offline.' },
    readOnly: true,
    payment: 'free',
  },
  {
    name: 'ask_assistant',
    title: 'Ask the hosted assistant',
    description:
      'Asks the hosted assistant one question. A free-tier question is answered directly; a premium question needs the payment token issued by verify-payment after a testnet Note payment, ' +
      'or an x402 payment in `_meta["x402/payment"]`. Without either, the result is an error whose structured content is x402\'s PaymentRequired (a stored premium quote); a paid answer carries `_meta["x402/payment-response"]`.',
    input: askAssistantArgumentsSchema,
    backedBy: {
      route: 'assistant-chat',
      note: 'Sends messages [...history, {role: user, content: question}] with paymentToken when given, and `_meta["x402/payment"]` as the PAYMENT-SIGNATURE; where chat answers 402 with PAYMENT-REQUIRED, the tool answers that PaymentRequired.',
    },
    readOnly: false,
    payment: 'testnet_note',
  },
  {
    name: 'live_status',
    title: 'Live status',
    description:
      'Probe results of every dependency (assistant, receipt storage, chain source, MCP host, signer, rate limiter, wallet-agent surfaces), the mainnet gate status and the latest full receipt id.',
    input: liveStatusArgumentsSchema,
    backedBy: { route: 'live' },
    readOnly: true,
    payment: 'free',
  },
];
