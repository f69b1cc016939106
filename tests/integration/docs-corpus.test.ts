/**
 * The docs corpus the built server answers from: the build writes the route table's documents beside
 * the bundle (so a server just started does not spend its first half second building them), and the
 * running server adds the assistant's terms from its own configuration.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtDocuments, DOCS_CORPUS_FILE, servedDocuments, siteDocuments } from '../../src/build/site-documents.ts';
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
