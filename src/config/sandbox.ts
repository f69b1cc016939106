/**
 * The local sandbox chain (`npm run sandbox`): an Explorer API v1 look-alike on loopback where a
 * newcomer or a test can mint Note boxes without testnet coins. It always listens on 127.0.0.1;
 * nothing here can point it at a public interface.
 */
import { z } from 'zod';
import { integerVariable, readEnvironment } from './env.ts';

export const SANDBOX_PORT_DEFAULT = 4323;
export const SANDBOX_START_HEIGHT_DEFAULT = 1_000;

const sandboxEnvironmentSchema = z.object({
  SANDBOX_PORT: integerVariable(0, 65_535, 'port').default(SANDBOX_PORT_DEFAULT),
  SANDBOX_START_HEIGHT: integerVariable(1, 2_000_000_000, 'blocks').default(SANDBOX_START_HEIGHT_DEFAULT),
  SANDBOX_BLOCK_SECONDS: integerVariable(0, 86_400, 'seconds').default(0),
  SANDBOX_URL: z
    .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL such as http://127.0.0.1:4323' })
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
});

export interface SandboxConfig {
  port: number;
  startHeight: number;
  /** A block is mined every this many seconds; 0 mines only on demand (each mint, `POST /sandbox/mine`). */
  blockSeconds: number;
  /** Where `npm run sandbox:pay` finds the sandbox. */
  url: string;
}

/** Reads the sandbox variables; throws naming the variable. */
export function loadSandboxConfig(env: Record<string, string | undefined> = process.env): SandboxConfig {
  const values = readEnvironment('sandbox configuration', sandboxEnvironmentSchema, env);
  return {
    port: values.SANDBOX_PORT,
    startHeight: values.SANDBOX_START_HEIGHT,
    blockSeconds: values.SANDBOX_BLOCK_SECONDS,
    url: values.SANDBOX_URL ?? `http://127.0.0.1:${values.SANDBOX_PORT}`,
  };
}
