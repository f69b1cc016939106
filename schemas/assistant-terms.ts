/**
 * GET /api/assistant/terms: the terms of the hosted assistant as this server runs them, read from
 * its configuration on every request: the premium price and what a Note must be, the quote and
 * token lifetimes, the confirmations needed, and the free allowance.
 */
import { z } from 'zod';
import { NOTE_FAILURE_CODES, QUESTION_MAX_CHARACTERS } from './assistant.ts';
import { absoluteUrl, descriptorStatus, ergDecimal, isoDate, isoDateTime, nanoErgString, okTrue, postureSchema, typeLiteral, versionV0 } from './common.ts';

const count = (what: string) => z.int().min(0).describe(what);

export const assistantTermsSchema = z
  .object({
    ok: okTrue,
    type: typeLiteral('agent_economy.assistant_terms.v0'),
    version: versionV0,
    status: descriptorStatus,
    last_updated: isoDate.describe('Date of `generated_at`.'),
    generated_at: isoDateTime.describe('When these terms were read from the running configuration.'),
    posture: postureSchema,
    question_max_characters: z.literal(QUESTION_MAX_CHARACTERS).describe('Longest question accepted, in characters (Unicode code points).'),
    free_tier: z
      .object({
        max_characters: count('Questions up to this many characters are answered free, within the daily allowance.'),
        daily_limit: count('Free questions per client and UTC day.'),
      })
      .describe('The free allowance.'),
    premium: z
      .object({
        payable: z.boolean().describe('Whether premium quotes are issued now: false while no receiver address and reserve box are configured (quotes then answer 503 `payment_unconfigured`).'),
        price: ergDecimal.describe('Price of one premium turn, in testnet ERG.'),
        price_nanoerg: nanoErgString.describe('The same price in nanoERG.'),
        receiver_address: z.string().nullable().describe('Testnet address a Note must pay; null while unconfigured.'),
        reserve_box_id: z.string().nullable().describe('Reserve box id a Note must carry in R4; null while unconfigured.'),
        quote_lifetime_seconds: count('How long a premium quote can be paid after it is issued.'),
        min_confirmations: z.int().min(1).describe('Confirmations the Note’s block needs before verify-payment accepts it.'),
        note_expiry_margin_blocks: count('Blocks above the current height that a Note’s R5 expiry must reach (`noteExpiryMinHeight` of a quote).'),
        creation_height_tolerance_blocks: count('How many blocks before the quote a Note may have been created.'),
        payment_token_lifetime_seconds: count('How long the single-use payment token from verify-payment stays valid.'),
      })
      .describe('The premium turn, paid with a Note box on the Ergo testnet.'),
    rate_limits: z
      .object({
        quote_per_minute: z.int().min(1).describe('Quotes per client per minute (`POST /api/assistant/quote`, and an unpaid premium question on the chat, which is offered a quote).'),
        chat_per_minute: z.int().min(1).describe('Chat turns per client per minute.'),
        verify_per_minute: z.int().min(1).describe('Payment verifications per client per minute (verify-payment, a paid x402 or A2A turn, the facilitator).'),
      })
      .describe('The per-client limits; each answer names the one it counted in its `RateLimit` and `RateLimit-Policy` headers.'),
    note_rules: z
      .array(z.object({ code: z.enum(NOTE_FAILURE_CODES).describe('The code verify-payment answers when the rule fails.'), rule: z.string().describe('The rule, in words.') }))
      .min(1)
      .describe('Every rule a Note must meet, in the order verify-payment checks them.'),
    links: z
      .object({
        quote: absoluteUrl.describe('Ask for a quote.'),
        verify_payment: absoluteUrl.describe('Verify a Note against a quote.'),
        chat: absoluteUrl.describe('Ask the question, with the payment token when premium.'),
        page: absoluteUrl.describe('The assistant page.'),
      })
      .describe('Where the turn happens.'),
  })
  .describe('The assistant’s terms, from the running configuration.');
export type AssistantTerms = z.infer<typeof assistantTermsSchema>;
