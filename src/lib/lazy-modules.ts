/**
 * Outside libraries a process may never use, loaded on first use rather than at start: a server
 * just started owes its first requests the ~100 ms undici and ~30 ms pg take to load (the chain
 * client, the faucet and the OpenAI provider make their first call later, and the embedded store
 * never needs pg). Both are CommonJS packages, so a synchronous require is their own module.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import type * as Pg from 'pg';

const load = createRequire(import.meta.url);
let undiciModule: typeof Undici | undefined;
let pgModule: typeof Pg | undefined;

export const undici = (): typeof Undici => (undiciModule ??= load('undici') as typeof Undici);
export const pg = (): typeof Pg => (pgModule ??= load('pg') as typeof Pg);
