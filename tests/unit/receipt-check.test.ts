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
import { checkReceiptBundle } from '../../src/domain/ergo/receipt-check.ts';
import { computeReceiptId } from '../../src/domain/receipt-id.ts';
import { fixtureBundle } from '../e2e/receipt-fixture.ts';

type Editable = Omit<ReceiptBundle, 'receiptId'>;

/** The fixture with `edit` applied and its receipt id recomputed: what the checker finds wrong with it. */
function failedChecks(edit: (bundle: Editable) => void): string[] {
  const { receiptId: _receiptId, ...bundle } = structuredClone(fixtureBundle());
  edit(bundle);
  const { result } = checkReceiptBundle(JSON.stringify({ receiptId: computeReceiptId(bundle), ...bundle }));
  return result.failed_checks;
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
});
