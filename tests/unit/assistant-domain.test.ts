/**
 * The pure pieces of the paid turn: task hash, question hash, register decoding with constants
 * serialized by the Fleet SDK, every Note rule and its failure code, the receipt bundle and its id,
 * payment tokens, the free-tier decision and the premium quote, and the paid-turn configuration.
 */
import { blake2b256, hex, utf8 } from '@fleet-sdk/crypto';
import { SBool, SByte, SColl, SInt, SLong } from '@fleet-sdk/serializer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOTE_FAILURE_CODES, premiumQuoteSchema, type NoteFailureCode, type PremiumQuote } from '../../schemas/assistant.ts';
import { receiptBundleSchema, VERIFICATION_CHECKS } from '../../schemas/receipt.ts';
import { loadModelConfig, loadPaidTurnConfig } from '../../src/config/assistant.ts';
import { checkNote, type NoteTerms } from '../../src/domain/assistant/note-rules.ts';
import { decodeCollByteRegister, decodeIntRegister, decodeNoteRegisters } from '../../src/domain/assistant/note-registers.ts';
import { issuePaymentToken, hashPaymentToken } from '../../src/domain/assistant/payment-token.ts';
import { buildPremiumQuote, decideTier, newQuoteId, utcDay } from '../../src/domain/assistant/pricing.ts';
import { buildReceiptBundle } from '../../src/domain/assistant/receipt-bundle.ts';
import { canonicalJson } from '../../src/domain/canonical-hash.ts';
import { receiptLogEntryText } from '../../src/domain/receipt-log-entry.ts';
import { computeTaskHash, hashQuestion } from '../../src/domain/assistant/task-hash.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';
import type { ChainBox } from '../../src/domain/ports.ts';
import { noteBox, TEST_RECEIVER_ADDRESS, TEST_RESERVE_BOX_ID } from '../helpers/fakes.ts';

const blake = (text: string) => hex.encode(blake2b256(utf8.decode(text)));

describe('task hash', () => {
  it('is blake2b256 of the RFC 8785 text of {quoteId, question, history}', () => {
    // Written out by hand: keys sorted, no whitespace, history [] when omitted.
    expect(computeTaskHash({ quoteId: 'q_1', question: 'What is R5?' })).toBe(blake('{"history":[],"question":"What is R5?","quoteId":"q_1"}'));
    expect(computeTaskHash({ quoteId: 'q_1', question: 'é "x"', history: [{ role: 'user', content: 'hi' }] })).toBe(
      blake('{"history":[{"content":"hi","role":"user"}],"question":"é \\"x\\"","quoteId":"q_1"}'),
    );
  });

  it('is deterministic and changes with every input', () => {
    const base = { quoteId: 'q_1', question: 'What is R5?', history: [{ role: 'user' as const, content: 'hi' }] };
    const hash = computeTaskHash(base);
    expect(computeTaskHash(structuredClone(base))).toBe(hash);
    expect(computeTaskHash({ history: base.history, question: base.question, quoteId: base.quoteId })).toBe(hash);
    expect(computeTaskHash({ ...base, quoteId: 'q_2' })).not.toBe(hash);
    expect(computeTaskHash({ ...base, question: 'What is R4?' })).not.toBe(hash);
    expect(computeTaskHash({ ...base, history: [{ role: 'assistant', content: 'hi' }] })).not.toBe(hash);
    expect(computeTaskHash({ ...base, history: [] })).toBe(computeTaskHash({ quoteId: 'q_1', question: 'What is R5?' }));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes the question text alone for storage', () => {
    expect(hashQuestion('What is R5?')).toBe(blake('What is R5?'));
    expect(hashQuestion('What is R5?')).not.toBe(hashQuestion('What is R5? '));
  });
});

describe('Note registers', () => {
  const reserve = 'ab'.repeat(32);

  it('decodes Coll[Byte] and Int constants as a wallet serializes them', () => {
    const registers = decodeNoteRegisters({ R4: SColl(SByte, reserve).toHex(), R5: SInt(1_300_000).toHex(), R6: SColl(SByte, 'cd'.repeat(32)).toHex() });
    expect(registers.R4).toEqual({ status: 'ok', serializedValue: `0e20${reserve}`, value: reserve });
    expect(registers.R5).toEqual({ status: 'ok', serializedValue: '04c0d89e01', value: 1_300_000 });
    expect(registers.R6).toMatchObject({ status: 'ok', value: 'cd'.repeat(32) });
    expect(decodeIntRegister(SInt(-7).toHex())).toMatchObject({ status: 'ok', value: -7 });
    expect(decodeIntRegister(SInt(2_147_483_647).toHex())).toMatchObject({ status: 'ok', value: 2_147_483_647 });
  });

  it('names the type of a constant of another type instead of reading its bytes', () => {
    expect(decodeCollByteRegister(SLong(5n).toHex())).toEqual({ status: 'wrong_type', serializedValue: '050a', found: 'SLong' });
    expect(decodeCollByteRegister(SColl(SInt, [1, 2]).toHex())).toMatchObject({ status: 'wrong_type', found: 'SColl[SInt]' });
    expect(decodeIntRegister(SLong(1_300_000n).toHex())).toMatchObject({ status: 'wrong_type', found: 'SLong' });
    expect(decodeIntRegister(SBool(true).toHex())).toMatchObject({ status: 'wrong_type', found: 'SBool' });
    // The hex of the R4 bytes alone, without the Coll[Byte] header, is not a constant of that type.
    expect(decodeCollByteRegister(reserve)).toMatchObject({ status: 'wrong_type' });
  });

  it('refuses truncated constants, trailing bytes and non-hex text', () => {
    expect(decodeCollByteRegister(`0e20${'ab'.repeat(31)}`)).toMatchObject({ status: 'wrong_type', found: 'not a serialized constant' });
    expect(decodeCollByteRegister(`0e20${reserve}00`)).toMatchObject({ status: 'wrong_type', found: 'not a serialized constant' });
    expect(decodeIntRegister('04c0d89e')).toMatchObject({ status: 'wrong_type' });
    expect(decodeIntRegister('zz')).toMatchObject({ status: 'wrong_type' });
    expect(decodeIntRegister(undefined)).toEqual({ status: 'missing' });
    expect(decodeCollByteRegister('')).toEqual({ status: 'missing' });
  });

  it('accepts upper-case hex and reports it lower-case', () => {
    expect(decodeCollByteRegister(SColl(SByte, reserve).toHex().toUpperCase())).toMatchObject({ status: 'ok', value: reserve, serializedValue: `0e20${reserve}` });
  });
});

const terms: NoteTerms = {
  receiverAddress: TEST_RECEIVER_ADDRESS,
  reserveBoxId: TEST_RESERVE_BOX_ID,
  taskHash: 'cd'.repeat(32),
  priceNanoErg: 10_000_000n,
  minConfirmations: 2,
  noteExpiryMinHeight: 1_720,
  issuedHeight: 1_000,
};
const HEIGHT = 1_010;
const TOLERANCE = 10;

const goodNote = (overrides: Partial<Parameters<typeof noteBox>[0]> = {}): ChainBox =>
  noteBox({
    boxId: 'ee'.repeat(32),
    value: 10_000_000n,
    reserveBoxId: TEST_RESERVE_BOX_ID,
    expiryHeight: 1_720,
    taskHash: terms.taskHash,
    creationHeight: 1_005,
    inclusionHeight: 1_009,
    ...overrides,
  });

describe('checkNote', () => {
  it('counts no confirmation, not NaN, for a Note in no block yet', () => {
    expect(checkNote(terms, goodNote({ inclusionHeight: undefined }), HEIGHT, false, TOLERANCE)).toMatchObject({ failure: 'NOTE_UNCONFIRMED', confirmations: 0 });
  });

  it('refuses every Note for a quote whose receiver does not decode, saying so', () => {
    const result = checkNote({ ...terms, receiverAddress: 'not-an-address' }, goodNote(), HEIGHT, false, TOLERANCE);
    expect(result.failure).toBe('RECEIVER_MISMATCH');
    expect(result.checks.find((check) => check.code === 'pays_receiver')?.detail).toBe("The quote's receiver address not-an-address does not decode to an ErgoTree.");
  });

  it('passes a Note that meets every rule, listing every check in order', () => {
    const result = checkNote(terms, goodNote(), HEIGHT, false, TOLERANCE);
    expect(result.failure).toBeUndefined();
    expect(result.checks.map((check) => check.code)).toEqual(VERIFICATION_CHECKS.slice(1));
    expect(result.checks.every((check) => check.ok)).toBe(true);
    expect(result.confirmations).toBe(2);
  });

  const failing: Array<[NoteFailureCode, ChainBox | undefined, { height?: number; used?: boolean }]> = [
    ['NOTE_NOT_FOUND', undefined, {}],
    ['NOTE_UNCONFIRMED', goodNote({ inclusionHeight: undefined }), {}],
    ['NOTE_UNCONFIRMED', goodNote({ inclusionHeight: 1_010 }), {}],
    ['NOTE_EXPIRED', goodNote({ expiryHeight: 1_719 }), {}],
    ['NOTE_EXPIRED', goodNote({ expiryHeight: 1_720 }), { height: 1_720 }],
    ['NOTE_EXPIRED', goodNote({ expiryHeight: undefined }), {}],
    ['RESERVE_MISMATCH', goodNote({ reserveBoxId: 'a2'.repeat(32) }), {}],
    ['RESERVE_MISMATCH', goodNote({ reserveBoxId: undefined }), {}],
    ['TASK_HASH_MISSING', goodNote({ taskHash: undefined }), {}],
    ['TASK_HASH_MISSING', goodNote({ taskHash: 'cd'.repeat(31) }), {}],
    ['TASK_HASH_MISMATCH', goodNote({ taskHash: 'ce'.repeat(32) }), {}],
    // A box carrying the right registers but locked to the payer's own key pays nobody.
    ['RECEIVER_MISMATCH', goodNote({ ergoTree: '0008cd03' + '11'.repeat(32) }), {}],
    ['INSUFFICIENT_VALUE', goodNote({ value: 9_999_999n }), {}],
    ['NOTE_TOO_OLD', goodNote({ creationHeight: 989 }), {}],
    ['NOTE_ALREADY_USED', goodNote(), { used: true }],
  ];

  it.each(failing)('fails with %s', (code, box, { height, used }) => {
    const result = checkNote(terms, box, height ?? HEIGHT, used ?? false, TOLERANCE);
    expect(result.failure).toBe(code);
    const failed = result.checks.find((check) => !check.ok)!;
    expect(failed.detail.length).toBeGreaterThan(0);
  });

  it('covers every failure code of the contract', () => {
    expect(new Set(failing.map(([code]) => code))).toEqual(new Set(NOTE_FAILURE_CODES));
  });

  it('accepts the boundaries: exact price, exact confirmations, creation at the tolerance, R5 at noteExpiryMinHeight', () => {
    const boundary = goodNote({ value: 10_000_000n, inclusionHeight: 1_009, creationHeight: 990, expiryHeight: 1_720 });
    expect(checkNote(terms, boundary, HEIGHT, false, TOLERANCE).failure).toBeUndefined();
    expect(checkNote(terms, goodNote({ creationHeight: 990 }), HEIGHT, false, 9).failure).toBe('NOTE_TOO_OLD');
  });

  it('compares values past 2^53 exactly', () => {
    const big = { ...terms, priceNanoErg: 9_007_199_254_740_993n };
    expect(checkNote(big, goodNote({ value: 9_007_199_254_740_992n }), HEIGHT, false, TOLERANCE).failure).toBe('INSUFFICIENT_VALUE');
    expect(checkNote(big, goodNote({ value: 9_007_199_254_740_993n }), HEIGHT, false, TOLERANCE).failure).toBeUndefined();
  });

  it('names the first failing rule when several fail', () => {
    const result = checkNote(terms, goodNote({ reserveBoxId: 'a2'.repeat(32), value: 1n, creationHeight: 1 }), HEIGHT, false, TOLERANCE);
    expect(result.failure).toBe('RESERVE_MISMATCH');
    expect(result.checks.filter((check) => !check.ok).map((check) => check.code)).toEqual(['reserve_matches', 'value_covers_price', 'created_after_quote']);
  });

  it('reads a register of the wrong type as failing its rule, not as bytes', () => {
    const box = goodNote({ registers: { R4: SColl(SByte, TEST_RESERVE_BOX_ID).toHex(), R5: SLong(1_720n).toHex(), R6: SColl(SByte, terms.taskHash).toHex() } });
    const result = checkNote(terms, box, HEIGHT, false, TOLERANCE);
    expect(result.failure).toBe('NOTE_EXPIRED');
    expect(result.checks[2]!.detail).toContain('SLong');
  });

  it('says in each register check whether the register is missing, of another type, or what it holds', () => {
    const missing = checkNote(terms, goodNote({ registers: { R4: SColl(SByte, TEST_RESERVE_BOX_ID).toHex(), R6: SColl(SByte, terms.taskHash).toHex() } }), HEIGHT, false, TOLERANCE);
    expect(missing.failure).toBe('NOTE_EXPIRED');
    expect(missing.checks[2]!.detail).toMatch(/^R5 \(expiry height\) is missing;/);
    const held = checkNote(terms, goodNote(), HEIGHT, false, TOLERANCE);
    expect(held.failure).toBeUndefined();
    expect(held.checks[2]!.detail).toMatch(new RegExp(`^R5 \\(expiry height\\) is ${held.registers!.R5.status === 'ok' ? held.registers!.R5.value : 'x'};`));
    expect(held.checks.map((check) => check.detail).join(' ')).not.toMatch(/missing|not the expected type/);
  });
});

function premiumQuote(): PremiumQuote {
  return buildPremiumQuote({
    quoteId: 'q_test',
    question: 'What is R5?',
    history: undefined,
    terms: {
      receiverAddress: TEST_RECEIVER_ADDRESS,
      reserveBoxId: TEST_RESERVE_BOX_ID,
      priceNanoErg: 10_000_000n,
      quoteLifetimeSeconds: 900,
      minConfirmations: 2,
      noteExpiryMarginBlocks: 720,
    },
    height: 1_000,
    now: new Date('2026-11-23T12:00:00.000Z'),
  });
}

describe('premium quote and free tier', () => {
  it('builds a quote that its schema accepts, with the Note requirements repeating its terms', () => {
    const quote = premiumQuote();
    expect(premiumQuoteSchema.parse(quote)).toEqual(quote);
    expect(quote).toMatchObject({
      tier: 'premium',
      price: '0.010000000',
      priceNanoErg: '10000000',
      noteExpiryMinHeight: 1_720,
      issuedHeight: 1_000,
      expiresAt: '2026-11-23T12:15:00.000Z',
      taskHash: computeTaskHash({ quoteId: 'q_test', question: 'What is R5?' }),
    });
    expect(quote.noteRequirements.R4).toMatchObject({ type: 'Coll[Byte]', value: TEST_RESERVE_BOX_ID });
    expect(quote.noteRequirements.R5).toMatchObject({ type: 'Int', value: 1_720 });
    expect(quote.noteRequirements.R6).toMatchObject({ type: 'Coll[Byte]', value: quote.taskHash });
  });

  it('issues URL-safe quote ids that differ', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newQuoteId(Date.now())));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^q_[A-Za-z0-9_-]{24}$/);
  });

  it('decides free only for a short question with allowance left', () => {
    const limits = { maxCharacters: 10, dailyLimit: 2 };
    expect(decideTier('short one', 0, limits)).toMatchObject({ tier: 'free', remainingToday: 2 });
    expect(decideTier('short one', 1, limits)).toMatchObject({ tier: 'free', remainingToday: 1 });
    expect(decideTier('short one', 2, limits).tier).toBe('premium');
    expect(decideTier('eleven char', 0, limits).tier).toBe('premium');
    // Characters are code points: ten emoji are ten characters, not twenty UTF-16 units.
    expect(decideTier('\u{1F50E}'.repeat(10), 0, limits).tier).toBe('free');
    expect(decideTier('short', 0, { maxCharacters: 10, dailyLimit: 0 }).tier).toBe('premium');
  });

  it('keys the allowance by UTC day', () => {
    expect(utcDay(new Date('2026-11-23T23:59:59.999Z'))).toBe('2026-11-23');
    expect(utcDay(new Date('2026-11-24T00:00:00.000Z'))).toBe('2026-11-24');
  });
});

describe('payment tokens', () => {
  it('are 256 random bits in base64url, stored only as a hash', () => {
    const now = new Date('2026-11-23T12:00:00.000Z');
    const first = issuePaymentToken(now, 1_800);
    const second = issuePaymentToken(now, 1_800);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.token, 'base64url')).toHaveLength(32);
    expect(first.token).not.toBe(second.token);
    expect(first.tokenHash).toBe(hashPaymentToken(first.token));
    expect(first.tokenHash).toBe(blake(first.token));
    expect(first.tokenHash).not.toContain(first.token);
  });

  it('expire after the configured lifetime, 30 minutes by default', () => {
    const now = new Date('2026-11-23T12:00:00.000Z');
    const lifetime = loadPaidTurnConfig({}).tokenLifetimeSeconds;
    expect(lifetime).toBe(1_800);
    expect(issuePaymentToken(now, lifetime).expiresAt.toISOString()).toBe('2026-11-23T12:30:00.000Z');
    expect(issuePaymentToken(now, 60).expiresAt.toISOString()).toBe('2026-11-23T12:01:00.000Z');
  });

  it('refuse a random source that gives fewer than 32 bytes', () => {
    expect(() => issuePaymentToken(new Date(), 60, () => new Uint8Array(16))).toThrow(/32 random bytes/);
  });
});

describe('receipt bundle', () => {
  const quote = premiumQuote();
  const box = noteBox({
    boxId: 'ee'.repeat(32),
    transactionId: 'ff'.repeat(32),
    value: 12_000_000n,
    reserveBoxId: TEST_RESERVE_BOX_ID,
    expiryHeight: 1_800,
    taskHash: quote.taskHash,
    creationHeight: 1_001,
    inclusionHeight: 1_002,
  });
  const storedTerms = { ...quote, priceNanoErg: 10_000_000n };
  const build = (source: 'testnet' | 'sandbox' = 'sandbox') =>
    buildReceiptBundle({
      quote,
      noteBox: box,
      noteCheck: checkNote(storedTerms, box, 1_003, false, 10),
      chain: { source, via: 'explorer_api_v1', explorer: 'http://127.0.0.1:4323', height: 1_003 },
      checkedAt: new Date('2026-11-23T12:05:00.000Z'),
      issuedAt: new Date('2026-11-23T12:05:00.000Z'),
      tokenLifetimeSeconds: 1_800,
    });

  it('is a full bundle its schema accepts, with every check passed', () => {
    const bundle = build();
    expect(receiptBundleSchema.parse(bundle)).toEqual(bundle);
    expect(bundle).toMatchObject({
      receipt_type: 'full_receipt_bundle',
      completeness: 'full_receipt_bundle',
      status: 'settled_on_chain',
      chain: 'sandbox',
      noteBoxId: box.boxId,
      settlementTxId: box.transactionId,
      taskHash: quote.taskHash,
    });
    expect(bundle.verification_receipt.checks.map((check) => check.code)).toEqual(VERIFICATION_CHECKS);
    expect(bundle.settlement_receipt).toMatchObject({ valueNanoErg: '12000000', confirmations: 2, inclusionHeight: 1_002 });
    expect(bundle.settlement_receipt.registers.R5).toEqual({ serializedValue: SInt(1_800).toHex(), value: 1_800 });
    expect(bundle.quote_evidence.quote).toEqual(quote);
    expect(build('testnet').chain).toBe('testnet');
  });

  it('carries a receiptId that is the blake2b256 of its canonical JSON without the id', () => {
    const { receiptId, ...rest } = build();
    expect(receiptId).toBe(computeReceiptId(rest));
    expect(computeReceiptId(JSON.parse(JSON.stringify(rest)))).toBe(receiptId);
    expect(computeReceiptId({ ...rest, issued_at: '2026-11-23T12:05:00.001Z' })).not.toBe(receiptId);
    expect(() => computeReceiptId({ receiptId, ...rest })).toThrow(/without its receiptId/);
  });

  it('is frozen, and its receipt log entry is the canonical JSON of the whole bundle as served', () => {
    const bundle = build();
    expect(Object.isFrozen(bundle) && Object.isFrozen(bundle.agreement.terms) && Object.isFrozen(bundle.verification_receipt.checks[0])).toBe(true);
    expect(() => Object.assign(bundle.agreement, { priceNanoErg: '1' })).toThrow(TypeError);
    expect(receiptLogEntryText(bundle)).toBe(canonicalJson(JSON.parse(JSON.stringify(bundle))));
  });

  it('is never built for a Note that failed a rule', () => {
    expect(() =>
      buildReceiptBundle({
        quote,
        noteBox: box,
        noteCheck: checkNote(storedTerms, box, 1_003, true, 10),
        chain: { source: 'sandbox', via: 'explorer_api_v1', explorer: 'http://127.0.0.1:4323', height: 1_003 },
        checkedAt: new Date(),
        issuedAt: new Date(),
        tokenLifetimeSeconds: 1_800,
      }),
    ).toThrow(/NOTE_ALREADY_USED/);
  });
});

describe('paid-turn and model configuration', () => {
  it('has documented defaults and no receiver or reserve until configured', () => {
    expect(loadPaidTurnConfig({})).toEqual({
      receiverAddress: null,
      reserveBoxId: null,
      priceNanoErg: 10_000_000n,
      quoteLifetimeSeconds: 900,
      minConfirmations: 1,
      noteExpiryMarginBlocks: 720,
      creationHeightToleranceBlocks: 10,
      freeTier: { maxCharacters: 200, dailyLimit: 5 },
      tokenLifetimeSeconds: 1_800,
    });
    expect(loadModelConfig({})).toEqual({ provider: 'docs', timeoutMs: 20_000 });
  });

  it('reads every variable', () => {
    const config = loadPaidTurnConfig({
      ASSISTANT_RECEIVER_ADDRESS: TEST_RECEIVER_ADDRESS,
      ASSISTANT_RESERVE_BOX_ID: TEST_RESERVE_BOX_ID.toUpperCase(),
      ASSISTANT_PRICE_NANOERG: '9007199254740993',
      ASSISTANT_QUOTE_LIFETIME_SECONDS: '60',
      ASSISTANT_MIN_CONFIRMATIONS: '3',
      ASSISTANT_NOTE_EXPIRY_MARGIN_BLOCKS: '100',
      ASSISTANT_CREATION_HEIGHT_TOLERANCE_BLOCKS: '0',
      ASSISTANT_FREE_MAX_CHARACTERS: '50',
      ASSISTANT_FREE_DAILY_LIMIT: '0',
      ASSISTANT_TOKEN_LIFETIME_SECONDS: '600',
    });
    expect(config).toEqual({
      receiverAddress: TEST_RECEIVER_ADDRESS,
      reserveBoxId: TEST_RESERVE_BOX_ID,
      priceNanoErg: 9_007_199_254_740_993n,
      quoteLifetimeSeconds: 60,
      minConfirmations: 3,
      noteExpiryMarginBlocks: 100,
      creationHeightToleranceBlocks: 0,
      freeTier: { maxCharacters: 50, dailyLimit: 0 },
      tokenLifetimeSeconds: 600,
    });
    expect(loadModelConfig({ ASSISTANT_MODEL_PROVIDER: 'openai', OPENAI_MODEL: 'm', OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1/', MODEL_TIMEOUT_MS: '500' })).toEqual({
      provider: 'openai',
      model: 'm',
      baseUrl: 'http://127.0.0.1:8080/v1',
      apiKey: null,
      timeoutMs: 500,
    });
  });

  it.each([
    [{ ASSISTANT_RECEIVER_ADDRESS: '9fRAWhdxEsTcdb8PhGNrZfwqa65zfkuYHAMmkQLcic1gdLSV5vA' }, /ASSISTANT_RECEIVER_ADDRESS must be a testnet address/],
    [{ ASSISTANT_RECEIVER_ADDRESS: 'not-an-address' }, /ASSISTANT_RECEIVER_ADDRESS must be a valid base58 Ergo address/],
    [{ ASSISTANT_RESERVE_BOX_ID: 'abc' }, /ASSISTANT_RESERVE_BOX_ID must be a box id/],
    [{ ASSISTANT_PRICE_NANOERG: '0' }, /ASSISTANT_PRICE_NANOERG must be a positive whole number of nanoERG/],
    [{ ASSISTANT_PRICE_NANOERG: '0.01' }, /ASSISTANT_PRICE_NANOERG/],
    [{ ASSISTANT_QUOTE_LIFETIME_SECONDS: '0' }, /ASSISTANT_QUOTE_LIFETIME_SECONDS must be a whole number of seconds from 1 to 86400/],
    [{ ASSISTANT_MIN_CONFIRMATIONS: '0' }, /ASSISTANT_MIN_CONFIRMATIONS/],
    [{ ASSISTANT_TOKEN_LIFETIME_SECONDS: '30m' }, /ASSISTANT_TOKEN_LIFETIME_SECONDS/],
    [{ ASSISTANT_FREE_DAILY_LIMIT: '-1' }, /ASSISTANT_FREE_DAILY_LIMIT/],
  ])('names the variable of a malformed value: %o', (env, message) => {
    expect(() => loadPaidTurnConfig(env)).toThrow(message);
  });

  it('needs a model name for the openai provider and never echoes the key', () => {
    expect(() => loadModelConfig({ ASSISTANT_MODEL_PROVIDER: 'openai' })).toThrow(/OPENAI_MODEL must be set/);
    expect(() => loadModelConfig({ ASSISTANT_MODEL_PROVIDER: 'claude' })).toThrow(/ASSISTANT_MODEL_PROVIDER must be docs, openai or none/);
    expect(() => loadModelConfig({ ASSISTANT_MODEL_PROVIDER: 'openai', OPENAI_MODEL: 'm', OPENAI_BASE_URL: 'ftp://secret-key@x' })).toThrow(/OPENAI_BASE_URL/);
    expect(() => loadModelConfig({ ASSISTANT_MODEL_PROVIDER: 'openai', OPENAI_MODEL: 'm', OPENAI_BASE_URL: 'ftp://secret-key@x' })).not.toThrow(/secret-key/);
    expect(() => loadModelConfig({ MODEL_TIMEOUT_MS: '50' })).toThrow(/MODEL_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000/);
  });
});

describe('questionLength', () => {
  it('counts code points as spreading the string does: pairs once, lone surrogates once', async () => {
    const { questionLength } = await import('../../src/domain/assistant/pricing.ts');
    for (const text of ['', 'a', 'naïve', '𝔸𝔹', 'a\ud800b', '\udc00\ud800', 'x\ud83d', '\ud83d\ude00\ud83d', '🙂'.repeat(300)]) {
      expect(questionLength(text), JSON.stringify(text)).toBe([...text].length);
    }
  });
});

describe('newQuoteId', () => {
  it('draws 12 fresh random bytes per id, across refills of its pool', async () => {
    const { newQuoteId } = await import('../../src/domain/assistant/pricing.ts');
    const now = Date.now();
    const ids = Array.from({ length: 2_000 }, () => newQuoteId(now));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^q_[A-Za-z0-9_-]{24}$/);
  });

  it('starts with the issuing millisecond, so ids sort by time as plain bytes (as the store index orders them)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 2 }), fc.integer({ min: 1, max: 2 ** 40 }), (earlier, gap) => {
        const later = Math.min(earlier + gap, 2 ** 48 - 1);
        const [a, b] = [newQuoteId(earlier), newQuoteId(later)];
        expect(a.slice(0, 10) < b.slice(0, 10)).toBe(true);
        expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).toBe(-1);
      }),
    );
    expect(newQuoteId(0).slice(0, 10)).toBe('q_--------');
    expect(newQuoteId(Date.UTC(2026, 10, 26)).slice(2, 10)).not.toBe(newQuoteId(Date.UTC(2026, 10, 26) + 1).slice(2, 10));
  });
});
