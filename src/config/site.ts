/**
 * The one site configuration. Every absolute URL in every descriptor is built from it, so moving the
 * service to another host is a change of environment, never of code. Defaults live in
 * `content/site.json`; each field can be overridden by an environment variable at build time
 * (descriptors are static files) and at run time (the server reads the same values).
 */
import { z } from 'zod';
import defaults from '../../content/site.json' with { type: 'json' };

const originUrl = z
  .url({ protocol: /^https?$/ })
  .refine((value) => !value.endsWith('/'), 'must not end with a slash')
  .describe('absolute http(s) origin, optionally with a path prefix, without a trailing slash');

export const siteConfigSchema = z.strictObject({
  name: z.string().min(1),
  short_name: z.string().min(1),
  description: z.string().min(1),
  /** The maker namespace that the contract writes as `svc` in identifiers and well-known paths. */
  namespace: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'lower-case letters, digits or -, starting with a letter'),
  base_url: originUrl,
  agent_hub_url: originUrl,
  mcp_url: originUrl,
  /**
   * Where the runtime answers (the routes a CDN cannot serve: every POST, the live GETs), when the
   * static half is served from `base_url` by a CDN and the runtime elsewhere; unset, the same origin.
   */
  runtime_url: originUrl.optional(),
  repository: z.string().min(1),
  /** The instant worked examples are evaluated at, fixed so that builds are reproducible (not a date of change: descriptors are dated by their sources). */
  example_checked_at: z.iso.datetime(),
});
export type SiteConfig = z.infer<typeof siteConfigSchema>;

const environmentOverrides: Record<string, keyof SiteConfig> = {
  SITE_NAME: 'name',
  SITE_NAMESPACE: 'namespace',
  SITE_BASE_URL: 'base_url',
  SITE_AGENT_HUB_URL: 'agent_hub_url',
  SITE_MCP_URL: 'mcp_url',
  SITE_RUNTIME_URL: 'runtime_url',
};

/** Reads the defaults and the environment; throws a message naming the variable when one is malformed. */
export function loadSiteConfig(env: Record<string, string | undefined> = process.env): SiteConfig {
  const merged: Record<string, unknown> = { ...defaults };
  for (const [variable, field] of Object.entries(environmentOverrides)) {
    const value = env[variable];
    if (value !== undefined && value !== '') merged[field] = value;
  }
  const parsed = siteConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0]);
    const variable = Object.keys(environmentOverrides).find((name) => environmentOverrides[name] === field);
    throw new Error(
      `site configuration: ${field} ${issue.message}` +
        (variable ? ` (set ${variable} or fix content/site.json)` : ' (fix content/site.json)'),
    );
  }
  return parsed.data;
}

export const site: SiteConfig = loadSiteConfig();

/** `svc.<name>` with the configured namespace, the form of every typed payload's `type`. */
export const typeName = (name: string): string => `${site.namespace}.${name}`;

/** Absolute URL on the canonical site. */
export const siteUrl = (path: string): string => `${site.base_url}${path}`;

/** Absolute URL of a published schema document (`{schema_base}/agent-economy/<file>`). */
export const schemaUrl = (file: string): string => `${site.base_url}/agent-economy/${file}`;

/** Absolute URL on the runtime: `runtime_url` where the build names one, the canonical site otherwise. */
export const runtimeUrl = (path: string): string => `${site.runtime_url ?? site.base_url}${path}`;

/** Whether the runtime answers on an origin of its own (SITE_RUNTIME_URL), apart from the static half. */
export const runtimeApart = (): boolean => site.runtime_url !== undefined && site.runtime_url !== site.base_url;

/** What a page fetches a runtime path at: the path on its own origin, or the runtime's absolute URL when the runtime answers apart. */
export const runtimeHref = (path: string): string => (runtimeApart() ? runtimeUrl(path) : path);

/** Absolute URL on the MCP host. */
export const mcpUrl = (path: string): string => `${site.mcp_url}${path}`;

/** Absolute URL on the agent hub host (short aliases). */
export const hubUrl = (path: string): string => `${site.agent_hub_url}${path}`;
