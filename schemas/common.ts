/**
 * Building blocks shared by every resource schema: the posture object of spec 2.1, the fixed
 * descriptor header (type, version, status, last_updated) and the primitive formats (absolute URLs,
 * nanoERG decimals, hex digests) that the contract uses again and again.
 */
import { z } from 'zod';
import { typeName } from '../src/config/site.ts';

/** Spec 2.1: the posture object. Every field is a constant while the mainnet gate is closed. */
export const postureSchema = z
  .object({
    status: z.literal('testnet_live_proof_not_mainnet_ready').describe('Posture status; fixed while the mainnet gate is closed.'),
    network: z.literal('ergo_testnet').describe('The only network this service acts on.'),
    mainnet_ready: z.literal(false).describe('Constant false until the mainnet gate opens.'),
    production_custody: z.literal(false).describe('Constant false: the service holds no funds and no wallet keys (its one key signs receipt-log checkpoints).'),
    audit_gate: z
      .literal('external_review_and_audit_bound_mainnet_script_identity_required')
      .describe('What must exist before mainnet.'),
  })
  .describe('Posture of the service (spec 2.1): testnet only, not mainnet ready, no custody.');
export type Posture = z.infer<typeof postureSchema>;

export const absoluteUrl = z.url({ protocol: /^https?$/ }).describe('Absolute http(s) URL.');
export const isoDate = z.iso.date().describe('Calendar date, YYYY-MM-DD.');
export const isoDateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 timestamp.');
export const hex64 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters');

/** Decimal amount with exactly nine fraction digits, the wire form of nanoERG (e.g. `0.010000000`). */
export const ergDecimal = z
  .string()
  .regex(/^(0|[1-9][0-9]*)\.[0-9]{9}$/, 'must be a non-negative decimal with exactly nine fraction digits, e.g. 0.010000000')
  .describe('ERG amount as a decimal string with exactly nine fraction digits (nanoERG precision).');

/** nanoERG as a decimal integer string; values can exceed 2^53, so never a JSON number. */
export const nanoErgString = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/, 'must be a non-negative integer string of nanoERG')
  .describe('Amount in nanoERG as an integer string (may exceed 2^53).');

/** The literal `type` of a typed payload, e.g. `svc.dev_services_index.v1` with the configured namespace. */
export const typeLiteral = (name: string) => z.literal(typeName(name)).describe('Payload type.');

export const okTrue = z.literal(true).describe('Constant true.');

export const versionV0 = z.literal('v0').describe('Payload version.');
export const descriptorStatus = z.literal('testnet_live_proof').describe('Descriptor status.');

/** A link to a human page, an API and/or a schema: the three faces of every surface. */
export const surfaceLinkSchema = z.object({
  page: absoluteUrl.optional().describe('Human page.'),
  api: absoluteUrl.optional().describe('JSON API.'),
  schema: absoluteUrl.optional().describe('JSON Schema of the API body.'),
});
