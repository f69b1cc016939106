/**
 * The local sandbox chain (`npm run sandbox`): an Explorer API v1 look-alike on loopback where a
 * newcomer or a test can mint Note boxes without testnet coins. It always listens on 127.0.0.1;
 * nothing here can point it at a public interface.
 *
 * | variable                | default                          | meaning                                                                 |
 * |-------------------------|----------------------------------|-------------------------------------------------------------------------|
 * | `SANDBOX_PORT`          | `4323`                           | port of `npm run sandbox` (always on 127.0.0.1)                         |
 * | `SANDBOX_START_HEIGHT`  | `1000`                           | height a new (or `--fresh`) chain starts at; a kept chain keeps its own |
 * | `SANDBOX_BLOCK_SECONDS` | `0`                              | a block every this many seconds; `0`: only on demand                    |
 * | `SANDBOX_CHAIN_FILE`    | `DATA_DIR/sandbox-chain.json`    | where `npm run sandbox` keeps its chain across restarts                 |
 * | `SANDBOX_URL`           | `http://127.0.0.1:$SANDBOX_PORT` | where `npm run sandbox:pay` finds the sandbox                           |
 */
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { integerVariable, readEnvironment } from './env.ts';
import { DATA_DIR_DEFAULT } from './store.ts';

export const SANDBOX_PORT_DEFAULT = 4323;
export const SANDBOX_START_HEIGHT_DEFAULT = 1_000;
export const SANDBOX_CHAIN_FILE_NAME = 'sandbox-chain.json';

const sandboxEnvironmentSchema = z.object({
  SANDBOX_PORT: integerVariable(0, 65_535, 'port').default(SANDBOX_PORT_DEFAULT),
  SANDBOX_START_HEIGHT: integerVariable(1, 2_000_000_000, 'blocks').default(SANDBOX_START_HEIGHT_DEFAULT),
  SANDBOX_BLOCK_SECONDS: integerVariable(0, 86_400, 'seconds').default(0),
  SANDBOX_CHAIN_FILE: z.string().min(1).optional(),
  SANDBOX_URL: z
    .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL such as http://127.0.0.1:4323' })
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
});

/** The variables the sandbox reads, for the test that the README's table names each of them. */
export const SANDBOX_VARIABLES = Object.keys(sandboxEnvironmentSchema.shape);

export interface SandboxConfig {
  port: number;
  /** Height a new chain starts at; a chain continued from `chainFile` keeps its own. */
  startHeight: number;
  /** A block is mined every this many seconds; 0 mines only on demand (each mint, `POST /sandbox/mine`). */
  blockSeconds: number;
  /** Absolute path of the file `npm run sandbox` keeps its chain in, so a restart still has its Notes. */
  chainFile: string;
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
    chainFile: resolve(values.SANDBOX_CHAIN_FILE ?? join(env.DATA_DIR?.trim() || DATA_DIR_DEFAULT, SANDBOX_CHAIN_FILE_NAME)),
    url: values.SANDBOX_URL ?? `http://127.0.0.1:${values.SANDBOX_PORT}`,
  };
}
