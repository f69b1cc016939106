/**
 * docs/faq.md, the questions people ask with their answers: the assistant quotes a section for a
 * part that asks its question (in its words or in one of the other ways it is asked, both ways), and
 * the defaults it states are those the code runs (read from the configuration's own loaders, so a
 * changed default turns this red).
 */
import { describe, expect, it } from 'vitest';
import { docSections, MARKDOWN_DOCS } from '../../src/build/markdown-documents.ts';
import { loadPaidTurnConfig } from '../../src/config/assistant.ts';
import { loadRateLimitConfig } from '../../src/config/rate-limit.ts';
import { DEFAULT_FAUCET_POW_BITS, FAUCET_EPOCH_SECONDS, FAUCET_PER_ADDRESS_LIMIT, FAUCET_PER_IP_LIMIT } from '../../src/config/faucet.ts';
import { PROBE_TIMEOUT_MS, PROOF_RECEIPT_LIMIT } from '../../src/config/limits.ts';
import { readFileSync } from 'node:fs';
import packageJson from '../../package.json' with { type: 'json' };
import { answerIndexOf } from '../../src/domain/assistant/answer-index.ts';
import { answerIndexData } from '../../src/build/answer-index-file.ts';
import { siteAnswerIndex, siteDocuments } from '../../src/build/site-documents.ts';
import { useAnswerIndex } from '../../src/services/answer-index.ts';
import { useCorpus } from '../../src/services/docs-index.ts';
import { createDocsProvider } from '../../src/services/model/docs-provider.ts';

useCorpus(siteDocuments);
useAnswerIndex(siteAnswerIndex);

const faq = MARKDOWN_DOCS.find((doc) => doc.slug === 'faq')!;
const sections = docSections(faq);
const text = readFileSync(new URL('../../docs/faq.md', import.meta.url), 'utf8');
const answerOf = (heading: string) => {
  const section = sections.find((entry) => entry.title === `${faq.title}: ${heading}`);
  expect(section, heading).toBeDefined();
  return section!.text;
};

describe('docs/faq.md', () => {
  it('is asked by each question and the other ways it is asked, each answered by its section\'s lines', () => {
    const questions = sections.filter((section) => section.title.endsWith('?'));
    expect(questions.length).toBeGreaterThan(100);
    for (const section of questions) {
      const heading = section.title.slice(faq.title.length + 2);
      expect(section.asked?.[0], heading).toBe(heading);
      // Each is asked in a newcomer's words as well as the site's: the hidden "also asked" line.
      expect(section.asked!.length, heading).toBeGreaterThan(3);
    }
    const seed = sections.find((section) => section.title.includes('private key or seed phrase'))!;
    expect(seed.text).not.toContain('also asked');
    const index = answerIndexOf(answerIndexData([seed]));
    expect(index.asks.map(({ text }) => text)).toEqual(seed.asked);
    for (const ask of index.asks) expect(ask.sentences.map((id) => index.sentences[id]!.text).join(' ')).toBe(seed.text.replace(/\n/g, ' '));
  });

  it('answers a newcomer\'s words with its section, and no question it does not ask', async () => {
    const provider = createDocsProvider();
    const asked = async (question: string) => (await provider.answer({ question, messages: [{ role: 'user', content: question }] })).answer;
    expect(await asked('Will you ever ask for my seed phrase?')).toContain('never receives, stores or derives');
    expect(await asked('Can I get my money back?')).toMatch(/refund/i);
    // An adverb the site does not use ("currently") says when, not what: it keeps nothing from being answered.
    expect(await asked('Which version of the site is currently released?')).toContain(`version ${packageJson.version}`);
    // Nor a superlative ("smallest"): it says which of what is asked, not what.
    expect(await asked("What's the smallest fee that still gets my transaction mined?")).toContain('0.001 ERG');
    // Asked both ways: a question sharing one word with an entry is not that entry's question.
    expect(await asked('Can I pay with a credit card in euros?')).toMatch(/^Nothing on this site answers/);
  });

  it('states the defaults the configuration loads', () => {
    const terms = loadPaidTurnConfig({});
    const limits = loadRateLimitConfig({});
    const cost = answerOf('What does a premium answer cost?');
    expect(cost).toContain(`\`${terms.priceNanoErg}\` nanoERG`);
    expect(answerOf('How long is a quote valid, and what happens when it expires?')).toContain(`(${terms.quoteLifetimeSeconds} seconds) by default`);
    expect(answerOf('How long is a payment token valid, and how many times can I use it?')).toContain(`(${terms.tokenLifetimeSeconds} seconds) by default`);
    expect(answerOf('How many confirmations does my payment need?')).toContain(`\`${terms.minConfirmations}\` confirmation`);
    const free = answerOf('How many questions can I ask for free each day, and when do I have to pay?');
    expect(free).toContain(`\`${terms.freeTier.dailyLimit}\` questions`);
    expect(free).toContain(`\`${terms.freeTier.maxCharacters}\` characters`);
    const rates = answerOf('What are the rate limits on the assistant routes?');
    expect(rates).toContain(`\`${limits.limits.quote.points}\` quotes`);
    expect(rates).toContain(`\`${limits.limits.chat.points}\` chat turns`);
    expect(rates).toContain(`\`${limits.limits.verify.points}\` payment verifications`);
    const pow = answerOf('How do the faucet\'s proof of work and limits work?');
    expect(pow).toContain(`(default \`${DEFAULT_FAUCET_POW_BITS}\`)`);
    expect(pow).toContain(`${FAUCET_EPOCH_SECONDS}-second epoch`);
    expect(pow).toContain(`${FAUCET_PER_ADDRESS_LIMIT.max_payouts} payout and each client IP ${FAUCET_PER_IP_LIMIT.max_payouts}`);
    expect(answerOf('What do the live status probes check?')).toContain(`within ${PROBE_TIMEOUT_MS} ms`);
    expect(answerOf('What does the proof explorer show?')).toContain(`(the newest ${PROOF_RECEIPT_LIMIT})`);
  });

  it('names only variables the configuration has', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const variables = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map(([, name]) => name!));
    for (const [, name] of text.matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+)(?:=[^`]*)?`/g)) expect(variables, name).toContain(name);
  });
});
