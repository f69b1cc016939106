/**
 * What a question costs: the free-tier decision and the premium quote. Pure: the caller brings the
 * client's free usage today, the chain height and the clock; nothing here reads them.
 */
import { randomFillSync } from 'node:crypto';
import type { ConversationMessage, PremiumQuote } from '../../../schemas/assistant.ts';
import { typeName } from '../../config/site.ts';
import type { StoredQuote } from '../ports.ts';
import { formatNanoErg } from '../money.ts';
import { computeTaskHash } from './task-hash.ts';

export interface FreeTierLimits {
  /** Longest question (Unicode code points) the free tier answers. */
  maxCharacters: number;
  /** Free turns per client per UTC day; 0 turns the free tier off. */
  dailyLimit: number;
}

export type TierDecision =
  | { tier: 'free'; remainingToday: number; reason: string }
  | { tier: 'premium'; reason: string };

/** Code points, the unit the quote schema counts a question in. */
export function questionLength(question: string): number {
  // Code points, as [...question].length counts them, without building the array: a surrogate pair
  // is one character, a lone surrogate one too.
  let length = question.length;
  for (let index = 0; index < question.length - 1; index++) {
    const unit = question.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = question.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        index++;
      }
    }
  }
  return length;
}

/**
 * Free when the question is short and the client has free turns left today; `remainingToday`
 * counts the turn this decision allows.
 */
export function decideTier(question: string, freeUsedToday: number, limits: FreeTierLimits): TierDecision {
  const length = questionLength(question);
  if (limits.dailyLimit === 0) return { tier: 'premium', reason: 'The free tier is turned off on this service.' };
  if (length > limits.maxCharacters) {
    return { tier: 'premium', reason: `The question has ${length} characters; the free tier answers up to ${limits.maxCharacters}.` };
  }
  if (freeUsedToday >= limits.dailyLimit) {
    return { tier: 'premium', reason: `This client has used its ${limits.dailyLimit} free turns for today (UTC).` };
  }
  return {
    tier: 'free',
    remainingToday: limits.dailyLimit - freeUsedToday,
    reason: `The question has at most ${limits.maxCharacters} characters and this client has free turns left today (${freeUsedToday} of ${limits.dailyLimit} used).`,
  };
}

/** UTC calendar day of an instant, the key of the daily free allowance. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

export interface PremiumQuoteTerms {
  receiverAddress: string;
  reserveBoxId: string;
  priceNanoErg: bigint;
  quoteLifetimeSeconds: number;
  minConfirmations: number;
  noteExpiryMarginBlocks: number;
}

export interface PremiumQuoteInput {
  quoteId: string;
  question: string;
  history: ConversationMessage[] | undefined;
  terms: PremiumQuoteTerms;
  /** Chain height when the quote is issued. */
  height: number;
  now: Date;
}

/** What a premium quote body is rendered from: the terms the store keeps for each quote. */
export type QuoteTermsAsIssued = Pick<
  StoredQuote,
  'quoteId' | 'taskHash' | 'priceNanoErg' | 'receiverAddress' | 'reserveBoxId' | 'noteExpiryMinHeight' | 'minConfirmations' | 'issuedHeight' | 'expiresAt'
>;

/** The terms of a new premium quote: its task hash, its Note's expiry floor and its lifetime. */
export function premiumQuoteTerms({ quoteId, question, history, terms, height, now }: PremiumQuoteInput): QuoteTermsAsIssued {
  return {
    quoteId,
    taskHash: computeTaskHash({ quoteId, question, history }),
    priceNanoErg: terms.priceNanoErg,
    receiverAddress: terms.receiverAddress,
    reserveBoxId: terms.reserveBoxId,
    noteExpiryMinHeight: height + terms.noteExpiryMarginBlocks,
    minConfirmations: terms.minConfirmations,
    issuedHeight: height,
    expiresAt: new Date(now.getTime() + terms.quoteLifetimeSeconds * 1000),
  };
}

/** A new premium quote, rendered as the quote endpoint returns it. */
export const buildPremiumQuote = (input: PremiumQuoteInput): PremiumQuote => premiumQuoteBody(premiumQuoteTerms(input));

/**
 * The premium quote body exactly as the quote endpoint returned it. The store keeps the terms, not
 * the body: every byte of the body follows from them, so the quote record and the receipt's
 * quote evidence are rendered here again, and a quote's row stays a third of the size.
 */
export function premiumQuoteBody(terms: QuoteTermsAsIssued): PremiumQuote {
  const { quoteId, taskHash, noteExpiryMinHeight } = terms;
  return {
    type: typeName('agent_economy.assistant_quote.v0'),
    version: 'v0',
    tier: 'premium',
    quoteId,
    taskHash,
    price: formatNanoErg(terms.priceNanoErg),
    priceNanoErg: terms.priceNanoErg.toString(),
    receiverAddress: terms.receiverAddress,
    reserveBoxId: terms.reserveBoxId,
    noteExpiryMinHeight,
    minConfirmations: terms.minConfirmations,
    issuedHeight: terms.issuedHeight,
    expiresAt: terms.expiresAt.toISOString(),
    noteRequirements: {
      R4: {
        type: 'Coll[Byte]',
        meaning: 'The 32 bytes of reserveBoxId: the reserve this Note draws on.',
        value: terms.reserveBoxId,
      },
      R5: {
        type: 'Int',
        meaning: `Expiry height of the Note: at least ${noteExpiryMinHeight}, and still above the chain height when the payment is verified.`,
        value: noteExpiryMinHeight,
      },
      R6: {
        type: 'Coll[Byte]',
        meaning: 'The 32 bytes of taskHash: binds the Note to this quote and this question, so it cannot pay any other.',
        value: taskHash,
      },
    },
  };
}

/** The 64 URL-safe characters in byte order, so that a number written with them sorts as the number does. */
const SORTED_DIGITS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/**
 * A new quote id: `q_`, the issuing millisecond (48 bits in eight characters that sort as the time
 * does) and 96 random bits, URL-safe. The time comes first so that quotes issued together sit
 * together in the store's primary-key index: a batch of quotes then changes one or two index pages
 * instead of one page per quote, which is most of what a commit writes.
 */
export function newQuoteId(nowMs: number, random: (size: number) => Uint8Array = pooledRandomBytes): string {
  let time = '';
  let rest = Math.max(0, Math.floor(nowMs));
  for (let digit = 0; digit < 8; digit += 1) {
    time = SORTED_DIGITS[rest % 64] + time;
    rest = Math.floor(rest / 64);
  }
  return `q_${time}${Buffer.from(random(12)).toString('base64url')}`;
}

/** Random bytes drawn from the system CSPRNG in blocks, since each draw costs a call into OpenSSL. */
const randomPool = Buffer.alloc(4_096);
let randomOffset = randomPool.length;

/** `size` random bytes as a view into the pool, valid until the next call (newQuoteId encodes it at once). */
function pooledRandomBytes(size: number): Uint8Array {
  if (randomOffset + size > randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  const bytes = randomPool.subarray(randomOffset, randomOffset + size);
  randomOffset += size;
  return bytes;
}
