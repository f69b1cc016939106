/**
 * The origin a build was made for. Descriptors, schemas and pages are static files, so every
 * absolute URL in them is fixed when they are built; the build records those origins in
 * `dist/server/build-origin.json` so that `npm start` can tell when a rebuild is due, the server can
 * warn when it listens somewhere else, and the command-line tools can default to the site the build
 * describes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { site, type SiteConfig } from './site.ts';

export const BUILD_ORIGIN_FILE = 'build-origin.json';
/** Where `npm start` listens when neither HOST nor PORT says otherwise. */
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4321;

const buildOriginSchema = z.object({ base_url: z.string(), agent_hub_url: z.string(), mcp_url: z.string(), runtime_url: z.string().optional() });
export type BuildOrigin = z.infer<typeof buildOriginSchema>;

export const buildOriginOf = (config: SiteConfig): BuildOrigin => ({
  base_url: config.base_url,
  agent_hub_url: config.agent_hub_url,
  mcp_url: config.mcp_url,
  ...(config.runtime_url === undefined ? {} : { runtime_url: config.runtime_url }),
});

/** The origins recorded by the build in `distDir`; undefined without a build (or an unreadable record). */
export function readBuildOrigin(distDir: string): BuildOrigin | undefined {
  const file = join(distDir, 'server', BUILD_ORIGIN_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return buildOriginSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

/**
 * The project's `dist/` seen from a module of it: `dist/server` and `dist/cli` bundles sit one level
 * below it, `src/**` sources two or three below the project root.
 */
function findDistDir(moduleUrl: string): string | undefined {
  let directory = dirname(fileURLToPath(moduleUrl));
  for (let depth = 0; depth < 4; depth++) {
    if (existsSync(join(directory, 'server', BUILD_ORIGIN_FILE))) return directory;
    if (existsSync(join(directory, 'dist', 'server', BUILD_ORIGIN_FILE))) return join(directory, 'dist');
    directory = dirname(directory);
  }
  return undefined;
}

/**
 * The site a command-line tool talks to by default: SITE_BASE_URL when set, else the base URL the
 * build was made for, else the configured default.
 */
export function defaultBaseUrl(moduleUrl: string, env: Record<string, string | undefined> = process.env): string {
  if (env.SITE_BASE_URL) return site.base_url;
  const distDir = findDistDir(moduleUrl);
  return (distDir && readBuildOrigin(distDir)?.base_url) || site.base_url;
}

/** `http://host:port` as a client reaches a server listening on `host`: an unspecified address is reached on loopback. */
export function localOrigin(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? DEFAULT_HOST : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A base URL on this machine (rather than a public name a proxy forwards): only then can a listening origin contradict it. */
export const isLocalOrigin = (url: string): boolean => LOOPBACK_HOSTS.has(new URL(url).hostname);

/**
 * What is wrong when the MCP host listens on another local origin than the one the build names as
 * `mcp_url` (in server.json, the discovery descriptor and every MCP example); undefined when they
 * agree, or when the build names a public URL (reached through a proxy: nothing to compare).
 */
export function mcpOriginMismatch(built: BuildOrigin | undefined, listening: string): string | undefined {
  if (!built || !isLocalOrigin(built.mcp_url) || new URL(built.mcp_url).origin === new URL(listening).origin) return undefined;
  return `the build names the MCP host ${built.mcp_url} in its descriptors (server.json, discovery), but it listens on ${listening}: clients that read them connect elsewhere. Rebuild with SITE_MCP_URL=${listening}, or start with npm start, which builds for MCP_PORT`;
}
