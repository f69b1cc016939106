/** The assistant's terms body (GET /api/assistant/terms) from the running paid-turn configuration. */
import { NOTE_CHECKS, NOTE_FAILURE_CODES, QUESTION_MAX_CHARACTERS } from '../../schemas/assistant.ts';
import type { AssistantTerms } from '../../schemas/assistant-terms.ts';
import { pageUrl, routeUrl } from '../catalogue/lookup.ts';
import type { PaidTurnConfig } from '../config/assistant.ts';
import { loadRateLimitConfig, type BucketLimit, type RateLimitConfig } from '../config/rate-limit.ts';
import { formatNanoErg } from '../domain/money.ts';
import { descriptorHeader, POSTURE } from './common.ts';

export function buildAssistantTerms(config: PaidTurnConfig, now: Date, { limits }: Pick<RateLimitConfig, 'limits'> = rateLimitConfig()): AssistantTerms {
  const generated = now.toISOString();
  return {
    ok: true,
    ...descriptorHeader('agent_economy.assistant_terms.v0', generated.slice(0, 10)),
    generated_at: generated,
    posture: POSTURE,
    question_max_characters: QUESTION_MAX_CHARACTERS,
    free_tier: { max_characters: config.freeTier.maxCharacters, daily_limit: config.freeTier.dailyLimit },
    premium: {
      payable: config.receiverAddress !== null && config.reserveBoxId !== null,
      price: formatNanoErg(config.priceNanoErg),
      price_nanoerg: config.priceNanoErg.toString(),
      receiver_address: config.receiverAddress,
      reserve_box_id: config.reserveBoxId,
      quote_lifetime_seconds: config.quoteLifetimeSeconds,
      min_confirmations: config.minConfirmations,
      note_expiry_margin_blocks: config.noteExpiryMarginBlocks,
      creation_height_tolerance_blocks: config.creationHeightToleranceBlocks,
      payment_token_lifetime_seconds: config.tokenLifetimeSeconds,
    },
    rate_limits: { quote_per_minute: perMinute(limits.quote), chat_per_minute: perMinute(limits.chat), verify_per_minute: perMinute(limits.verify) },
    note_rules: NOTE_FAILURE_CODES.map((code) => ({ code, rule: NOTE_CHECKS[code].rule })),
    links: { quote: routeUrl('assistant-quote'), verify_payment: routeUrl('assistant-verify-payment'), chat: routeUrl('assistant-chat'), page: pageUrl('assistant-terms') },
  };
}

/** A bucket's limit per minute (every assistant bucket counts in a minute's window). */
const perMinute = ({ points, durationSeconds }: BucketLimit) => Math.floor((points * 60) / durationSeconds);

let loadedRateLimits: RateLimitConfig | undefined;
/** The running rate limits, read once: the limiter reads them once too. */
const rateLimitConfig = () => (loadedRateLimits ??= loadRateLimitConfig());

const minutes = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`);

/** One sentence of the terms, with the words a question may ask for it by that it does not write ("how long" for a lifetime). */
export interface TermsFact {
  text: string;
  cues: string[];
}

const LIFETIME = ['long', 'lifetime', 'valid', 'expire', 'expiry', 'last', 'time', 'ttl', 'until'];

/**
 * The terms as sentences a person reads (and the assistant quotes as facts): each number of the
 * terms body said once, in words, with what it governs.
 */
export function assistantTermsFacts(terms: AssistantTerms): TermsFact[] {
  const { premium, free_tier: free } = terms;
  return [
    {
      text: `A premium answer costs ${premium.price} ERG, that is ${premium.price_nanoerg} nanoERG, paid with one Note box on the Ergo testnet.`,
      cues: ['cost', 'price', 'much', 'fee', 'charge', 'pay', 'paid', 'expensive', 'cheap'],
    },
    {
      text: 'The price is given twice, in ERG with exactly nine fraction digits (`price` in the terms and in a premium quote) and in nanoERG as an integer string (`price_nanoerg` in the terms, `priceNanoErg` in a quote); the Note value must reach the nanoERG amount.',
      cues: ['cost', 'format', 'written', 'field'],
    },
    {
      text: `A premium quote stays valid for ${minutes(premium.quote_lifetime_seconds)} (${premium.quote_lifetime_seconds} seconds): verify the payment before it expires.`,
      cues: LIFETIME,
    },
    {
      text: `The free tier answers up to ${free.daily_limit} questions a day per client, each at most ${free.max_characters} characters; longer questions, or more of them, need a premium quote.`,
      cues: ['free', 'many', 'day', 'daily', 'limit', 'allowance', 'long', 'length', 'character', 'cost', 'charge'],
    },
    { text: `A question is at most ${terms.question_max_characters} characters.`, cues: ['long', 'length', 'limit', 'maximum', 'size', 'big'] },
    {
      text: `The Note must have at least ${premium.min_confirmations} confirmation${premium.min_confirmations === 1 ? '' : 's'} before verify-payment accepts it.`,
      cues: ['many', 'wait', 'block', 'confirm'],
    },
    {
      text: `The Note must carry three registers: R4 holds the reserve box id, R5 the expiry height (at least ${premium.note_expiry_margin_blocks} blocks ahead of the quote), and R6 the task hash of the quoted question.`,
      cues: ['register', 'need', 'carry'],
    },
    { text: `A Note created more than ${premium.creation_height_tolerance_blocks} blocks before the quote was issued is refused (NOTE_TOO_OLD).`, cues: ['old', 'early', 'height'] },
    {
      text: `The payment token verify-payment returns is valid for ${minutes(premium.payment_token_lifetime_seconds)} (${premium.payment_token_lifetime_seconds} seconds) and pays for one answer only.`,
      cues: LIFETIME,
    },
    {
      text: `Each client may ask for ${terms.rate_limits.quote_per_minute} quotes, ${terms.rate_limits.chat_per_minute} chat turns and ${terms.rate_limits.verify_per_minute} payment verifications a minute; past one, 429 rate_limited with Retry-After.`,
      cues: ['rate', 'limit', 'many', 'minute', 'throttl', 'fast', 'often', '429'],
    },
    ...terms.note_rules.map((rule) => ({ text: `${rule.code}: the Note does not pay the quote unless ${rule.rule}.`, cues: ['error', 'code', 'refus', 'reason', 'rule', 'mean'] })),
  ];
}

/** The terms as sentences a person reads. */
export const assistantTermsProse = (terms: AssistantTerms): string[] => assistantTermsFacts(terms).map(({ text }) => text);
