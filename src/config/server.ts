/**
 * Where the HTTP server listens, and its own limits. A client that trickles its headers or body is
 * cut off when the limits run out, so slow clients cannot hold connections open.
 */
import { z } from 'zod';
import { DEFAULT_HOST, DEFAULT_PORT } from './build-origin.ts';
import { integerVariable, readEnvironment } from './env.ts';

const listenSchema = z.object({
  HOST: z.string().min(1).default(DEFAULT_HOST).describe('Address the site listens on.'),
  PORT: integerVariable(0, 65_535, 'port').default(DEFAULT_PORT).describe('Port the site listens on; 0 picks a free one.'),
});

export interface ListenConfig {
  host: string;
  port: number;
}

export function loadListenConfig(env: Record<string, string | undefined> = process.env): ListenConfig {
  const values = readEnvironment('server configuration', listenSchema, env);
  return { host: values.HOST, port: values.PORT };
}

const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(600_000).default(fallback);

const serverConfigSchema = z.object({
  SERVER_HEADERS_TIMEOUT_MS: milliseconds(10_000).describe('Time allowed to receive the complete request headers.'),
  SERVER_REQUEST_TIMEOUT_MS: milliseconds(30_000).describe('Time allowed to receive the complete request.'),
  SERVER_KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000).describe('Idle time before a keep-alive connection is closed.'),
});

export type ServerConfig = z.infer<typeof serverConfigSchema>;

export function loadServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const parsed = serverConfigSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`server configuration: ${String(issue.path[0])} ${issue.message} (an integer of milliseconds, 100 to 600000)`);
  }
  return parsed.data;
}
