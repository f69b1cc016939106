/**
 * Spec 4.4: the developer services index (2.3), the developer tools (2.11) and the guarded testnet
 * faucet (2.12). The tools and the faucet payout are documented here with their request and answer
 * schemas; their handlers come with the Ergo inspection and faucet backend work, and until then the
 * dispatcher validates the body and answers 501.
 */
import { devServicesIndexSchema } from '../../../schemas/dev-services.ts';
import { devToolRequestSchema, devToolResultSchema, devToolsCatalogueSchema } from '../../../schemas/dev-tools.ts';
import { faucetDescriptorSchema, faucetPayoutSchema, faucetRequestSchema } from '../../../schemas/faucet.ts';
import { faucetConfig } from '../../config/faucet.ts';
import { buildDevServicesIndex, buildDevToolsCatalogue } from '../../descriptors/developer.ts';
import { buildFaucetDescriptor } from '../../descriptors/faucet.ts';
import { json, type ApiResponse } from '../../lib/api.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { publish } from '../published.ts';
import type { Route } from '../types.ts';

const servicesPublished = publish('dev-services-index.schema.v0.json', 'DevServicesIndex', 'Developer services index', devServicesIndexSchema);
const toolsCataloguePublished = publish('dev-tools-catalogue.schema.v0.json', 'DevToolsCatalogue', 'Developer tools catalogue', devToolsCatalogueSchema);
const toolRequestPublished = publish('dev-tool-request.schema.v0.json', 'DevToolRequest', 'Developer tool request', devToolRequestSchema, 'input');
const toolResultPublished = publish('dev-tool-result.schema.v0.json', 'DevToolResult', 'Developer tool result', devToolResultSchema);
const faucetDescriptorPublished = publish('faucet-descriptor.schema.v0.json', 'FaucetDescriptor', 'Faucet descriptor', faucetDescriptorSchema);
const faucetRequestPublished = publish('faucet-request.schema.v0.json', 'FaucetRequest', 'Faucet payout request', faucetRequestSchema, 'input');
const faucetPayoutPublished = publish('faucet-payout.schema.v0.json', 'FaucetPayout', 'Faucet payout accepted', faucetPayoutSchema);

/**
 * GET faucet descriptor. A configuration error is the operator's to fix: it is logged with the
 * variable it names and the client gets a 503 that names nothing secret.
 */
export function handleFaucetDescriptor(): ApiResponse {
  let config;
  try {
    config = faucetConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    throw new ProblemError(
      503,
      'faucet_misconfigured',
      'Faucet misconfigured',
      'The faucet configuration of this deployment is invalid, so its payout status cannot be reported; use a public Ergo testnet faucet meanwhile.',
    );
  }
  return json(200, buildFaucetDescriptor(config, new Date()), { 'cache-control': 'no-store' });
}

export function developerRoutes(): Route[] {
  return [
    {
      id: 'dev-services',
      kind: 'static',
      method: 'GET',
      path: '/api/dev/services',
      tag: 'Developer',
      summary: 'Developer services index',
      description:
        'Every endpoint of this build from the route table, each with its machine-readable URL and schema, human page and whether it answers yet; counts (including `counts.machine_readable`) and the probes to run, starting with `probes.agent_live`.',
      schema: servicesPublished,
      build: buildDevServicesIndex,
      describedBy: true,
      page: '/developers/',
    },
    {
      id: 'dev-tools-catalogue',
      kind: 'static',
      method: 'GET',
      path: '/api/dev/tools',
      tag: 'Developer',
      summary: 'Developer tools catalogue',
      description: 'The actions hash, address, box, tx and receipt with their inputs, limits and a working example request body each (a test vector with expected values).',
      schema: toolsCataloguePublished,
      build: buildDevToolsCatalogue,
      describedBy: true,
      page: '/developers/tools/',
    },
    {
      id: 'dev-tools',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/dev/tools',
      tag: 'Developer',
      summary: 'Inspect a hash, address, box, transaction or receipt',
      description:
        'Stateless inspection of one input: blake2b256, address decoding, box and transaction parsing with ids recomputed, receipt bundle re-verification. Never signs, broadcasts, mutates chain state or stores the input. `input` is at most 60000 characters.',
      request: toolRequestPublished,
      responses: {
        200: { description: 'Tool result: the action, its result and warnings; signs_transactions and broadcasts are false.', schema: toolResultPublished },
        400: {
          description:
            'Invalid request or unsupported action: code `invalid_request` (unknown action or key, empty or oversize input, an encoding the action does not accept, hex that is not whole bytes) or `invalid_input` (the input cannot be read as the action\'s object). `errors[]` names the field.',
        },
      },
      page: '/developers/tools/',
    },
    {
      id: 'faucet-descriptor',
      kind: 'dynamic',
      method: 'GET',
      path: '/api/dev/faucet',
      tag: 'Developer',
      summary: 'Faucet descriptor',
      description:
        'Read from the running configuration: whether payouts are enabled and a backend configured, the payout amount, the proof-of-work and rate-limit rules, the public fallback faucet, and the backend host without its secrets.',
      responses: {
        200: { description: 'Faucet descriptor.', schema: faucetDescriptorPublished },
        503: { description: 'The faucet configuration of this deployment is invalid: code `faucet_misconfigured`.' },
      },
      handler: handleFaucetDescriptor,
      page: '/developers/faucet/',
    },
    {
      id: 'faucet',
      kind: 'dynamic',
      method: 'POST',
      path: '/api/dev/faucet',
      tag: 'Developer',
      summary: 'Request a testnet payout',
      description:
        'The address is validated first; the request is forwarded to a dedicated backend wallet only when payouts are enabled, the proof of work holds and the limits allow it. The public site holds no faucet keys.',
      request: faucetRequestPublished,
      responses: {
        200: { description: 'The payout backend accepted the request.', schema: faucetPayoutPublished },
        400: {
          description:
            'Invalid JSON, unknown keys, a non-test-network or malformed address, or a missing or invalid challengeToken while proof of work is required. `errors[]` names the field.',
        },
        429: { description: 'Per-address or per-IP payout limit reached; `Retry-After` says when to try again.', headers: { 'retry-after': 'Seconds until a payout is allowed again.' } },
        502: { description: 'The payout backend failed or did not answer within its timeout; nothing was paid by this site.' },
        503: { description: 'Payouts guarded: no dedicated backend wallet is configured or payouts are disabled; use `public_fallback_url` of the faucet descriptor.' },
      },
      page: '/developers/faucet/',
    },
  ];
}
