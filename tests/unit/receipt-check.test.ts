/**
 * The offline receipt checker (`agent-economy verify-receipt --offline`, the receipt page, the
 * `receipt` developer tool), one rule at a time: each variant of a valid bundle breaks exactly one
 * agreement, its receipt id recomputed so that only the rule under test can catch it, and every
 * boundary is tried from both sides. A test whose input breaks two rules pins neither.
 */
import { SByte, SColl, SInt } from '@fleet-sdk/serializer';
import { describe, expect, it } from 'vitest';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import { VERIFICATION_CHECKS } from '../../schemas/receipt.ts';
import { blake2b256Hex } from '../../src/domain/canonical-hash.ts';
import { InspectionInputError } from '../../src/domain/ergo/inspection-error.ts';
import { checkReceiptBundle } from '../../src/domain/ergo/receipt-check.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';
import { fixtureBundle } from '../e2e/receipt-fixture.ts';

type Editable = Omit<ReceiptBundle, 'receiptId'>;

/** The fixture with `edit` applied and its receipt id recomputed, checked: the whole answer. */
function checked(edit: (bundle: Editable) => void): ReturnType<typeof checkReceiptBundle> {
  const { receiptId: _receiptId, ...bundle } = structuredClone(fixtureBundle());
  edit(bundle);
  return checkReceiptBundle(JSON.stringify({ receiptId: computeReceiptId(bundle), ...bundle }));
}

/** The fixture with `edit` applied and its receipt id recomputed: what the checker finds wrong with it. */
function failedChecks(edit: (bundle: Editable) => void): string[] {
  return checked(edit).result.failed_checks;
}

/** The detail of one named check of an answer. */
function detailOf(answer: ReturnType<typeof checkReceiptBundle>, id: string): string {
  const check = answer.result.checks.find((candidate) => candidate.id === id);
  if (!check) throw new Error(`no check ${id} in the answer`);
  return check.detail;
}

/** The reason an input is refused with, or a note that it was not refused. */
function refusalOf(input: string): string {
  try {
    checkReceiptBundle(input);
  } catch (error) {
    if (error instanceof InspectionInputError) return error.reason;
    throw error;
  }
  return 'not refused';
}

const collBytes = (hex: string) => SColl(SByte, Buffer.from(hex, 'hex')).toHex();
/** Sets a register's value and its serialized constant together, so that they still decode alike. */
function setRegister(bundle: Editable, name: 'R4' | 'R6', hex: string): void;
function setRegister(bundle: Editable, name: 'R5', height: number): void;
function setRegister(bundle: Editable, name: 'R4' | 'R5' | 'R6', value: string | number): void {
  const register = bundle.settlement_receipt.registers[name] as { serializedValue: string; value: string | number };
  register.value = value;
  register.serializedValue = typeof value === 'number' ? SInt(value).toHex() : collBytes(value);
}

describe('the offline receipt checker', () => {
  it('passes the fixture bundle as it is', () => {
    expect(failedChecks(() => undefined)).toEqual([]);
  });

  it('binds the Note to its task: R6 must be the task hash', () => {
    expect(failedChecks((bundle) => setRegister(bundle, 'R6', blake2b256Hex('another task')))).toEqual(['note_binding']);
  });

  it('binds the Note to its reserve: R4 must be the agreement\'s reserve box id', () => {
    expect(failedChecks((bundle) => setRegister(bundle, 'R4', blake2b256Hex('another reserve')))).toEqual(['note_binding']);
  });

  it('holds R5 to the quote\'s minimum expiry: equal passes, one block below fails', () => {
    const minimum = fixtureBundle().agreement.noteExpiryMinHeight;
    expect(failedChecks((bundle) => setRegister(bundle, 'R5', minimum))).toEqual([]);
    expect(failedChecks((bundle) => setRegister(bundle, 'R5', minimum + 1))).toEqual([]);
    expect(failedChecks((bundle) => setRegister(bundle, 'R5', minimum - 1))).toEqual(['note_binding']);
  });

  it('checks that each register decodes to the value the bundle states', () => {
    expect(failedChecks((bundle) => (bundle.settlement_receipt.registers.R6.value = blake2b256Hex('not what R6 encodes')))).toEqual(['registers_decode', 'note_binding']);
    expect(failedChecks((bundle) => (bundle.settlement_receipt.registers.R5.serializedValue = collBytes(blake2b256Hex('a collection, not an Int'))))).toEqual(['registers_decode']);
  });

  it('compares the task hash with the agreement\'s and the quote\'s, each on its own', () => {
    expect(failedChecks((bundle) => (bundle.agreement.taskHash = blake2b256Hex('other')))).toEqual(['task_hash_agrees']);
    // The quote's own rule (its R6 requirement repeats its task hash) is kept, so only the comparison can catch it.
    expect(
      failedChecks((bundle) => {
        bundle.quote_evidence.quote.taskHash = blake2b256Hex('other');
        bundle.quote_evidence.quote.noteRequirements.R6.value = blake2b256Hex('other');
      }),
    ).toEqual(['task_hash_agrees']);
  });

  it('compares each of the agreement\'s quote fields with the quote it embeds, one at a time', () => {
    const quoteOf = (bundle: Editable) => bundle.quote_evidence.quote as Record<string, unknown> & { noteRequirements: Record<'R4' | 'R5', { value: unknown }> };
    const edits: Record<string, (bundle: Editable) => void> = {
      quoteId: (bundle) => (quoteOf(bundle).quoteId = 'q_someone_else'),
      price: (bundle) => Object.assign(quoteOf(bundle), { price: '0.020000000', priceNanoErg: '20000000' }),
      receiverAddress: (bundle) => (quoteOf(bundle).receiverAddress = '3WwXpssaZwcNzaGMv3AgxBdTPJQBt5gCmqBsg3DykQ39bYdhJBsN'),
      reserveBoxId: (bundle) => {
        quoteOf(bundle).reserveBoxId = blake2b256Hex('r');
        quoteOf(bundle).noteRequirements.R4.value = blake2b256Hex('r');
      },
      noteExpiryMinHeight: (bundle) => {
        quoteOf(bundle).noteExpiryMinHeight = 1099;
        quoteOf(bundle).noteRequirements.R5.value = 1099;
      },
      minConfirmations: (bundle) => (quoteOf(bundle).minConfirmations = 2),
      issuedHeight: (bundle) => (quoteOf(bundle).issuedHeight = 999),
      expiresAt: (bundle) => (quoteOf(bundle).expiresAt = '2026-11-23T12:11:00.000Z'),
    };
    for (const [field, edit] of Object.entries(edits)) expect(failedChecks(edit), field).toEqual(['quote_agrees']);
  });

  it('compares the Note box id with the verification\'s and the settlement\'s, each on its own', () => {
    expect(failedChecks((bundle) => (bundle.verification_receipt.noteBoxId = blake2b256Hex('other note')))).toEqual(['note_box_id_agrees']);
    expect(failedChecks((bundle) => (bundle.settlement_receipt.noteBoxId = blake2b256Hex('other note')))).toEqual(['note_box_id_agrees']);
  });

  it('compares the settlement transaction id and the chain', () => {
    expect(failedChecks((bundle) => (bundle.settlement_receipt.settlementTxId = blake2b256Hex('other tx')))).toEqual(['settlement_tx_id_agrees']);
    expect(failedChecks((bundle) => (bundle.verification_receipt.chain.source = 'testnet'))).toEqual(['chain_agrees']);
  });

  it('holds the Note value to the price: equal passes, one nanoERG below fails', () => {
    const price = BigInt(fixtureBundle().agreement.priceNanoErg);
    expect(failedChecks((bundle) => (bundle.settlement_receipt.valueNanoErg = String(price)))).toEqual([]);
    expect(failedChecks((bundle) => (bundle.settlement_receipt.valueNanoErg = String(price - 1n)))).toEqual(['value_covers_price']);
  });

  it('holds the confirmations to the agreement\'s minimum: equal passes, one fewer fails', () => {
    const requiring = (confirmations: number) => (bundle: Editable) => {
      bundle.agreement.minConfirmations = 3;
      bundle.quote_evidence.quote.minConfirmations = 3;
      bundle.settlement_receipt.confirmations = confirmations;
    };
    expect(failedChecks(requiring(3))).toEqual([]);
    expect(failedChecks(requiring(2))).toEqual(['confirmations']);
  });

  it('requires every verification check recorded, and each recorded as passed', () => {
    for (const code of VERIFICATION_CHECKS) {
      // As many checks as the schema wants, one of them twice: the one left out is missing.
      const other = VERIFICATION_CHECKS.find((candidate) => candidate !== code)!;
      expect(
        failedChecks((bundle) => (bundle.verification_receipt.checks = bundle.verification_receipt.checks.map((check) => (check.code === code ? { ...check, code: other } : check)))),
        `without ${code}`,
      ).toEqual(['verification_checks_passed']);
      expect(
        failedChecks((bundle) => (bundle.verification_receipt.checks = bundle.verification_receipt.checks.map((check) => (check.code === code ? { ...check, ok: false } : check)))),
        `${code} failed`,
      ).toEqual(['verification_checks_passed']);
    }
  });

  it('refuses a bundle changed after its id was computed, and says which id it computed', () => {
    const bundle = fixtureBundle();
    const { result } = checkReceiptBundle(JSON.stringify({ ...bundle, issued_at: '2026-11-23T12:05:02.000Z' }));
    expect(result.failed_checks).toEqual(['receipt_id']);
    expect(result.receipt_id_matches).toBe(false);
    expect(result.computed_receipt_id).not.toBe(bundle.receiptId);
  });

  it('reports the bundle\'s own members back when they have their documented form', () => {
    const bundle = fixtureBundle();
    const { result, warnings } = checked(() => undefined);
    expect(result).toMatchObject({
      verified: true,
      receipt_id: bundle.receiptId,
      computed_receipt_id: bundle.receiptId,
      receipt_id_matches: true,
      receipt_type: 'full_receipt_bundle',
      status: 'settled_on_chain',
      chain: 'sandbox',
      settlement_tx_id: bundle.settlementTxId,
      note_box_id: bundle.noteBoxId,
      task_hash: bundle.taskHash,
      quote_id: 'q_fixture_0001',
    });
    expect(warnings.map((warning) => warning.code)).toEqual(['sandbox_chain']);
  });

  it('reports a testnet bundle as testnet, without the sandbox warning, and an unknown chain as none', () => {
    const testnet = checked((bundle) => {
      bundle.chain = 'testnet';
      bundle.verification_receipt.chain.source = 'testnet';
    });
    expect(testnet.result).toMatchObject({ verified: true, chain: 'testnet' });
    expect(testnet.warnings).toEqual([]);
    const mainnet = checked((bundle) => {
      Object.assign(bundle, { chain: 'mainnet' });
      Object.assign(bundle.verification_receipt.chain, { source: 'mainnet' });
    });
    expect(mainnet.result).toMatchObject({ failed_checks: ['schema'], chain: null });
    expect(mainnet.warnings.map((warning) => warning.code)).toEqual(['checks_skipped']);
  });

  it('reports receipt_type and status only as text, and cuts them at 64 characters: 64 kept whole, 65 cut', () => {
    for (const member of ['receipt_type', 'status'] as const) {
      for (const value of [5, { text: 'not text' }, null]) {
        const { result } = checked((bundle) => Object.assign(bundle, { [member]: value }));
        expect(result.failed_checks, `${member} ${JSON.stringify(value)}`).toEqual(['schema']);
        expect(result[member], `${member} ${JSON.stringify(value)}`).toBeNull();
      }
      const long = 'x'.repeat(64);
      expect(checked((bundle) => Object.assign(bundle, { [member]: long })).result[member], `${member} of 64`).toBe(long);
      expect(checked((bundle) => Object.assign(bundle, { [member]: `${long}y` })).result[member], `${member} of 65`).toBe(long);
      // A character of two UTF-16 units across the cut is left out whole, never halved.
      const emoji = `${'x'.repeat(63)}\u{1F600}`;
      expect(checked((bundle) => Object.assign(bundle, { [member]: emoji })).result[member], `${member} with a pair at 63`).toBe('x'.repeat(63));
      const pairBefore = `${'x'.repeat(62)}\u{1F600}y`;
      expect(checked((bundle) => Object.assign(bundle, { [member]: pairBefore })).result[member], `${member} with a pair at 62`).toBe(pairBefore.slice(0, 64));
      // The last character of one UTF-16 unit (U+FFFF) is kept whole: only a pair is left out.
      const lastSingle = `${'x'.repeat(63)}\uffffz`;
      expect(checked((bundle) => Object.assign(bundle, { [member]: lastSingle })).result[member], `${member} with U+FFFF at 63`).toBe(lastSingle.slice(0, 64));
    }
  });

  it('refuses, naming where, a number JSON reads as Infinity, over which no id can be computed', () => {
    const text = JSON.stringify(fixtureBundle());
    for (const [number, pointer] of [['1e400', '/extension'], ['-1e400', '/extension']] as const) {
      const input = text.replace('"issued_at"', `"extension":${number},"issued_at"`);
      expect(refusalOf(input), number).toBe('not_json');
      expect(() => checkReceiptBundle(input)).toThrow(new RegExp(`number at ${pointer} `));
    }
    const nested = text.replace('"issued_at"', '"extension":{"list":[1,2,1e999]},"issued_at"');
    expect(() => checkReceiptBundle(nested)).toThrow(/number at \/extension\/list\/2 /);
    // The largest double is a number like any other: the bundle is read, and its id no longer matches.
    expect(checkReceiptBundle(text.replace('"issued_at"', '"extension":1.7976931348623157e308,"issued_at"')).result.failed_checks).toEqual(['receipt_id']);
  });

  it('refuses a bundle naming a member twice, wherever it sits: the checks and the id would each take the last value', () => {
    const bundle = fixtureBundle() as Record<string, any>;
    const text = JSON.stringify(bundle);
    expect(checkReceiptBundle(text).result.failed_checks).toEqual([]);
    // The attack: a duplicate placed first, which JSON.parse drops.
    const chain = text.replace('{', '{"chain":"testnet",');
    expect(text.includes('"chain":')).toBe(true);
    expect(refusalOf(chain)).toBe('not_json');
    expect(() => checkReceiptBundle(chain)).toThrow(/member at \/chain twice/);
    const nested = text.replace('"issued_at"', '"extension":{"a":1,"b":{"x":1,"x":2}},"issued_at"');
    expect(() => checkReceiptBundle(nested)).toThrow(/member at \/extension\/b\/x twice/);
    // One name in two objects is no duplicate.
    const apart = text.replace('"issued_at"', '"extension":[{"x":1},{"x":2}],"issued_at"');
    expect(checkReceiptBundle(apart).result.failed_checks).toEqual(['receipt_id']);
  });

  it('reports the Note box id, the settlement transaction id and the task hash only as 64 lower-case hex', () => {
    const digest = blake2b256Hex('a digest');
    const malformed: Array<[string, unknown]> = [
      ['upper case', digest.toUpperCase()],
      ['63 characters', digest.slice(1)],
      ['65 characters', `${digest}0`],
      ['a character before', `x${digest}`],
      ['a character after', `${digest}x`],
      ['an array holding it', [digest]],
      ['a number', 1234],
    ];
    const members = [
      ['noteBoxId', 'note_box_id'],
      ['settlementTxId', 'settlement_tx_id'],
      ['taskHash', 'task_hash'],
    ] as const;
    for (const [member, reported] of members) {
      expect(checked((bundle) => Object.assign(bundle, { [member]: digest })).result[reported], `${member} well-formed`).toBe(digest);
      for (const [label, value] of malformed) {
        const { result } = checked((bundle) => Object.assign(bundle, { [member]: value }));
        expect(result.failed_checks, `${member} as ${label}`).toEqual(['schema']);
        expect(result[reported], `${member} as ${label}`).toBeNull();
      }
    }
  });

  it('tells a missing or malformed receipt id (no match to report) from a well-formed one that does not match', () => {
    const { receiptId, ...withoutId } = fixtureBundle();
    const missing = checkReceiptBundle(JSON.stringify(withoutId)).result;
    expect(missing).toMatchObject({ receipt_id: null, receipt_id_matches: null, computed_receipt_id: receiptId });
    expect(missing.failed_checks).toContain('receipt_id');
    for (const malformed of [receiptId.toUpperCase(), `x${receiptId}`, `${receiptId}x`, [receiptId]]) {
      const { result } = checkReceiptBundle(JSON.stringify({ receiptId: malformed, ...withoutId }));
      expect(result, JSON.stringify(malformed)).toMatchObject({ receipt_id: null, receipt_id_matches: null, computed_receipt_id: receiptId });
      expect(result.failed_checks, JSON.stringify(malformed)).toEqual(['schema', 'receipt_id']);
    }
    const other = blake2b256Hex('another bundle');
    const wrong = checkReceiptBundle(JSON.stringify({ receiptId: other, ...withoutId })).result;
    expect(wrong).toMatchObject({ receipt_id: other, receipt_id_matches: false, failed_checks: ['receipt_id'] });
  });

  it('refuses a receipt id given in place of a bundle, whitespace around it allowed, and only a bare id', () => {
    const id = fixtureBundle().receiptId;
    expect(refusalOf(id)).toBe('receipt_id_not_bundle');
    expect(refusalOf(id.toUpperCase())).toBe('receipt_id_not_bundle');
    expect(refusalOf(` \t${id}`)).toBe('receipt_id_not_bundle');
    expect(refusalOf(`${id}\n`)).toBe('receipt_id_not_bundle');
    // Not an id: text before or after it, or one hex digit too many or too few.
    expect(refusalOf(`receipt ${id}`)).toBe('not_json');
    expect(refusalOf(`${id} please`)).toBe('not_json');
    expect(refusalOf(`${id}f`)).toBe('not_json');
    expect(refusalOf(id.slice(1))).toBe('not_json');
  });

  it('refuses JSON that is not an object: a number, a string, null, true or an array', () => {
    for (const input of ['42', '"a receipt"', 'null', 'true', '[]', JSON.stringify([fixtureBundle()])]) {
      expect(refusalOf(input), input.slice(0, 20)).toBe('not_a_bundle');
    }
  });

  it('reads numbers as RFC 8785 does, as doubles: an integer beyond 2^53 does not break the id it was computed over', () => {
    const { result } = checked((bundle) => Object.assign(bundle, { extension: 2 ** 53 + 2 }));
    expect(result).toMatchObject({ verified: true, receipt_id_matches: true });
  });

  it('names the compared fields when they agree, and only the differing one, with both values, when not', () => {
    const agreeing = checked(() => undefined);
    for (const field of ['agreement.taskHash', 'quote_evidence.quote.taskHash']) expect(detailOf(agreeing, 'task_hash_agrees')).toContain(field);
    for (const field of ['quoteId', 'priceNanoErg', 'reserveBoxId', 'expiresAt']) expect(detailOf(agreeing, 'quote_agrees')).toContain(`quote.${field}`);
    for (const field of ['verification_receipt.noteBoxId', 'settlement_receipt.noteBoxId']) expect(detailOf(agreeing, 'note_box_id_agrees')).toContain(field);
    expect(detailOf(agreeing, 'settlement_tx_id_agrees')).toContain('settlement_receipt.settlementTxId');
    expect(detailOf(agreeing, 'chain_agrees')).toContain('verification_receipt.chain.source');

    const other = blake2b256Hex('other note');
    const differing = checked((bundle) => (bundle.verification_receipt.noteBoxId = other));
    expect(differing.result.failed_checks).toEqual(['note_box_id_agrees']);
    const detail = detailOf(differing, 'note_box_id_agrees');
    expect(detail).toContain('verification_receipt.noteBoxId');
    expect(detail).toContain(other);
    expect(detail).toContain(fixtureBundle().noteBoxId);
    expect(detail).not.toContain('settlement_receipt.noteBoxId');
  });

  it('says which register is not a constant of its type, and what it holds instead', () => {
    const serialized = collBytes(blake2b256Hex('a collection, not an Int'));
    const answer = checked((bundle) => (bundle.settlement_receipt.registers.R5.serializedValue = serialized));
    expect(answer.result.failed_checks).toEqual(['registers_decode']);
    const detail = detailOf(answer, 'registers_decode');
    expect(detail).toContain('R5');
    expect(detail).toContain(serialized);
    expect(detail).toContain('SColl[SByte]');
    expect(detail).not.toContain('undefined');
  });

  it('names each verification check recorded as failed', () => {
    for (const code of VERIFICATION_CHECKS) {
      const answer = checked((bundle) => (bundle.verification_receipt.checks = bundle.verification_receipt.checks.map((check) => (check.code === code ? { ...check, ok: false } : check))));
      expect(answer.result.failed_checks, code).toEqual(['verification_checks_passed']);
      expect(detailOf(answer, 'verification_checks_passed'), code).toContain(code);
    }
  });

  it('names the member that breaks the bundle\'s shape, and skips the part checks', () => {
    const answer = checked((bundle) => (bundle.settlement_receipt.confirmations = 0));
    expect(answer.result.failed_checks).toEqual(['schema']);
    expect(answer.result.checks.map((check) => check.id)).toEqual(['schema', 'receipt_id']);
    expect(detailOf(answer, 'schema')).toContain('/settlement_receipt/confirmations');
    expect(answer.warnings.map((warning) => warning.code)).toEqual(['checks_skipped', 'sandbox_chain']);
  });

  it('reports no quote id, and does not fail, when the agreement is missing, null or not an object', () => {
    for (const agreement of [undefined, null, 'q_fixture_0001', 7]) {
      const { result } = checked((bundle) => Object.assign(bundle, { agreement }));
      expect(result.failed_checks, String(agreement)).toEqual(['schema']);
      expect(result.quote_id, String(agreement)).toBeNull();
    }
  });

  it('reports the quote id only as 1 to 128 URL-safe characters: 128 passes, 129 does not', () => {
    const withQuoteId = (quoteId: unknown) => (bundle: Editable) => {
      Object.assign(bundle.agreement, { quoteId });
      Object.assign(bundle.quote_evidence.quote, { quoteId });
    };
    const longest = 'q'.repeat(128);
    expect(checked(withQuoteId(longest)).result).toMatchObject({ verified: true, quote_id: longest });
    expect(checked(withQuoteId('q')).result).toMatchObject({ verified: true, quote_id: 'q' });
    for (const quoteId of [`${longest}q`, '', 'q fixture', 'q_fixture!', '!q_fixture', 1234]) {
      const { result } = checked(withQuoteId(quoteId));
      expect(result.failed_checks, JSON.stringify(quoteId)).toEqual(['schema']);
      expect(result.quote_id, JSON.stringify(quoteId)).toBeNull();
    }
  });
});
