/**
 * What `npm start` (scripts/start.mjs) does before it serves: where it will listen, the origin this
 * server will have, and whether the build on disk can serve it. Without SITE_BASE_URL the base URL is the origin the
 * server listens on (HOST and PORT) and the MCP address follows MCP_PORT, so every descriptor, link
 * and live probe names this server; a build made for another origin, older than its sources, or
 * absent is rebuilt.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildOriginOf, localOrigin, readBuildOrigin, type BuildOrigin } from '../config/build-origin.ts';
import { loadMcpConfig } from '../config/mcp.ts';
import { loadListenConfig } from '../config/server.ts';
import { loadSiteConfig } from '../config/site.ts';

/** What a build is made from: a change to any of these makes the build on disk stale. */
export const BUILD_SOURCES = ['src', 'schemas', 'content', 'public', 'astro.config.mjs', 'package.json'];

export interface StartPlan {
  /** Variables to set before the build and the server read their configuration. */
  env: Record<string, string>;
  target: BuildOrigin;
  /** Why a build must run first; undefined when the build on disk serves `target`. */
  rebuild: string | undefined;
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stats.mtimeMs);
}

/** The origins this server takes from HOST, PORT and MCP_PORT, for the SITE_* variables left unset. */
export function derivedOrigins(env: Record<string, string | undefined>): Record<string, string> {
  const listen = loadListenConfig(env);
  // PORT=0 picks a port only known once listening, too late for a build: the configured base URL stays.
  if (env.SITE_BASE_URL || listen.port === 0) return {};
  const derived: Record<string, string> = { SITE_BASE_URL: localOrigin(listen.host, listen.port) };
  if (!env.SITE_AGENT_HUB_URL) derived.SITE_AGENT_HUB_URL = `http://hub.localhost:${listen.port}`;
  const mcpPort = loadMcpConfig(env).port;
  if (!env.SITE_MCP_URL && mcpPort > 0) derived.SITE_MCP_URL = localOrigin(listen.host, mcpPort);
  return derived;
}

/** Where `npm start` will listen (the site, and the MCP host unless MCP_WITH_SITE=false), port 0 left out: checked before any build. */
export function startAddresses(env: Record<string, string | undefined>): Array<{ host: string; port: number; variable: 'PORT' | 'MCP_PORT' }> {
  const listen = loadListenConfig(env);
  const mcp = loadMcpConfig(env);
  const addresses: ReturnType<typeof startAddresses> = [{ host: listen.host, port: listen.port, variable: 'PORT' }];
  if (mcp.withSite) addresses.push({ host: mcp.host, port: mcp.port, variable: 'MCP_PORT' });
  return addresses.filter((address) => address.port !== 0);
}

/** Throws a one-line message naming the variable when HOST, PORT, MCP_PORT or a SITE_* variable is malformed. */
export function planStart(root: string, env: Record<string, string | undefined>): StartPlan {
  const derived = derivedOrigins(env);
  const target = buildOriginOf(loadSiteConfig({ ...env, ...derived }));
  const entry = join(root, 'dist', 'server', 'fast-entry.mjs');
  const builtAt = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  const built = builtAt ? readBuildOrigin(join(root, 'dist')) : undefined;
  const changedAt = Math.max(...BUILD_SOURCES.map((source) => newestMtime(join(root, source))));
  const rebuild = !builtAt
    ? 'no build yet'
    : changedAt > builtAt
      ? 'sources changed since the last build'
      : !built
        ? 'the last build did not record its origin'
        : JSON.stringify(built) !== JSON.stringify(target)
          ? `the last build was made for ${built.base_url} (MCP host ${built.mcp_url}), this server is ${target.base_url} (MCP host ${target.mcp_url})`
          : undefined;
  return { env: derived, target, rebuild };
}
