/**
 * The developer services index (spec 2.3, `GET /api/dev/services`): every endpoint of this build,
 * generated from the route table, with its machine-readable form, its human page and whether it
 * answers yet, plus the probes a client runs to see what is live.
 */
import { z } from 'zod';
import { absoluteUrl, descriptorStatus, isoDate, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';

export const devServiceEntrySchema = z.object({
  id: z.string().min(1).describe('Route id, stable across versions.'),
  method: z.enum(['GET', 'POST']).describe('HTTP method.'),
  url: z.string().min(1).describe('Absolute URL; `{id}` marks a path parameter.'),
  summary: z.string().min(1).describe('What it returns or does.'),
  group: z.string().min(1).describe('Area of the API (the OpenAPI tag).'),
  host: z.enum(['site', 'mcp']).describe('`site`: this service; `mcp`: the MCP host.'),
  delivery: z.enum(['static', 'runtime']).describe('`static`: a file built at release, CDN-cacheable; `runtime`: answered per request.'),
  available: z
    .boolean()
    .describe('Whether this build answers it: a build whose endpoint lacks its handler is refused, and the MCP host serves its own routes.'),
  machine_readable: z
    .object({
      url: z.string().min(1).describe('Where the JSON is (the endpoint itself).'),
      schema: absoluteUrl.nullable().describe('JSON Schema of the body a client meets first: the response of a GET, the request of a POST; null for the OpenAPI document, which the OpenAPI 3.1 specification governs.'),
      response_schema: absoluteUrl.nullable().describe('JSON Schema of the 200 answer of a runtime endpoint; null for static files (their `schema` is the answer).'),
    })
    .describe('The machine-readable face of the service.'),
  page: absoluteUrl.nullable().describe('Human page that shows the same data, or null.'),
});

export const devServicesProbeSchema = z.object({
  url: absoluteUrl.describe('URL to GET.'),
  method: z.literal('GET').describe('HTTP method.'),
  checks: z.array(z.string().min(1)).min(1).describe('Fields to read in the answer.'),
  description: z.string().min(1).describe('What a passing answer means.'),
});

export const devServicesIndexSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('dev_services_index.v1'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate,
    counts: z
      .object({
        total: z.int().min(1).describe('Entries in `services`.'),
        machine_readable: z.int().min(0).describe('Services whose JSON is described by a published JSON Schema (or, for the OpenAPI document, by the OpenAPI 3.1 schema).'),
        static: z.int().min(0).describe('Static files.'),
        runtime: z.int().min(0).describe('Runtime endpoints.'),
        available: z.int().min(0).describe('Services that answer in this build (every static file, and runtime endpoints with a handler).'),
        with_page: z.int().min(0).describe('Services with a human page.'),
      })
      .describe('Counts over `services`.'),
    services: z.array(devServiceEntrySchema).min(1).describe('Every endpoint of this build, in route table order.'),
    probes: z
      .object({
        agent_live: devServicesProbeSchema.describe('Live status: the first thing an agent checks.'),
        mcp_health: devServicesProbeSchema.describe('MCP host health, checked before connecting to the MCP endpoint.'),
        signer_health: devServicesProbeSchema.describe('Assistant signer health.'),
        faucet: devServicesProbeSchema.describe('Faucet descriptor: whether testnet payouts are enabled.'),
      })
      .describe('Where to probe what is live; links, not results (this index is a static file).'),
    openapi: absoluteUrl.describe('OpenAPI description of every service listed.'),
    posture: postureSchema,
  })
  .describe('Developer services index: every endpoint with its machine-readable form and page, and the live probes.');
export type DevServicesIndex = z.infer<typeof devServicesIndexSchema>;
