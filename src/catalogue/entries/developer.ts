/**
 * Spec 4.4: the developer services index (2.3), the developer tools (2.11) and the guarded testnet
 * faucet (2.12). The handlers are thin: the tools are pure functions in `src/domain/dev-tools.ts`,
 * the payout flow is `src/routes/faucet/payout.ts` over the faucet services in `src/services/faucet/`.
 */
import { devServicesIndexSchema } from '../../../schemas/dev-services.ts';
import { devToolRequestSchema } from '../../../schemas/dev-tools.ts';
import { devToolResultSchema } from '../../../schemas/dev-tool-results.ts';
import { devToolsCatalogueSchema } from '../../../schemas/dev-tools-catalogue.ts';
import { faucetDescriptorSchema, faucetPayoutSchema, faucetRequestSchema } from '../../../schemas/faucet.ts';
import { FAUCET_EPOCH_SECONDS } from '../../config/faucet.ts';
import { publish } from '../published.ts';
import type { Entry } from '../types.ts';

const servicesPublished = publish('dev-services-index.schema.v0.json', 'DevServicesIndex', 'Developer services index', devServicesIndexSchema);
const toolsCataloguePublished = publish('dev-tools-catalogue.schema.v0.json', 'DevToolsCatalogue', 'Developer tools catalogue', devToolsCatalogueSchema);
const toolRequestPublished = publish('dev-tool-request.schema.v0.json', 'DevToolRequest', 'Developer tool request', devToolRequestSchema, 'input');
const toolResultPublished = publish('dev-tool-result.schema.v0.json', 'DevToolResult', 'Developer tool result', devToolResultSchema);
const faucetDescriptorPublished = publish('faucet-descriptor.schema.v0.json', 'FaucetDescriptor', 'Faucet descriptor', faucetDescriptorSchema);
const faucetRequestPublished = publish('faucet-request.schema.v0.json', 'FaucetRequest', 'Faucet payout request', faucetRequestSchema, 'input');
const faucetPayoutPublished = publish('faucet-payout.schema.v0.json', 'FaucetPayout', 'Faucet payout accepted', faucetPayoutSchema);

export const DEVELOPER_ENTRIES: readonly Entry[] = [
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
        'Stateless inspection of one input: blake2b256, address decoding, box and transaction parsing with ids recomputed, a check that a receipt bundle agrees with itself (not that it happened on chain: no chain is read). Never signs, broadcasts, mutates chain state or stores the input. `input` is at most 60000 characters.',
      request: toolRequestPublished,
      responses: {
        200: { description: 'Tool result: the action, its result and warnings; signs_transactions and broadcasts are false.', schema: toolResultPublished },
        400: {
          description:
            'Invalid request or unsupported action: code `invalid_request` (unknown action or key, empty input or one over 60000 characters, an encoding the action does not accept, hex that is not whole bytes) or `invalid_input` (the input cannot be read as the action\'s object; errors[0].code says why: truncated_bytes, trailing_bytes, non_canonical, malformed, malformed_register, value_out_of_range, box_too_large, not_json, too_deeply_nested, invalid_box_json, invalid_transaction_json, ergo_tree_version_unsupported, not_a_bundle, receipt_id_not_bundle). `errors[]` names the field. An invalid address is not an error: it is answered 200 with `valid: false` and the reason.',
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
        `Read from the running configuration: whether payouts are enabled and a backend configured, the payout amount, the proof-of-work and rate-limit rules, the public fallback faucet, and the backend host without its secrets. The proof of work: with epoch = floor(unix seconds / ${FAUCET_EPOCH_SECONDS}), find a nonce (1 to 32 characters 0-9, a-z) such that blake2b256 of the UTF-8 text "<address>:<epoch>:<nonce>" starts with anti_abuse.difficulty_bits zero bits, and send "<epoch>:<nonce>" as challengeToken. A token is bound to its address, accepted during its epoch and the next, and spent by the request it unlocks. \`npm run faucet:solve -- <testnet address>\` prints one.`,
      responses: {
        200: { description: 'Faucet descriptor.', schema: faucetDescriptorPublished },
        503: { description: 'The faucet configuration of this deployment is invalid: code `faucet_misconfigured`.' },
      },
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
        'Checks run in this order: the body; the address (decoded and required to be a testnet address); whether payouts are enabled with a dedicated backend wallet; the proof of work (challengeToken, see the faucet descriptor) and its single use; the per-address and per-IP limits. Only then is the request forwarded to the backend wallet, which signs; this site holds no faucet keys. Spent tokens and both limits live in the rate limiter, so with Redis configured every instance sees the same ones; without it, each instance keeps its own in memory until they expire.',
      request: faucetRequestPublished,
      responses: {
        200: {
          description: 'The payout backend accepted the request.',
          schema: faucetPayoutPublished,
          headers: { RateLimit: 'limit, remaining and reset of the payout limit (per address or per IP) with the fewest payouts left.' },
        },
        400: {
          description:
            'Refused before any payout: `invalid_request`/`invalid_json` (the body), `invalid_address` (errors[0].code says why: encoding, length, checksum, prefix, public_key, ergo_tree), `not_testnet_address`, `invalid_challenge_token` (errors[0].code: missing, malformed, expired, not_yet_valid, insufficient_work) or `challenge_token_used` (a replayed token). `errors[]` names the field.',
        },
        429: {
          description: '`faucet_limit_reached`: the per-address or per-IP payout limit is used up; `Retry-After` says when to try again.',
          headers: { 'Retry-After': 'Seconds until a payout is allowed again.', RateLimit: 'limit, remaining and reset of the limit that refused.' },
        },
        502: {
          description:
            'The payout backend failed: `faucet_backend_timeout` (no answer within `backend.timeout_ms`; the payout may still arrive), `faucet_backend_unreachable` (nothing was paid) or `faucet_backend_error` (it answered with an error status).',
        },
        503: {
          description:
            '`faucet_payouts_guarded`: no dedicated backend wallet is configured or payouts are disabled; `faucet_backend_unavailable`: the backend answered 429 or 503 (busy or out of funds); `faucet_misconfigured`. The body carries `public_fallback_url`, the public testnet faucet to use instead.',
        },
      },
      page: '/developers/faucet/',
    },
];

