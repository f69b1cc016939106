/**
 * What the pages show as tables and lists (the MCP host's tools, the actions a policy profile can
 * allow and the checks it runs, a manifest's and a job quote's validation checks, a manifest's
 * forbidden claims, each job's reward, the release, the wallet boundary's chain id, the well-known
 * documents, each service's price and listing, the mainnet gate's blockers and opening steps, the
 * developer tools' actions and limits), said in sentences for the assistant's corpus. The
 * descriptors hold these as values, and the corpus takes only their prose, so "which tools does the
 * MCP host expose?" had no sentence that answers it. Each sentence is made from the same served
 * body as the page, at build time.
 */
import { staticBody } from './human-pages.ts';

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
    pricing: { amount: string; unit: string; currency: string };
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
  actions: Array<{ action: string }>;
  limits: { max_input_characters: number; max_body_bytes: number };
}
interface DiscoveryBody {
  endpoints: Array<{ url: string }>;
}

/** "a, b and c". */
const listed = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** A validation guide's checks, each with the codes it reports and what it requires. */
const checkSentences = (checks: ValidationGuideBody['checks'], subject: string) =>
  checks.map(({ label, description, codes }) => `The ${label} check of ${subject} (${listed(codes.map(({ code }) => code))}): ${description}`);

/** The sentences of each route's body, keyed by route id. */
const SENTENCES: Record<string, (body: never) => string[]> = {
  'mcp-tools': ({ tools }: ToolsBody) => [`The MCP host exposes ${tools.length} tools: ${listed(tools.map((tool) => tool.name))}.`],
  'wallet-agent': ({ actions, policy_checks: checks }: WalletAgentBody) => [
    `A wallet-agent policy profile can allow ${actions.length} actions: ${listed(actions.map((entry) => entry.action))}.`,
    `The policy check runs ${checks.length} checks in this order, before the host wallet signs: ${listed([...checks].sort((a, b) => a.order - b.order).map(({ check }) => check))}.`,
  ],
  'publish-guide': ({ checks, forbidden_claims: forbidden }: PublishGuideBody) => [
    ...checkSentences(checks, 'a service manifest'),
    `A service manifest may not claim any of ${forbidden.claims.length} forbidden claims: ${listed(forbidden.claims.map(({ phrase }) => phrase))}.`,
  ],
  'jobs-quote-guide': ({ checks }: ValidationGuideBody) => checkSentences(checks, 'a job quote request'),
  jobs: ({ jobs }: JobsBody) =>
    jobs.map((job) => `The job "${job.title}" (${job.id}) pays a reward of ${job.reward.erg} ERG (${job.reward.nanoerg} nanoERG) by ${job.reward.rail}; it is ${job.status}, with its deadline at ${job.deadline}.`),
  'release-current': ({ release }: ReleaseBody) => [`The current release of this site is version ${release.version}, built from commit ${release.site_commit}.`],
  'wallet-boundary': ({ caip }: WalletBoundaryBody) => [`The wallet boundary names the ${caip.network} by the CAIP-2 chain id ${caip.chain_id} (namespace ${caip.namespace}).`],
  'mainnet-gate': ({ blockers, opening_procedure: steps }: MainnetGateBody) => [
    ...blockers.map(({ id, label, state, owner }) => `The mainnet gate's blocker ${id} (${label}) is ${state}; its owner: ${owner}.`),
    // One sentence, so that the procedure is quoted whole: each step in lower case after the first, joined by "then".
    `The procedure for opening the mainnet gate has ${steps.length} steps: ${steps.map((step, at) => (at === 0 ? step : step[0]!.toLowerCase() + step.slice(1)).replace(/\.$/, '')).join('; then ')}.`,
  ],
  'dev-tools-catalogue': ({ method, endpoint, actions, limits }: DevToolsBody) => [
    `The developer tools endpoint (${method} ${new URL(endpoint).pathname}) has ${actions.length} actions, ${listed(actions.map(({ action }) => action))}, and reads at most ${limits.max_input_characters} input characters in a body of at most ${limits.max_body_bytes} bytes.`,
  ],
  'discovery-well-known': ({ endpoints }: DiscoveryBody) => {
    const paths = [...new Set(endpoints.map(({ url }) => new URL(url).pathname).filter((path) => path.startsWith('/.well-known/')))];
    return [`The site publishes ${paths.length} documents at well-known paths: ${listed(paths)}.`];
  },
  registry: ({ services }: RegistryBody) =>
    services.map(
      ({ id, name, pricing, accepted_payment_rails: rails, listing }) =>
        `${name} (${id}) costs ${pricing.amount} ${pricing.currency} ${pricing.unit} and accepts ${listed(rails)}; it is listed with status ${listing.status}, operated by ${listing.operated_by.replace(/_/g, ' ')}.`,
    ),
};

/** The sentences of each route above (by route id), made from the body it serves. */
export function dataSentences(): Array<{ routeId: string; sentences: string[] }> {
  return Object.entries(SENTENCES).map(([routeId, sentences]) => ({ routeId, sentences: sentences(staticBody(routeId) as never) }));
}
