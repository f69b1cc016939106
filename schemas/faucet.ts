/**
 * The guarded testnet faucet (spec 2.12, 4.4): the descriptor (`GET /api/dev/faucet`, read from the
 * run-time configuration), the payout request and the payout answer. The public site holds no
 * faucet keys: a payout is forwarded to a dedicated backend wallet, and only when payouts are
 * enabled and the address, the proof of work and the limits have passed.
 */
import { z } from 'zod';
import { absoluteUrl, ergDecimal, hex64, isoDate, isoDateTime, nanoErgString, postureSchema, typeLiteral, versionV0 } from './common.ts';

/** Longest accepted address, in characters: P2PK addresses have 51, P2S addresses grow with the script. */
export const FAUCET_ADDRESS_MAX_CHARACTERS = 1024;

/** `<epoch>:<nonce>`: the epoch number in decimal, then 1 to 32 lower-case letters or digits. */
export const CHALLENGE_TOKEN_PATTERN = /^[0-9]{1,12}:[0-9a-z]{1,32}$/;

/** Spec 2.12. */
export const faucetRequestSchema = z
  .strictObject({
    address: z
      .string()
      .min(1)
      .max(FAUCET_ADDRESS_MAX_CHARACTERS)
      .regex(/^[1-9A-HJ-NP-Za-km-z]+$/, 'must be a base58 Ergo address')
      .describe(
        `Ergo testnet address to pay (base58, at most ${FAUCET_ADDRESS_MAX_CHARACTERS} characters). It is decoded and its network prefix checked first; a mainnet or malformed address answers 400 before anything else runs.`,
      ),
    challengeToken: z
      .string()
      .regex(CHALLENGE_TOKEN_PATTERN, 'must be "<epoch>:<nonce>": a decimal epoch, a colon, then 1 to 32 characters 0-9 or a-z')
      .optional()
      .describe(
        'Anti-abuse proof of work, `<epoch>:<nonce>`: blake2b256 of the UTF-8 text `<address>:<epoch>:<nonce>` must start with at least `anti_abuse.difficulty_bits` zero bits (see the faucet descriptor). Required whenever difficulty_bits is above 0.',
      ),
  })
  .describe('Faucet payout request. No keys besides address and challengeToken.');
export type FaucetRequest = z.infer<typeof faucetRequestSchema>;

export const payoutAmountSchema = z
  .object({
    nanoerg: nanoErgString.describe('Payout per request in nanoERG.'),
    erg: ergDecimal.describe('The same amount in ERG.'),
  })
  .describe('Amount of one payout.');

const rateLimitSchema = z.object({
  max_payouts: z.int().min(1).describe('Payouts allowed in one window.'),
  window_seconds: z.int().min(1).describe('Window length in seconds.'),
});

export const faucetDescriptorSchema = z
  .object({
    ok: z.literal(true).describe('Constant true: the descriptor answered (payouts may still be off).'),
    type: typeLiteral('agent_economy.faucet_descriptor.v0'),
    version: versionV0,
    status: z
      .enum(['payouts_enabled', 'payouts_guarded'])
      .describe('`payouts_enabled`: POST pays out through the backend; `payouts_guarded`: POST answers 503 and `public_fallback_url` is the way to get testnet ERG.'),
    last_updated: isoDate,
    checked_at: isoDateTime.describe('When this descriptor was produced from the running configuration.'),
    enabled: z.boolean().describe('Whether payouts are on: FAUCET_ENABLED is true and a backend is configured.'),
    configured: z.boolean().describe('Whether a dedicated payout backend is configured (FAUCET_BACKEND_URL).'),
    network: z.literal('testnet').describe('The only network paid on.'),
    amount: payoutAmountSchema,
    request: z
      .object({
        endpoint: absoluteUrl.describe('POST a payout request here.'),
        method: z.literal('POST').describe('HTTP method.'),
        schema: absoluteUrl.describe('JSON Schema of the request body.'),
      })
      .describe('How to ask for a payout.'),
    anti_abuse: z
      .object({
        scheme: z.literal('proof_of_work_blake2b256').describe('A stateless proof of work bound to the address and a time epoch.'),
        difficulty_bits: z.int().min(0).max(32).describe('Leading zero bits the digest needs; 0 turns the proof of work off.'),
        required: z.boolean().describe('Whether `challengeToken` must be sent (difficulty_bits above 0).'),
        challenge: z
          .object({
            endpoint: absoluteUrl.describe('Where the current parameters are published: this descriptor.'),
            epoch_seconds: z.int().min(1).describe('Length of one epoch; epoch = floor(unix seconds / epoch_seconds).'),
            current_epoch: z.int().min(0).describe('The epoch when this descriptor was produced.'),
            accepted_epochs: z.literal('current_and_previous').describe('A token for the current or the previous epoch is accepted.'),
            preimage: z.literal('<address>:<epoch>:<nonce>').describe('UTF-8 text that is hashed.'),
            token: z.literal('<epoch>:<nonce>').describe('What to send as `challengeToken`.'),
            nonce_pattern: z.literal('^[0-9a-z]{1,32}$').describe('Allowed nonce characters.'),
            rule: z.string().min(1).describe('The acceptance rule in words.'),
          })
          .describe('How to compute `challengeToken`.'),
        limits: z
          .object({
            per_address: rateLimitSchema.describe(
              'Payouts to one address, counted per key or script the address pays: a P2PK address and the P2S addresses whose tree is that one key (with or without constant segregation or the size flag, under any header version) share one count.',
            ),
            per_ip: rateLimitSchema.describe('Payouts requested from one client IP.'),
          })
          .describe('Payout limits; beyond them POST answers 429 with Retry-After.'),
        order: z.array(z.string().min(1)).min(1).describe('The order of checks a payout request goes through.'),
      })
      .describe('Anti-abuse posture.'),
    public_fallback_url: absoluteUrl.describe('Public Ergo testnet faucet to use when payouts here are guarded.'),
    backend: z
      .object({
        configured: z.boolean().describe('Whether a payout backend URL is set.'),
        host: z.string().nullable().describe('Host name (and port) of the backend, or null; never its credentials, path or query.'),
        timeout_ms: z.int().min(1).describe('How long a payout waits for the backend before answering 502.'),
        site_holds_signing_keys: z.literal(false).describe('Constant false: the keys are in the backend wallet, never on this site.'),
      })
      .describe('The payout backend, without its secrets.'),
    posture: postureSchema,
  })
  .describe('Faucet descriptor: whether testnet payouts are on, how much, the anti-abuse rules and the public fallback.');
export type FaucetDescriptor = z.infer<typeof faucetDescriptorSchema>;

export const faucetPayoutSchema = z
  .object({
    ok: z.literal(true).describe('Constant true: the backend accepted the payout.'),
    type: typeLiteral('agent_economy.faucet_payout.v0'),
    version: versionV0,
    status: z.literal('accepted_by_backend').describe('The dedicated backend wallet accepted the payout request.'),
    address: z.string().min(1).describe('Testnet address paid.'),
    network: z.literal('testnet').describe('Network of the payout.'),
    amount: payoutAmountSchema,
    transaction_id: hex64.nullable().describe('Payout transaction id when the backend reports it, else null (the backend may batch payouts).'),
    backend_reference: z.string().min(1).max(200).nullable().describe('Reference the backend gave the request, for support; null when none.'),
    accepted_at: isoDateTime.describe('When the backend accepted it.'),
    posture: postureSchema,
  })
  .describe('Faucet payout accepted by the backend wallet. Testnet ERG only.');
export type FaucetPayout = z.infer<typeof faucetPayoutSchema>;

/**
 * What this site sends the dedicated payout backend (`POST FAUCET_BACKEND_URL`). The backend wallet
 * signs and sends the payout; this site never holds its keys. Not published: it is the contract
 * between this site and its operator's backend, documented in the README.
 */
export const faucetBackendRequestSchema = z.object({
  address: z.string().min(1).describe('Testnet address to pay, already validated.'),
  amount_nanoerg: nanoErgString.describe('Amount to pay in nanoERG.'),
  network: z.literal('testnet').describe('Always testnet.'),
  request_id: z.uuid().describe('Unique id of this payout request, for the backend\'s idempotency and logs.'),
});
export type FaucetBackendRequest = z.infer<typeof faucetBackendRequestSchema>;

/**
 * The backend's 2xx answer. Every field is optional: a 2xx alone means accepted. The transaction
 * id is read under the names backends commonly use.
 */
export const faucetBackendAnswerSchema = z.looseObject({
  transaction_id: hex64.optional(),
  transactionId: hex64.optional(),
  txId: hex64.optional(),
  reference: z.string().min(1).max(200).optional(),
});
