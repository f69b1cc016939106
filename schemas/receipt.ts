/**
 * The receipt bundle of a paid assistant turn (spec 2.10) and the verify-payment response that
 * issues it. A bundle is self-contained evidence: the agreement (the quote's terms), the
 * verification receipt (every Note check and the chain it was read from), the settlement receipt
 * (the Note box as found on chain, registers included) and the quote as issued. Its `receiptId` is
 * the blake2b256 of the RFC 8785 canonical JSON of everything else, so anyone can recompute it and
 * re-check the Note on the chain.
 *
 * The bundle carries `version` but no namespaced `type`: it is identified by `receipt_type`, and a
 * stored receipt must stay verifiable whatever namespace the site is later configured with.
 */
import { z } from 'zod';
import { absoluteUrl, ergDecimal, isoDateTime, nanoErgString, typeLiteral, versionV0 } from './common.ts';
import { blockHeight, digestHex, ergoAddress, issuedPremiumQuoteSchema, NOTE_CHECKS, paymentToken, quoteId } from './assistant.ts';

export const CHAIN_SOURCES = ['testnet', 'sandbox'] as const;

export const chainSourceSchema = z
  .enum(CHAIN_SOURCES)
  .describe('`testnet`: the public Ergo testnet; `sandbox`: the local sandbox chain for newcomers and tests, never counted as a testnet proof.');
export type ChainSource = z.infer<typeof chainSourceSchema>;

/** Every check of a verification receipt: the question against the quote, then each Note rule. */
export const VERIFICATION_CHECKS = ['question_matches_quote', ...Object.values(NOTE_CHECKS).map((entry) => entry.check)];

export const TASK_HASH_DERIVATION = 'blake2b256(rfc8785({quoteId, question, history}))';

const serializedConstant = z
  .string()
  .regex(/^(?:[0-9a-f]{2})+$/, 'must be lower-case hex of whole bytes')
  .describe('The register constant exactly as serialized on chain, hex.');

export const agreementSchema = z
  .object({
    quoteId,
    taskHash: digestHex.describe('Task hash of the quote.'),
    price: ergDecimal.describe('Agreed price in ERG, nine fraction digits.'),
    priceNanoErg: nanoErgString.describe('Agreed price in nanoERG.'),
    receiverAddress: ergoAddress.describe('Testnet address the payment was made out to.'),
    reserveBoxId: digestHex.describe('Reserve box id the Note had to carry in R4.'),
    noteExpiryMinHeight: blockHeight.describe('Lowest expiry height (R5) the Note could carry.'),
    minConfirmations: z.int().min(1).describe('Confirmations the Note needed.'),
    issuedHeight: blockHeight.describe('Chain height when the quote was issued.'),
    expiresAt: isoDateTime.describe('When the quote stopped being payable.'),
    terms: z
      .object({
        deliverable: z.string().min(1).describe('What the payment buys: one premium answer from the hosted assistant to the quoted question.'),
        payment_rail: z
          .literal('accord_v0_note')
          .describe('Paid by a Note box (R4 reserve box id, R5 expiry height, R6 task hash), compatible with the Accord v0 Note.'),
        single_use: z.literal(true).describe('The payment token answers one chat turn, for the quoted question only.'),
        payment_token_lifetime_seconds: z.int().min(1).describe('How long the payment token stays valid after verification.'),
      })
      .describe('The terms the quote offered.'),
  })
  .describe('Agreement JSON: what was quoted and agreed, copied from the stored quote.');
export type Agreement = z.infer<typeof agreementSchema>;

export const verificationReceiptSchema = z
  .object({
    noteBoxId: digestHex.describe('The Note box that was checked.'),
    checks: z
      .array(
        z.object({
          code: z.enum(VERIFICATION_CHECKS).describe('Which rule was checked.'),
          ok: z.boolean().describe('Whether it passed; every check of a stored bundle passed.'),
          detail: z.string().min(1).describe('The values compared, e.g. the box value against the price.'),
        }),
      )
      .min(VERIFICATION_CHECKS.length)
      .describe('Every rule, checked in order: the question against the quote, then each Note rule.'),
    checkedAt: isoDateTime.describe('When the checks ran.'),
    chain: z
      .object({
        source: chainSourceSchema,
        via: z
          .enum(['explorer_api_v1', 'node_api'])
          .describe('`explorer_api_v1`: Ergo Explorer API v1; `node_api`: the Ergo node fallback, used when the explorer could not find the box.'),
        explorer: absoluteUrl.describe('Base URL of the API the Note was read from.'),
        height: blockHeight.describe('Chain height at the time of the checks.'),
      })
      .describe('The chain source the Note was checked against.'),
  })
  .describe('Verification Receipt JSON: how the Note was checked against the agreement.');
export type VerificationReceipt = z.infer<typeof verificationReceiptSchema>;

export const settlementReceiptSchema = z
  .object({
    settlementTxId: digestHex.describe('Id of the transaction that created the Note.'),
    noteBoxId: digestHex.describe('Box id of the Note.'),
    valueNanoErg: nanoErgString.describe('Value of the Note box in nanoERG.'),
    creationHeight: blockHeight.describe('Creation height written in the Note box.'),
    inclusionHeight: blockHeight.describe('Height of the block that included the settlement transaction.'),
    confirmations: z.int().min(1).describe('Confirmations of that block when the Note was verified.'),
    registers: z
      .object({
        R4: z.object({ serializedValue: serializedConstant, value: digestHex.describe('Reserve box id.') }).describe('R4 `Coll[Byte]`.'),
        R5: z.object({ serializedValue: serializedConstant, value: blockHeight.describe('Expiry height.') }).describe('R5 `Int`.'),
        R6: z.object({ serializedValue: serializedConstant, value: digestHex.describe('Task hash.') }).describe('R6 `Coll[Byte]`.'),
      })
      .describe('The Note registers as found on chain, serialized and decoded.'),
  })
  .describe('Settlement Receipt JSON: the Note box as found on chain.');
export type SettlementReceipt = z.infer<typeof settlementReceiptSchema>;

export const receiptBundleSchema = z
  .object({
    receiptId: digestHex.describe('blake2b256 of the RFC 8785 canonical JSON of this bundle without `receiptId`.'),
    version: versionV0,
    receipt_type: z.literal('full_receipt_bundle').describe('Constant `full_receipt_bundle`.'),
    completeness: z.literal('full_receipt_bundle').describe('Constant `full_receipt_bundle`: agreement, verification and settlement are all present.'),
    status: z.literal('settled_on_chain').describe('Constant `settled_on_chain`: the Note is included in a block with the required confirmations.'),
    chain: chainSourceSchema,
    noteBoxId: digestHex.describe('Box id of the Note that paid.'),
    settlementTxId: digestHex.describe('Id of the transaction that created the Note.'),
    taskHash: digestHex.describe('Task hash the Note carries in R6.'),
    agreement: agreementSchema,
    verification_receipt: verificationReceiptSchema,
    settlement_receipt: settlementReceiptSchema,
    quote_evidence: z
      .object({
        quote: issuedPremiumQuoteSchema.describe('The premium quote exactly as the quote endpoint issued it (quotes issued before `version` existed carry none).'),
        task_hash_derivation: z
          .literal(TASK_HASH_DERIVATION)
          .describe('How `taskHash` was computed: blake2b256 of the RFC 8785 canonical JSON of {quoteId, question, history}, history `[]` when omitted.'),
      })
      .describe('The quote as issued and how its task hash was derived; the question text itself is not published.'),
    issued_at: isoDateTime.describe('When the bundle was stored.'),
  })
  .superRefine((bundle, ctx) => {
    const mismatch = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message, input: bundle });
    const settlement = bundle.settlement_receipt;
    if (bundle.verification_receipt.noteBoxId !== bundle.noteBoxId) mismatch(['verification_receipt', 'noteBoxId'], 'must equal noteBoxId');
    if (settlement.noteBoxId !== bundle.noteBoxId) mismatch(['settlement_receipt', 'noteBoxId'], 'must equal noteBoxId');
    if (settlement.settlementTxId !== bundle.settlementTxId) mismatch(['settlement_receipt', 'settlementTxId'], 'must equal settlementTxId');
    if (bundle.agreement.taskHash !== bundle.taskHash) mismatch(['agreement', 'taskHash'], 'must equal taskHash');
    if (bundle.quote_evidence.quote.taskHash !== bundle.taskHash) mismatch(['quote_evidence', 'quote', 'taskHash'], 'must equal taskHash');
    if (bundle.quote_evidence.quote.quoteId !== bundle.agreement.quoteId) mismatch(['quote_evidence', 'quote', 'quoteId'], 'must equal agreement.quoteId');
    if (settlement.registers.R6.value !== bundle.taskHash) mismatch(['settlement_receipt', 'registers', 'R6', 'value'], 'must equal taskHash');
    if (settlement.registers.R4.value !== bundle.agreement.reserveBoxId) mismatch(['settlement_receipt', 'registers', 'R4', 'value'], 'must equal agreement.reserveBoxId');
    if (settlement.registers.R5.value < bundle.agreement.noteExpiryMinHeight) {
      mismatch(['settlement_receipt', 'registers', 'R5', 'value'], 'must be at least agreement.noteExpiryMinHeight');
    }
    if (BigInt(settlement.valueNanoErg) < BigInt(bundle.agreement.priceNanoErg)) mismatch(['settlement_receipt', 'valueNanoErg'], 'must be at least agreement.priceNanoErg');
    if (settlement.confirmations < bundle.agreement.minConfirmations) mismatch(['settlement_receipt', 'confirmations'], 'must be at least agreement.minConfirmations');
    if (bundle.verification_receipt.chain.source !== bundle.chain) mismatch(['verification_receipt', 'chain', 'source'], 'must equal chain');
    const seen = new Set(bundle.verification_receipt.checks.map((check) => check.code));
    for (const code of VERIFICATION_CHECKS) if (!seen.has(code)) mismatch(['verification_receipt', 'checks'], `must include the check ${code}`);
    bundle.verification_receipt.checks.forEach((check, index) => {
      if (!check.ok) mismatch(['verification_receipt', 'checks', index, 'ok'], 'a stored bundle records only passed checks');
    });
  })
  .describe('Full receipt bundle of a paid assistant turn settled with a testnet Note.');
export type ReceiptBundle = z.infer<typeof receiptBundleSchema>;

export const verifyPaymentResponseSchema = z
  .object({
    type: typeLiteral('agent_economy.assistant_payment_verification.v0'),
    version: versionV0,
    paymentToken: paymentToken.describe(
      'Single-use bearer token for the paid chat turn (base64url of 256 random bits). Shown once; only its hash is stored. Send it as `paymentToken` with the quoted question.',
    ),
    paymentTokenExpiresAt: isoDateTime.describe('After this instant chat answers 402 for the token.'),
    receiptId: digestHex.describe('Id of the stored receipt bundle.'),
    receiptUrl: absoluteUrl.describe('Where the stored bundle can be fetched by anyone.'),
    settlementTxId: digestHex.describe('Id of the transaction that created the Note; the receipt can be fetched by it too.'),
    receiptProofUrl: absoluteUrl.describe(
      'Where the receipt\'s proof of inclusion in the receipt log is served (a c2sp.org/tlog-proof text), once a signed checkpoint includes it: within seconds; until then it answers 409 with Retry-After.',
    ),
    receipt: receiptBundleSchema,
  })
  .refine((response) => response.receiptId === response.receipt.receiptId, { message: 'must equal receipt.receiptId', path: ['receiptId'] })
  .refine((response) => response.settlementTxId === response.receipt.settlementTxId, { message: 'must equal receipt.settlementTxId', path: ['settlementTxId'] })
  .describe('Payment verified: the payment token is issued and the receipt bundle is stored.');
export type VerifyPaymentResponse = z.infer<typeof verifyPaymentResponseSchema>;
