/**
 * Spec 4.1 (agent discovery part): the service registry, the reputation graph, the MCP tools
 * manifest, the provider onboarding path, publishing, the jobs board with its acceptance and quote
 * validations, and the wallet boundary manifest. Well-known paths carry the configured namespace.
 */
import { serviceManifestSchema, publishGuideSchema, publishResultSchema, serviceRegistrySchema } from '../../../schemas/registry.ts';
import { jobsBoardSchema } from '../../../schemas/jobs.ts';
import { jobAcceptanceIntentSchema, jobAcceptanceResultSchema, jobQuoteRequestSchema, jobQuoteResultSchema } from '../../../schemas/job-validations.ts';
import { jobAcceptanceGuideSchema, jobQuoteGuideSchema } from '../../../schemas/job-guides.ts';
import { mcpRegistryServerSchema } from '../../../schemas/mcp-registry.ts';
import { economicMcpToolsSchema } from '../../../schemas/mcp-tools.ts';
import { providerOnboardingSchema } from '../../../schemas/onboarding.ts';
import { reputationEvidencePageSchema, reputationEvidenceQuerySchema, reputationGraphSchema, reputationQuerySchema } from '../../../schemas/reputation.ts';
import { walletBoundarySchema } from '../../../schemas/wallet-boundary.ts';
import { site } from '../../config/site.ts';
import { publish } from '../published.ts';
import type { Entry } from '../types.ts';

const registrySchema = publish('agent-service-registry.schema.v0.json', 'AgentServiceRegistry', 'Agent service registry', serviceRegistrySchema);
const manifestSchema = publish('agent-service-manifest.schema.v0.json', 'AgentServiceManifest', 'Agent service manifest', serviceManifestSchema, 'input');
const publishResult = publish('agent-service-publish.schema.v0.json', 'AgentServicePublishResult', 'Agent service publish validation result', publishResultSchema);
const publishGuide = publish('agent-service-publish-guide.schema.v0.json', 'AgentServicePublishGuide', 'Agent service publish guide', publishGuideSchema);
const reputationSchema = publish('agent-reputation.schema.v0.json', 'AgentReputation', 'Agent reputation graph', reputationGraphSchema);
const reputationEvidenceSchema = publish('agent-reputation-evidence.schema.v0.json', 'AgentReputationEvidence', 'Receipts behind a reputation subject', reputationEvidencePageSchema);
const mcpToolsSchema = publish('economic-mcp-tools.schema.v0.json', 'EconomicMcpTools', 'Economic MCP tools manifest', economicMcpToolsSchema);
const mcpRegistryServerPublished = publish('mcp-registry-server.schema.v0.json', 'McpRegistryServer', 'MCP Registry entry of the MCP host', mcpRegistryServerSchema);
const onboardingSchema = publish('provider-onboarding.schema.v0.json', 'ProviderOnboarding', 'Provider onboarding path', providerOnboardingSchema);
const jobsSchema = publish('agent-jobs.schema.v0.json', 'AgentJobs', 'Agent jobs board', jobsBoardSchema);
const acceptanceGuide = publish('agent-job-acceptance-guide.schema.v0.json', 'AgentJobAcceptanceGuide', 'Job acceptance guide', jobAcceptanceGuideSchema);
const acceptanceIntent = publish('agent-job-acceptance-intent.schema.v0.json', 'AgentJobAcceptanceIntent', 'Job acceptance intent', jobAcceptanceIntentSchema, 'input');
const acceptanceResult = publish('agent-job-acceptance.schema.v0.json', 'AgentJobAcceptanceResult', 'Job acceptance result', jobAcceptanceResultSchema);
const quoteGuide = publish('agent-job-quote-guide.schema.v0.json', 'AgentJobQuoteGuide', 'Job quote guide', jobQuoteGuideSchema);
const quoteRequest = publish('agent-job-quote-request.schema.v0.json', 'AgentJobQuoteRequest', 'Job quote request', jobQuoteRequestSchema, 'input');
const quoteResult = publish('agent-job-quote.schema.v0.json', 'AgentJobQuoteResult', 'Job quote result', jobQuoteResultSchema);

/** The spec's `svc-connect.schema.v0.json`, named with the configured namespace like its path. */
const walletBoundarySchemaDoc = publish(`${site.namespace}-connect.schema.v0.json`, 'WalletBoundary', 'Wallet boundary manifest', walletBoundarySchema);

export const AGENTS_ENTRIES: readonly Entry[] = [
    {
      id: 'registry',
      kind: 'static',
      method: 'GET',
      path: '/api/agents/registry',
      tag: 'Discovery',
      summary: 'Service registry',
      description:
        'Agent services as service manifests: capabilities, pricing in testnet ERG, accepted payment rails, predicate requirements, evidence and posture, with listing status (live on this site, or listed for operator review).',
      schema: registrySchema,
      describedBy: true,
      page: '/registry/',
    },
    {
      id: 'registry-well-known',
      kind: 'static',
      method: 'GET',
      path: `/.well-known/${site.namespace}-agent-registry.json`,
      tag: 'Discovery',
      summary: 'Service registry (well-known twin)',
      description: 'Byte-identical to `/api/agents/registry`.',
      schema: registrySchema,
      mirrorOf: 'registry',
      page: '/registry/',
    },
    {
      id: 'reputation',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/agents/reputation',
      tag: 'Discovery',
      summary: 'Reputation graph',
      description: 'Agents and service providers with testnet-settled receipts, a page at a time, each with its newest receipts (`evidence_url` lists all). Kept per checkpoint of the receipt log; sandbox settlements and self-description never count.',
      query: reputationQuerySchema,
      responses: {
        200: { description: 'A page of the reputation graph.', schema: reputationSchema },
        400: { description: 'A bad query parameter (code `invalid_request`, naming it).' },
        503: { description: 'The store cannot be read (`receipt_storage_unavailable`), or a fold catches up (`reputation_catching_up`, both routes).' },
      },
      page: '/reputation/',
    },
    {
      id: 'reputation-evidence',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/agents/reputation/evidence',
      tag: 'Discovery',
      summary: 'Receipts behind a reputation subject',
      description: 'Every counted receipt of one reputation subject, newest first, a page at a time.',
      query: reputationEvidenceQuerySchema,
      responses: {
        200: { description: 'A page of the subject\'s receipts.', schema: reputationEvidenceSchema },
        400: { description: 'A missing or bad query parameter (code `invalid_request`, naming it).' },
        404: { description: 'No such subject (code `reputation_subject_not_found`).' },
        503: { description: 'The receipt store cannot be read (code `receipt_storage_unavailable`).' },
      },
    },
    {
      id: 'mcp-tools',
      kind: 'static',
      method: 'GET',
      path: '/api/agents/mcp-tools',
      tag: 'Discovery',
      summary: 'Economic MCP tools manifest',
      description:
        'The tools of the MCP host with their input schemas and HTTP-backed endpoints, the runtime boundary (no tool signs, broadcasts or holds a key), forbidden assumptions and next steps.',
      schema: mcpToolsSchema,
      describedBy: true,
      page: '/mcp-tools/',
    },
    {
      id: 'mcp-registry-server',
      kind: 'static',
      method: 'GET',
      path: '/.well-known/mcp/server.json',
      tag: 'Discovery',
      summary: 'MCP Registry entry (server.json) of the MCP host',
      description: 'The `server.json` to publish the MCP host to the MCP Registry: a reverse-DNS name of the site\'s host and one Streamable HTTP remote, `{SITE_MCP_URL}/mcp`.',
      schema: mcpRegistryServerPublished,
      page: '/mcp-tools/',
    },
    {
      id: 'onboarding',
      kind: 'static',
      method: 'GET',
      path: '/api/agents/onboarding',
      tag: 'Discovery',
      summary: 'Provider onboarding path',
      description:
        'Ordered path from a service manifest through publish validation, the MCP publish contract, job acceptance, the quote scaffold, the receipt expectation and the wallet boundary to operator review, with worked examples.',
      schema: onboardingSchema,
      describedBy: true,
      page: '/onboarding/',
    },
    {
      id: 'publish-guide',
      kind: 'static',
      method: 'GET',
      path: '/api/agents/publish',
      tag: 'Discovery',
      summary: 'Publish guide',
      description: 'Example manifest, example validation result, example submit draft, the forbidden claims and the schema links for publishing a service.',
      schema: publishGuide,
      describedBy: true,
      page: '/publish/',
    },
    {
      id: 'publish',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/agents/publish',
      tag: 'Discovery',
      summary: 'Validate a service manifest for operator review',
      description:
        'Runs the schema, posture, payment, predicate, evidence and forbidden-claim checks on a service manifest. Accepted manifests are ready for operator review; nothing is published automatically.',
      request: manifestSchema,
      validatesOwnBody: true,
      responses: {
        200: { description: 'Accepted for operator review (`accepted_for_operator_review: true`); not published.', schema: publishResult },
        400: {
          description:
            'Blocked by the schema, posture, payment, predicate, evidence or forbidden-claim checks: the same result document, `accepted_for_operator_review: false`, with every finding in `errors` (stable code, JSON Pointer, message). Malformed JSON is a problem response.',
          schema: publishResult,
        },
      },
      page: '/publish/',
    },
    {
      id: 'jobs',
      kind: 'static',
      method: 'GET',
      path: '/api/jobs',
      tag: 'Jobs',
      summary: 'Jobs board',
      description: 'Testnet jobs with rewards in nanoERG and ERG, required capabilities, machine-checkable acceptance predicates, receipt requirements and deadlines.',
      schema: jobsSchema,
      describedBy: true,
      page: '/jobs/',
    },
    {
      id: 'jobs-well-known',
      kind: 'static',
      method: 'GET',
      path: `/.well-known/${site.namespace}-agent-jobs.json`,
      tag: 'Jobs',
      summary: 'Jobs board (well-known twin)',
      description: 'Byte-identical to `/api/jobs`.',
      schema: jobsSchema,
      mirrorOf: 'jobs',
      page: '/jobs/',
    },
    {
      id: 'jobs-accept-guide',
      kind: 'static',
      method: 'GET',
      path: '/api/jobs/accept',
      tag: 'Jobs',
      summary: 'Job acceptance guide',
      description: 'Checks, an example acceptance intent for an open job, its result and the forbidden claims.',
      schema: acceptanceGuide,
      describedBy: true,
      page: '/jobs/accept/',
    },
    {
      id: 'jobs-accept',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/jobs/accept',
      tag: 'Jobs',
      summary: 'Validate a job acceptance intent for operator review',
      description:
        'Runs the job id, capability, output, receipt, posture, evidence and forbidden-claim checks on an acceptance intent. Nothing is assigned automatically.',
      request: acceptanceIntent,
      validatesOwnBody: true,
      responses: {
        200: {
          description: 'Accepted for operator review; `accepted_job_id` is the deterministic id of this acceptance and `job_id` names the job. Not assigned.',
          schema: acceptanceResult,
        },
        400: {
          description:
            'Blocked by the schema, job id, capability, output, receipt, posture, evidence or forbidden-claim checks: the same result document, `accepted_for_operator_review: false`, with every finding in `errors` (stable code, JSON Pointer, message). Malformed JSON is a problem response.',
          schema: acceptanceResult,
        },
      },
      page: '/jobs/accept/',
    },
    {
      id: 'jobs-quote-guide',
      kind: 'static',
      method: 'GET',
      path: '/api/jobs/quote',
      tag: 'Jobs',
      summary: 'Job quote guide',
      description: 'Checks, an example quote request for an open job, the quote scaffold it yields and the forbidden claims.',
      schema: quoteGuide,
      describedBy: true,
      page: '/jobs/quote/',
    },
    {
      id: 'jobs-quote',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/jobs/quote',
      tag: 'Jobs',
      summary: 'Build a job quote scaffold',
      description:
        'Runs the job id, quote terms, receipt, settlement, posture, evidence and forbidden-claim checks on a quote request and returns the agreement draft and settlement handoff. No work is assigned and no value is escrowed.',
      request: quoteRequest,
      validatesOwnBody: true,
      responses: {
        200: {
          description: 'Quote scaffold ready (`quote_scaffold_ready: true`): the agreement draft and the settlement handoff; nothing assigned or escrowed.',
          schema: quoteResult,
        },
        400: {
          description:
            'Blocked by the schema, job id, quote terms, receipt, settlement, posture, evidence or forbidden-claim checks: the same result document, `quote_scaffold_ready: false` and `quote: null`, with every finding in `errors` (stable code, JSON Pointer, message). Malformed JSON is a problem response.',
          schema: quoteResult,
        },
      },
      page: '/jobs/quote/',
    },
    {
      id: 'wallet-boundary',
      kind: 'static',
      method: 'GET',
      path: `/.well-known/${site.namespace}-connect.json`,
      tag: 'Discovery',
      summary: 'Wallet boundary manifest',
      description:
        'CAIP-native wallet boundary on the Ergo testnet: chain and account identifiers, who holds keys and who signs. A test-network specification, not a wallet or custody claim.',
      schema: walletBoundarySchemaDoc,
      page: '/wallet-boundary/',
    },
];

