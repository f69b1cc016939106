/**
 * The docs corpus and the assistant's index the built server answers from: the build writes the
 * route table's documents and their index beside the bundle (so a server just started spends a few
 * milliseconds reading them, not its first question's half second cutting and weighing the site),
 * and the running server adds the assistant's terms from its own configuration.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtDocuments, DOCS_CORPUS_FILE, servedAnswerIndex, servedDocuments, siteAnswerIndex, siteDocuments } from '../../src/build/site-documents.ts';
import { ANSWER_INDEX_FILE } from '../../src/build/answer-index-file.ts';
import { answerIndexOf } from '../../src/domain/assistant/answer-index.ts';
import { DIST_DIR, startBuiltServer, type RunningServer } from '../helpers/built-server.ts';

const chat = async (url: string, question: string) => {
  const response = await fetch(`${url}/api/assistant/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: question }] }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { answer: string; model: { provider: string } };
};

describe('the built docs corpus', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startBuiltServer({ ASSISTANT_QUOTE_LIFETIME_SECONDS: '420' });
  });
  afterAll(() => server?.stop());

  it('holds exactly the documents the route table builds now (a stale build fails here: rebuild)', () => {
    const file = JSON.parse(readFileSync(`${DIST_DIR}/server/${DOCS_CORPUS_FILE}`, 'utf8'));
    expect(file).toEqual(JSON.parse(JSON.stringify(builtDocuments())));
    expect(file.some((document: { id: string }) => document.id === 'json:/api/assistant/terms')).toBe(false);
  });

  it('holds the assistant\'s index of exactly those documents, which reads back as the one built now', () => {
    const file = JSON.parse(readFileSync(`${DIST_DIR}/server/${ANSWER_INDEX_FILE}`, 'utf8'));
    const now = siteAnswerIndex();
    expect(file).toEqual(JSON.parse(JSON.stringify(now.data)));
    const index = answerIndexOf(file, now.extra);
    expect(index.sentences.length).toBe(now.data.sentences.length + now.extra.sentences.length);
    // The terms of this process are the last document, indexed at start.
    expect(index.documents.at(-1)!.title).toBe('Assistant terms');
    expect(index.postings.get('lifetim') ?? index.cues.get('lifetim')).toBeDefined();
    // Run from source there is no index file beside the module: it is built now.
    expect(JSON.stringify(servedAnswerIndex())).toBe(JSON.stringify(now));
  });

  it('is completed by the terms of the running configuration', () => {
    // Run from source there is no corpus file beside the module: the documents are built now.
    expect(servedDocuments()).toEqual(siteDocuments());
    expect(servedDocuments().at(-1)!.id).toBe('json:/api/assistant/terms');
  });

  it('answers from the build and from the configuration the server started with', async () => {
    const lifetime = await chat(server.url, 'How long is a quote valid?');
    expect(lifetime.model.provider).toBe('docs');
    expect(lifetime.answer).toContain('7 minutes (420 seconds)');
    const policy = await chat(server.url, 'What does the policy check return?');
    expect(policy.answer).toMatch(/policy/i);
  });
});
