/**
 * Configuration of the MCP host (`npm run mcp`), read from the environment and validated once at
 * start, so a malformed value stops the process with a message naming the variable.
 *
 * | variable                      | default                                    | meaning                                                                                |
 * |-------------------------------|--------------------------------------------|----------------------------------------------------------------------------------------|
 * | `HOST`                        | `127.0.0.1`                                | address the MCP host listens on (shared with the site)                                 |
 * | `MCP_PORT`                    | `4322`                                     | port the MCP host listens on                                                           |
 * | `MCP_API_KEY`                 | unset                                      | bearer token `/mcp` requires when set                                                  |
 * | `MCP_MAX_SESSIONS`            | `100`                                      | open sessions; at the cap a new one replaces the one idle longest, 503 if none is idle |
 * | `MCP_MAX_SESSIONS_PER_CLIENT` | `8`                                        | sessions one client address may hold; beyond, its own idle longest makes room (429 if all mid-call) |
 * | `MCP_MAX_CONNECTIONS`         | `512`                                      | open connections; more are closed unanswered                                           |
 * | `MCP_ALLOWED_HOSTS`           | host of `SITE_MCP_URL`, localhost names    | `Host` names accepted (DNS rebinding protection)                                       |
 * | `MCP_ALLOWED_ORIGINS`         | origins of `SITE_BASE_URL`, `SITE_MCP_URL` | `Origin` values accepted from browsers                                                 |
 * | `MCP_WITH_SITE`               | `true` for `npm start`, else `false`       | the site's process also runs the MCP host (`npm start`, `npm run serve`)               |
 *
 * The site's SERVER_HEADERS_TIMEOUT_MS, SERVER_REQUEST_TIMEOUT_MS and SERVER_KEEP_ALIVE_TIMEOUT_MS
 * (server.ts) bound the MCP host's clients too.
 */
import { z } from 'zod';
import { site } from './site.ts';

export const MCP_PORT_DEFAULT = 4322;
export const MCP_MAX_SESSIONS_DEFAULT = 100;
/** Enough for the clients behind one address (an office, a CI runner); few enough that one address cannot hold most of the host. */
export const MCP_MAX_SESSIONS_PER_CLIENT_DEFAULT = 8;
/** Room for every session's event stream and a request beside it, well below a process's usual 1024 file descriptors. */
export const MCP_MAX_CONNECTIONS_DEFAULT = 512;
/**
 * Most messages one JSON-RPC batch may carry. Only protocol version 2025-03-26 has batches; a batch
 * answers every message at once, so without a cap an 8 KB batch of 100 tool calls asked 2.5 MB.
 */
export const MCP_MAX_BATCH_MESSAGES = 20;
/** A session unused this long is closed, so abandoned sessions cannot hold the session limit forever. */
export const MCP_SESSION_IDLE_MS = 15 * 60 * 1000;
/** Largest JSON-RPC body `/mcp` reads; the biggest tool argument (a dev-tool input) is about 60 KB. */
export const MCP_MAX_BODY_BYTES = 256 * 1024;

/** The loopback names a local client uses; DNS rebinding cannot make a page's own origin one of these. */
const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

const hostname = z
  .string()
  .regex(/^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/, 'must be host names without port or scheme, e.g. mcp.example.org,localhost')
  .transform((value) => value.toLowerCase());

const origin = z
  .url({ protocol: /^https?$/, message: 'must be origins such as https://app.example.org (scheme, host and optional port)' })
  .refine((value) => new URL(value).origin === value.replace(/\/$/, ''), 'must be origins without a path, e.g. http://localhost:6274')
  .transform((value) => new URL(value).origin);

const mcpEnvironmentSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  MCP_PORT: z
    .string()
    .regex(/^[0-9]{1,5}$/, 'must be a port number from 0 to 65535')
    .transform(Number)
    .refine((port) => port <= 65_535, 'must be a port number from 0 to 65535')
    .default(MCP_PORT_DEFAULT),
  MCP_API_KEY: z.string().min(16, 'must be at least 16 characters (use a random token, e.g. openssl rand -hex 32)').optional(),
  MCP_MAX_SESSIONS: z
    .string()
    .regex(/^[0-9]{1,6}$/, 'must be a whole number from 1 to 100000')
    .transform(Number)
    .refine((count) => count >= 1 && count <= 100_000, 'must be a whole number from 1 to 100000')
    .default(MCP_MAX_SESSIONS_DEFAULT),
  MCP_MAX_SESSIONS_PER_CLIENT: z
    .string()
    .regex(/^[0-9]{1,6}$/, 'must be a whole number from 1 to 100000')
    .transform(Number)
    .refine((count) => count >= 1 && count <= 100_000, 'must be a whole number from 1 to 100000')
    .default(MCP_MAX_SESSIONS_PER_CLIENT_DEFAULT),
  MCP_MAX_CONNECTIONS: z
    .string()
    .regex(/^[0-9]{1,6}$/, 'must be a whole number from 1 to 100000')
    .transform(Number)
    .refine((count) => count >= 1 && count <= 100_000, 'must be a whole number from 1 to 100000')
    .default(MCP_MAX_CONNECTIONS_DEFAULT),
  MCP_ALLOWED_HOSTS: z.string().optional(),
  MCP_ALLOWED_ORIGINS: z.string().optional(),
  MCP_WITH_SITE: z
    .enum(['true', 'false', '1', '0'], { message: 'must be true, false, 1 or 0' })
    .transform((value) => value === 'true' || value === '1')
    .default(false),
});

export interface McpConfig {
  host: string;
  port: number;
  /** Bearer token required on `/mcp`; null when the host is open. */
  apiKey: string | null;
  maxSessions: number;
  /** Sessions one client address (an IPv6 client's /64) may hold at once. */
  maxSessionsPerClient: number;
  /** Connections open at once; more are closed as they arrive. */
  maxConnections: number;
  /** Host names (no port) accepted in the `Host` header. */
  allowedHosts: string[];
  /** Origins accepted in the `Origin` header; requests without one (non-browser clients) pass. */
  allowedOrigins: string[];
  /** Run the MCP host inside the site's process, where it shares the site's embedded store. */
  withSite: boolean;
}

const list = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function parseList<T>(variable: string, value: string, item: z.ZodType<T>): T[] {
  return list(value).map((entry) => {
    const parsed = item.safeParse(entry);
    if (!parsed.success) throw new Error(`MCP configuration: ${variable} ${parsed.error.issues[0]!.message} (got "${entry}")`);
    return parsed.data;
  });
}

/** The host name of an http(s) URL as the `Host` check compares it (IPv6 in brackets). */
const hostnameOf = (url: string): string => new URL(url).hostname.toLowerCase();

/**
 * Reads the MCP host's variables. Empty strings count as unset. Throws an Error naming the variable
 * and what it accepts; the API key's value is never repeated.
 */
export function loadMcpConfig(env: Record<string, string | undefined> = process.env): McpConfig {
  const names = Object.keys(mcpEnvironmentSchema.shape) as Array<keyof typeof mcpEnvironmentSchema.shape>;
  const given = Object.fromEntries(names.filter((name) => env[name] !== undefined && env[name]!.trim() !== '').map((name) => [name, env[name]!.trim()]));
  const parsed = mcpEnvironmentSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0]);
    const shown = variable === 'MCP_API_KEY' ? '' : ` (got "${given[variable]}")`;
    throw new Error(`MCP configuration: ${variable} ${issue.message}${shown}`);
  }
  const values = parsed.data;
  const allowedHosts = values.MCP_ALLOWED_HOSTS
    ? parseList('MCP_ALLOWED_HOSTS', values.MCP_ALLOWED_HOSTS, hostname)
    : [...new Set([hostnameOf(site.mcp_url), ...LOOPBACK_HOSTNAMES])];
  const allowedOrigins = values.MCP_ALLOWED_ORIGINS
    ? parseList('MCP_ALLOWED_ORIGINS', values.MCP_ALLOWED_ORIGINS, origin)
    : [...new Set([new URL(site.base_url).origin, new URL(site.mcp_url).origin])];
  return {
    host: values.HOST,
    port: values.MCP_PORT,
    apiKey: values.MCP_API_KEY ?? null,
    maxSessions: values.MCP_MAX_SESSIONS,
    maxSessionsPerClient: values.MCP_MAX_SESSIONS_PER_CLIENT,
    maxConnections: values.MCP_MAX_CONNECTIONS,
    allowedHosts,
    allowedOrigins,
    withSite: values.MCP_WITH_SITE,
  };
}
