/**
 * A question read as its parts: each clause that asks is a part, answered on its own; what only
 * tells (who asks, what they build, a label, a timestamp) is context a part may lean on. And what a
 * premium quote says it buys, part by part, before anyone pays.
 */
import { describe, expect, it } from 'vitest';
import { asks, judgementReason, MAX_PARTS, questionParts } from '../../src/domain/assistant/question-parts.ts';

const texts = (question: string) => questionParts(question).parts.map(({ text }) => text);

describe('a question read as its parts', () => {
  it('cuts a support ticket into the clauses that ask, leaving what it tells as their context', () => {
    const ticket =
      'Hi! We already speak x402 with other providers and want to reuse our client over plain HTTP. Three quick things so we can map it: ' +
      'when an unpaid premium question is refused with 402, which header carries the offer; which header do we send the payment in on the retry; ' +
      'and which header comes back on the successful answer? Thanks, the payments squad.';
    const { parts, dropped } = questionParts(ticket);
    expect(parts.map(({ text }) => text)).toEqual([
      'when an unpaid premium question is refused with 402, which header carries the offer',
      'which header do we send the payment in on the retry',
      'which header comes back on the successful answer?',
    ]);
    expect(dropped).toBe(0);
    // The second leans first on the clause before it; every part on what the ticket tells.
    expect(parts[1]!.near).toContain('which header carries the offer');
    expect(parts[0]!.far).toContain('We already speak x402');
    expect(parts[0]!.far).toContain('Thanks, the payments squad.');
  });

  it('reads an ask inside a telling sentence, an imperative, and a question with no question mark', () => {
    expect(texts('We would like to know which command watches the receipt log')).toEqual(['We would like to know which command watches the receipt log']);
    expect(texts('Explain how a wallet agent reconciles a Note payment receipt with the proof explorer.')).toHaveLength(1);
    expect(texts('token lifetime')).toEqual(['token lifetime']);
    expect(asks('Our ops lead is worried about the receipt log.')).toBe(false);
    expect(asks('How long is a payment token valid')).toBe(true);
  });

  it('keeps labels and timestamps out of what is asked', () => {
    for (const question of ['Question 12: explain the checkpoint', 'Takeover: explain the checkpoint', '2026-12-06 22:41 UTC: explain the checkpoint', 'At 14:05 GMT: explain the checkpoint']) {
      expect(texts(question), question).toEqual(['explain the checkpoint']);
    }
    // A label tells: what it labels is read on its own.
    expect(texts('What happened: our agent paid a Note and the connection dropped. How do we get the turn back?')).toEqual(['How do we get the turn back?']);
  });

  it('keeps a condition with the clause it conditions, and an alternative with the clause it completes', () => {
    expect(texts('When we run the policy check, are transaction fees counted against the spend caps?')).toEqual(['When we run the policy check, are transaction fees counted against the spend caps?']);
    expect(texts('Is the fee counted, or not?')).toEqual(['Is the fee counted, or not?']);
    // A condition first in its sentence is the ask's, not what leads in.
    expect(texts('If I apply for a job, do I get it straight away?')).toEqual(['If I apply for a job, do I get it straight away?']);
  });

  it('reads "and for the 410, what..." as an ask of its own: what it is about, then its word that asks', () => {
    expect(texts('What does each mean, and for the 410 what should the client do next?')).toEqual(['What does each mean', 'for the 410 what should the client do next?']);
    expect(texts('Which header carries the offer, and as for retries, how long is a token valid?')).toEqual(['Which header carries the offer', 'as for retries, how long is a token valid?']);
    // Not every "for" opens an ask: one that runs on without a word that asks stays in its clause.
    expect(texts('Which header do we send for the payment on the retry?')).toEqual(['Which header do we send for the payment on the retry?']);
  });

  it('reads the same ask twice as one part', () => {
    expect(texts('Which header carries the offer? Which header carries the offer? which header carries the offer?')).toEqual(['Which header carries the offer?']);
  });

  it('answers at most MAX_PARTS asks of one question, and says how many it left out', () => {
    const many = Array.from({ length: MAX_PARTS + 3 }, (_, at) => `What is field number ${at}?`).join(' ');
    const { parts, dropped } = questionParts(many);
    expect(parts).toHaveLength(MAX_PARTS);
    expect(dropped).toBe(3);
  });

  it('reads a 4 KB question up to its first 4,000 characters, whatever it holds', () => {
    const long = Array.from({ length: 200 }, (_, at) => `Which header carries offer ${at}?`).join(' ');
    expect(long.length).toBeGreaterThan(4_000);
    const read = questionParts(long);
    expect(read.parts.length).toBe(MAX_PARTS);
    // What lies beyond the first 4,000 characters is not read at all.
    expect(read.parts.length + read.dropped).toBeLessThan(200);
  });
});

describe('what a premium quote says it buys', () => {
  it('says the whole question is answered, or names each part answered and each not', () => {
    expect(judgementReason({ answerable: true, parts: [{ text: 'Which registers must a Note carry?', answered: true }], dropped: 0 })).toBe(
      'This site answers this question: the answer quotes its pages.',
    );
    expect(judgementReason({ answerable: true, parts: [{ text: 'which header', answered: true }, { text: 'which status?', answered: true }], dropped: 0 })).toBe(
      'This question asks 2 things and this site answers each of them: (1) "which header", (2) "which status".',
    );
    expect(
      judgementReason({
        answerable: true,
        parts: [
          { text: 'what does one answer cost', answered: true },
          { text: 'what will it cost on mainnet?', answered: false },
        ],
        dropped: 2,
      }),
    ).toBe(
      'This question asks 2 things; this site answers 1 of them, (1) "what does one answer cost", and does not say (2) "what will it cost on mainnet": the answer will name what it does not answer. It takes the first 2 questions asked and leaves 2 more out: ask them on their own.',
    );
    // A long part is named by its beginning.
    const reason = judgementReason({ answerable: true, parts: [{ text: `which ${'very '.repeat(40)}long part`, answered: true }, { text: 'b', answered: false }], dropped: 0 });
    expect(reason).toMatch(/\(1\) "which very very .*\.\.\."/);
    expect(reason.length).toBeLessThan(400);
  });
});
