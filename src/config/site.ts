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

/** Absolute URL on the MCP host. */
export const mcpUrl = (path: string): string => `${site.mcp_url}${path}`;

/** Absolute URL on the agent hub host (short aliases). */
export const hubUrl = (path: string): string => `${site.agent_hub_url}${path}`;
