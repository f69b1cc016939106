/**
 * The assistant's terms are read from the running configuration: change a variable and the body
 * moves; the body validates against its published schema and lists every Note rule.
 */
import { describe, expect, it } from 'vitest';
import { NOTE_FAILURE_CODES, premiumQuoteSchema } from '../../schemas/assistant.ts';
import { assistantTermsSchema } from '../../schemas/assistant-terms.ts';
import { loadPaidTurnConfig } from '../../src/config/assistant.ts';
import { loadRateLimitConfig } from '../../src/config/rate-limit.ts';
import { assistantTermsProse, buildAssistantTerms } from '../../src/descriptors/assistant-terms.ts';

const NOW = new Date('2026-11-25T12:00:00Z');
const terms = (env: Record<string, string>) => assistantTermsSchema.parse(buildAssistantTerms(loadPaidTurnConfig(env), NOW));

describe('assistant terms', () => {
  it('carries every per-client limit as the rate limiter loads it', () => {
    expect(terms({}).rate_limits).toEqual({ quote_per_minute: 30, chat_per_minute: 20, verify_per_minute: 20 });
    const limits = loadRateLimitConfig({ RATE_LIMIT_QUOTE_PER_MINUTE: '7', RATE_LIMIT_CHAT_PER_MINUTE: '5', RATE_LIMIT_VERIFY_PER_MINUTE: '3' });
    expect(assistantTermsSchema.parse(buildAssistantTerms(loadPaidTurnConfig({}), NOW, limits)).rate_limits).toEqual({ quote_per_minute: 7, chat_per_minute: 5, verify_per_minute: 3 });
  });

  it('follows the configuration: price, lifetimes, confirmations, free allowance, and whether premium is payable', () => {
    const unconfigured = terms({});
    expect(unconfigured.premium).toMatchObject({ payable: false, receiver_address: null, reserve_box_id: null });
    const configured = terms({
      ASSISTANT_RECEIVER_ADDRESS: '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt',
      ASSISTANT_RESERVE_BOX_ID: '5a'.repeat(32),
      ASSISTANT_PRICE_NANOERG: '9007199254740993',
      ASSISTANT_QUOTE_LIFETIME_SECONDS: '600',
      ASSISTANT_MIN_CONFIRMATIONS: '3',
      ASSISTANT_FREE_DAILY_LIMIT: '7',
      ASSISTANT_FREE_MAX_CHARACTERS: '120',
    });
    expect(configured.premium).toMatchObject({
      payable: true,
      price_nanoerg: '9007199254740993',
      price: '9007199.254740993',
      quote_lifetime_seconds: 600,
      min_confirmations: 3,
      receiver_address: '3WwbzW6u8hKWBcL1W7kNVMr25s2UHfSBnYtwSHvrRQt7DdPuoXrt',
    });
    expect(configured.free_tier).toEqual({ max_characters: 120, daily_limit: 7 });
    expect(configured.premium.price_nanoerg).not.toBe(unconfigured.premium.price_nanoerg);
  });

  it('lists every Note rule with the code verify-payment answers when it fails', () => {
    const body = terms({});
    expect(body.note_rules.map((rule) => rule.code)).toEqual([...NOTE_FAILURE_CODES]);
    expect(body.generated_at).toBe(NOW.toISOString());
    expect(body.links.page.endsWith('/assistant/')).toBe(true);
  });

  it('says in words each price of the body, and names the fields that hold it as the terms and a quote spell them', () => {
    const body = terms({ ASSISTANT_PRICE_NANOERG: '25000000' });
    const prose = assistantTermsProse(body).join('\n');
    expect(prose).toContain(`costs ${body.premium.price} ERG, that is ${body.premium.price_nanoerg} nanoERG`);
    expect(body.premium.price).toBe('0.025000000');
    // The fields the sentence names exist: a rename in either schema fails here, not in an answer.
    const named = [...prose.matchAll(/`(\w+)` in the terms/g)].map(([, field]) => field!);
    expect(named).toEqual(['price', 'price_nanoerg']);
    for (const field of named) expect(Object.keys(body.premium)).toContain(field);
    const quoted = [...prose.matchAll(/`(\w+)` in (?:a premium quote|a quote)/g)].map(([, field]) => field!);
    expect(quoted).toEqual(['priceNanoErg']);
    for (const field of ['price', ...quoted]) expect(Object.keys(premiumQuoteSchema.shape)).toContain(field);
  });
});
