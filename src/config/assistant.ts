/**
 * Configuration of the hosted assistant, read from the environment and validated once at start, so a
 * malformed value stops the server with a message naming the variable instead of failing a request
 * later. Only what this release uses is here: the signer probed by the signer-health endpoint.
 *
 * | variable            | default | meaning                                                           |
 * |---------------------|---------|-------------------------------------------------------------------|
 * | `SIGNER_URL`        | unset   | Base URL of the signer service; `${SIGNER_URL}/health` is probed.  |
 * | `SIGNER_TIMEOUT_MS` | 2000    | How long a probe may take, 100 to 30000 ms.                        |
 */
import { z } from 'zod';

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
