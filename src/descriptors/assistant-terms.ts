/** The assistant's terms body (GET /api/assistant/terms) from the running paid-turn configuration. */
import { NOTE_CHECKS, NOTE_FAILURE_CODES, QUESTION_MAX_CHARACTERS } from '../../schemas/assistant.ts';
import type { AssistantTerms } from '../../schemas/assistant-terms.ts';
import { pageUrl, routeUrl } from '../catalogue/lookup.ts';
import type { PaidTurnConfig } from '../config/assistant.ts';
import { formatNanoErg } from '../domain/money.ts';
import { descriptorHeader, POSTURE } from './common.ts';

export function buildAssistantTerms(config: PaidTurnConfig, now: Date): AssistantTerms {
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
    note_rules: NOTE_FAILURE_CODES.map((code) => ({ code, rule: NOTE_CHECKS[code].rule })),
    links: { quote: routeUrl('assistant-quote'), verify_payment: routeUrl('assistant-verify-payment'), chat: routeUrl('assistant-chat'), page: pageUrl('assistant-terms') },
  };
}
