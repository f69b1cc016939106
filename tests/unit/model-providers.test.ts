/**
 * The model providers: `docs` answers by quoting and linking the site's own pages, `openai` talks to
 * an OpenAI-compatible server on loopback (answer, error status, malformed body, hang past the
 * timeout, nothing listening), `none` refuses. Each failure is the error the chat handler maps to
 * its documented status.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocsHit } from '../../src/services/docs-index.ts';
import { createDocsProvider, searchTermsOf } from '../../src/services/model/docs-provider.ts';
import { createModelProvider } from '../../src/services/model/index.ts';
import { createOpenAiProvider } from '../../src/services/model/openai-provider.ts';
import { ModelBadResponseError, ModelNotConfiguredError, ModelUnavailableError } from '../../src/services/model/provider.ts';
import { useCorpus } from '../../src/services/docs-index.ts';
import { siteDocuments } from '../../src/build/site-documents.ts';

// As the server and the MCP host do at start: the index reads the site's own documents.
useCorpus(siteDocuments);

const ask = (question: string) => ({ question, messages: [{ role: 'user' as const, content: question }] });

describe('docs provider', () => {
  const corpus: DocsHit[] = [
    { id: 0, documentId: 'page:/assistant/', title: 'Assistant', url: 'http://127.0.0.1:4321/assistant/', text: 'A Note carries R4, R5 and R6 registers.', score: 3, terms: ['note', 'registers'] },
    { id: 1, documentId: 'page:/wallet/', title: 'Wallet agent', url: 'http://127.0.0.1:4321/wallet/', text: 'Policy checks never sign.', score: 1, terms: ['policy'] },
  ];

  it('searches for the meaningful words of the question only', () => {
    expect(searchTermsOf('What is a Note, and which registers does it need?')).toBe('Note registers need');
    expect(searchTermsOf('what is it?')).toBe('');
  });

  it('quotes the passages found and cites their pages', async () => {
    const queries: string[] = [];
    const provider = createDocsProvider((query, limit) => {
      queries.push(query);
      return corpus.slice(0, limit);
    });
    const answer = await provider.answer(ask('Which registers does a Note need?'));
    expect(queries).toEqual(['registers Note need']);
    expect(answer.citations).toEqual([
      { title: 'Assistant', url: 'http://127.0.0.1:4321/assistant/' },
      { title: 'Wallet agent', url: 'http://127.0.0.1:4321/wallet/' },
    ]);
    expect(answer.answer).toContain('[Assistant](http://127.0.0.1:4321/assistant/)');
    expect(answer.answer).toContain('> A Note carries R4, R5 and R6 registers.');
    expect(answer.model.provider).toBe('docs');
  });

  it('says so, citing nothing, when nothing matches', async () => {
    const answer = await createDocsProvider(() => []).answer(ask('xyzzy plugh'));
    expect(answer.citations).toEqual([]);
    expect(answer.answer).toMatch(/^Nothing on this site matches/);
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

  it('posts the conversation to /chat/completions with the key and returns the completion', async () => {
    const baseUrl = await upstream((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(completion('R5 is the expiry height.')));
    const provider = createOpenAiProvider({ baseUrl, model: 'test-model', apiKey: 'sk-test', timeoutMs: 2_000 });
    const answer = await provider.answer(ask('What is R5?'));
    expect(answer).toEqual({ answer: 'R5 is the expiry height.', citations: [], model: { provider: 'openai', name: 'served-model' } });
    expect(seen.url).toBe('/v1/chat/completions');
    expect(seen.authorization).toBe('Bearer sk-test');
    expect(seen.body?.model).toBe('test-model');
    expect(seen.body?.messages.at(-1)).toEqual({ role: 'user', content: 'What is R5?' });
    expect(seen.body?.messages[0]?.role).toBe('system');
  });

  it('sends no authorization header without a key', async () => {
    const baseUrl = await upstream((_request, response) => response.writeHead(200).end(completion('ok')));
    await createOpenAiProvider({ baseUrl, model: 'm', apiKey: null, timeoutMs: 2_000 }).answer(ask('hi'));
    expect(seen.authorization).toBeUndefined();
  });

  it('turns an error status or a body that is not a completion into a bad response', async () => {
    let reply = (response: ServerResponse) => response.writeHead(500).end('{"error":"boom"}');
    const baseUrl = await upstream((_request, response) => reply(response));
    const provider = createOpenAiProvider({ baseUrl, model: 'm', apiKey: null, timeoutMs: 2_000 });
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
    const provider = createOpenAiProvider({ baseUrl, model: 'm', apiKey: null, timeoutMs: 300 });
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
    const error = await createOpenAiProvider({ baseUrl, model: 'm', apiKey: null, timeoutMs: 1_000 }).answer(ask('hi')).catch((caught: unknown) => caught);
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
