/**
 * x402 version 2 over an Ergo testnet Note (docs/x402-ergo.md): the payment requirements this
 * service offers for a premium answer, the payload a client sends back once its Note is on chain,
 * the settlement answer, and the facilitator's bodies. Shapes follow @x402/core's types; the Ergo
 * parts are the `exact` scheme on `ergo:testnet`, paid upfront (the client pays, then proves it); a
 * server reading the local sandbox chain says `ergo:sandbox`, so that no sandbox payment passes for a
 * testnet one.
 */
import { z } from 'zod';
import { digestHex, ergoAddress, quoteId } from './assistant.ts';
import { absoluteUrl, hex64, nanoErgString } from './common.ts';

export const X402_VERSION = 2;
export const X402_SCHEME = 'exact';
/** The network of each chain source (the receipts' `chain`), as x402 names it. */
export const X402_NETWORKS = { testnet: 'ergo:testnet', sandbox: 'ergo:sandbox' } as const;
export const x402NetworkSchema = z
  .enum([X402_NETWORKS.testnet, X402_NETWORKS.sandbox])
  .describe('CAIP-2 id: `ergo:testnet`; `ergo:sandbox` on a server reading the local sandbox chain.');
export type X402Network = z.infer<typeof x402NetworkSchema>;
/** The asset of an Ergo requirement: the chain's own coin, amounts in nanoERG. */
export const X402_ASSET = 'ERG';

export const x402ResourceSchema = z
  .object({ url: absoluteUrl, description: z.string().optional(), mimeType: z.string().optional() })
  .describe('The resource the payment is for.');

/** What the server stored with the quote: the Note it accepts, as the premium quote spells it. */
export const ergoNoteExtraSchema = z
  .object({
    paymentFlow: z.literal('upfront').describe('The client pays first (its Note on chain), then sends the proof.'),
    quoteId,
    taskHash: digestHex.describe('R6 of the Note: the quote\'s task hash.'),
    reserveBoxId: digestHex.describe('R4 of the Note.'),
    noteExpiryMinHeight: z.int().min(1).describe('R5 of the Note must be at least this height.'),
    minConfirmations: z.int().min(1).describe('Confirmations the Note needs before it pays.'),
  })
  .describe('The Note binding of the quote behind this requirement.');

export const x402RequirementsSchema = z
  .object({
    scheme: z.literal(X402_SCHEME),
    network: x402NetworkSchema,
    asset: z.literal(X402_ASSET).describe('ERG; `amount` is in nanoERG.'),
    amount: nanoErgString.describe('The price in nanoERG, a decimal string.'),
    payTo: ergoAddress.describe('The receiver of the Note.'),
    maxTimeoutSeconds: z.int().min(1).describe('The quote lifetime: pay and retry within it.'),
    extra: ergoNoteExtraSchema,
  })
  .describe('x402 v2 payment requirements: one Ergo testnet Note paying one premium answer.');
export type X402Requirements = z.infer<typeof x402RequirementsSchema>;

export const x402PaymentRequiredSchema = z
  .object({
    x402Version: z.literal(X402_VERSION),
    error: z.string().describe('Why payment is required, or the code of the payment that was refused.'),
    resource: x402ResourceSchema,
    accepts: z.array(x402RequirementsSchema).min(1),
    extensions: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('`bazaar`: x402\'s discovery info (how to call the resource, what it answers); `payment-identifier`: the payer\'s retry key; `offer-receipt`: a signed offer (JWS) for each `accepts` entry.'),
  })
  .describe('x402 v2 PaymentRequired, sent base64 JSON in the PAYMENT-REQUIRED header.');
export type X402PaymentRequired = z.infer<typeof x402PaymentRequiredSchema>;

/**
 * What a client sends back (PAYMENT-SIGNATURE, or the facilitator's `paymentPayload`). Read
 * leniently: the server judges the Note by its own stored quote, named by `accepted.extra.quoteId`
 * (the facilitator also requires `accepted` to be the requirements issued for it).
 */
export const x402PaymentPayloadSchema = z
  .object({
    x402Version: z.literal(X402_VERSION),
    resource: z.looseObject({}).optional(),
    accepted: z.looseObject({
      scheme: z.string(),
      network: z.string(),
      extra: z.looseObject({ quoteId }),
    }),
    payload: z.looseObject({ noteBoxId: hex64.describe('Box id of the Note the client created.') }),
    extensions: z.record(z.string(), z.unknown()).optional(),
  })
  .describe('x402 v2 PaymentPayload for an Ergo Note: the requirements accepted and the Note box id.');
export type X402PaymentPayload = z.infer<typeof x402PaymentPayloadSchema>;

export const x402SettleResponseSchema = z
  .object({
    success: z.boolean(),
    errorReason: z.string().optional().describe('Why the payment did not settle, with verify-payment\'s code.'),
    errorMessage: z.string().optional(),
    payer: ergoAddress.optional().describe('Address of the Note transaction\'s first input, when the chain says.'),
    transaction: z.string().describe('Id of the transaction that created the Note; empty when nothing settled.'),
    network: x402NetworkSchema,
    extensions: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('`offer-receipt`: the signed receipt of a paid answer (`info.receipt`, JWS), naming its receipt and the offer it paid.'),
  })
  .describe('x402 v2 SettlementResponse (PAYMENT-RESPONSE header, facilitator settle).');
export type X402SettleResponse = z.infer<typeof x402SettleResponseSchema>;

export const x402VerifyResponseSchema = z
  .object({
    isValid: z.boolean(),
    invalidReason: z.string().optional().describe('Why the Note does not pay the requirements, with verify-payment\'s code.'),
    invalidMessage: z.string().optional(),
    payer: ergoAddress.optional(),
  })
  .describe('x402 v2 VerifyResponse: whether the Note pays the requirements; nothing is claimed.');
export type X402VerifyResponse = z.infer<typeof x402VerifyResponseSchema>;

export const x402FacilitatorRequestSchema = z
  .object({
    x402Version: z.literal(X402_VERSION),
    paymentPayload: x402PaymentPayloadSchema,
    // Read as sent, not by the requirements schema: a value other than the issued one is a refusal
    // naming it (`requirements_mismatch`), which x402 clients expect as a verdict, not a 400.
    paymentRequirements: z
      .looseObject({})
      .describe('Exactly the requirements issued for the quote named, as `paymentPayload.accepted` repeats them.'),
  })
  .describe('Body of the facilitator\'s verify and settle.');
export type X402FacilitatorRequest = z.infer<typeof x402FacilitatorRequestSchema>;

export const x402SupportedSchema = z
  .object({
    kinds: z.array(z.object({ x402Version: z.literal(X402_VERSION), scheme: z.literal(X402_SCHEME), network: x402NetworkSchema })),
    extensions: z.array(z.string()),
    signers: z.record(z.string(), z.array(z.string())),
  })
  .describe('What this facilitator settles.');
