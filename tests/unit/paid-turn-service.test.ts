/**
 * The paid-turn service's money rules, where they live (src/services/paid-turn/paid-turn.ts), its
 * ports faked: the facilitator's `/verify` judgement (quote expiry, a Note already used, each Note
 * rule on its own), settling (recovery of a settled turn whose quote expired or whose Note now
 * fails a rule, a used Note against a store failure), and the refusals that clear by themselves.
 * Each test breaks one rule with one input; a boundary is tried from both sides.
 */
import { ErgoAddress } from '@fleet-sdk/core';
import { describe, expect, it } from 'vitest';
import { premiumQuoteSchema, type PremiumQuote } from '../../schemas/assistant.ts';
import { hashRetryKey } from '../../src/domain/assistant/retry-key.ts';
import type { ApiRequest } from '../../src/lib/api.ts';
import { ProblemError } from '../../src/lib/problem-error.ts';
import { createChatHandler } from '../../src/routes/assistant/chat.ts';
import { encodeX402Header, x402NetworkOf, x402RequirementsOf } from '../../src/domain/assistant/x402.ts';
import { answerPaidTurn, askModel, CLEARS_BY_ITSELF, issuePremiumQuote, judgePayment, settleNote } from '../../src/services/paid-turn/paid-turn.ts';
import { StoreUnavailableError, type StoredQuote } from '../../src/domain/ports.ts';
import { fakeDeps, noteBox, type FakeDeps, type NoteBoxOptions } from '../helpers/fakes.ts';

const QUESTION = 'Which registers must a Note carry, and what does the task hash bind it to? '.repeat(3);
const PAYER = '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw';
const RETRY_KEY = 'payer-retry-key-0123456789abcdef';

interface Turn {
  deps: FakeDeps;
  quote: PremiumQuote;
  stored: StoredQuote;
}

async function quoted(): Promise<Turn> {
  const deps = fakeDeps({ height: 1_000 });
  const quote = premiumQuoteSchema.parse(await issuePremiumQuote(deps, QUESTION, undefined));
  return { deps, quote, stored: deps.store.quotes.get(quote.quoteId)! };
}

let boxes = 0;
/** A Note on the fake chain that pays `quote` by every rule, but for `overrides`; the chain one block past it. */
function note({ deps, quote }: Turn, overrides: Partial<NoteBoxOptions> = {}): string {
  boxes += 1;
  const box = noteBox({
    boxId: boxes.toString(16).padStart(64, '0'),
    transactionId: (boxes + 5_000).toString(16).padStart(64, '0'),
    value: BigInt(quote.priceNanoErg),
    reserveBoxId: quote.reserveBoxId,
    expiryHeight: quote.noteExpiryMinHeight,
    taskHash: quote.taskHash,
    creationHeight: quote.issuedHeight,
    inclusionHeight: quote.issuedHeight,
    ...overrides,
  });
  deps.chain.boxes.set(box.boxId, box);
  deps.chain.payers.set(box.transactionId, PAYER);
  deps.chain.currentHeight = quote.issuedHeight + 1;
  return box.boxId;
}

async function problem(run: Promise<unknown>): Promise<ProblemError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProblemError)) throw new Error(`expected a problem, got ${String(error)}`);
  return error;
}

describe('judging a payment for the x402 facilitator, claiming nothing', () => {
  it('accepts a Note that meets every rule, naming its payer, and claims nothing', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    expect(await judgePayment(turn.deps, turn.stored, boxId)).toEqual({ ok: true, payer: PAYER });
    expect(turn.deps.store.usedNotes.size).toBe(0);
  });

  it('refuses a quote from the millisecond it expires, and not one millisecond before', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    turn.deps.fakeClock.advance(turn.stored.expiresAt.getTime() - turn.deps.clock().getTime() - 1);
    expect(await judgePayment(turn.deps, turn.stored, boxId)).toMatchObject({ ok: true });
    turn.deps.fakeClock.advance(1);
    expect(await judgePayment(turn.deps, turn.stored, boxId)).toMatchObject({ ok: false, reason: 'quote_expired' });
  });

  it('refuses a Note that paid before, whatever the chain says of it now', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    turn.deps.store.usedNotes.set(boxId, 'q_another_quote');
    expect(await judgePayment(turn.deps, turn.stored, boxId)).toMatchObject({ ok: false, reason: 'note_already_used' });
  });

  it('refuses each broken Note rule by its own code, and accepts each at its boundary', async () => {
    const turn = await quoted();
    const price = BigInt(turn.quote.priceNanoErg);
    const other = ErgoAddress.decode('3WwXpssaZwcNzaGMv3AgxBdTPJQBt5gCmqBsg3DykQ39bYdhJBsN').ergoTree;
    const cases: Array<[string, Partial<NoteBoxOptions>, string | undefined]> = [
      ['the price exactly', { value: price }, undefined],
      ['one nanoERG under the price', { value: price - 1n }, 'insufficient_value'],
      ['another receiver', { ergoTree: other }, 'receiver_mismatch'],
      ['another task hash', { taskHash: 'ab'.repeat(32) }, 'task_hash_mismatch'],
      ['no task hash', { taskHash: undefined }, 'task_hash_missing'],
      ['another reserve', { reserveBoxId: 'cd'.repeat(32) }, 'reserve_mismatch'],
      ['its expiry at the minimum', { expiryHeight: turn.quote.noteExpiryMinHeight }, undefined],
      ['its expiry one block under the minimum', { expiryHeight: turn.quote.noteExpiryMinHeight - 1 }, 'note_expired'],
      ['not in a block yet', { inclusionHeight: undefined }, 'note_unconfirmed'],
      ['created at the tolerance before the quote', { creationHeight: turn.quote.issuedHeight - turn.deps.config.creationHeightToleranceBlocks }, undefined],
      ['created one block before the tolerance', { creationHeight: turn.quote.issuedHeight - turn.deps.config.creationHeightToleranceBlocks - 1 }, 'note_too_old'],
    ];
    for (const [label, overrides, reason] of cases) {
      const verdict = await judgePayment(turn.deps, turn.stored, note(turn, overrides));
      expect(verdict, label).toMatchObject(reason === undefined ? { ok: true } : { ok: false, reason });
    }
    expect(await judgePayment(turn.deps, turn.stored, 'ef'.repeat(32)), 'a box the chain does not know').toMatchObject({ ok: false, reason: 'note_not_found' });
  });
});

describe('settling a Note', () => {
  it('gives the payer, and only the payer, its settled turn back after the quote expired; an unsettled expired quote is 410', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    const first = await settleNote(turn.deps, turn.stored, boxId, { retryKey: RETRY_KEY });
    turn.deps.fakeClock.advance(turn.stored.expiresAt.getTime() - turn.deps.clock().getTime());
    const again = await settleNote(turn.deps, turn.stored, boxId, { retryKey: RETRY_KEY });
    expect(again.receipt.receiptId).toBe(first.receipt.receiptId);
    expect(again.token.tokenHash).not.toBe(first.token.tokenHash);
    expect([...turn.deps.store.tokens.values()].map((token) => token.retryKeyHash)).toEqual([hashRetryKey(RETRY_KEY)]);
    const stranger = await problem(settleNote(turn.deps, turn.stored, boxId, { retryKey: 'someone-else-0123456789abcdef' }));
    expect({ status: stranger.status, code: stranger.code }).toEqual({ status: 409, code: 'payment_already_settled' });
    const unpaid = await problem(settleNote(turn.deps, turn.stored, note(turn), { retryKey: RETRY_KEY }));
    expect({ status: unpaid.status, code: unpaid.code }).toEqual({ status: 410, code: 'quote_expired' });
  });

  it('gives a settled turn back when its Note fails a rule now (its expiry passed), instead of refusing it', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    const first = await settleNote(turn.deps, turn.stored, boxId, { retryKey: RETRY_KEY });
    turn.deps.chain.currentHeight = turn.quote.noteExpiryMinHeight + 1;
    const again = await settleNote(turn.deps, turn.stored, boxId, { retryKey: RETRY_KEY });
    expect(again.receipt.receiptId).toBe(first.receipt.receiptId);
    // A Note that never settled and fails the same rule is refused by that rule's code.
    const unsettled = note(turn, { expiryHeight: turn.quote.noteExpiryMinHeight });
    turn.deps.chain.currentHeight = turn.quote.noteExpiryMinHeight + 1;
    const refused = await problem(settleNote(turn.deps, turn.stored, unsettled));
    expect({ status: refused.status, code: refused.code }).toEqual({ status: 402, code: 'note_expired' });
  });

  it('answers 402 note_already_used when another quote claims the Note between its check and its settlement, and gives the payer its own settlement back', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    // The store says the Note is unused when it is checked, then another quote claims it first.
    const store = turn.deps.store;
    store.isNoteUsed = async () => false;
    store.usedNotes.set(boxId, 'q_another_quote');
    const lost = await problem(settleNote(turn.deps, turn.stored, boxId));
    expect({ status: lost.status, code: lost.code, note_code: lost.extra.note_code }).toEqual({ status: 402, code: 'note_already_used', note_code: 'NOTE_ALREADY_USED' });
    // Its own settlement, made first by the same payer with its retry key, is handed back instead.
    store.usedNotes.delete(boxId);
    const first = await settleNote(turn.deps, turn.stored, boxId, { retryKey: 'retry-key-0123456789' });
    const again = await settleNote(turn.deps, turn.stored, boxId, { retryKey: 'retry-key-0123456789' });
    expect(again.receipt.receiptId).toBe(first.receipt.receiptId);
    expect(again.token.token).not.toBe(first.token.token);
  });

  it('answers 402 note_already_used for a Note that paid another quote, and 503 when the store fails: never the one for the other', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    turn.deps.store.usedNotes.set(boxId, 'q_another_quote');
    const used = await problem(settleNote(turn.deps, turn.stored, boxId));
    expect({ status: used.status, code: used.code }).toEqual({ status: 402, code: 'note_already_used' });

    const fresh = note(turn);
    turn.deps.store.unavailable = true;
    const down = await problem(settleNote(turn.deps, turn.stored, fresh));
    expect({ status: down.status, code: down.code }).toEqual({ status: 503, code: 'receipt_storage_unavailable' });
    turn.deps.store.unavailable = false;
    expect(turn.deps.store.usedNotes.has(fresh)).toBe(false);
  });
});

describe('refusals that clear by themselves', () => {
  it('are the Note not seen yet, not confirmed yet, and another request with this payment in progress', () => {
    expect([...CLEARS_BY_ITSELF].sort()).toEqual(['note_not_found', 'note_unconfirmed', 'payment_in_progress']);
  });

  /** The chat door with an x402 payment for `quote`, paid by `noteBoxId`. */
  async function payOverX402(turn: Turn, noteBoxId: string) {
    const chat = createChatHandler(turn.deps);
    const accepted = x402RequirementsOf(turn.quote, turn.deps.config.quoteLifetimeSeconds, x402NetworkOf(turn.deps.chain.source));
    const signature = encodeX402Header({ x402Version: 2, accepted, payload: { noteBoxId } });
    const request: ApiRequest = {
      method: 'POST',
      path: '/api/assistant/chat',
      params: {},
      query: new URLSearchParams(),
      headers: { 'payment-signature': signature },
      body: { messages: [{ role: 'user', content: QUESTION }] },
      clientIp: '203.0.113.9',
    };
    return problem(Promise.resolve(chat(request)));
  }

  it('ask for the same payment again, and offer no second quote a client could pay while its Note is on its way', async () => {
    const turn = await quoted();
    for (const [label, boxId] of [
      ['unconfirmed', note(turn, { inclusionHeight: undefined })],
      ['not found', 'ef'.repeat(32)],
    ] as const) {
      const refused = await payOverX402(turn, boxId);
      expect({ status: refused.status, payment_error: refused.extra.payment_error }, label).toMatchObject({ status: 402 });
      expect(refused.headers?.['retry-after'], label).toBe('5');
      expect(refused.headers?.['payment-required'], label).toBeUndefined();
    }
    // A final refusal offers a new quote instead.
    const underpaid = await payOverX402(turn, note(turn, { value: BigInt(turn.quote.priceNanoErg) - 1n }));
    expect(underpaid.headers?.['payment-required']).toBeDefined();
    expect(underpaid.headers?.['retry-after']).toBeUndefined();
  });
});

describe('the paid-turn service\'s other rules', () => {
  it('names only the variable the operator left unset when premium answers are not offered', async () => {
    for (const [missing, config] of [
      ['ASSISTANT_RECEIVER_ADDRESS', { receiverAddress: null }],
      ['ASSISTANT_RESERVE_BOX_ID', { reserveBoxId: null }],
    ] as const) {
      const deps = fakeDeps({ config });
      const refused = await problem(issuePremiumQuote(deps, QUESTION, undefined));
      expect({ status: refused.status, code: refused.code }).toEqual({ status: 503, code: 'payment_unconfigured' });
      expect(refused.message).toBe(`Premium answers are not offered: the operator has not configured ${missing}.`);
    }
  });

  it('says in a refusal the words of the one Note rule that failed', async () => {
    const turn = await quoted();
    const verdict = await judgePayment(turn.deps, turn.stored, note(turn, { value: BigInt(turn.quote.priceNanoErg) - 1n }));
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.message).toMatch(/9999999 nanoERG/);
  });

  it('gives no settled turn back through the facilitator, which settles a Note once', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    await settleNote(turn.deps, turn.stored, boxId, { retryKey: RETRY_KEY });
    const again = await problem(settleNote(turn.deps, turn.stored, boxId, { recoverSettled: false, retryKey: RETRY_KEY }));
    expect({ status: again.status, code: again.code }).toEqual({ status: 402, code: 'note_already_used' });
  });

  it('answers 503, not "already used", when storing the settlement fails and the Note paid nothing', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    turn.deps.store.settlePayment = async () => {
      throw new StoreUnavailableError('the disk went away mid-write');
    };
    const down = await problem(settleNote(turn.deps, turn.stored, boxId, { retryKey: RETRY_KEY }));
    expect({ status: down.status, code: down.code }).toEqual({ status: 503, code: 'receipt_storage_unavailable' });
  });

  it('settles nothing while the receipt log refuses to sign (a restored store may not know the Note was used), and settles once it signs again', async () => {
    const turn = await quoted();
    const boxId = note(turn);
    let refusal: string | undefined = 'the store holds 3 entries, but the log already signed size 5';
    let settlements = 0;
    const settle = turn.deps.store.settlePayment.bind(turn.deps.store);
    turn.deps.store.settlePayment = async (input) => {
      settlements++;
      return settle(input);
    };
    const deps = { ...turn.deps, receiptLogRefusal: async () => refusal };
    const refused = await problem(settleNote(deps, turn.stored, boxId, { retryKey: RETRY_KEY }));
    expect({ status: refused.status, code: refused.code, retryAfter: refused.headers?.['retry-after'] }).toEqual({ status: 503, code: 'receipt_log_inconsistent', retryAfter: '60' });
    expect(refused.message).toContain('the log already signed size 5');
    expect(settlements).toBe(0);
    refusal = undefined;
    const settled = await settleNote(deps, turn.stored, boxId, { retryKey: RETRY_KEY });
    expect(settled.receipt.verification_receipt.noteBoxId).toBe(boxId);
    expect(settlements).toBe(1);
  });

  it('turns each way a model fails into its own status: 503 unavailable or not configured, 502 a bad answer', async () => {
    const ask = { question: 'q', messages: [{ role: 'user' as const, content: 'q' }] };
    const statusOf = async (failure: FakeDeps['model']['failure']) => {
      const deps = fakeDeps();
      deps.model.failure = failure;
      const error = await problem(askModel(deps.model, ask));
      return { status: error.status, code: error.code };
    };
    expect(await statusOf('unavailable')).toEqual({ status: 503, code: 'model_provider_unavailable' });
    expect(await statusOf('not_configured')).toEqual({ status: 503, code: 'model_provider_not_configured' });
    expect(await statusOf('bad_response')).toEqual({ status: 502, code: 'model_provider_bad_response' });
    // A fault of the service's own is no answer of the model's: it goes up as it is.
    const deps = fakeDeps();
    deps.model.answer = async () => {
      throw new TypeError('a bug of ours');
    };
    await expect(askModel(deps.model, ask)).rejects.toThrow(TypeError);
  });

  it('answers a paid turn whose quote the retention sweep has since deleted', async () => {
    const turn = await quoted();
    const settled = await settleNote(turn.deps, turn.stored, note(turn));
    turn.deps.store.quotes.delete(turn.quote.quoteId);
    const answered = await answerPaidTurn(turn.deps, settled.token.tokenHash, { question: QUESTION, messages: [{ role: 'user', content: QUESTION }] });
    expect(answered).toMatchObject({ ok: true, receiptId: settled.receipt.receiptId });
    expect(turn.deps.store.activity.at(-1)).toMatchObject({ kind: 'turn_answered', receiptId: settled.receipt.receiptId });
    expect(turn.deps.store.activity.at(-1)).not.toHaveProperty('taskHash');
  });
});
