/**
 * The premium turn in x402 v2 terms (docs/x402-ergo.md): a stored premium quote as payment
 * requirements, and the base64 JSON headers that carry them (PAYMENT-REQUIRED), the client's proof
 * (PAYMENT-SIGNATURE) and the settlement (PAYMENT-RESPONSE).
 */
import type { z } from 'zod';
import type { IssuedPremiumQuote } from '../../../schemas/assistant.ts';
import { ergoNoteRequirements } from '../../../packages/x402-ergo/index.js';
import {
  X402_NETWORKS,
  X402_SCHEME,
  X402_VERSION,
  x402PaymentPayloadSchema,
  x402RequirementsSchema,
  type X402PaymentPayload,
  type X402Network,
  type X402PaymentRequired,
  type X402Requirements,
  type X402SettleResponse,
} from '../../../schemas/x402.ts';

/**
 * The one way to pay `quote`: a Note of at least its price to its receiver, bound by its registers.
 * Built by the scheme package's server part (packages/x402-ergo), so the service offers exactly what
 * that package's clients and facilitator read.
 */
export function x402RequirementsOf(quote: IssuedPremiumQuote, lifetimeSeconds: number, network: X402Network): X402Requirements {
  return x402RequirementsSchema.parse(ergoNoteRequirements(quote, { maxTimeoutSeconds: lifetimeSeconds, network }));
}

export { honouredX402Extensions, X402_EXTENSIONS, type X402Extension } from './x402-extensions.ts';

/** The network a server's payments are on: the one its chain source is (a sandbox Note never claims the testnet). */
export const x402NetworkOf = (source: keyof typeof X402_NETWORKS): X402Network => X402_NETWORKS[source];

export function x402PaymentRequired(
  error: string,
  resource: X402PaymentRequired['resource'],
  requirements: X402Requirements,
  extensions?: Record<string, unknown>,
): X402PaymentRequired {
  return { x402Version: X402_VERSION, error, resource, accepts: [requirements], ...(extensions ? { extensions } : {}) };
}

/**
 * x402's Bazaar discovery extension for a JSON POST resource: how to call it (an example body and
 * its JSON Schema) and what it answers, so a facilitator's catalogue can list it. The same object
 * @x402/extensions' `declareDiscoveryExtension` builds (a test compares them).
 */
export function bazaarDiscovery(input: { body: Record<string, unknown>; bodySchema: Record<string, unknown>; outputExample: unknown; outputSchema: Record<string, unknown> }): Record<string, unknown> {
  return {
    bazaar: {
      info: { input: { type: 'http', method: 'POST', bodyType: 'json', body: input.body }, output: { type: 'json', example: input.outputExample } },
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          input: {
            type: 'object',
            properties: {
              type: { type: 'string', const: 'http' },
              method: { type: 'string', enum: ['POST', 'PUT', 'PATCH'] },
              bodyType: { type: 'string', enum: ['json', 'form-data', 'text'] },
              body: input.bodySchema,
            },
            required: ['type', 'method', 'bodyType', 'body'],
            additionalProperties: false,
          },
          output: { type: 'object', properties: { type: { type: 'string' }, example: input.outputSchema }, required: ['type'] },
        },
        required: ['input'],
      },
    },
  };
}

/** A header value: base64 of the JSON text. */
export const encodeX402Header = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

/** The JSON a header value carries (throws when it is not base64 of JSON). */
export const decodeX402Header = <T>(value: string): T => JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as T;

/** The SettlementResponse of a Note settled by `transaction` (its id), naming the payer when the chain said, with the extensions' answers (a signed receipt). */
export function x402Settled(transaction: string, payer: string | null, network: X402Network, extensions?: Record<string, unknown>): X402SettleResponse {
  return { success: true, transaction, network, ...(payer ? { payer } : {}), ...(extensions ? { extensions } : {}) };
}

/** Why requirements a payment accepted are not the kind this service settles on `network`, or undefined when they are. */
export function unsupportedKind(accepted: { scheme: string; network: string }, network: X402Network): string | undefined {
  if (accepted.scheme === X402_SCHEME && accepted.network === network) return undefined;
  return `this service is paid with scheme "${X402_SCHEME}" on "${network}", not "${accepted.scheme}" on "${accepted.network}".`;
}

/** A PAYMENT-SIGNATURE header read, or why it cannot be. */
export function decodePaymentSignature(header: string): { ok: true; payload: X402PaymentPayload } | { ok: false; reason: string } {
  const text = header.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return { ok: false, reason: 'is not base64' };
  let json: unknown;
  try {
    json = decodeX402Header(text);
  } catch {
    return { ok: false, reason: 'is not base64 of JSON' };
  }
  const parsed = x402PaymentPayloadSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `is not an x402 v2 Ergo payment payload (${describeIssues(parsed.error)})` };
  return { ok: true, payload: parsed.data };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? `/${issue.path.join('/')}` : 'the payload'}: ${issue.message}`)
    .join('; ');
}
