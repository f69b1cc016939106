/**
 * Spec 4.1 (agent discovery part): the service registry, the reputation graph, the MCP tools
 * manifest, the provider onboarding path, publishing, the jobs board with its acceptance and quote
 * validations, and the wallet boundary manifest. Well-known paths carry the configured namespace.
 */
import { acceptanceValidation, buildAcceptanceGuide, buildJobsBoard, buildQuoteGuide, quoteValidation } from '../../descriptors/jobs.ts';
import { buildMcpToolsManifest } from '../../descriptors/mcp-tools.ts';
import { buildProviderOnboarding } from '../../descriptors/onboarding.ts';
import { buildPublishGuide, buildServiceRegistry, publishValidation } from '../../descriptors/registry.ts';
import { buildReputationEvidencePage, buildReputationGraph } from '../../descriptors/reputation.ts';
import { buildWalletBoundary } from '../../descriptors/wallet-boundary.ts';
import { hex } from '@fleet-sdk/crypto';
import { routeUrl } from '../../catalogue/lookup.ts';
import { evidenceCursor, readEvidenceCursor, readSubjectCursor, subjectCursor } from '../../domain/reputation-page.ts';
import type { StoredCheckpoint } from '../../domain/ports.ts';
import type { ReputationReader } from '../../services/reputation.ts';
import { REPUTATION_PAGE_DEFAULT, reputationEvidenceQuerySchema, reputationQuerySchema, type ReputationGraph } from '../../../schemas/reputation.ts';
import { invalidRequest, ProblemError } from '../../lib/problem-error.ts';
import { z } from 'zod';
import { encodeBase64 } from '../../domain/tlog/base64.ts';
import { json, JsonText, type ApiRequest, type ApiResponse } from '../../lib/api.ts';
import { sharedAnswers } from '../../lib/shared-answers.ts';
import { REPUTATION_CACHE_SECONDS } from '../../config/limits.ts';
import { readReceiptStore } from '../store-read.ts';
import { buildMcpRegistryServer } from '../../descriptors/mcp-registry.ts';
import type { Binding } from '../types.ts';
import { runtimeModule } from '../lazy-runtime.ts';

/**
 * The three validations answer one result document: 200 when it is accepted for operator review
 * (or the quote scaffold is ready), 400 with the same shape when any error blocks it.
 */
function validationAnswer(result: { errors: unknown[] }): ApiResponse {
  return json(result.errors.length === 0 ? 200 : 400, result);
}

async function reputationReader(): Promise<ReputationReader> {
  return (await runtimeModule()).getReputationReader();
}

/** The checkpoint a page reflects, as the bodies name it. */
async function namedCheckpoint(checkpoint: StoredCheckpoint | undefined): Promise<ReputationGraph['checkpoint']> {
  if (!checkpoint) return null;
  const { getReceiptLog } = await runtimeModule();
  return { size: checkpoint.size, root_hash: encodeBase64(hex.decode(checkpoint.rootHex)), origin: getReceiptLog().origin, checkpoint_api: routeUrl('receipt-log-checkpoint') };
}

/** The query parsed by `schema`; a parameter it refuses is a 400 naming it. */
function queryOf<T extends z.ZodType>(request: ApiRequest, schema: T): z.infer<T> {
  const parsed = schema.safeParse(Object.fromEntries(request.query));
  if (!parsed.success) throw invalidRequest(new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: ['query', ...issue.path] }))), 'query');
  return parsed.data;
}

/** A cursor read back, or the 400 naming it. */
function cursorOf<T>(cursor: string | undefined, read: (text: string) => T | undefined): T | undefined {
  if (cursor === undefined) return undefined;
  const value = read(cursor);
  if (value === undefined) throw new ProblemError(400, 'invalid_request', 'Invalid request', 'The query is invalid at: /query/cursor.', { errors: [{ path: '/query/cursor', code: 'invalid_cursor', message: 'not a cursor this list gave: start again without one' }] });
  return value;
}

/** Pages shared for a moment by the requests that ask for them: a 500 KB page of 200 subjects is made once, not per request. */
const graphPages = sharedAnswers<JsonText>(REPUTATION_CACHE_SECONDS, 16);
const evidencePages = sharedAnswers<JsonText>(REPUTATION_CACHE_SECONDS, 64);

/**
 * A page of the graph, from the aggregates kept per signed checkpoint of the receipt log: entries
 * below a signed size never change, so anyone holding the log can recompute exactly this graph
 * (`agent-economy reputation --from-log`).
 */
async function reputationHandler(request: ApiRequest): Promise<ApiResponse> {
  const query = queryOf(request, reputationQuerySchema);
  const after = cursorOf(query.cursor, readSubjectCursor);
  const limit = query.limit ?? REPUTATION_PAGE_DEFAULT;
  const page = await graphPages(`${limit} ${query.cursor ?? ''}`, async () => {
    // One more than asked says whether a next page exists.
    const { totals, subjects, checkpoint } = await readReceiptStore('the reputation graph cannot be read', async () => (await reputationReader()).subjects(limit + 1, after));
    const shown = subjects.slice(0, limit);
    const nextCursor = subjects.length > limit ? subjectCursor(shown.at(-1)!) : null;
    return new JsonText(JSON.stringify(buildReputationGraph({ totals, subjects: shown, limit, nextCursor }, new Date(), await namedCheckpoint(checkpoint))));
  });
  return json(200, page);
}

async function reputationEvidenceHandler(request: ApiRequest): Promise<ApiResponse> {
  const query = queryOf(request, reputationEvidenceQuerySchema);
  const after = cursorOf(query.cursor, readEvidenceCursor);
  const limit = query.limit ?? REPUTATION_PAGE_DEFAULT;
  const page = await evidencePages(JSON.stringify([query.kind, query.subject_id, limit, query.cursor ?? '']), async () => {
    const found = await readReceiptStore('the receipts behind a subject cannot be read', async () => (await reputationReader()).evidence(query.kind, query.subject_id, limit + 1, after));
    if (!found) throw new ProblemError(404, 'reputation_subject_not_found', 'Subject not found', `No ${query.kind} ${query.subject_id.slice(0, 120)} has a counted receipt in the reputation graph.`);
    const evidence = found.evidence.slice(0, limit);
    const nextCursor = found.evidence.length > limit ? evidenceCursor(evidence.at(-1)!) : null;
    return new JsonText(JSON.stringify(buildReputationEvidencePage({ subject: found.subject, evidence, limit, nextCursor }, new Date(), await namedCheckpoint(found.checkpoint))));
  });
  return json(200, page);
}

export const agentsBindings: Readonly<Record<string, Binding>> = {
  'registry': { build: buildServiceRegistry },
  'reputation': { handler: reputationHandler },
  'reputation-evidence': { handler: reputationEvidenceHandler },
  'mcp-tools': { build: buildMcpToolsManifest },
  'mcp-registry-server': { build: buildMcpRegistryServer },
  'onboarding': { build: buildProviderOnboarding },
  'publish-guide': { build: buildPublishGuide },
  'publish': { handler: (request) => validationAnswer(publishValidation(request.body, new Date())) },
  'jobs': { build: buildJobsBoard },
  'jobs-accept-guide': { build: buildAcceptanceGuide },
  'jobs-accept': { handler: (request) => validationAnswer(acceptanceValidation(request.body, new Date())) },
  'jobs-quote-guide': { build: buildQuoteGuide },
  'jobs-quote': { handler: (request) => validationAnswer(quoteValidation(request.body, new Date())) },
  'wallet-boundary': { build: buildWalletBoundary },
};

