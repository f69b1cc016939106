/**
 * The MCP tools, once. The MCP server registers exactly this list and the economic MCP tools
 * manifest (`/api/agents/mcp-tools`) is generated from it, so the two cannot drift. Each tool's
 * arguments are a zod schema from `schemas/` and its `run` calls the same domain or service function
 * as the HTTP endpoint named in `backedBy`, in process: no tool makes an HTTP round trip to this
 * site, and no tool signs, broadcasts or holds a key.
 */
import type { z } from 'zod';
import {
  askAssistantArgumentsSchema,
  devToolArgumentsSchema,
  getJobArgumentsSchema,
  getReceiptArgumentsSchema,
  listJobsArgumentsSchema,
  listServicesArgumentsSchema,
  liveStatusArgumentsSchema,
  searchDocsArgumentsSchema,
} from '../../schemas/mcp-tools.ts';
import { DEV_TOOL_ACTIONS, devToolRequestSchema, type DevToolAction } from '../../schemas/dev-tools.ts';
import { jobAcceptanceIntentSchema, jobQuoteRequestSchema } from '../../schemas/jobs.ts';
import type { LiveStatus } from '../../schemas/live.ts';
import { serviceManifestSchema } from '../../schemas/registry.ts';
import { policyCheckRequestSchema } from '../../schemas/wallet-agent.ts';
import { acceptanceValidation, boardJobs, quoteValidation } from '../descriptors/jobs.ts';
import { publishValidation, registryEntries } from '../descriptors/registry.ts';
import { runDevTool } from '../domain/dev-tools.ts';
import { InspectionInputError } from '../domain/ergo/inspection-error.ts';
import { checkPolicy } from '../domain/policy-engine.ts';
import type { ApiRequest, Handler } from '../lib/api.ts';
import { ProblemError } from '../lib/problem-error.ts';
import { createChatHandler } from '../routes/assistant/chat.ts';
import type { AssistantDeps } from '../routes/assistant/deps.ts';
import { createQuoteHandler } from '../routes/assistant/quote.ts';
import { createReceiptHandler } from '../routes/assistant/records.ts';
import { routePath, routeUrl } from '../routes/lookup.ts';
import { searchDocs } from '../services/docs-index.ts';

/**
 * The outside parts tools use, handed in by the server so that each process decides what it may
 * open (a standalone MCP host must not open the site's embedded store) and tests hand in fakes.
 */
export interface ToolServices {
  /** The assistant's store, chain client, limiter, model provider, clock and paid-turn terms. */
  assistant: () => Promise<AssistantDeps>;
  liveStatus: () => Promise<LiveStatus>;
}

/** What a tool knows about its caller. */
export interface ToolContext {
  /** The MCP client's network address: the per-client key of rate limits and the free tier, as over HTTP. */
  clientIp: string;
  now: () => Date;
  services: ToolServices;
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

export interface McpToolDefinition {
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
  run: (args: unknown, context: ToolContext) => Promise<Record<string, unknown>>;
}

/** Keeps each tool's `run` typed by its own schema while the list stays one array. */
function defineTool<S extends z.ZodObject>(
  tool: Omit<McpToolDefinition, 'input' | 'run'> & { input: S; run: (args: z.output<S>, context: ToolContext) => Promise<Record<string, unknown>> | Record<string, unknown> },
): McpToolDefinition {
  return { ...tool, run: async (args, context) => tool.run(args as z.output<S>, context) };
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
    title: 'Check a receipt bundle offline',
    description:
      'Re-verifies a full receipt bundle given as JSON text, offline: its shape, the receipt id recomputed, every agreement between its parts, the serialized registers, the Note binding, amount and confirmations. get_receipt fetches a stored bundle by id.',
  },
};

function devTool(action: DevToolAction): McpToolDefinition {
  return defineTool({
    name: `dev_${action}`,
    ...DEV_TOOL_TEXT[action],
    input: devToolArgumentsSchema(action),
    backedBy: { route: 'dev-tools', fixedFields: { action } },
    readOnly: true,
    payment: 'free',
    run: (args) => runDevToolAction(action, args),
  });
}

export const MCP_TOOLS: readonly McpToolDefinition[] = [
  defineTool({
    name: 'search_docs',
    title: 'Search the site’s pages',
    description: 'Full-text search over the human pages and descriptors of this site; returns titles, URLs and the matching excerpt of each page.',
    input: searchDocsArgumentsSchema,
    backedBy: null,
    readOnly: true,
    payment: 'free',
    run: ({ query, limit }) => ({ query, results: searchDocs(query, limit) }),
  }),
  defineTool({
    name: 'list_jobs',
    title: 'List jobs',
    description: 'Jobs of the board with testnet rewards, required capabilities, acceptance predicates, receipt requirements and deadlines, optionally filtered by status and capability.',
    input: listJobsArgumentsSchema,
    backedBy: { route: 'jobs', note: 'The board lists every job; the tool filters jobs[] by status and required_capabilities.' },
    readOnly: true,
    payment: 'free',
    run: ({ status, capability }) => {
      const jobs = boardJobs().filter((job) => (!status || job.status === status) && (!capability || job.required_capabilities.includes(capability)));
      return { count: jobs.length, jobs };
    },
  }),
  defineTool({
    name: 'get_job',
    title: 'Get one job',
    description: 'One job of the board by id, with its reward, acceptance predicates, receipt requirements and deadline.',
    input: getJobArgumentsSchema,
    backedBy: { route: 'jobs', note: 'The board lists every job; the tool selects jobs[] by id, and an unknown id is a tool error.' },
    readOnly: true,
    payment: 'free',
    run: ({ job_id }) => {
      const job = boardJobs().find((candidate) => candidate.id === job_id);
      if (!job) throw new ToolError('job_not_found', `job_id: no job "${job_id}" on the board; list_jobs shows the ids.`, 'job_id');
      return { job };
    },
  }),
  defineTool({
    name: 'list_services',
    title: 'List registry services',
    description: 'Services of the registry with capabilities, pricing, accepted payment rails, predicate requirements, evidence and posture, optionally filtered by capability.',
    input: listServicesArgumentsSchema,
    backedBy: { route: 'registry', note: 'The registry lists every service; the tool filters services[] by capabilities.' },
    readOnly: true,
    payment: 'free',
    run: ({ capability }) => {
      const services = registryEntries().filter((service) => !capability || service.capabilities.includes(capability));
      return { count: services.length, services };
    },
  }),
  defineTool({
    name: 'policy_check',
    title: 'Check a wallet action against a policy',
    description:
      'Deterministic allow or deny verdict on a proposed testnet wallet action against a policy profile, every failing check named. Run it before the host wallet signs; an allow is advice, not authority.',
    input: policyCheckRequestSchema,
    requestOf: 'policy-check',
    backedBy: { route: 'policy-check' },
    readOnly: true,
    payment: 'free',
    run: (request, context) => checkPolicy(request, context.now()),
  }),
  defineTool({
    name: 'validate_service_manifest',
    title: 'Validate a service manifest',
    description:
      'Runs the publish validation on a service manifest and returns the result with errors, warnings and next steps. Accepted manifests go to operator review; nothing is published.',
    input: serviceManifestSchema,
    requestOf: 'publish',
    backedBy: { route: 'publish', note: validationNote('validation result') },
    readOnly: true,
    payment: 'free',
    run: (manifest, context) => publishValidation(manifest, context.now()),
  }),
  defineTool({
    name: 'validate_job_acceptance',
    title: 'Validate a job acceptance intent',
    description: 'Runs the acceptance validation on an intent for an open job. Accepted intents go to operator review; no job is assigned.',
    input: jobAcceptanceIntentSchema,
    requestOf: 'jobs-accept',
    backedBy: { route: 'jobs-accept', note: validationNote('acceptance result') },
    readOnly: true,
    payment: 'free',
    run: (intent, context) => acceptanceValidation(intent, context.now()),
  }),
  defineTool({
    name: 'validate_job_quote',
    title: 'Build a job quote scaffold',
    description:
      'Runs the quote validation and, when every check passes, returns the agreement draft and the settlement handoff. No work is assigned and no value is held.',
    input: jobQuoteRequestSchema,
    requestOf: 'jobs-quote',
    backedBy: { route: 'jobs-quote', note: validationNote('quote result') },
    readOnly: true,
    payment: 'free',
    run: (request, context) => quoteValidation(request, context.now()),
  }),
  ...DEV_TOOL_ACTIONS.map(devTool),
  defineTool({
    name: 'get_receipt',
    title: 'Fetch a receipt',
    description: 'A stored receipt by receipt id or settlement transaction id; paid turns return the full receipt bundle.',
    input: getReceiptArgumentsSchema,
    backedBy: { route: 'assistant-receipt', note: 'The id goes into the path; an unknown id (404) is a tool error naming the id.' },
    readOnly: true,
    payment: 'free',
    run: async ({ id }, context) => (await callHandler(createReceiptHandler(await context.services.assistant()), 'assistant-receipt', context, { params: { id } })).body,
  }),
  defineTool({
    name: 'ask_assistant',
    title: 'Ask the hosted assistant',
    description:
      'Asks the hosted assistant one question. A free-tier question is answered directly; a premium question needs the payment token issued by verify-payment after a testnet Note payment, and without one the tool returns the premium quote to pay.',
    input: askAssistantArgumentsSchema,
    backedBy: {
      route: 'assistant-chat',
      note: 'Sends messages [...history, {role: user, content: question}] with paymentToken when given; where chat answers 402 payment_required, the tool returns the premium quote instead.',
    },
    readOnly: false,
    payment: 'testnet_note',
    run: (args, context) => askAssistant(args, context),
  }),
  defineTool({
    name: 'live_status',
    title: 'Live status',
    description:
      'Probe results of every dependency (assistant, receipt storage, chain source, MCP host, signer, rate limiter, wallet-agent surfaces), the mainnet gate status and the latest full receipt id.',
    input: liveStatusArgumentsSchema,
    backedBy: { route: 'live' },
    readOnly: true,
    payment: 'free',
    run: (_args, context) => context.services.liveStatus(),
  }),
];

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
  request: { params?: Record<string, string>; body?: unknown },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const apiRequest: ApiRequest = {
    method: request.body === undefined ? 'GET' : 'POST',
    path: routePath(routeId),
    params: request.params ?? {},
    query: new URLSearchParams(),
    headers: {},
    body: request.body,
    clientIp: context.clientIp,
  };
  const response = await handler(apiRequest);
  return { status: response.status, body: response.body as Record<string, unknown> };
}

/**
 * ask_assistant: the chat handler with the question as the last user turn. A premium question
 * without a token is answered with the premium quote to pay (the quote handler's answer) instead of
 * chat's 402, since that quote is the next thing the caller needs.
 */
async function askAssistant(args: z.output<typeof askAssistantArgumentsSchema>, context: ToolContext): Promise<Record<string, unknown>> {
  const deps = await context.services.assistant();
  const messages = [...(args.history ?? []), { role: 'user' as const, content: args.question }];
  try {
    const chat = await callHandler(createChatHandler(deps), 'assistant-chat', context, {
      body: { messages, ...(args.paymentToken ? { paymentToken: args.paymentToken } : {}) },
    });
    return chat.body;
  } catch (error) {
    if (!(error instanceof ProblemError) || error.code !== 'payment_required') throw error;
    const quote = await callHandler(createQuoteHandler(deps), 'assistant-quote', context, {
      body: { question: args.question, ...(args.history ? { history: args.history } : {}) },
    });
    return {
      status: 'payment_required',
      detail: `${error.message} The quote below is that premium quote: create the Note it describes, POST it to verify-payment, then call ask_assistant again with the paymentToken.`,
      quote: quote.body,
      verify_payment: routeUrl('assistant-verify-payment'),
    };
  }
}

/** ProblemErrors of the shared domain and services, as tool errors with the same code and fields. */
export function toolErrorOf(error: ProblemError): ToolError {
  const fields = error.errors?.map((entry) => entry.path.replace(/^\//, '').replaceAll('/', '.') || '(arguments)') ?? [];
  const detail = error.errors?.length ? ` ${error.errors.map((entry) => `${entry.path || '(arguments)'}: ${entry.message}`).join('; ')}` : '';
  return new ToolError(error.code, `${error.message}${detail}`, fields[0]);
}
