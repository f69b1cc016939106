/**
 * The model providers: `docs` answers by quoting the sentences of the site's own pages that answer, `openai` talks to
 * an OpenAI-compatible server on loopback (answer, error status, malformed body, hang past the
 * timeout, nothing listening), `none` refuses. Each failure is the error the chat handler maps to
 * its documented status.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseSentences, createDocsProvider, rankPart } from '../../src/services/model/docs-provider.ts';
import { answerIndexOf, namesSomethingNew } from '../../src/domain/assistant/answer-index.ts';
import { answerIndexData } from '../../src/build/answer-index-file.ts';
import { sentencesOf } from '../../src/domain/assistant/sentences.ts';
import { useAnswerIndex } from '../../src/services/answer-index.ts';
import { questionConcepts, stem, wordsAndPartsOf } from '../../src/domain/assistant/question-terms.ts';
import { createModelProvider } from '../../src/services/model/index.ts';
import { createOpenAiProvider } from '../../src/services/model/openai-provider.ts';
import { ModelBadResponseError, ModelNotConfiguredError, ModelUnavailableError, type ModelProvider } from '../../src/services/model/provider.ts';
import { useCorpus } from '../../src/services/docs-index.ts';
import { siteAnswerIndex, siteDocuments } from '../../src/build/site-documents.ts';

// As the server and the MCP host do at start: the index reads the site's own documents.
useCorpus(siteDocuments);
useAnswerIndex(siteAnswerIndex);

const ask = (question: string) => ({ question, messages: [{ role: 'user' as const, content: question }] });

describe('docs provider', () => {
  const page = (id: string, title: string, text: string) => ({ id, title, url: `http://127.0.0.1:4321${id}`, text });
  /** The answer index of `pages`, as the build makes it for the site. */
  const indexOf = (pages: ReturnType<typeof page>[]) => {
    const index = answerIndexOf(answerIndexData(pages));
    return () => index;
  };
  const corpus = indexOf([
    page('/assistant/', 'Assistant', 'The Note must carry three registers: R4 holds the reserve box id, R5 the expiry height, and R6 the task hash.\nA premium quote stays valid for 15 minutes.'),
    page('/wallet/', 'Wallet agent', 'The policy check never signs a transaction. An allowed verdict is advice to the host wallet.'),
    page('/jobs/', 'Jobs board', 'Open jobs carry a reward in testnet ERG and a deadline.'),
  ]);

  it('reads a question with the domain\'s vocabulary: registers are R4, R5 and R6; words that say nothing are left out', () => {
    expect(questionConcepts('What is a Note, and which registers does it need?')).toEqual([['note'], ['register', 'r4', 'r5', 'r6']]);
    // "How long" asks for a length when the question ends on "be", for a time otherwise.
    expect(questionConcepts('How long may a question be?')[0]).toEqual(['character', 'length', 'max*', 'long']);
    expect(questionConcepts('How long can my message be')[0]).toEqual(['character', 'length', 'max*', 'long']);
    expect(questionConcepts('How long does a quote stay valid?')[0]).toEqual([stem('lifetime'), 'valid', 'second', stem('minute'), 'expir*']);
    expect(questionConcepts('what is it?')).toEqual([]);
    expect(stem('signing')).toBe('sign');
    // "mining" is not "min" (minConfirmations).
    expect(stem('mining')).toBe('mining');
    expect(stem('registers')).toBe('register');
    // A final e goes, so both forms of a word meet.
    expect(stem('released')).toBe(stem('release'));
    expect(stem('requires')).toBe(stem('required'));
    // Identifiers read as their parts too, so plain words meet the sentence that names the code.
    expect(wordsAndPartsOf('`payment_token_used` and minConfirmations')).toEqual(['payment_token_used', 'payment', 'token', 'used', 'and', 'minConfirmations', 'min', 'Confirmations']);
    // An entry whose word the stemmer shortens ("embed" is the stem "emb") still applies, and its
    // alternatives are the stems the index holds ("rate_limited" is indexed as "rate_limit").
    expect(questionConcepts('Can I embed it?')).toEqual([[stem('embed'), 'widget', 'element']]);
    expect(questionConcepts('Is there a limit?')).toEqual([['limit', stem('rate_limited'), 'rate']]);
    // A beginning is a stem's beginning too: "recomputed" is indexed as "recomput".
    expect(questionConcepts('Is it genuine?')).toEqual([[stem('genuine'), `${stem('recompute')}*`, 'verif*']]);
    // A term of several words is one concept: "proof of work" is the faucet's challenge, not a proof.
    expect(questionConcepts('How does the faucet proof of work work?')).toEqual([['proof', stem('nonce'), 'difficulty*', 'challeng*'], ['faucet']]);
    expect(questionConcepts('What does the proof explorer show?')).toEqual([['proof'], ['explorer']]);
    // Plain words for the domain's own: the main network is the mainnet, test coins are testnet ERG.
    expect(questionConcepts('Does it work on the main network?')).toEqual([['mainnet']]);
    expect(questionConcepts('Where do I get test coins?')).toEqual([['testnet', 'erg', 'faucet']]);
    // A minimum is what the site writes as "min" in a field name or "at least"; settling is settlement;
    // buying is what the site says is sold or not; "according to" and "through" say nothing.
    expect(questionConcepts('What minimum must it meet?')[0]).toEqual(['minimum', 'min', 'least', 'lowest']);
    expect(questionConcepts('How is it settled according to the guide?')).toEqual([['settl*'], [stem('guide')]]);
    expect(questionConcepts('Can I buy turns through it?')).toEqual([['buy', 'sold', `${stem('purchas')}*`], ['turn']]);
    // Written with hyphens as the site writes it, or twice: one concept, and no stray "proof".
    expect(questionConcepts('Is the faucet proof-of-work like any other proof of work?')).toEqual([['proof', stem('nonce'), 'difficulty*', 'challeng*'], ['faucet']]);
  });

  it('cuts long passages into sentences, a short lead-in kept with the sentence that says what it means', () => {
    expect(sentencesOf('Step 2 of the paid turn. The server looks up its own stored quote by its id and checks the question. Then it reads the Note.')).toEqual([
      'Step 2 of the paid turn. The server looks up its own stored quote by its id and checks the question.',
      'Then it reads the Note.',
    ]);
    // "How must amounts be written?" asks for their format.
    expect(questionConcepts('How must amounts be written?').at(-1)).toEqual(['writ*', 'format*', 'decimal*', 'digit', stem('string')]);
    // "How is it computed?" meets the sentence naming the hash.
    expect(questionConcepts('How is the task hash computed?').at(-1)).toEqual(['comput*', 'calculat*', 'deriv*', 'blake2b256']);
  });

  it('quotes the sentence that answers, with its page, then links to read more', async () => {
    const answer = await createDocsProvider(corpus).answer(ask('Which registers does a Note need?'));
    expect(answer.answer).toMatch(/^> The Note must carry three registers: R4 holds the reserve box id, R5 the expiry height, and R6 the task hash\. \(\[Assistant\]\(http:\/\/127\.0\.0\.1:4321\/assistant\/\)\)/);
    expect(answer.answer).toContain('Read more: [Assistant](http://127.0.0.1:4321/assistant/)');
    expect(answer.citations).toEqual([{ title: 'Assistant', url: 'http://127.0.0.1:4321/assistant/' }]);
    expect(answer.model.provider).toBe('docs');
  });

  it('prefers the sentence that covers the whole question over one that shares a word', async () => {
    const answer = await createDocsProvider(corpus).answer(ask('Does the policy check sign transactions?'));
    expect(answer.answer).toMatch(/^> The policy check never signs a transaction\./);
    expect(answer.answer).not.toContain('Jobs board');
  });

  it('weighs courtesy, filler, labels and timestamps as nothing: they neither answer a question nor keep it from being answered', async () => {
    // On the real site, where a word that says nothing of the domain was enough to refuse a question before.
    const provider = createDocsProvider();
    const asked = 'explain how a wallet agent reconciles a Note payment receipt with the proof explorer';
    const plain = (await provider.answer(ask(asked))).answer;
    expect(plain).toMatch(/^> /);
    for (const dressed of [
      `Question 12: ${asked}`,
      `Takeover: ${asked}`,
      `2026-12-06 22:41 UTC: please ${asked}, exactly. Thanks, our team.`,
    ]) {
      expect((await provider.judge(dressed)).answerable, dressed).toBe(true);
      // What is quoted first is among what the plain question quotes.
      expect(plain, dressed).toContain((await provider.answer(ask(dressed))).answer.split('\n')[0]);
    }
    // Words of a topic the site does not cover still refuse.
    for (const question of ['Where can I buy a used car?', 'Which Kubernetes ingress controller do you recommend?', 'What will the weather be in Paris tomorrow?']) {
      expect((await provider.judge(question)).answerable, question).toBe(false);
    }
  });

  it('answers a question part by part, each under its own words, and says which part the site does not answer', async () => {
    const provider = createDocsProvider(corpus);
    const question = 'We are building a wallet agent. Which registers does a Note need, how long does a premium quote stay valid, and which Kubernetes operator deploys it?';
    const judged = await provider.judge(question);
    expect(judged).toEqual({
      answerable: true,
      parts: [
        { text: 'Which registers does a Note need', answered: true },
        { text: 'how long does a premium quote stay valid', answered: true },
        { text: 'which Kubernetes operator deploys it?', answered: false },
      ],
      dropped: 0,
    });
    const { answer } = await provider.answer(ask(question));
    const [first, second, third] = answer.split(/\n\n(?=\*\*)/);
    expect(first).toMatch(/^\*\*1\. Which registers does a Note need\?\*\*\n> The Note must carry three registers/);
    // A clause is headed as a question of its own, with a capital.
    expect(second).toMatch(/^\*\*2\. How long does a premium quote stay valid\?\*\*\n> A premium quote stays valid for 15 minutes\./);
    expect(third).toMatch(/^\*\*3\. Which Kubernetes operator deploys it\?\*\*\nThis site does not say\./);
  });

  it('answers what a part names by its own name with that thing\'s fact, and "what does each mean?" with the facts of what came before', async () => {
    const facts = (lines: string[]) => ({ title: 'Errors', url: 'http://127.0.0.1:4321/problems/', text: lines.join('\n'), cues: lines.map(() => ['error', 'code', 'mean']) });
    const index = answerIndexOf(
      answerIndexData([
        facts([
          'payment_token_used (402, POST /api/assistant/chat): The payment token already paid a turn; each token answers once.',
          'quote_expired (410, POST /api/assistant/verify-payment): The quote is past its `expiresAt`; ask for a new quote.',
          'quote_not_found (400, POST /api/assistant/verify-payment): No quote was issued with this `quoteId`.',
        ]),
        page('/assistant/', 'Assistant', 'A premium quote stays valid for 15 minutes, and every quote names its price.\nEvery chat answer that is paid spends a payment token.'),
      ]),
    );
    const provider = createDocsProvider(() => index);
    const { answer } = await provider.answer(ask('Our client logged payment_token_used and quote_expired yesterday. What does each mean, and for the 410, what should the client do next?'));
    const [first, second] = answer.split(/\n\n(?=\*\*)/);
    expect(first).toMatch(/^\*\*1\. What does each mean\?\*\*\n> payment_token_used \(402/);
    expect(first).toContain('> quote_expired (410');
    // Asked of what came before, the facts are the whole answer; the third code was not named.
    expect(first).not.toContain('quote_not_found');
    expect(first).not.toContain('15 minutes');
    expect(second).toMatch(/^\*\*2\. For the 410, what should the client do next\?\*\*/);
    // A part naming a code by its name is answered with that code's line first.
    const named = await provider.answer(ask('What is quote_not_found?'));
    expect(named.answer).toMatch(/^> quote_not_found \(400/);
  });

  it('quotes the sentence that says something over a heading that restates the question, and no description twice', async () => {
    const pages = indexOf([
      page('/registry/', 'Registry', 'MCP Registry entry of the MCP host\nThe MCP Registry entry of the MCP host is served at /.well-known/mcp/server.json with one Streamable HTTP remote.'),
      page('/discovery/', 'Discovery', 'The MCP Registry entry of the MCP host is served at /.well-known/mcp/server.json with one Streamable HTTP remote, as published.'),
      page('/mcp/', 'MCP host', 'Clients reach the MCP host entry at /mcp over Streamable HTTP, after checking its health at /health.'),
    ]);
    const answer = await createDocsProvider(pages).answer(ask('Where is the MCP Registry entry of the MCP host?'));
    expect(answer.answer).toMatch(/^> The MCP Registry entry of the MCP host is served at \/\.well-known\/mcp\/server\.json/);
    expect(answer.answer).not.toMatch(/^> MCP Registry entry of the MCP host \(/m);
    // The discovery page says the same again: it is not quoted as well.
    expect(answer.answer).not.toContain('as published');
  });

  it('quotes a sentence once: where another page quotes it with its reason code, that fuller line takes its place', async () => {
    const pages = indexOf([
      page('/policy/', 'Policy check', 'Fees are capped by max_fee and never counted in the spend caps of the policy.'),
      page('/codes/', 'Reason codes', '`fee_over_max_fee` (/proposed_action/fee): Fees are capped by max_fee and never counted in the spend caps of the policy.'),
    ]);
    const answer = await createDocsProvider(pages).answer(ask('Is the fee counted in the spend caps of the policy?'));
    expect(answer.answer).toMatch(/^> `fee_over_max_fee` \(\/proposed_action\/fee\): Fees are capped/);
    expect(answer.answer.match(/Fees are capped/g)).toHaveLength(1);
  });

  it('quotes the sentence that names the thing asked for over one that describes it in prose', async () => {
    const pages = indexOf([
      // The prose repeats the question's words, and ranks first on them alone.
      page('/terms/', 'Assistant terms', 'When a premium quote expires, it stays expired, and the expired premium quote cannot be paid.'),
      page('/problems/', 'Errors', 'A premium quote that has expired answers 410 to every request for it.'),
    ]);
    const answer = await createDocsProvider(pages).answer(ask('What happens when a premium quote expires?'));
    expect(answer.answer).toMatch(/^> A premium quote that has expired answers 410 to every request for it\./);
    // A name the question already gives is nothing new.
    expect(namesSomethingNew('Send it to /api/assistant/quote.', 'how do i post to /api/assistant/quote?')).toBe(false);
    expect(namesSomethingNew('Send it to /api/assistant/quote with a `taskHash`.', 'how do i post to /api/assistant/quote?')).toBe(true);
    expect(namesSomethingNew('It stays valid for a short while.', 'how long is a quote valid?')).toBe(false);
    // Whole names only: `id` is not named by "valid", nor `ok` by "token"; a MIME type is no path.
    expect(namesSomethingNew('It has an `id`.', 'how long is a quote valid?')).toBe(true);
    expect(namesSomethingNew('It answers `ok`.', 'what does the token say?')).toBe(true);
    expect(namesSomethingNew('Send it as application/json, and/or text.', 'how do i send it?')).toBe(false);
    expect(namesSomethingNew('It hashes with blake2b256.', 'how is it hashed?')).toBe(true);
  });

  it('prefers the sentences of the route a question names by its path (verify-payment) to the same words elsewhere', () => {
    const text = 'Checks the Note and issues a single-use payment token once the payment checks out.';
    // The same sentence in a section of the route and in one of a path that only looks like it.
    const index = indexOf([page('/llms-full.txt#a', 'POST /api/assistant/verify-payment-draft', text), page('/llms-full.txt#b', 'POST /api/assistant/verify-payment', text.replace('Checks', 'It checks'))])();
    const rank = (question: string) => new Map(rankPart(index, { text: question, near: '', far: '' }, question.toLowerCase()).map(({ document, rank }) => [document.title, rank]));
    const lead = (question: string) => rank(question).get('POST /api/assistant/verify-payment')! - rank(question).get('POST /api/assistant/verify-payment-draft')!;
    // Written as the route's name, the question puts the route's own sentence well ahead; in plain words, it does not.
    expect(lead('What does verify-payment do when the payment checks out?')).toBeGreaterThan(lead('What does verify payment do when the payment checks out?') + 0.1);
  });

  it('quotes no sentence that covers too little of the part, or only its everyday words, however high it ranks', () => {
    const candidate = (text: string, coverage: number, evidence: number, rank: number) => ({ sentence: { text }, document: { url: `http://x/${text}` }, coverage, evidence, rank });
    const ranked = [candidate('a', 0.34, 9, 2), candidate('b', 0.9, 9, 1)];
    expect(chooseSentences(ranked).map(({ sentence: { text } }) => text)).toEqual(['b']);
    expect(chooseSentences(ranked.slice(0, 1))).toEqual([]);
    expect(chooseSentences([candidate('c', 1, 0.5, 3)], 1)).toEqual([]);
  });

  it('quotes a description once, whether a page lists it under its route or llms-full.txt links it', () => {
    const candidate = (text: string, url: string, rank: number) => ({ sentence: { text }, document: { url }, coverage: 1, evidence: 9, rank });
    const listed = 'GET /api/agents/registry: Service registry. Agent services as service manifests, with their listing status.';
    const linked = '[Service registry](http://127.0.0.1:4321/registry/): Agent services as service manifests, with their listing status. JSON: http://127.0.0.1:4321/api/agents/registry';
    const other = 'Send the submit draft as JSON to the operator contact named in the review pack.';
    const ranked = [candidate(listed, 'http://x/registry/', 3), candidate(linked, 'http://x/llms-full.txt', 2), candidate(other, 'http://x/onboarding', 1)];
    expect(chooseSentences(ranked).map(({ sentence: { text } }) => text)).toEqual([listed, other]);
  });

  it('says the site does not answer a question only a synonym of one of its words meets', async () => {
    for (const question of ['Where can I buy a used car?', 'Where do I buy shoes?']) expect((await createDocsProvider().answer(ask(question))).answer, question).toMatch(/^Nothing on this site answers that question/);
  });

  it('says the site does not answer, citing nothing, rather than quoting something unrelated', async () => {
    for (const question of ['xyzzy plugh', 'How do I cook pasta?', 'Which pasta sauce goes with carbonara?']) {
      const answer = await createDocsProvider(corpus).answer(ask(question));
      expect(answer.citations, question).toEqual([]);
      expect(answer.answer, question).toMatch(/^Nothing on this site answers that question/);
    }
  });

  it('answers from the real site index with pages of this site', async () => {
    const answer = await createDocsProvider().answer(ask('How does the wallet agent policy check decide?'));
    expect(answer.citations.length).toBeGreaterThan(0);
    for (const citation of answer.citations) expect(answer.answer).toContain(citation.url);
    expect(answer.citations.some((citation) => /wallet|policy/i.test(`${citation.title} ${citation.url}`))).toBe(true);
  });
});

describe('openai provider', () => {
  let server: Server | undefined;
  let seen: { url?: string; authorization?: string; body?: { model: string; messages: Array<{ role: string; content: string }> } } = {};

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
    seen = {};
  });

  async function upstream(respond: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
    server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => (raw += chunk));
      request.on('end', () => {
        seen = { url: request.url, authorization: request.headers.authorization, body: raw ? JSON.parse(raw) : undefined };
        respond(request, response);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
  }

  const completion = (content: string) => JSON.stringify({ model: 'served-model', choices: [{ message: { role: 'assistant', content } }] });

  /** The site's retrieval as the model's grounding: it answers every question but `Unanswerable?`, quoting one sentence. */
  const grounding: ModelProvider = {
    name: 'docs',
    judge: async (question) => ({ answerable: question !== 'Unanswerable?', parts: [{ text: question, answered: question !== 'Unanswerable?' }], dropped: 0 }),
    answer: async ({ question }) =>
      question === 'Unanswerable?'
        ? { answer: 'Nothing on this site answers that question.', citations: [], model: { provider: 'docs', name: 'site-docs-sentences' } }
        : { answer: '> R5 `Int` holds the expiry height. ([Assistant](http://site.test/assistant/))', citations: [{ title: 'Assistant', url: 'http://site.test/assistant/' }], model: { provider: 'docs', name: 'site-docs-sentences' } },
  };

  it('posts the conversation to /chat/completions with the key and returns the completion', async () => {
    const baseUrl = await upstream((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(completion('R5 is the expiry height.')));
    const provider = createOpenAiProvider({ baseUrl, model: 'test-model', apiKey: 'sk-test', timeoutMs: 2_000 }, grounding);
    const answer = await provider.answer(ask('What is R5?'));
    expect(answer).toEqual({ answer: 'R5 is the expiry height.', citations: [{ title: 'Assistant', url: 'http://site.test/assistant/' }], model: { provider: 'openai', name: 'served-model' } });
    expect(seen.url).toBe('/v1/chat/completions');
    expect(seen.authorization).toBe('Bearer sk-test');
    expect(seen.body?.model).toBe('test-model');
    expect(seen.body?.messages.at(-1)).toEqual({ role: 'user', content: 'What is R5?' });
    expect(seen.body?.messages[0]?.role).toBe('system');
    // Grounded: the model is handed the site's passages for the question and told to answer from them.
    expect(seen.body?.messages[0]?.content).toContain('R5 `Int` holds the expiry height.');
    expect(seen.body?.messages[0]?.content).toMatch(/from the passages of the site quoted below only/);
  });

  it('judges at quote time as the site does, and answers a question the site does not answer without calling the model', async () => {
    let calls = 0;
    const baseUrl = await upstream((_request, response) => (calls++, response.writeHead(200).end(completion('A confident guess.'))));
    const provider = createOpenAiProvider({ baseUrl, model: 'm', apiKey: null, timeoutMs: 2_000 }, grounding);
    // Before, every question was judged answerable: a premium quote was issued for what nothing on the site answers.
    expect((await provider.judge('Unanswerable?')).answerable).toBe(false);
    expect((await provider.judge('What is R5?')).answerable).toBe(true);
    expect((await provider.answer(ask('Unanswerable?'))).answer).toMatch(/^Nothing on this site answers/);
    expect(calls).toBe(0);
  });

  it('sends no authorization header without a key', async () => {
    const baseUrl = await upstream((_request, response) => response.writeHead(200).end(completion('ok')));
    await createOpenAiProvider({ baseUrl, model: 'm', apiKey: null, timeoutMs: 2_000 }, grounding).answer(ask('hi'));
    expect(seen.authorization).toBeUndefined();
  });

  it('turns an error status or a body that is not a completion into a bad response', async () => {
    let reply = (response: ServerResponse) => response.writeHead(500).end('{"error":"boom"}');
    const baseUrl = await upstream((_request, response) => reply(response));
    const provider = createOpenAiProvider({ baseUrl, model: 'm', apiKey: null, timeoutMs: 2_000 }, grounding);
    await expect(provider.answer(ask('hi'))).rejects.toThrow(ModelBadResponseError);
    await expect(provider.answer(ask('hi'))).rejects.toThrow(/HTTP 500/);
    reply = (response) => response.writeHead(200).end('not json');
    await expect(provider.answer(ask('hi'))).rejects.toThrow(/not JSON/);
    reply = (response) => response.writeHead(200).end('{"choices":[]}');
    await expect(provider.answer(ask('hi'))).rejects.toThrow(/without a chat completion/);
  });

  it('gives up within the timeout when the server hangs', async () => {
    const baseUrl = await upstream(() => {
      /* never answers */
    });
    const provider = createOpenAiProvider({ baseUrl, model: 'm', apiKey: null, timeoutMs: 300 }, grounding);
    const started = performance.now();
    const error = await provider.answer(ask('hi')).catch((caught: unknown) => caught);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as Error).message).toBe('The model provider did not answer within 300 ms.');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1_500);
  });

  it('reports a server that is not listening as unavailable', async () => {
    const baseUrl = await upstream(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const error = await createOpenAiProvider({ baseUrl, model: 'm', apiKey: null, timeoutMs: 1_000 }, grounding).answer(ask('hi')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as Error).message).toContain('ECONNREFUSED');
  });
});

describe('provider by configuration', () => {
  it('builds each provider, and none refuses', async () => {
    expect(createModelProvider({ provider: 'docs', timeoutMs: 1_000 }).name).toBe('docs');
    expect(createModelProvider({ provider: 'openai', timeoutMs: 1_000, baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null }).name).toBe('openai');
    const none = createModelProvider({ provider: 'none', timeoutMs: 1_000 });
    await expect(none.answer(ask('hi'))).rejects.toThrow(ModelNotConfiguredError);
  });
});
