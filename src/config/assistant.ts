/**
 * Configuration of the hosted assistant, read from the environment and validated once at start, so a
 * malformed value stops the server with a message naming the variable instead of failing a request
 * later: the signer probed by the signer-health endpoint, the terms of the paid turn (receiver,
 * reserve, price, lifetimes, Note tolerances, free tier) and the model provider that answers chat.
 *
 * | variable            | default | meaning                                                           |
 * |---------------------|---------|-------------------------------------------------------------------|
 * | `SIGNER_URL`        | unset   | Base URL of the signer service; `${SIGNER_URL}/health` is probed.  |
 * | `SIGNER_TIMEOUT_MS` | 2000    | How long a probe may take, 100 to 30000 ms.                        |
 */
import { ErgoAddress, Network, validateAddress } from '@fleet-sdk/core';
import { z } from 'zod';
import { integerVariable, readEnvironment } from './env.ts';

export const SIGNER_TIMEOUT_MS_DEFAULT = 2000;

export const signerConfigSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/ })
    .transform((value) => value.replace(/\/+$/, ''))
    .nullable()
    .describe('Base URL of the signer service, without trailing slash; null when no signer is configured.'),
  timeoutMs: z.int().min(100).max(30_000).describe('Upper bound of one health probe, in milliseconds.'),
});
export type SignerConfig = z.output<typeof signerConfigSchema>;

export const assistantConfigSchema = z.strictObject({ signer: signerConfigSchema });
export type AssistantConfig = z.output<typeof assistantConfigSchema>;

/** Environment variable -> what it must look like, for error messages. */
const VARIABLES: Record<string, { path: string; expected: string }> = {
  SIGNER_URL: { path: 'signer.url', expected: 'an absolute http(s) URL such as http://127.0.0.1:8700 (the signer base; /health is appended)' },
  SIGNER_TIMEOUT_MS: { path: 'signer.timeoutMs', expected: 'an integer number of milliseconds from 100 to 30000' },
};

const setOrUndefined = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/**
 * Reads the assistant configuration from `env`. Throws a message naming the variable and what it
 * must look like; the value itself is not echoed, since URLs may carry credentials.
 */
export function loadAssistantConfig(env: Record<string, string | undefined> = process.env): AssistantConfig {
  const timeout = setOrUndefined(env.SIGNER_TIMEOUT_MS);
  const candidate = {
    signer: {
      url: setOrUndefined(env.SIGNER_URL) ?? null,
      timeoutMs: timeout === undefined ? SIGNER_TIMEOUT_MS_DEFAULT : /^[0-9]+$/.test(timeout) ? Number(timeout) : Number.NaN,
    },
  };
  const parsed = assistantConfigSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.');
    const variable = Object.entries(VARIABLES).find(([, entry]) => entry.path === path);
    throw new Error(
      variable
        ? `assistant configuration: ${variable[0]} must be ${variable[1].expected}`
        : `assistant configuration: ${path || '(root)'} ${issue.message}`,
    );
  }
  return parsed.data;
}

export const assistantConfig: AssistantConfig = loadAssistantConfig();

// ---------------------------------------------------------------------------------------------
// The paid turn and the model provider
// ---------------------------------------------------------------------------------------------
// Each variable, its default and its meaning is a row of the README's configuration table.

/** Fleet's validator throws on characters outside base58 rather than answering false. */
function isErgoAddress(value: string): boolean {
  try {
    return validateAddress(value);
  } catch {
    return false;
  }
}

const paidTurnEnvironmentSchema = z.object({
  ASSISTANT_RECEIVER_ADDRESS: z
    .string()
    .refine(isErgoAddress, 'must be a valid base58 Ergo address')
    .refine((value) => !isErgoAddress(value) || ErgoAddress.getNetworkType(value) === Network.Testnet, 'must be a testnet address (this service acts only on the Ergo testnet)')
    .optional(),
  ASSISTANT_RESERVE_BOX_ID: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be a box id: 64 hexadecimal characters')
    .transform((value) => value.toLowerCase())
    .optional(),
  ASSISTANT_PRICE_NANOERG: z
    .string()
    .regex(/^[1-9][0-9]{0,18}$/, 'must be a positive whole number of nanoERG, e.g. 10000000 for 0.01 ERG')
    .transform((value) => BigInt(value))
    .default(10_000_000n),
  ASSISTANT_QUOTE_LIFETIME_SECONDS: integerVariable(1, 86_400, 'seconds').default(900),
  ASSISTANT_MIN_CONFIRMATIONS: integerVariable(1, 1_000, 'blocks').default(1),
  ASSISTANT_NOTE_EXPIRY_MARGIN_BLOCKS: integerVariable(1, 1_000_000, 'blocks').default(720),
  ASSISTANT_CREATION_HEIGHT_TOLERANCE_BLOCKS: integerVariable(0, 1_000, 'blocks').default(10),
  ASSISTANT_FREE_MAX_CHARACTERS: integerVariable(0, 4_000, 'characters').default(200),
  ASSISTANT_FREE_DAILY_LIMIT: integerVariable(0, 100_000, 'turns').default(5),
  ASSISTANT_TOKEN_LIFETIME_SECONDS: integerVariable(60, 86_400, 'seconds').default(1_800),
});

/** What a premium quote offers and how a Note is judged against it. */
export interface PaidTurnConfig {
  /** Null when unset: premium quotes then answer 503 `payment_unconfigured`. */
  receiverAddress: string | null;
  reserveBoxId: string | null;
  priceNanoErg: bigint;
  quoteLifetimeSeconds: number;
  minConfirmations: number;
  noteExpiryMarginBlocks: number;
  creationHeightToleranceBlocks: number;
  freeTier: { maxCharacters: number; dailyLimit: number };
  tokenLifetimeSeconds: number;
}

/** Reads the paid-turn variables; throws naming the variable and what it accepts. Empty counts as unset. */
export function loadPaidTurnConfig(env: Record<string, string | undefined> = process.env): PaidTurnConfig {
  const values = readEnvironment('assistant configuration', paidTurnEnvironmentSchema, env);
  return {
    receiverAddress: values.ASSISTANT_RECEIVER_ADDRESS ?? null,
    reserveBoxId: values.ASSISTANT_RESERVE_BOX_ID ?? null,
    priceNanoErg: values.ASSISTANT_PRICE_NANOERG,
    quoteLifetimeSeconds: values.ASSISTANT_QUOTE_LIFETIME_SECONDS,
    minConfirmations: values.ASSISTANT_MIN_CONFIRMATIONS,
    noteExpiryMarginBlocks: values.ASSISTANT_NOTE_EXPIRY_MARGIN_BLOCKS,
    creationHeightToleranceBlocks: values.ASSISTANT_CREATION_HEIGHT_TOLERANCE_BLOCKS,
    freeTier: { maxCharacters: values.ASSISTANT_FREE_MAX_CHARACTERS, dailyLimit: values.ASSISTANT_FREE_DAILY_LIMIT },
    tokenLifetimeSeconds: values.ASSISTANT_TOKEN_LIFETIME_SECONDS,
  };
}

export const MODEL_PROVIDER_NAMES = ['docs', 'openai', 'none'] as const;
export const OPENAI_BASE_URL_DEFAULT = 'https://api.openai.com/v1';

const modelEnvironmentSchema = z.object({
  ASSISTANT_MODEL_PROVIDER: z.enum(MODEL_PROVIDER_NAMES, { message: 'must be docs, openai or none' }).default('docs'),
  OPENAI_BASE_URL: z
    .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL such as https://api.openai.com/v1' })
    .transform((value) => value.replace(/\/+$/, ''))
    .default(OPENAI_BASE_URL_DEFAULT),
  OPENAI_MODEL: z.string().min(1).max(200).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  MODEL_TIMEOUT_MS: integerVariable(100, 120_000, 'milliseconds').default(20_000),
});

export type ModelConfig =
  | { provider: 'docs'; timeoutMs: number }
  | { provider: 'none'; timeoutMs: number }
  | { provider: 'openai'; timeoutMs: number; baseUrl: string; model: string; apiKey: string | null };

/** Reads the model provider variables; the URL and key are never echoed in an error, they may be secret. */
export function loadModelConfig(env: Record<string, string | undefined> = process.env): ModelConfig {
  const values = readEnvironment('assistant configuration', modelEnvironmentSchema, env);
  if (values.ASSISTANT_MODEL_PROVIDER !== 'openai') return { provider: values.ASSISTANT_MODEL_PROVIDER, timeoutMs: values.MODEL_TIMEOUT_MS };
  if (!values.OPENAI_MODEL) {
    throw new Error('assistant configuration: OPENAI_MODEL must be set when ASSISTANT_MODEL_PROVIDER is openai (the model name the server expects)');
  }
  return {
    provider: 'openai',
    timeoutMs: values.MODEL_TIMEOUT_MS,
    baseUrl: values.OPENAI_BASE_URL,
    model: values.OPENAI_MODEL,
    apiKey: values.OPENAI_API_KEY ?? null,
  };
}

export const paidTurnConfig: PaidTurnConfig = loadPaidTurnConfig();
export const modelConfig: ModelConfig = loadModelConfig();
