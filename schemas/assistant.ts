/**
 * The hosted assistant (spec 2.10, 4.5): the quote request and its answer (a free-tier decision or a
 * premium quote that spells out the Note a wallet must create), the chat turn and the payment
 * verification request (the activity feed and the signer health body are in
 * `assistant-status.ts`). The receipt bundle and the
 * verification response that carries it live in `receipt.ts`, which builds on the quote defined here.
 *
 * The Note is compatible with the Accord v0 Note used on the Ergo testnet: a box whose registers
 * are R4 = `Coll[Byte]` reserve box id, R5 = `Int` expiry height, R6 = `Coll[Byte]` task hash.
 */
import { z } from 'zod';
import { absoluteUrl, ergDecimal, hex64, isoDateTime, nanoErgString, typeLiteral, versionV0 } from './common.ts';

// ---------------------------------------------------------------------------------------------
// Primitives of the paid turn
// ---------------------------------------------------------------------------------------------

/** A blake2b256 digest or an Ergo box/transaction id as this service writes it: 64 lower-case hex. */
export const digestHex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hexadecimal characters');

/** Block height that fits the Note's R5 register (a signed 32-bit `Int`). */
export const blockHeight = z.int().min(1).max(2_147_483_647);

/** Base58 Ergo address; the network prefix (testnet) is checked by the service with Fleet SDK. */
export const ergoAddress = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]+$/, 'must be a base58 Ergo address');

/** Opaque quote id issued by this service; URL-safe so it can travel in paths and logs unescaped. */
export const quoteId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be 1 to 128 URL-safe characters (A-Z, a-z, 0-9, _ or -)')
  .describe('Quote id issued by this service; the server looks its own stored quote up by it.');

export const QUESTION_MAX_CHARACTERS = 4000;

/**
 * The question of a quote: 1 to 4000 characters counted as Unicode code points, so the zod check and
 * the published `minLength`/`maxLength` (which JSON Schema validators count the same way) agree.
 */
const quoteQuestion = z
  .string()
  .superRefine((value, ctx) => {
    if (value.length === 0) {
      ctx.addIssue({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, input: value, message: 'question must not be empty' });
      return;
    }
    // UTF-16 length bounds the code point count from above, so only long strings need counting.
    const count = value.length > QUESTION_MAX_CHARACTERS ? [...value].length : value.length;
    if (count > QUESTION_MAX_CHARACTERS) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'string',
        maximum: QUESTION_MAX_CHARACTERS,
        inclusive: true,
        input: value,
        message: `question must be at most ${QUESTION_MAX_CHARACTERS} characters; this one has ${count}`,
      });
    }
  })
  .meta({
    minLength: 1,
    maxLength: QUESTION_MAX_CHARACTERS,
    description: `The question to answer, 1 to ${QUESTION_MAX_CHARACTERS} characters (Unicode code points).`,
  });

/** One earlier turn of the conversation: exactly {role, content}, nothing else. */
export const conversationMessageSchema = z
  .strictObject({
    role: z.enum(['user', 'assistant']).describe('Who wrote this turn: `user` (the asker) or `assistant` (an earlier answer).'),
    content: z.string().describe('The text of the turn.'),
  })
  .describe('One conversation turn; no keys besides `role` and `content`.');
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/assistant/quote
// ---------------------------------------------------------------------------------------------

export const quoteRequestSchema = z
  .strictObject({
    question: quoteQuestion,
    history: z
      .array(conversationMessageSchema)
      .optional()
      .describe('Earlier turns, oldest first. Part of the task hash of a premium quote (as `[]` when omitted).'),
  })
  .describe('Ask whether a question is answered free or needs a paid turn. No keys besides `question` and `history`.');
export type QuoteRequest = z.infer<typeof quoteRequestSchema>;

const QUOTE_TYPE = 'agent_economy.assistant_quote.v0';

export const freeTierDecisionSchema = z
  .object({
    type: typeLiteral(QUOTE_TYPE),
    version: versionV0,
    tier: z.literal('free').describe('`free`: send the question to chat without a payment token.'),
    reason: z.string().min(1).describe('Why the question qualifies for the free tier (short enough, and the daily free allowance is not used up).'),
    free_questions_remaining_today: z
      .int()
      .min(1)
      .describe('Free turns this client has left today (UTC calendar day), counting the one this decision allows; a free turn is spent when chat answers it.'),
    next: absoluteUrl.describe('The chat endpoint to send the question to, as `messages` ending with this question.'),
  })
  .describe('Free-tier decision: no payment needed for this question.');
export type FreeTierDecision = z.infer<typeof freeTierDecisionSchema>;

const registerRequirement = <T extends z.ZodType>(sigmaType: 'Coll[Byte]' | 'Int', value: T) =>
  z.object({
    type: z.literal(sigmaType).describe(`ErgoScript type of the register constant: \`${sigmaType}\`.`),
    meaning: z.string().min(1).describe('What the register binds the Note to, in words a wallet author can act on.'),
    value,
  });

export const noteRequirementsSchema = z
  .object({
    R4: registerRequirement('Coll[Byte]', digestHex.describe('The 32 bytes of the quote\'s `reserveBoxId`, as hex.')).describe(
      'R4: the reserve box id the Note draws on.',
    ),
    R5: registerRequirement('Int', blockHeight.describe('The lowest acceptable expiry height (`noteExpiryMinHeight`).')).describe(
      'R5: the Note expiry height; at least this value, and above the chain height when the payment is verified.',
    ),
    R6: registerRequirement('Coll[Byte]', digestHex.describe('The 32 bytes of the quote\'s `taskHash`, as hex.')).describe(
      'R6: the task hash that binds the Note to this quote and question.',
    ),
  })
  .describe('The registers the Note box must carry, spelled out for a wallet (Accord v0 Note layout).');

/** Exact integer comparison of the two wire forms of one amount; never a float. */
const sameAmount = (erg: string, nanoErg: string): boolean => BigInt(erg.replace('.', '')) === BigInt(nanoErg);

const premiumQuoteObject = z
  .object({
    type: typeLiteral(QUOTE_TYPE),
    version: versionV0,
    tier: z.literal('premium').describe('`premium`: pay with a Note, verify the payment, then chat with the payment token.'),
    quoteId,
    taskHash: digestHex.describe(
      'blake2b256 of the RFC 8785 canonical JSON of {quoteId, question, history} (history `[]` when omitted); the Note carries it in R6.',
    ),
    price: ergDecimal.describe('Price in ERG with exactly nine fraction digits; equal to `priceNanoErg`.'),
    priceNanoErg: nanoErgString.describe('Price in nanoERG as an integer string; the Note value must be at least this.'),
    receiverAddress: ergoAddress.describe('Testnet address of the assistant operator that the payment is made out to.'),
    reserveBoxId: digestHex.describe('Box id of the reserve the Note draws on; the Note carries it in R4.'),
    noteExpiryMinHeight: blockHeight.describe('The Note\'s expiry height (R5) must be at least this block height.'),
    minConfirmations: z.int().min(1).describe('Confirmations the block including the Note needs before verify-payment accepts it.'),
    issuedHeight: blockHeight.describe('Chain height when the quote was issued; a Note created before it (less a small documented tolerance) is refused.'),
    expiresAt: isoDateTime.describe('After this instant verify-payment answers 410 for this quote.'),
    noteRequirements: noteRequirementsSchema,
    reason: z
      .string()
      .min(1)
      .max(2_000)
      .optional()
      .describe(
        'What the answer will answer, said before anyone pays: the whole question, or which of its parts this site answers and which the answer will name as not answered here. In the quote endpoint\'s answer only: a quote read back later, or embedded in a receipt, carries none.',
      ),
  });

/** The rules between a quote's fields, the same for a quote as answered and as receipts embed it. */
function withQuoteRules<S extends z.ZodType<Omit<z.output<typeof premiumQuoteObject>, 'version'>>>(schema: S): S {
  return schema
    .refine((quote) => sameAmount(quote.price, quote.priceNanoErg), { message: 'price and priceNanoErg must be the same amount', path: ['priceNanoErg'] })
    .refine((quote) => BigInt(quote.priceNanoErg) > 0n, { message: 'a premium quote has a positive price', path: ['priceNanoErg'] })
    .refine((quote) => quote.noteExpiryMinHeight > quote.issuedHeight, { message: 'noteExpiryMinHeight must be above issuedHeight', path: ['noteExpiryMinHeight'] })
    .refine(
      (quote) =>
        quote.noteRequirements.R4.value === quote.reserveBoxId &&
        quote.noteRequirements.R5.value === quote.noteExpiryMinHeight &&
        quote.noteRequirements.R6.value === quote.taskHash,
      { message: 'noteRequirements must repeat reserveBoxId (R4), noteExpiryMinHeight (R5) and taskHash (R6)', path: ['noteRequirements'] },
    );
}

export const premiumQuoteSchema = withQuoteRules(premiumQuoteObject).describe('Premium quote: the Note payment request for one paid answer.');
export type PremiumQuote = z.infer<typeof premiumQuoteSchema>;

/**
 * A premium quote as it was issued and stored, which receipts embed: quotes issued before the
 * `version` field existed carry none, and a receipt must keep verifying as it was written.
 */
export const issuedPremiumQuoteSchema = withQuoteRules(premiumQuoteObject.partial({ version: true })).describe(
  'Premium quote as it was issued (quotes issued before `version` existed carry none).',
);
export type IssuedPremiumQuote = z.infer<typeof issuedPremiumQuoteSchema>;

export const quoteResponseSchema = z
  .discriminatedUnion('tier', [freeTierDecisionSchema, premiumQuoteSchema])
  .describe('Either a free-tier decision (`tier: "free"`) or a premium quote with its Note payment request (`tier: "premium"`).');
export type QuoteResponse = z.infer<typeof quoteResponseSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/assistant/chat
// ---------------------------------------------------------------------------------------------

/** Payment token format: base64url of at least 256 random bits. Only its hash is stored. */
export const paymentToken = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43,128}$/, 'must be a payment token as issued by verify-payment (base64url, 43 to 128 characters)');

export const chatRequestSchema = z
  .strictObject({
    messages: z
      .array(conversationMessageSchema)
      .min(1)
      .describe('The conversation, oldest first, at least one turn; the last `user` turn is the question answered.'),
    paymentToken: z
      .string()
      .optional()
      .describe('Payment token from verify-payment, for a premium turn; single-use and bound to the quoted question. Omit for a free turn.'),
  })
  .describe('One chat turn. No keys besides `messages` and `paymentToken`.');
export type ChatRequest = z.infer<typeof chatRequestSchema>;

export const MODEL_PROVIDERS = ['docs', 'openai'] as const;

export const chatResponseSchema = z
  .object({
    type: typeLiteral('agent_economy.assistant_chat.v0'),
    version: versionV0,
    tier: z.enum(['free', 'premium']).describe('Which kind of turn was answered.'),
    answer: z.string().min(1).describe('The answer, as Markdown text.'),
    citations: z
      .array(
        z.object({
          title: z.string().min(1).describe('Title of the page the answer drew on.'),
          url: absoluteUrl.describe('Where that page lives.'),
        }),
      )
      .describe('Pages the answer quotes or relies on; empty when it relies on none.'),
    receiptId: digestHex
      .nullable()
      .describe('Receipt id of the paid turn this answer settles (fetch it at the receipt endpoint); null for a free turn.'),
    model: z
      .object({
        provider: z.enum(MODEL_PROVIDERS).describe('`docs`: retrieval over this site\'s own pages; `openai`: an OpenAI-compatible chat-completions server.'),
        name: z.string().min(1).describe('Model or index name reported by the provider.'),
      })
      .describe('Which model provider produced the answer.'),
  })
  .refine((chat) => (chat.tier === 'premium') === (chat.receiptId !== null), {
    message: 'a premium turn carries its receiptId and a free turn carries null',
    path: ['receiptId'],
  })
  .describe('The answer to an allowed free or paid turn.');
export type ChatResponse = z.infer<typeof chatResponseSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/assistant/verify-payment (request; the response is in receipt.ts)
// ---------------------------------------------------------------------------------------------

export const verifyPaymentRequestSchema = z
  .strictObject({
    quote: z
      .looseObject({
        quoteId: z.string().min(1).describe('Id of the premium quote being paid.'),
      })
      .describe('The premium quote as received; only `quoteId` is read, the server trusts only its own stored copy. Extra keys are allowed.'),
    question: z.string().min(1).describe('The question exactly as sent to the quote endpoint.'),
    noteBoxId: hex64.describe('Box id of the Note on the chain: 64 hexadecimal characters.'),
  })
  .describe('Verify a Note payment against a quote. No top-level keys besides `quote`, `question` and `noteBoxId`.');
export type VerifyPaymentRequest = z.infer<typeof verifyPaymentRequestSchema>;

/** Why a Note does not pay a quote, in the vocabulary of the Accord v0 Note. */
export const NOTE_FAILURE_CODES = [
  'NOTE_NOT_FOUND',
  'NOTE_UNCONFIRMED',
  'NOTE_EXPIRED',
  'RESERVE_MISMATCH',
  'TASK_HASH_MISSING',
  'TASK_HASH_MISMATCH',
  'RECEIVER_MISMATCH',
  'INSUFFICIENT_VALUE',
  'NOTE_TOO_OLD',
  'NOTE_ALREADY_USED',
] as const;

export const noteFailureCodeSchema = z.enum(NOTE_FAILURE_CODES).describe('Why a Note does not pay a quote (Accord v0 code).');
export type NoteFailureCode = z.infer<typeof noteFailureCodeSchema>;

/**
 * Each Note rule: the name its check has in a verification receipt, and what it requires (a
 * clause, e.g. "the box exists on the chain source"). A 402 from verify-payment names the first
 * rule that failed by its failure code.
 */
export const NOTE_CHECKS = {
  NOTE_NOT_FOUND: { check: 'note_found', rule: 'the box exists on the chain source' },
  NOTE_UNCONFIRMED: { check: 'note_confirmed', rule: 'its block has at least `minConfirmations` confirmations' },
  NOTE_EXPIRED: { check: 'note_not_expired', rule: 'R5 is above the current height and at least `noteExpiryMinHeight`' },
  RESERVE_MISMATCH: { check: 'reserve_matches', rule: "R4 equals the quote's `reserveBoxId`" },
  TASK_HASH_MISSING: { check: 'task_hash_present', rule: 'R6 holds a 32-byte `Coll[Byte]`' },
  TASK_HASH_MISMATCH: { check: 'task_hash_matches', rule: "R6 equals the quote's `taskHash`" },
  RECEIVER_MISMATCH: { check: 'pays_receiver', rule: "its ErgoTree is the one of the quote's `receiverAddress` (the value goes to the service, not back to the payer)" },
  INSUFFICIENT_VALUE: { check: 'value_covers_price', rule: 'the box value is at least `priceNanoErg`' },
  NOTE_TOO_OLD: { check: 'created_after_quote', rule: 'it was created no earlier than `issuedHeight` less the documented tolerance' },
  NOTE_ALREADY_USED: { check: 'note_unused', rule: 'it has never paid another quote' },
} as const satisfies Record<NoteFailureCode, { check: string; rule: string }>;

/** The problem `code` of a 402 from verify-payment: the Accord code in lower case, e.g. `note_not_found`. */
export const problemCodeOfNoteFailure = <Code extends NoteFailureCode>(noteCode: Code): Lowercase<Code> => noteCode.toLowerCase() as Lowercase<Code>;
