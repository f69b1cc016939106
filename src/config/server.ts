/**
 * Limits of the HTTP server itself. A client that trickles its headers or body is cut off when
 * these run out, so slow clients cannot hold connections open.
 */
import { z } from 'zod';

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
