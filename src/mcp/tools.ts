/**
 * The MCP tools the server registers: each tool of the catalogue (src/catalogue/mcp-tools.ts) bound
 * to its `run`, which calls the same domain or service function as the HTTP endpoint named in
 * `backedBy`, in process: no tool makes an HTTP round trip to this site, and no tool signs,
 * broadcasts or holds a key.
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
import { DEV_TOOL_ACTIONS, devToolRequestSchema, type DevToolAction } from '../../schemas/dev-tools.ts';
import { devToolName, MCP_TOOL_ENTRIES, type McpToolEntry } from '../catalogue/mcp-tools.ts';
import { jobAcceptanceIntentSchema, jobQuoteRequestSchema } from '../../schemas/job-validations.ts';
import type { LiveStatus } from '../../schemas/live.ts';
import { serviceManifestSchema } from '../../schemas/registry.ts';
import { policyCheckRequestSchema } from '../../schemas/policy-check.ts';
import { acceptanceValidation, boardJobs, quoteValidation } from '../descriptors/jobs.ts';
import { publishValidation, registryEntries } from '../descriptors/registry.ts';
import { runDevTool } from '../domain/dev-tools.ts';
import { InspectionInputError } from '../domain/ergo/inspection-error.ts';
import { checkPolicy } from '../domain/policy-engine.ts';
import { bodyValue, type ApiRequest, type Handler } from '../lib/api.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { createChatHandler } from '../routes/assistant/chat.ts';
import type { AssistantDeps } from '../services/paid-turn/deps.ts';
import type { X402PaymentRequired, X402SettleResponse } from '../../schemas/x402.ts';
import { decodeX402Header, encodeX402Header } from '../domain/assistant/x402.ts';
import { createReceiptHandler } from '../routes/assistant/records.ts';
import { receiptProofUrl, routePath } from '../catalogue/lookup.ts';
import { searchDocs } from '../services/docs-index.ts';
import { logger } from '../services/logger.ts';
import type { ReceiptLog } from '../services/receipt-log.ts';
import { StoreUnavailableError } from '../domain/ports.ts';
import { LOG_INCLUSION_CHECK } from '../domain/tlog/audit.ts';
import { checkReceiptProof, type WitnessPolicy } from '../domain/tlog/receipt-proof-check.ts';
import { parseCosignerKey } from '../domain/tlog/cosignature.ts';

/**
 * The outside parts tools use, handed in by the server so that each process decides what it may
 * open (a standalone MCP host must not open the site's embedded store) and tests hand in fakes.
 */
export interface ToolServices {
  /** The assistant's store, chain client, limiter, model provider, clock and paid-turn terms. */
  assistant: () => Promise<AssistantDeps>;
  liveStatus: () => Promise<LiveStatus>;
  /** The receipt transparency log (its key, origin and proofs). */
  receiptLog: () => Promise<Pick<ReceiptLog, 'verifierKey' | 'origin' | 'proofOf' | 'checkpoint'>>;
}

/**
 * A failure the caller can act on (unknown id, payment needed, a dependency down). The server
 * returns it as an MCP tool error with its code and the field it concerns; it never ends the session.
 */
export class ToolError extends Error {
  readonly code: string;
  readonly field: string | undefined;

  constructor(code: string, message: string, field?: string) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.field = field;
  }
}

/** What a tool knows about its caller. */
export interface ToolContext {
  /** The MCP client's network address: the per-client key of rate limits and the free tier, as over HTTP. */
  clientIp: string;
  now: () => Date;
  services: ToolServices;
  /** x402 over MCP: the PaymentPayload in the call's `_meta["x402/payment"]`, when the caller sent one. */
  payment?: unknown;
}

/**
 * x402 over MCP, the tool's side: payment is required, and this PaymentRequired (the same as the
 * chat's PAYMENT-REQUIRED header) says how; the server answers it as an error result carrying it.
 */
export class PaymentRequiredToolError extends ToolError {
  readonly paymentRequired: X402PaymentRequired;

  constructor(paymentRequired: X402PaymentRequired, message: string) {
    super('payment_required', message);
    this.name = 'PaymentRequiredToolError';
    this.paymentRequired = paymentRequired;
  }
}

/** A paid tool's result with its x402 settlement, which the server puts in the result's `_meta`. */
export class SettledToolResult {
  readonly result: Record<string, unknown>;
  readonly settlement: X402SettleResponse;

  constructor(result: Record<string, unknown>, settlement: X402SettleResponse) {
    this.result = result;
    this.settlement = settlement;
  }
}

/** What a tool answers: its result, or a paid result with its settlement. */
type ToolOutcome = Record<string, unknown> | SettledToolResult;

export interface McpToolDefinition extends McpToolEntry {
  run: (args: unknown, context: ToolContext) => Promise<ToolOutcome>;
}

type Runner = McpToolDefinition['run'];

/** A run function typed by the tool's own argument schema (the SDK has validated the arguments against it). */
function runner<S extends z.ZodObject>(_input: S, run: (args: z.output<S>, context: ToolContext) => Promise<ToolOutcome> | ToolOutcome): Runner {
  return async (args, context) => run(args as z.output<S>, context);
}

/** What each tool of the catalogue (src/catalogue/mcp-tools.ts) runs, by name. */
const RUNNERS: Readonly<Record<string, Runner>> = {
  search_docs: runner(searchDocsArgumentsSchema, ({ query, limit }) => ({ query, results: searchDocs(query, limit) })),
  list_jobs: runner(listJobsArgumentsSchema, ({ status, capability }) => {
    const jobs = boardJobs().filter((job) => (!status || job.status === status) && (!capability || job.required_capabilities.includes(capability)));
    return { count: jobs.length, jobs };
  }),
  get_job: runner(getJobArgumentsSchema, ({ job_id }) => {
    const job = boardJobs().find((candidate) => candidate.id === job_id);
    if (!job) throw new ToolError('job_not_found', `job_id: no job "${job_id}" on the board; list_jobs shows the ids.`, 'job_id');
    return { job };
  }),
  list_services: runner(listServicesArgumentsSchema, ({ capability }) => {
    const services = registryEntries().filter((service) => !capability || service.capabilities.includes(capability));
    return { count: services.length, services };
  }),
  policy_check: runner(policyCheckRequestSchema, (request, context) => checkPolicy(request, context.now())),
  validate_service_manifest: runner(serviceManifestSchema, (manifest, context) => publishValidation(manifest, context.now())),
  validate_job_acceptance: runner(jobAcceptanceIntentSchema, (intent, context) => acceptanceValidation(intent, context.now())),
  validate_job_quote: runner(jobQuoteRequestSchema, (request, context) => quoteValidation(request, context.now())),
  ...Object.fromEntries(DEV_TOOL_ACTIONS.map((action) => [devToolName(action), runner(devToolArgumentsSchema(action), (args) => runDevToolAction(action, args))])),
  get_receipt: runner(getReceiptArgumentsSchema, async ({ id }, context) => (await callHandler(createReceiptHandler(await context.services.assistant()), 'assistant-receipt', context, { params: { id } })).body),
  check_receipt_inclusion: runner(checkReceiptInclusionArgumentsSchema, (args, context) => checkReceiptInclusion(args, context)),
  ask_assistant: runner(askAssistantArgumentsSchema, (args, context) => askAssistant(args, context)),
  live_status: runner(liveStatusArgumentsSchema, (_args, context) => context.services.liveStatus()),
};

/** The tools the MCP server registers: each catalogue entry with its run function; an entry without one, or a runner without an entry, fails at load. */
export const MCP_TOOLS: readonly McpToolDefinition[] = MCP_TOOL_ENTRIES.map((entry) => {
  const run = RUNNERS[entry.name];
  if (!run) throw new Error(`MCP tools: "${entry.name}" has no run function`);
  return { ...entry, run };
});
const unbound = Object.keys(RUNNERS).filter((name) => !MCP_TOOL_ENTRIES.some((entry) => entry.name === name));
if (unbound.length > 0) throw new Error(`MCP tools: run functions without a catalogue entry: ${unbound.join(', ')}`);

/**
 * A stored receipt checked against the receipt log as any reader would check it (the shared offline
 * check of `agent-economy verify-receipt`): the proof given, or the site's current one, against the
 * log's verifier key and the receipt's own canonical JSON.
 */
async function checkReceiptInclusion({ id, proof, witnesses, quorum }: z.output<typeof checkReceiptInclusionArgumentsSchema>, context: ToolContext): Promise<Record<string, unknown>> {
  const receiptId = id.toLowerCase();
  const policy = witnesses && witnessPolicy(witnesses, quorum);
  const [deps, log] = await Promise.all([context.services.assistant(), context.services.receiptLog()]);
  const bundle = await storeRead(() => deps.store.getReceipt(receiptId));
  if (!bundle || bundle.receiptId !== receiptId) throw new ToolError('receipt_not_found', `id: no stored receipt has id ${receiptId}; get_receipt finds one by settlement transaction id too.`, 'id');
  const about = { receiptId, verifierKey: log.verifierKey, origin: log.origin, proofUrl: receiptProofUrl(receiptId) };
  let proofText = proof;
  if (proofText === undefined) {
    const answer = await storeRead(() => log.proofOf(receiptId));
    if (answer.status === 'unlogged') {
      return { ...about, status: 'failed', checks: [{ id: LOG_INCLUSION_CHECK, ok: false, detail: 'This receipt has no entry in the receipt log.' }] };
    }
    if (answer.status === 'gone') {
      // Read a moment ago, gone now: as if it had never been found.
      throw new ToolError('receipt_not_found', `id: receipt ${receiptId} is no longer in the receipt store (it was entry ${answer.index} of the log).`, 'id');
    }
    if (answer.status === 'pending') {
      return { ...about, status: 'pending', index: answer.index, retryAfterSeconds: answer.retryAfterSeconds, checks: [{ id: LOG_INCLUSION_CHECK, ok: false, detail: `Entry ${answer.index} of the receipt log; no signed checkpoint includes it yet: ask again in ${answer.retryAfterSeconds} s.` }] };
    }
    proofText = answer.proof;
  }
  return { ...about, ...checkReceiptProof(bundle, proofText, log.verifierKey, policy, Math.floor(Date.now() / 1000)), proof: proofText };
}

/** The witnesses a caller trusts, parsed, with their quorum (default: all); a key that is not a witness's names its place. */
function witnessPolicy(keys: string[], quorum = keys.length): WitnessPolicy {
  const verifiers = keys.map((key, i) => {
    const parsed = parseCosignerKey(key);
    if (!parsed.ok) throw new ToolError('invalid_request', `witnesses/${i}: not a witness verifier key (type 0x04): ${parsed.reason}`, `witnesses/${i}`);
    return parsed.verifier;
  });
  if (quorum > keys.length) throw new ToolError('invalid_request', `quorum: ${quorum} of ${keys.length} witnesses cannot be met`, 'quorum');
  return { keys, verifiers, quorum };
}

/** A store read whose failure the caller can act on: said in the service's words, the cause logged. */
async function storeRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    logger.warn({ err: error }, 'MCP tool: receipt store unavailable');
    throw new ToolError('receipt_storage_unavailable', 'The receipt store cannot be reached right now; retry shortly.');
  }
}

/** A developer-tool action through the same request schema and function as `POST /api/dev/tools`. */
async function runDevToolAction(action: DevToolAction, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const parsed = devToolRequestSchema.safeParse({ action, ...args });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ToolError('invalid_request', `${issue.path.join('.') || '(arguments)'}: ${issue.message}`, issue.path.join('.') || undefined);
  }
  try {
    return runDevTool(parsed.data);
  } catch (error) {
    if (error instanceof InspectionInputError) throw new ToolError(error.reason, `${error.field}: ${error.message}`, error.field);
    throw error;
  }
}

/**
 * Runs a route's handler in process, as the dispatcher would after validating the body: the same
 * function answers the tool and the HTTP endpoint, with no request leaving the process.
 */
async function callHandler(
  handler: Handler,
  routeId: string,
  context: ToolContext,
  request: { params?: Record<string, string>; body?: unknown; headers?: Record<string, string> },
): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }> {
  const apiRequest: ApiRequest = {
    method: request.body === undefined ? 'GET' : 'POST',
    path: routePath(routeId),
    params: request.params ?? {},
    query: new URLSearchParams(),
    headers: request.headers ?? {},
    body: request.body,
    clientIp: context.clientIp,
  };
  const response = await handler(apiRequest);
  return { status: response.status, body: bodyValue(response.body) as Record<string, unknown>, headers: response.headers ?? {} };
}

/**
 * ask_assistant: the chat handler with the question as the last user turn. Paid with the payment
 * token from verify-payment, or with x402 (the call's `_meta["x402/payment"]`, sent to the chat as
 * its PAYMENT-SIGNATURE). A premium question without either is answered, as x402's MCP convention
 * has it, with an error result carrying the PaymentRequired the chat offers (a stored quote).
 */
async function askAssistant(args: z.output<typeof askAssistantArgumentsSchema>, context: ToolContext): Promise<ToolOutcome> {
  const deps = await context.services.assistant();
  const messages = [...(args.history ?? []), { role: 'user' as const, content: args.question }];
  const payment: Record<string, string> = context.payment === undefined ? {} : { 'payment-signature': encodeX402Header(context.payment) };
  try {
    const chat = await callHandler(createChatHandler(deps), 'assistant-chat', context, {
      body: { messages, ...(args.paymentToken ? { paymentToken: args.paymentToken } : {}) },
      headers: payment,
    });
    const settled = chat.headers['payment-response'];
    return settled ? new SettledToolResult(chat.body, decodeX402Header<X402SettleResponse>(settled)) : chat.body;
  } catch (error) {
    const offered = error instanceof ProblemError ? error.headers['payment-required'] : undefined;
    if (!offered) throw error;
    throw new PaymentRequiredToolError(decodeX402Header<X402PaymentRequired>(offered), (error as ProblemError).message);
  }
}

/** ProblemErrors of the shared domain and services, as tool errors with the same code and fields. */
export function toolErrorOf(error: ProblemError): ToolError {
  const fields = error.errors?.map((entry) => entry.path.replace(/^\//, '').replaceAll('/', '.') || '(arguments)') ?? [];
  const detail = error.errors?.length ? ` ${error.errors.map((entry) => `${entry.path || '(arguments)'}: ${entry.message}`).join('; ')}` : '';
  return new ToolError(error.code, `${error.message}${detail}`, fields[0]);
}
