/**
 * The `receipt` tool: whether a full receipt bundle agrees with itself, checked offline the way
 * anyone holding one can. That is all it shows: anyone can write a bundle that agrees with itself,
 * so whether the payment happened is for a chain source the verifier picks (`verify-receipt`), and
 * every text describing this tool says so. Every check is named and run on the bundle as given (an
 * edited bundle must fail, so nothing is normalized first): the shape, the receipt id (blake2b256 of
 * the RFC 8785 canonical JSON of the bundle without `receiptId`, computed by `computeReceiptId`, the
 * one function the assistant uses when it stores a bundle), then whether the parts agree with each
 * other: task hash, quote, Note box id, settlement transaction id, the Note registers as serialized,
 * the amounts and the confirmations. It reads no chain and no store.
 */
import { z } from 'zod';
import { NOTE_CHECKS } from '../../../schemas/assistant.ts';
import type { ReceiptCheckId } from '../../../schemas/dev-tool-results.ts';
import { receiptBundleSchema, VERIFICATION_CHECKS, type ReceiptBundle } from '../../../schemas/receipt.ts';
import { jsonPointer } from '../../lib/problem-error.ts';
import { decodeNoteRegisters } from '../assistant/note-registers.ts';
import { computeReceiptId } from '../receipt-id.ts';
import type { ToolWarning } from './box.ts';
import { parseExactJson } from './exact-json.ts';
import { InspectionInputError } from './inspection-error.ts';

export interface ReceiptCheck {
  id: ReceiptCheckId;
  ok: boolean;
  detail: string;
}

export interface ReceiptResult {
  verified: boolean;
  failed_checks: ReceiptCheckId[];
  receipt_id: string | null;
  computed_receipt_id: string;
  receipt_id_matches: boolean | null;
  receipt_type: string | null;
  status: string | null;
  chain: 'testnet' | 'sandbox' | null;
  settlement_tx_id: string | null;
  note_box_id: string | null;
  task_hash: string | null;
  quote_id: string | null;
  checks: ReceiptCheck[];
}

/**
 * The bundle's structure without its cross-part invariants: those are reported one by one below,
 * each under its own name, instead of as anonymous schema failures.
 */
const receiptStructureSchema = z.object(receiptBundleSchema.shape);

/** A member's text, cut to 64 UTF-16 units without halving a surrogate pair, so the answer stays well-formed. */
const text = (value: unknown): string | null => (typeof value === 'string' ? value.slice(0, (value.codePointAt(63) ?? 0) > 0xffff ? 63 : 64) : null);
/** A member reported back only when it has the documented form, so the answer stays well-formed. */
const digestOrNull = (value: unknown): string | null => (typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? value : null);

function sameValues(pairs: Array<[string, unknown, unknown]>): { ok: boolean; detail: string } {
  const differing = pairs.filter(([, a, b]) => a !== b);
  if (differing.length === 0) return { ok: true, detail: `${pairs.map(([name]) => name).join(', ')} are the same in every part.` };
  return { ok: false, detail: differing.map(([name, a, b]) => `${name}: ${JSON.stringify(a)} differs from ${JSON.stringify(b)}`).join('; ') + '.' };
}

function partChecks(bundle: ReceiptBundle): ReceiptCheck[] {
  const { agreement, settlement_receipt: settlement, verification_receipt: verification } = bundle;
  const quote = bundle.quote_evidence.quote;
  const checks: ReceiptCheck[] = [];
  const add = (id: ReceiptCheckId, outcome: { ok: boolean; detail: string }) => checks.push({ id, ...outcome });

  add('task_hash_agrees', sameValues([
    ['taskHash vs agreement.taskHash', bundle.taskHash, agreement.taskHash],
    ['taskHash vs quote_evidence.quote.taskHash', bundle.taskHash, quote.taskHash],
  ]));
  add('quote_agrees', sameValues(
    (['quoteId', 'price', 'priceNanoErg', 'receiverAddress', 'reserveBoxId', 'noteExpiryMinHeight', 'minConfirmations', 'issuedHeight', 'expiresAt'] as const).map(
      (field) => [`agreement.${field} vs quote.${field}`, agreement[field], quote[field]] as [string, unknown, unknown],
    ),
  ));
  add('note_box_id_agrees', sameValues([
    ['noteBoxId vs verification_receipt.noteBoxId', bundle.noteBoxId, verification.noteBoxId],
    ['noteBoxId vs settlement_receipt.noteBoxId', bundle.noteBoxId, settlement.noteBoxId],
  ]));
  add('settlement_tx_id_agrees', sameValues([['settlementTxId vs settlement_receipt.settlementTxId', bundle.settlementTxId, settlement.settlementTxId]]));
  add('chain_agrees', sameValues([['chain vs verification_receipt.chain.source', bundle.chain, verification.chain.source]]));

  const decoded = decodeNoteRegisters({ R4: settlement.registers.R4.serializedValue, R5: settlement.registers.R5.serializedValue, R6: settlement.registers.R6.serializedValue });
  const registerProblems: string[] = [];
  const expectDecoded = (name: 'R4' | 'R5' | 'R6', expected: string | number) => {
    const register = decoded[name];
    if (register.status !== 'ok') registerProblems.push(`${name} ${settlement.registers[name].serializedValue} is not ${name === 'R5' ? 'an Int' : 'a Coll[Byte]'} constant${register.status === 'wrong_type' ? ` (found ${register.found})` : ''}`);
    else if (register.value !== expected) registerProblems.push(`${name} decodes to ${register.value}, but the bundle states ${expected}`);
  };
  expectDecoded('R4', settlement.registers.R4.value);
  expectDecoded('R5', settlement.registers.R5.value);
  expectDecoded('R6', settlement.registers.R6.value);
  add('registers_decode', registerProblems.length === 0
    ? { ok: true, detail: 'R4, R5 and R6 decode (Fleet SDK serializer) to exactly the values the bundle states.' }
    : { ok: false, detail: registerProblems.join('; ') + '.' });

  const binding: string[] = [];
  if (settlement.registers.R4.value !== agreement.reserveBoxId) binding.push(`R4 ${settlement.registers.R4.value} is not agreement.reserveBoxId ${agreement.reserveBoxId}`);
  if (settlement.registers.R5.value < agreement.noteExpiryMinHeight) binding.push(`R5 ${settlement.registers.R5.value} is below agreement.noteExpiryMinHeight ${agreement.noteExpiryMinHeight}`);
  if (settlement.registers.R6.value !== bundle.taskHash) binding.push(`R6 ${settlement.registers.R6.value} is not taskHash ${bundle.taskHash}`);
  add('note_binding', binding.length === 0
    ? { ok: true, detail: `R4 holds the reserve box id, R5 ${settlement.registers.R5.value} is at least ${agreement.noteExpiryMinHeight}, R6 holds the task hash.` }
    : { ok: false, detail: binding.join('; ') + '.' });

  const value = BigInt(settlement.valueNanoErg);
  const price = BigInt(agreement.priceNanoErg);
  add('value_covers_price', { ok: value >= price, detail: `Note value ${value} nanoERG ${value >= price ? 'covers' : 'is below'} the price ${price} nanoERG.` });
  add('confirmations', {
    ok: settlement.confirmations >= agreement.minConfirmations,
    detail: `${settlement.confirmations} confirmations recorded; the agreement required ${agreement.minConfirmations}.`,
  });

  const recorded = new Map(verification.checks.map((check) => [check.code, check.ok]));
  const missing = VERIFICATION_CHECKS.filter((code) => !recorded.has(code));
  const failed = verification.checks.filter((check) => !check.ok).map((check) => check.code);
  add('verification_checks_passed', missing.length === 0 && failed.length === 0
    ? { ok: true, detail: `All ${VERIFICATION_CHECKS.length} verification checks are recorded as passed (the question, then ${Object.keys(NOTE_CHECKS).length} Note rules).` }
    : { ok: false, detail: [missing.length ? `missing: ${missing.join(', ')}` : '', failed.length ? `recorded as failed: ${failed.join(', ')}` : ''].filter(Boolean).join('; ') + '.' });
  return checks;
}

function receiptIdCheck(bundle: Record<string, unknown>): { check: ReceiptCheck; declared: string | null; computed: string } {
  const { receiptId, ...withoutId } = bundle;
  const computed = computeReceiptId(withoutId);
  const declared = digestOrNull(receiptId);
  const ok = declared === computed;
  return {
    declared,
    computed,
    check: {
      id: 'receipt_id',
      ok,
      detail: ok
        ? 'receiptId equals blake2b256 of the RFC 8785 canonical JSON of the bundle without receiptId.'
        : `receiptId ${declared ?? (receiptId === undefined ? 'is missing' : 'is not 64 lower-case hex')} but blake2b256 of the RFC 8785 canonical JSON of the bundle without it is ${computed}: the bundle was changed after its id was computed, or the id is not this bundle's.`,
    },
  };
}

/** Where the first number JSON.parse read as Infinity (1e400) sits, or null when there is none. */
function nonFiniteNumberAt(value: unknown, path: Array<string | number>): Array<string | number> | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, member] of Object.entries(value)) {
    const found = nonFiniteNumberAt(member, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found) return found;
  }
  return null;
}

/** Checks a bundle given as JSON text. Throws InspectionInputError when the text is no JSON object. */
export function checkReceiptBundle(input: string): { result: ReceiptResult; warnings: ToolWarning[] } {
  if (/^\s*[0-9a-fA-F]{64}\s*$/.test(input)) {
    throw new InspectionInputError(
      'receipt_id_not_bundle',
      'The input is an id, not a bundle: this tool checks a bundle offline and reads no store. Fetch the bundle from GET /api/assistant/receipt/{id} and send its JSON as input.',
    );
  }
  // Plain doubles, as RFC 8785 reads numbers: the id was computed over the bundle's JSON values.
  // Stryker disable next-line ObjectLiteral: parseExactJson reads an absent exactIntegers as false (plain JSON.parse), so {} parses exactly as { exactIntegers: false }
  const value = parseExactJson(input, 'receipt bundle JSON', { exactIntegers: false });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InspectionInputError('not_a_bundle', 'The input is JSON but not an object; a receipt bundle is a JSON object.');
  }
  const unwritable = nonFiniteNumberAt(value, []);
  if (unwritable !== null) {
    throw new InspectionInputError(
      'not_json',
      `The number at ${jsonPointer(unwritable) || '(top level)'} is beyond what a JSON double holds, so RFC 8785 cannot write it and no receipt id can be computed over the bundle; a bundle the assistant wrote holds no such number.`,
    );
  }
  const bundle = value as Record<string, unknown>;
  const warnings: ToolWarning[] = [];
  const structure = receiptStructureSchema.safeParse(bundle);
  const schemaCheck: ReceiptCheck = structure.success
    ? { id: 'schema', ok: true, detail: 'The bundle has every part of a full receipt bundle with the documented types.' }
    : {
        id: 'schema',
        ok: false,
        detail: structure.error.issues
          .slice(0, 5)
          .map((issue) => `${jsonPointer(issue.path) || '(top level)'}: ${issue.message}`)
          .join('; ') + (structure.error.issues.length > 5 ? `; and ${structure.error.issues.length - 5} more.` : '.'),
      };
  const id = receiptIdCheck(bundle);
  const checks = [schemaCheck, id.check, ...(structure.success ? partChecks(structure.data) : [])];
  if (!structure.success) {
    warnings.push({ code: 'checks_skipped', message: 'The bundle does not have the receipt bundle shape, so only the shape and the receipt id were checked; the parts were not compared.' });
  }
  const chain = bundle.chain === 'testnet' || bundle.chain === 'sandbox' ? bundle.chain : null;
  if (chain === 'sandbox') {
    warnings.push({ code: 'sandbox_chain', message: 'This bundle was settled on the local sandbox chain: it shows the flow, but it is not a testnet proof.' });
  }
  const failed = checks.filter((check) => !check.ok).map((check) => check.id);
  const quote = bundle.agreement ? (bundle.agreement as Record<string, unknown>).quoteId : undefined;
  return {
    result: {
      verified: failed.length === 0,
      failed_checks: failed,
      receipt_id: id.declared,
      computed_receipt_id: id.computed,
      receipt_id_matches: id.declared === null ? null : id.check.ok,
      receipt_type: text(bundle.receipt_type),
      status: text(bundle.status),
      chain,
      settlement_tx_id: digestOrNull(bundle.settlementTxId),
      note_box_id: digestOrNull(bundle.noteBoxId),
      task_hash: digestOrNull(bundle.taskHash),
      quote_id: typeof quote === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(quote) ? quote : null,
      checks,
    },
    warnings,
  };
}
