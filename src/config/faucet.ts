/**
 * Faucet configuration, read from the environment at run time (the faucet descriptor is answered per
 * request precisely because it depends on these values). Every variable is validated with zod; a bad
 * value fails with a message naming the variable and what it accepts, so a misconfigured deployment
 * is caught when the configuration is first read instead of paying out wrong amounts.
 */
import { z } from 'zod';

/** The public Ergo testnet faucet: where users are sent while payouts here are guarded. */
export const DEFAULT_FAUCET_FALLBACK_URL = 'https://tn-faucet.ergohost.io';

/** 1 ERG: enough for dozens of Note payments and their fees on the testnet. */
export const DEFAULT_FAUCET_AMOUNT_NANOERG = 1_000_000_000n;

/** Upper bound on one payout: a larger value is almost certainly a unit mistake (ERG typed as nanoERG). */
export const MAX_FAUCET_AMOUNT_NANOERG = 100_000_000_000n;

/**
 * 2^18 (about 262,000) blake2b256 evaluations on average: measured at about 74,000 a second with the
 * Fleet SDK's JavaScript blake2b on this project's 2-core machine, so a few seconds for one request
 * and a real cost for a thousand. 20 bits took about 14 s here, too long for a first try.
 */
export const DEFAULT_FAUCET_POW_BITS = 18;

/** Fixed anti-abuse parameters; documented in the faucet descriptor. */
export const FAUCET_EPOCH_SECONDS = 600;
/**
 * A challenge token is valid for its own epoch and the next, so a spent one is remembered this long
 * (through the rate limiter, shared by every instance when REDIS_URL is set); after that the epoch
 * check refuses it anyway.
 */
export const FAUCET_TOKEN_MEMORY_SECONDS = 2 * FAUCET_EPOCH_SECONDS;
export const FAUCET_PER_ADDRESS_LIMIT = Object.freeze({ max_payouts: 1, window_seconds: 86_400 });
export const FAUCET_PER_IP_LIMIT = Object.freeze({ max_payouts: 3, window_seconds: 86_400 });
/** How long a payout waits for the backend by default; FAUCET_BACKEND_TIMEOUT_MS overrides it. */
export const DEFAULT_FAUCET_BACKEND_TIMEOUT_MS = 10_000;
export const MIN_FAUCET_BACKEND_TIMEOUT_MS = 100;
export const MAX_FAUCET_BACKEND_TIMEOUT_MS = 60_000;

const unset = (value: string | undefined): value is undefined => value === undefined || value.trim() === '';

const booleanVariable = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true, false, 1 or 0' })
  .transform((value) => value === 'true' || value === '1');

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' });

const faucetEnvironmentSchema = z.object({
  FAUCET_ENABLED: booleanVariable.default(false),
  FAUCET_BACKEND_URL: httpUrl.optional(),
  FAUCET_AMOUNT_NANOERG: z
    .string()
    .regex(/^[1-9][0-9]{0,20}$/, 'must be a positive integer number of nanoERG, e.g. 1000000000 for 1 ERG')
    .transform((value) => BigInt(value))
    .refine((value) => value <= MAX_FAUCET_AMOUNT_NANOERG, `must be at most ${MAX_FAUCET_AMOUNT_NANOERG} nanoERG (100 ERG); check the unit`)
    .default(DEFAULT_FAUCET_AMOUNT_NANOERG),
  FAUCET_POW_BITS: z
    .string()
    .regex(/^[0-9]{1,2}$/, 'must be a whole number of bits from 0 to 32')
    .transform(Number)
    .refine((bits) => bits <= 32, 'must be at most 32 bits')
    .default(DEFAULT_FAUCET_POW_BITS),
  FAUCET_FALLBACK_URL: httpUrl.default(DEFAULT_FAUCET_FALLBACK_URL),
  FAUCET_BACKEND_TIMEOUT_MS: z
    .string()
    .regex(/^[0-9]{1,6}$/, `must be a whole number of milliseconds from ${MIN_FAUCET_BACKEND_TIMEOUT_MS} to ${MAX_FAUCET_BACKEND_TIMEOUT_MS}`)
    .transform(Number)
    .refine(
      (ms) => ms >= MIN_FAUCET_BACKEND_TIMEOUT_MS && ms <= MAX_FAUCET_BACKEND_TIMEOUT_MS,
      `must be a whole number of milliseconds from ${MIN_FAUCET_BACKEND_TIMEOUT_MS} to ${MAX_FAUCET_BACKEND_TIMEOUT_MS}`,
    )
    .default(DEFAULT_FAUCET_BACKEND_TIMEOUT_MS),
});

export interface FaucetConfig {
  /** Payouts are on: FAUCET_ENABLED and a backend URL. */
  enabled: boolean;
  /** The backend URL, with any credentials it carries; never published. */
  backendUrl: URL | null;
  amountNanoErg: bigint;
  powBits: number;
  fallbackUrl: string;
  /** The most a payout waits for the backend, connection and answer included. */
  backendTimeoutMs: number;
}

/**
 * Reads and validates the faucet variables. Empty strings count as unset. Throws an Error that
 * names the variable when one is malformed, or when FAUCET_ENABLED asks for payouts without a backend.
 */
export function loadFaucetConfig(env: Record<string, string | undefined> = process.env): FaucetConfig {
  const names = Object.keys(faucetEnvironmentSchema.shape) as Array<keyof typeof faucetEnvironmentSchema.shape>;
  const given = Object.fromEntries(names.filter((name) => !unset(env[name])).map((name) => [name, env[name]!.trim()]));
  const parsed = faucetEnvironmentSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0]);
    // The backend URL may carry credentials: never repeat its value in an error that could be logged.
    const shown = variable === 'FAUCET_BACKEND_URL' ? '' : ` (got "${given[variable]}")`;
    throw new Error(`faucet configuration: ${variable} ${issue.message}${shown}`);
  }
  const values = parsed.data;
  if (values.FAUCET_ENABLED && !values.FAUCET_BACKEND_URL) {
    throw new Error(
      'faucet configuration: FAUCET_ENABLED is true but FAUCET_BACKEND_URL is not set; set the URL of the dedicated payout backend, or set FAUCET_ENABLED=false to keep payouts guarded',
    );
  }
  const backendUrl = values.FAUCET_BACKEND_URL ? new URL(values.FAUCET_BACKEND_URL) : null;
  return {
    enabled: values.FAUCET_ENABLED && backendUrl !== null,
    backendUrl,
    amountNanoErg: values.FAUCET_AMOUNT_NANOERG,
    powBits: values.FAUCET_POW_BITS,
    fallbackUrl: values.FAUCET_FALLBACK_URL,
    backendTimeoutMs: values.FAUCET_BACKEND_TIMEOUT_MS,
  };
}

let cached: FaucetConfig | undefined;

/** The process's faucet configuration, read once; call it at server start to fail fast on bad values. */
export function faucetConfig(): FaucetConfig {
  cached ??= loadFaucetConfig();
  return cached;
}

/** Host (and port) of the backend for publication: no credentials, path or query. */
export function publicBackendHost(config: FaucetConfig): string | null {
  return config.backendUrl ? config.backendUrl.host : null;
}
