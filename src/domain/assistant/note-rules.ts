/**
 * The Note rules: when a box pays a premium quote. Pure: the caller brings the stored quote, the box
 * as the chain source reported it (or undefined when the source does not know it), the current
 * height and whether the Note already paid a quote, and gets back every rule in order with what it
 * compared, plus the first rule that failed. The 402 of verify-payment names that rule; a stored
 * receipt records the whole list.
 */
import { NOTE_CHECKS, NOTE_FAILURE_CODES, type NoteFailureCode } from '../../../schemas/assistant.ts';
import { ErgoAddress } from '@fleet-sdk/core';
import type { ChainBox } from '../ports.ts';
import { formatNanoErg } from '../money.ts';
import { decodeNoteRegisters, type DecodedRegister, type NoteRegisters } from './note-registers.ts';

/** The quote terms a Note is judged against (all from the server's own stored quote). */
export interface NoteTerms {
  /** The quote's pay-to address: the Note's value must be locked to its ErgoTree. */
  receiverAddress: string;
  reserveBoxId: string;
  taskHash: string;
  priceNanoErg: bigint;
  minConfirmations: number;
  noteExpiryMinHeight: number;
  issuedHeight: number;
}

export type NoteCheckName = (typeof NOTE_CHECKS)[NoteFailureCode]['check'];

export interface NoteCheck {
  code: NoteCheckName;
  ok: boolean;
  /** The values compared, in words. */
  detail: string;
}

export interface NoteCheckResult {
  /** Every rule in the order of NOTE_FAILURE_CODES; only `note_found` when the box is unknown. */
  checks: NoteCheck[];
  /** The first rule that failed, or undefined when the Note pays the quote. */
  failure: NoteFailureCode | undefined;
  registers: NoteRegisters | undefined;
  /** Confirmations of the including block at `height`; 0 while unconfirmed, undefined when not found. */
  confirmations: number | undefined;
}

const registerText = <T>(name: string, register: DecodedRegister<T>): string =>
  register.status === 'missing' ? `${name} is missing` : register.status === 'wrong_type' ? `${name} is ${register.found}, not the expected type` : `${name} is ${register.value}`;

/**
 * Judges `box` against `terms` at chain `height`. `creationHeightToleranceBlocks` is how far below
 * the quote's issued height a Note's creation height may be: wallets stamp the height their own node
 * sees, which can lag the height this service read.
 */
export function checkNote(
  terms: NoteTerms,
  box: ChainBox | undefined,
  height: number,
  alreadyUsed: boolean,
  creationHeightToleranceBlocks: number,
): NoteCheckResult {
  if (!box) {
    return {
      checks: [{ code: NOTE_CHECKS.NOTE_NOT_FOUND.check, ok: false, detail: 'The chain source does not know a box with this id.' }],
      failure: 'NOTE_NOT_FOUND',
      registers: undefined,
      confirmations: undefined,
    };
  }
  const registers = decodeNoteRegisters(box.registers);
  const confirmations = box.inclusionHeight === undefined ? 0 : Math.max(0, height - box.inclusionHeight + 1);
  const { R4, R5, R6 } = registers;
  const oldestCreation = terms.issuedHeight - creationHeightToleranceBlocks;
  const receiverTree = receiverErgoTree(terms.receiverAddress);

  const outcomes: Record<NoteFailureCode, { ok: boolean; detail: string }> = {
    NOTE_NOT_FOUND: { ok: true, detail: `Box ${box.boxId} found, created by transaction ${box.transactionId}.` },
    NOTE_UNCONFIRMED: {
      // Stryker disable next-line ConditionalExpression: an unincluded Note has 0 confirmations, below any minimum (at least 1): the first test only says so.
      ok: box.inclusionHeight !== undefined && confirmations >= terms.minConfirmations,
      detail:
        box.inclusionHeight === undefined
          ? `Not yet included in a block; ${terms.minConfirmations} confirmation(s) needed.`
          : `Included at height ${box.inclusionHeight}: ${confirmations} confirmation(s) at height ${height}, ${terms.minConfirmations} needed.`,
    },
    NOTE_EXPIRED: {
      // Stryker disable next-line ConditionalExpression: a register that did not decode has no value, which passes no comparison: the status test only says so.
      ok: R5.status === 'ok' && R5.value > height && R5.value >= terms.noteExpiryMinHeight,
      detail: `${registerText('R5 (expiry height)', R5)}; it must be above the current height ${height} and at least ${terms.noteExpiryMinHeight}.`,
    },
    RESERVE_MISMATCH: {
      // Stryker disable next-line ConditionalExpression: as for R5, a value that did not decode equals no reserve box id.
      ok: R4.status === 'ok' && R4.value === terms.reserveBoxId,
      detail: `${registerText('R4 (reserve box id)', R4)}; the quote's reserve box id is ${terms.reserveBoxId}.`,
    },
    TASK_HASH_MISSING: {
      ok: R6.status === 'ok' && R6.value.length === 64,
      detail: R6.status === 'ok' ? `R6 holds ${R6.value.length / 2} bytes; a task hash is 32.` : `${registerText('R6 (task hash)', R6)}; a 32-byte Coll[Byte] is needed.`,
    },
    TASK_HASH_MISMATCH: {
      // Stryker disable next-line ConditionalExpression: as for R5, a value that did not decode equals no task hash.
      ok: R6.status === 'ok' && R6.value === terms.taskHash,
      detail: `${registerText('R6 (task hash)', R6)}; the quote's task hash is ${terms.taskHash}.`,
    },
    RECEIVER_MISMATCH: {
      // Stryker disable next-line ConditionalExpression: a receiver that does not decode has no ErgoTree, which no Note's equals.
      ok: receiverTree !== undefined && box.ergoTree.toLowerCase() === receiverTree,
      detail:
        receiverTree === undefined
          ? `The quote's receiver address ${terms.receiverAddress} does not decode to an ErgoTree.`
          : `The Note's ErgoTree is ${box.ergoTree.toLowerCase()}; the quote's receiver ${terms.receiverAddress} has ErgoTree ${receiverTree}.`,
    },
    INSUFFICIENT_VALUE: {
      ok: box.value >= terms.priceNanoErg,
      detail: `Box value ${box.value} nanoERG (${formatNanoErg(box.value)} ERG); the price is ${terms.priceNanoErg} nanoERG.`,
    },
    NOTE_TOO_OLD: {
      ok: box.creationHeight >= oldestCreation,
      detail: `Created at height ${box.creationHeight}; the quote was issued at ${terms.issuedHeight}, so ${oldestCreation} or later is accepted (tolerance ${creationHeightToleranceBlocks} blocks).`,
    },
    NOTE_ALREADY_USED: {
      ok: !alreadyUsed,
      detail: alreadyUsed ? 'This Note already paid another quote.' : 'This Note has not paid any other quote.',
    },
  };

  const checks = NOTE_FAILURE_CODES.map((code) => ({ code: NOTE_CHECKS[code].check, ...outcomes[code] }));
  // A Note that paid another quote can never pay this one, whatever else holds of it: that is the
  // reason given (its task hash is the other quote's, so a rule before it fails too, and said less).
  const failure = alreadyUsed ? 'NOTE_ALREADY_USED' : NOTE_FAILURE_CODES.find((code) => !outcomes[code].ok);
  return { checks, failure, registers, confirmations };
}

/** ErgoTree hex of an address (Fleet SDK), or undefined when it does not decode. */
function receiverErgoTree(address: string): string | undefined {
  try {
    return ErgoAddress.decode(address).ergoTree.toLowerCase();
  } catch {
    // Not an address: no tree.
  }
  return undefined;
}
