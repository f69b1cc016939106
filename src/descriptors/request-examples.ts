/**
 * One working `curl` command per route, for the human API reference and `llms-full.txt`. POST bodies
 * are the examples the endpoints themselves publish (policy check, publish, accept, quote, tools),
 * parsed by the route's own request schema here, so a command that the endpoint would refuse fails
 * the build instead of reaching a reader. Where a body needs something only the caller has (a
 * testnet address, a Note box id), the command reads it from a named shell variable.
 */
import { buildPremiumQuote } from '../domain/assistant/pricing.ts';
import { x402RequirementsOf } from '../domain/assistant/x402.ts';
import { X402_NETWORKS } from '../../schemas/x402.ts';
import { examplePolicyCheckRequest } from '../domain/policy-examples.ts';
import { entryById } from '../catalogue/index.ts';
import type { Entry } from '../catalogue/types.ts';
import { curlGet, curlPostJson, hostedRouteUrl, shellQuote } from './commands.ts';
import { devToolEntry } from './developer.ts';
import { exampleAcceptanceIntent, exampleQuoteRequest } from './jobs.ts';
import { exampleServiceManifest } from './registry.ts';

export interface RequestExample {
  /** The shell command, ready to paste. */
  command: string;
  /** What the caller must set or expect, when the command alone does not say it. */
  note?: string;
}

const EXAMPLE_QUESTION = 'How do I check a wallet action against a policy before signing?';

/** Bodies published by the endpoints themselves, by route id. */
const PUBLISHED_BODIES: Record<string, () => unknown> = {
  'policy-check': () => examplePolicyCheckRequest,
  'dev-tools': () => devToolEntry('hash').example_request,
  publish: () => exampleServiceManifest(),
  'jobs-accept': () => exampleAcceptanceIntent(),
  'jobs-quote': () => exampleQuoteRequest(),
  'assistant-quote': () => ({ question: EXAMPLE_QUESTION }),
  'assistant-chat': () => ({ messages: [{ role: 'user', content: EXAMPLE_QUESTION }] }),
  a2a: () => ({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'example-message-1', role: 'ROLE_USER', parts: [{ text: EXAMPLE_QUESTION }] } } }),
};

/**
 * A facilitator body as a resource server sends it: the requirements exactly as the chat's
 * PAYMENT-REQUIRED offered them, twice (the facilitator refuses any difference), and the Note's
 * box id. Built as the service builds an offer, from an example quote; a caller's values come from
 * its own offer.
 */
function x402FacilitatorExample(): unknown {
  const quote = buildPremiumQuote({
    quoteId: 'q_7Hc2kR9mXw4pLzQ1vN8sTb',
    question: EXAMPLE_QUESTION,
    history: undefined,
    terms: {
      receiverAddress: exampleQuoteRequest().settlement.payee_address,
      reserveBoxId: '5a'.repeat(32),
      priceNanoErg: 10_000_000n,
      quoteLifetimeSeconds: 900,
      minConfirmations: 2,
      noteExpiryMarginBlocks: 30,
    },
    height: 1_200_000,
    now: new Date('2026-11-23T12:00:00.000Z'),
  });
  const requirements = x402RequirementsOf(quote, 900, X402_NETWORKS.testnet);
  return { x402Version: 2, paymentPayload: { x402Version: 2, accepted: requirements, payload: { noteBoxId: '7c'.repeat(32) } }, paymentRequirements: requirements };
}

const X402_EXAMPLE_SUMMARY = 'The requirements as offered, sent twice unchanged, and the box id of the Note paying them (example values).';

/** The values a caller supplies in the requests no published example can fill: shown as shapes. */
const SHAPE_EXAMPLES: Record<string, { summary: string; value: () => unknown }> = {
  faucet: {
    summary: 'A testnet address: use your own (this one is the jobs board\'s example payee). Add `challengeToken` when the faucet descriptor asks for proof of work.',
    value: () => ({ address: exampleQuoteRequest().settlement.payee_address }),
  },
  'assistant-verify-payment': {
    summary: 'The premium quote as POST /api/assistant/quote answered it (only `quoteId` is read), the question as quoted, and the box id of the Note you created on the testnet.',
    value: () => ({ quote: { quoteId: 'q_7Hc2kR9mXw4pLzQ1vN8sTb' }, question: EXAMPLE_QUESTION, noteBoxId: '5a'.repeat(32) }),
  },
  'x402-verify': { summary: X402_EXAMPLE_SUMMARY, value: x402FacilitatorExample },
  'x402-settle': { summary: X402_EXAMPLE_SUMMARY, value: x402FacilitatorExample },
};

/**
 * One request example per POST route for the OpenAPI document: the body the endpoint publishes, or
 * for the faucet and verify-payment the shape of a body with the caller's values marked. Each is
 * parsed by the route's request schema, so an example the endpoint would refuse fails the build.
 */
export function openApiRequestExample(routeId: string): { summary: string; value: unknown } | undefined {
  const route = entryById().get(routeId);
  if (!route || route.kind !== 'dynamic' || !route.request) return undefined;
  const published = PUBLISHED_BODIES[routeId];
  if (published) return { summary: 'The example this endpoint publishes.', value: checkedBody(route, published()) };
  const shape = SHAPE_EXAMPLES[routeId];
  return shape && { summary: shape.summary, value: checkedBody(route, shape.value()) };
}

/** The request body a POST route publishes as its example, by route id; undefined for routes without one. */
export function publishedRequestBody(routeId: string): unknown {
  return PUBLISHED_BODIES[routeId]?.();
}

/** The shell variable that fills a GET route's `{id}`, and where a caller finds a value for it. */
const PATH_IDS: Record<string, { variable: string; note: string }> = {
  'assistant-receipt': {
    variable: 'RECEIPT_ID',
    note: 'Set RECEIPT_ID to a receipt id or settlement transaction id, for example `summary.latest_full_receipt_id` of the live status.',
  },
  'assistant-quote-read': {
    variable: 'QUOTE_ID',
    note: 'Set QUOTE_ID to the `quoteId` of a premium quote from POST /api/assistant/quote.',
  },
};

function checkedBody(route: Entry, body: unknown): unknown {
  if (route.kind !== 'dynamic' || !route.request) return body;
  const parsed = route.request.schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new Error(`request example for ${route.id} does not match ${route.request.file}: ${issues}`);
  }
  return body;
}

/** The example for one route, or undefined when the route table has no such id. */
export function requestExample(routeId: string): RequestExample | undefined {
  const route = entryById().get(routeId);
  if (!route) return undefined;
  const url = hostedRouteUrl(routeId);
  if (route.method === 'GET') {
    const [prefix, suffix] = url.split('{id}');
    if (suffix === undefined) return { command: curlGet(url) };
    const { variable, note } = PATH_IDS[routeId] ?? { variable: 'ID', note: 'Set ID to the id the path names.' };
    return { command: `curl -sS ${shellQuote(prefix!)}"$${variable}"${suffix ? shellQuote(suffix) : ''}`, note };
  }
  const published = PUBLISHED_BODIES[routeId];
  if (published) return { command: curlPostJson(url, checkedBody(route, published())) };
  if (routeId === 'faucet') {
    return {
      command: `curl -sS -X POST ${shellQuote(url)} -H 'content-type: application/json' --data-binary '{"address":"'"$TESTNET_ADDRESS"'"}'`,
      note: 'Set TESTNET_ADDRESS to your own Ergo testnet address. Add `challengeToken` when the faucet descriptor asks for proof of work.',
    };
  }
  if (routeId === 'assistant-verify-payment') {
    const question = JSON.stringify(EXAMPLE_QUESTION);
    return {
      command:
        `QUOTE=$(${curlPostJson(hostedRouteUrl('assistant-quote'), { question: EXAMPLE_QUESTION })}) && ` +
        `curl -sS -X POST ${shellQuote(url)} -H 'content-type: application/json' ` +
        `--data-binary '{"quote":'"$QUOTE"',"question":'${shellQuote(question).slice(1, -1)}',"noteBoxId":"'"$NOTE_BOX_ID"'"}'`,
      note: 'Pay the premium quote with a Note box on the testnet first (its registers are spelled out in `noteRequirements`), then set NOTE_BOX_ID to that box id.',
    };
  }
  return { command: `curl -sS -X POST ${shellQuote(url)} -H 'content-type: application/json' --data-binary @request.json`, note: 'Write the request body to request.json.' };
}
