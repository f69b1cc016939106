/**
 * Builder of the faucet descriptor: a pure function of the faucet configuration and the time, so the
 * runtime handler answers with what the running process is actually configured to do, and tests can
 * build it for any configuration. The backend URL is reduced to its host: never its credentials,
 * path or query.
 */
import content from '../../content/faucet.json' with { type: 'json' };
import type { FaucetDescriptor } from '../../schemas/faucet.ts';
import {
  FAUCET_EPOCH_SECONDS,
  FAUCET_PER_ADDRESS_LIMIT,
  FAUCET_PER_IP_LIMIT,
  publicBackendHost,
  type FaucetConfig,
} from '../config/faucet.ts';
import { typeName } from '../config/site.ts';
import { formatNanoErg } from '../domain/money.ts';
import { routeSchemaUrl, routeUrl } from '../catalogue/lookup.ts';
import { POSTURE } from './common.ts';

export function buildFaucetDescriptor(config: FaucetConfig, now: Date): FaucetDescriptor {
  return {
    ok: true,
    type: typeName('agent_economy.faucet_descriptor.v0'),
    version: 'v0',
    status: config.enabled ? 'payouts_enabled' : 'payouts_guarded',
    // Made at request time from the running configuration, as the live status is: dated the day it is made.
    last_updated: now.toISOString().slice(0, 10),
    checked_at: now.toISOString(),
    enabled: config.enabled,
    configured: config.backendUrl !== null,
    network: 'testnet',
    amount: { nanoerg: config.amountNanoErg.toString(), erg: formatNanoErg(config.amountNanoErg) },
    request: { endpoint: routeUrl('faucet'), method: 'POST', schema: routeSchemaUrl('faucet') },
    anti_abuse: {
      scheme: 'proof_of_work_blake2b256',
      difficulty_bits: config.powBits,
      required: config.powBits > 0,
      challenge: {
        endpoint: routeUrl('faucet-descriptor'),
        epoch_seconds: FAUCET_EPOCH_SECONDS,
        current_epoch: Math.floor(now.getTime() / 1000 / FAUCET_EPOCH_SECONDS),
        accepted_epochs: 'current_and_previous',
        preimage: '<address>:<epoch>:<nonce>',
        token: '<epoch>:<nonce>',
        nonce_pattern: '^[0-9a-z]{1,32}$',
        rule: content.challenge_rule,
      },
      limits: { per_address: { ...FAUCET_PER_ADDRESS_LIMIT }, per_ip: { ...FAUCET_PER_IP_LIMIT } },
      order: content.check_order,
    },
    public_fallback_url: config.fallbackUrl,
    backend: {
      configured: config.backendUrl !== null,
      host: publicBackendHost(config),
      timeout_ms: config.backendTimeoutMs,
      site_holds_signing_keys: false,
    },
    posture: POSTURE,
  };
}
