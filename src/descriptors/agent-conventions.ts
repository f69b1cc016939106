/**
 * Documents for agents that follow conventions other than ours: `llms.txt` and `llms-full.txt`
 * (llmstxt.org: a Markdown index a language model reads first) and the A2A agent card. All three are
 * derived from the route table, the capability manifest and the launch kit, so they name exactly the
 * surfaces the descriptors name and cannot drift from them.
 */
import { RECEIPT_LOG_PATH } from '../config/receipt-log.ts';
import { A2A_LEGACY_PROTOCOL_VERSION, A2A_TASK_OWNER_SCHEME, type AgentCard } from '../../schemas/agent-card.ts';
import { OWNER_SECRET_RULE } from '../domain/assistant/a2a-task-owner.ts';
import { A2A_X402_EXTENSION, A2A_SUPPORTED_VERSIONS } from '../../schemas/a2a.ts';
import { schemaUrl, site, siteUrl } from '../config/site.ts';
import { POLICY_REASON_CODES } from '../../schemas/policy-codes.ts';
import { DESCRIPTION_VERSION } from './openapi.ts';
import { answersJson, entryUrl, pageUrl, routeUrl, templatePath } from '../catalogue/lookup.ts';
import { pageHeading } from '../catalogue/page-titles.ts';
import { catalogue } from '../catalogue/index.ts';
import type { Entry } from '../catalogue/types.ts';
import { MAINNET_BLOCKERS } from './common.ts';
import { buildCapabilityManifest } from './discovery.ts';
import { buildLaunchKit } from './launch-kit.ts';
import { requestExample } from './request-examples.ts';

const JSON_MEDIA = 'application/json';

/** The posture in one paragraph, for every text document. */
function postureParagraph(): string {
  return (
    'Posture: Ergo testnet only (`ergo_testnet`); `mainnet_ready` and `production_custody` are false. ' +
    `The mainnet gate is closed until these exist: ${MAINNET_BLOCKERS.map((b) => b.label).join('; ')}. ` +
    'No endpoint signs or broadcasts a transaction or stores a wallet key; wallet authority stays with the host application. Of the two keys this service holds, one signs its receipt log\'s checkpoints, the other its x402 offers and receipts; neither signs a transaction.'
  );
}

interface PageGroup {
  page: string;
  title: string;
  description: string;
  routes: Entry[];
}

/** Human pages in route-table order, each with the routes it shows. */
function pageGroups(): PageGroup[] {
  const groups = new Map<string, PageGroup>();
  for (const route of catalogue()) {
    if (!route.page) continue;
    const group = groups.get(route.page) ?? { page: route.page, ...pageHeading(route.page, route), routes: [] };
    group.routes.push(route);
    groups.set(route.page, group);
  }
  return [...groups.values()];
}

/** `/llms.txt`: the index. */
export function buildLlmsTxt(): string {
  const kit = buildLaunchKit();
  const lines = [
    `# ${site.name}`,
    '',
    `> ${site.description}`,
    '',
    postureParagraph(),
    '',
    'Every JSON body validates against a JSON Schema 2020-12 document under ' +
      `${site.base_url}/agent-economy/; errors are RFC 9457 problem+json with a stable \`code\`.`,
    '',
    '## Start here',
    '',
    `- [Discovery descriptor](${routeUrl('discovery-well-known')}): every surface, schema and host of this service.`,
    `- [Capability manifest](${routeUrl('agents-well-known')}): what an agent can do here, through which endpoints, within which claims.`,
    `- [OpenAPI 3.1 document](${routeUrl('openapi')}): every path, method, request schema and status code.`,
    `- [Developer launch kit](${routeUrl('launch-kit')}): entrypoints, the five-minute path, API recipes and guardrails.`,
    `- [A2A agent card](${routeUrl('agent-card')}): the skills of this service for A2A discovery.`,
    `- [llms-full.txt](${routeUrl('llms-full')}): every endpoint with its description and a working command, in one file.`,
    '',
    '## Surfaces',
    '',
    ...pageGroups().map(
      (group) =>
        `- [${group.title}](${siteUrl(group.page)}): ${group.description} JSON: ${group.routes
          .filter((route) => route.method === 'GET' && answersJson(route))
          .map((route) => entryUrl(route))
          .join(', ') || 'POST only'}`,
    ),
    '',
    '## Receipt transparency log',
    '',
    'Every stored receipt is an entry of an append-only Merkle log (RFC 6962 hashing), served as c2sp.org/tlog-tiles with a signed checkpoint (c2sp.org/tlog-checkpoint, Ed25519):',
    '',
    `- [Checkpoint](${routeUrl('receipt-log-checkpoint')}): the newest signed tree head (origin, size, root hash, signature).`,
    `- [Verifier key](${routeUrl('receipt-log-key')}): the signed-note key the checkpoints verify with; pin it.`,
    `- Tiles: ${site.base_url}${RECEIPT_LOG_PATH}/tile/<L>/<N>[.p/<W>] (hashes) and ${site.base_url}${RECEIPT_LOG_PATH}/tile/entries/<N>[.p/<W>] (the receipts as logged); full tiles never change.`,
    `- Proof of one receipt: ${routeUrl('assistant-receipt-proof')} (c2sp.org/tlog-proof@v1); \`agent-economy verify-receipt\` checks it, \`agent-economy monitor\` watches the whole log.`,
    '',
    '## Five-minute path',
    '',
    ...kit.five_minute_path.map((step, index) => `${index + 1}. [${step.label}](${step.href}): ${step.goal} Expect: ${step.expected}`),
    '',
    '## Optional',
    '',
    `- [Human API reference](${pageUrl('openapi')}): the OpenAPI document as a page, with a curl command per endpoint.`,
    `- [Error codes](${siteUrl('/problems/')}): every problem \`code\` and its meaning.`,
    `- [Glossary](${siteUrl('/glossary/')}): every term of the economy (Note, quote, task hash, receipt bundle, checkpoint...), one definition each.`,
    '',
  ];
  return lines.join('\n');
}

/** `/llms-full.txt`: the index plus every endpoint, the guardrails and the policy reason codes. */
export function buildLlmsFullTxt(): string {
  const kit = buildLaunchKit();
  const manifest = buildCapabilityManifest();
  const endpointSections = catalogue().map((route) => {
    const example = requestExample(route.id);
    const responses =
      route.kind === 'dynamic'
        ? Object.entries(route.responses).map(([status, doc]) => `- ${status}: ${doc.description}`)
        : ['- 200: the document (static file, strong ETag).', '- 304: not modified.'];
    return [
      `### ${route.method} ${templatePath(route.path)}`,
      '',
      `${route.summary}. ${route.description}`,
      '',
      `URL: ${entryUrl(route)}`,
      ...(route.kind === 'dynamic' && route.request ? [`Request schema: ${schemaUrl(route.request.file)}`] : []),
      ...(route.page ? [`Human page: ${siteUrl(route.page)}`] : []),
      '',
      ...responses,
      ...(example ? ['', '```sh', example.command, '```', ...(example.note ? [example.note] : [])] : []),
      '',
    ].join('\n');
  });
  return [
    buildLlmsTxt(),
    '## Capabilities',
    '',
    ...manifest.capabilities.map((capability) => `- ${capability.label} (${capability.payment}): ${capability.description}`),
    '',
    'Claims:',
    ...manifest.claim_boundary.claims.map((claim) => `- ${claim}`),
    '',
    'Not claimed:',
    ...manifest.claim_boundary.does_not_claim.map((claim) => `- ${claim}`),
    '',
    '## Guardrails',
    '',
    ...kit.guardrails.map((guardrail) => `- ${guardrail}`),
    '',
    '## Policy-check reason codes',
    '',
    ...POLICY_REASON_CODES.map((entry) => `- \`${entry.code}\` (${entry.field}): ${entry.meaning}`),
    '',
    '## Endpoints',
    '',
    ...endpointSections,
  ].join('\n');
}

/** The task owner credential as the agent card describes it (its 1.0 and its 0.3 form say the same). */
const TASK_OWNER = {
  bearerFormat: `${OWNER_SECRET_RULE}, picked by the client`,
  description:
    'Optional: the credential that makes an a2a-x402 task yours. Send it as Authorization: Bearer <secret> on the SendMessage (message/send) that creates the task; ' +
    'only its hash is kept. The same credential is needed to cancel the task (CancelTask, tasks/cancel), to reject its payment (x402.payment.status payment-rejected) ' +
    'and to list your tasks (ListTasks, which shows no one else\'s). Anyone holding a task id may read it (GetTask) and pay it; a wrong payment leaves it waiting. ' +
    'A task created without the credential is nobody\'s: it ends when paid or when its quote expires. The free tier needs none; a malformed Authorization header is refused.',
};

/** `/.well-known/agent-card.json`: one A2A skill per capability of the capability manifest. */
export function buildAgentCard(): AgentCard {
  const manifest = buildCapabilityManifest();
  const routesByUrl = new Map(catalogue().map((route) => [entryUrl(route), route]));
  return {
    protocolVersion: A2A_LEGACY_PROTOCOL_VERSION,
    name: site.name,
    description:
      `${site.description} A2A clients (1.0 or 0.3) ask the hosted assistant over JSON-RPC at the interfaces below: the free tier as is, premium ` +
      'answers paid with a testnet Note through the a2a-x402 extension (declared below), on a task its creator owns with the a2aTaskOwner bearer credential; every other skill is plain HTTP+JSON, described by the OpenAPI document (see the extension below).',
    url: routeUrl('a2a'),
    preferredTransport: 'JSONRPC',
    supportedInterfaces: A2A_SUPPORTED_VERSIONS.map((protocolVersion) => ({ url: routeUrl('a2a'), protocolBinding: 'JSONRPC' as const, protocolVersion, tenant: '' })),
    provider: { organization: site.name, url: site.base_url },
    version: DESCRIPTION_VERSION,
    documentationUrl: pageUrl('openapi'),
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
      extensions: [
        {
          uri: routeUrl('openapi'),
          description:
            'OpenAPI 3.1 description of every endpoint: the skills other than asking the assistant are called directly with JSON bodies. Premium assistant turns are paid with a testnet Note, never with keys sent here.',
          required: false,
          params: {},
        },
        {
          uri: A2A_X402_EXTENSION,
          description:
            'a2a-x402 v0.2, standalone flow: activate it (A2A-Extensions or X-A2A-Extensions) and a question beyond the free tier answers a task in input-required whose status metadata carries x402.payment.required (scheme exact, a Note on the chain this server reads: ergo:testnet, or ergo:sandbox on a server reading the local sandbox); send x402.payment.payload ({ noteBoxId }) on that task and it completes with the premium answer and x402.payment.receipts. Without it the free tier still answers.',
          required: false,
          params: {},
        },
        {
          uri: routeUrl('discovery-well-known'),
          description: 'Discovery descriptor: posture (testnet only, mainnet gate closed), hosts, surfaces and schemas.',
          required: false,
          params: {},
        },
      ],
    },
    defaultInputModes: [JSON_MEDIA],
    defaultOutputModes: [JSON_MEDIA],
    skills: manifest.capabilities.map((capability) => {
      const routes = capability.endpoints.map((url) => routesByUrl.get(url)).filter((route): route is Entry => route !== undefined);
      return {
        id: capability.id,
        name: capability.label,
        description: `${capability.description} Payment: ${capability.payment === 'free' ? 'free' : 'a Note box on the Ergo testnet'}. Never signs or broadcasts.`,
        tags: [...new Set(routes.map((route) => route.tag))],
        examples: routes.map((route) => `${route.method} ${entryUrl(route)}`),
        inputModes: [JSON_MEDIA],
        outputModes: [JSON_MEDIA],
        securityRequirements: [],
      };
    }),
    securitySchemes: { [A2A_TASK_OWNER_SCHEME]: { httpAuthSecurityScheme: { scheme: 'Bearer', ...TASK_OWNER }, type: 'http', scheme: 'bearer', ...TASK_OWNER } },
    // Alternatives, as in OpenAPI: no credential at all, or the task owner's.
    securityRequirements: [{ schemes: {} }, { schemes: { [A2A_TASK_OWNER_SCHEME]: { list: [] } } }],
    signatures: [],
  };
}
