/**
 * What the pages show as tables and lists (the MCP host's tools, the actions a policy profile can
 * allow and the checks it runs, a manifest's and a job quote's validation checks, a manifest's
 * forbidden claims, each job's reward, the release, the wallet boundary's chain id, the well-known
 * documents, each service's rails and listing, the mainnet gate's blockers and opening steps, the
 * developer tools' actions and limits, and what each POST route takes as its body, from the OpenAPI
 * document as the API reference shows it), said in sentences for the assistant's corpus. The
 * descriptors hold these as values, and the corpus takes only their prose, so "which tools does the
 * MCP host expose?" had no sentence that answers it. Each sentence is made from the same served
 * body as the page, at build time.
 */
import { staticBody } from './human-pages.ts';
import { contentSchema, fieldRows, variantsOf, writtenOut, type FieldRow, type JsonSchema } from './schema-fields.ts';
import { allRoutes } from '../routes/table.ts';
import { sentencesOf } from '../domain/assistant/sentences.ts';

interface ToolsBody {
  tools: Array<{ name: string }>;
}
interface WalletAgentBody {
  actions: Array<{ action: string }>;
  policy_checks: Array<{ order: number; check: string }>;
}
interface ValidationGuideBody {
  checks: Array<{ label: string; description: string; codes: Array<{ code: string }> }>;
}
interface PublishGuideBody extends ValidationGuideBody {
  forbidden_claims: { claims: Array<{ phrase: string }> };
}
interface JobsBody {
  jobs: Array<{ id: string; title: string; status: string; deadline: string; reward: { erg: string; nanoerg: string; rail: string } }>;
}
interface ReleaseBody {
  release: { version: string; site_commit: string };
}
interface WalletBoundaryBody {
  caip: { chain_id: string; namespace: string; network: string };
}
interface RegistryBody {
  services: Array<{
    id: string;
    name: string;
    accepted_payment_rails: string[];
    listing: { status: string; operated_by: string };
  }>;
}

interface MainnetGateBody {
  blockers: Array<{ id: string; label: string; state: string; owner: string }>;
  opening_procedure: string[];
}
interface DevToolsBody {
  method: string;
  endpoint: string;
  actions: Array<{ action: string; label: string }>;
  limits: { max_input_characters: number; max_body_bytes: number };
}
interface DiscoveryBody {
  endpoints: Array<{ url: string }>;
}

/** "a, b and c". */
const listed = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
/** "1 tool", "16 tools". */
const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
/** "<lead> 3 tools<after>: a, b and c.", or no sentence for no items. */
const listing = (lead: string, items: readonly string[], noun: string, after = '') => (items.length ? [`${lead} ${counted(items.length, noun)}${after}: ${listed(items)}.`] : []);
/** A step after the first, in a sentence: its first letter in lower case unless it starts an acronym ("MCP host"). */
const continued = (step: string) => (/^[A-Z][a-z]/.test(step) ? step[0]!.toLowerCase() + step.slice(1) : step);

/** A validation guide's checks, each with the codes it reports and what it requires. */
const checkSentences = (checks: ValidationGuideBody['checks'], subject: string) =>
  checks.map(({ label, description, codes }) => `The ${label} check of ${subject}${codes.length ? ` (${listed(codes.map(({ code }) => code))})` : ''}: ${description}`);

/** The mainnet gate's opening steps as one sentence, joined by "then". */
function procedure(steps: string[]): string[] {
  if (steps.length === 0) return [];
  return [`The procedure for opening the mainnet gate has ${counted(steps.length, 'step')}: ${steps.map((step, at) => (at === 0 ? step : continued(step))).join('; then ')}.`];
}

/** The sentences of each route's body, keyed by route id. */
const SENTENCES: Record<string, (body: never) => string[]> = {
  'mcp-tools': ({ tools }: ToolsBody) => listing('The MCP host exposes', tools.map((tool) => tool.name), 'tool'),
  'wallet-agent': ({ actions, policy_checks: checks }: WalletAgentBody) => [
    ...listing('A wallet-agent policy profile can allow', actions.map((entry) => entry.action), 'action'),
    ...listing('The policy check runs', [...checks].sort((a, b) => a.order - b.order).map(({ check }) => check), 'check', ' in this order, before the host wallet signs'),
  ],
  'publish-guide': ({ checks, forbidden_claims: forbidden }: PublishGuideBody) => [
    ...checkSentences(checks, 'a service manifest'),
    ...listing('A service manifest may not claim any of', forbidden.claims.map(({ phrase }) => phrase), 'forbidden claim'),
  ],
  'jobs-quote-guide': ({ checks }: ValidationGuideBody) => checkSentences(checks, 'a job quote request'),
  jobs: ({ jobs }: JobsBody) =>
    jobs.map((job) => `The job "${job.title}" (${job.id}) pays a reward of ${job.reward.erg} ERG (${job.reward.nanoerg} nanoERG) by ${job.reward.rail}; it is ${job.status}, with its deadline at ${job.deadline}.`),
  'release-current': ({ release }: ReleaseBody) => [`The current release of this site is version ${release.version}, built from commit ${release.site_commit}.`],
  'wallet-boundary': ({ caip }: WalletBoundaryBody) => [`The wallet boundary names the ${caip.network} by the CAIP-2 chain id ${caip.chain_id} (namespace ${caip.namespace}).`],
  'mainnet-gate': ({ blockers, opening_procedure: steps }: MainnetGateBody) => [
    ...blockers.map(({ id, label, state, owner }) => `The mainnet gate's blocker ${id} (${label}) is ${state}; its owner: ${owner}.`),
    // One sentence (no full stop inside), so that the procedure is quoted whole: the steps joined by "then".
    ...procedure(steps.map((step) => step.trim().replace(/\.$/, '')).filter(Boolean)),
  ],
  'dev-tools-catalogue': ({ method, endpoint, actions, limits }: DevToolsBody) => [
    `The developer tools endpoint (${method} ${new URL(endpoint).pathname}) has ${counted(actions.length, 'action')}${actions.length ? ` (${actions.map(({ action, label }) => `${action}: ${continued(label)}`).join('; ')})` : ''} and reads at most ${limits.max_input_characters} input characters in a body of at most ${limits.max_body_bytes} bytes.`,
  ],
  'discovery-well-known': ({ endpoints }: DiscoveryBody) =>
    listing('The site publishes', [...new Set(endpoints.map(({ url }) => new URL(url).pathname).filter((path) => path.startsWith('/.well-known/')))], 'document', ' at well-known paths'),
  registry: ({ services }: RegistryBody) =>
    // No price: the hosted assistant's is the running configuration's (the terms), which the registry's may not be.
    services.map(
      ({ id, name, accepted_payment_rails: rails, listing }) =>
        `${name} (${id})${rails.length ? ` accepts ${listed(rails)}, and` : ''} is listed with status ${listing.status}, operated by ${listing.operated_by}.`,
    ),
};

/** The sentences of `routeId`'s `body` (a route above). */
export function sentencesFor(routeId: string, body: unknown): string[] {
  const sentences = SENTENCES[routeId];
  if (!sentences) throw new Error(`data sentences: no sentences for "${routeId}"`);
  return sentences(body as never);
}

/** The sentences of each route above (by route id), made from the body it serves. */
export function dataSentences(): Array<{ routeId: string; sentences: string[] }> {
  return Object.keys(SENTENCES).map((routeId) => ({ routeId, sentences: sentencesFor(routeId, staticBody(routeId)) }));
}

/** Fields a request body sentence describes one by one; beyond them, it goes to the top level, and names the fields there without their descriptions when they are still more. */
const DESCRIBED_FIELDS = 8;

export interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema?: JsonSchema }> } }>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** The first sentence of a field's description (as the corpus cuts sentences), without its full stop. */
const firstSentence = (description: string) => (sentencesOf(description)[0] ?? description).replace(/\.$/, '');

/**
 * "`noteBoxId`: Box id of the Note on the chain: 64 hexadecimal characters", "`method`: "SendMessage""
 * (a field without a description says its type), "`memo` (optional)".
 */
const fieldPhrase = (row: FieldRow, described: boolean) => `\`${row.path}\`${row.required ? '' : ' (optional)'}${described ? `: ${row.description ? firstSentence(row.description) : row.type}` : ''}`;

/**
 * What each POST route takes, as the API reference shows it in its "Request body" table: "POST
 * /api/assistant/verify-payment takes a JSON body with the fields `quote`: The premium quote as
 * received; ...". A body of up to DESCRIBED_FIELDS fields (two levels deep) is described field by
 * field; a larger one is described at its top level, or only named when that is still too many,
 * so that one sentence does not hold a whole schema.
 */
export function requestBodySentences(document: OpenApiDocument = staticBody<OpenApiDocument>('openapi')): Array<{ routeId: string; sentence: string }> {
  const openapi = writtenOut(document);
  return allRoutes().flatMap((route) => {
    const { schema } = contentSchema(openapi.paths[route.path]?.[route.method.toLowerCase()]?.requestBody?.content, openapi.components.schemas);
    if (!schema) return [];
    // A body of several forms (A2A 1.0 and 0.3) is said form by form, as the reference shows them.
    return variantsOf(schema).flatMap((variant) => {
      const nested = fieldRows(variant, 2);
      const rows = nested.length <= DESCRIBED_FIELDS ? nested : fieldRows(variant, 1);
      if (rows.length === 0) return [];
      const described = rows.length <= DESCRIBED_FIELDS;
      return [{ routeId: route.id, sentence: `${route.method} ${route.path} takes a JSON body with the fields ${rows.map((row) => fieldPhrase(row, described)).join('; ')}.` }];
    });
  });
}
