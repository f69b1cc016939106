/**
 * The x402 extensions this service honours are one list (src/domain/assistant/x402-extensions.ts):
 * the chat's 402 declares exactly what the facilitator's /supported lists, so a change of that list
 * moves both, and neither can claim an extension the other does not. Here the list is replaced (one
 * extension dropped): the 402 and /supported both lose it, with a signer and without one.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../../src/lib/api.ts';
import { ProblemError } from '../../src/lib/problem-error.ts';
import { createChatHandler } from '../../src/routes/assistant/chat.ts';
import { createX402SupportedHandler } from '../../src/routes/assistant/x402-facilitator.ts';
import { createOfferReceiptSigner } from '../../src/services/x402-signing-key.ts';
import { fakeDeps } from '../helpers/fakes.ts';

const list = vi.hoisted(() => ({ names: ['payment-identifier', 'offer-receipt'] as const }));

vi.mock('../../src/domain/assistant/x402-extensions.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/domain/assistant/x402-extensions.ts')>()),
  X402_EXTENSIONS: list.names,
  honouredX402Extensions: (signing: boolean) => list.names.filter((name) => name !== 'offer-receipt' || signing),
}));

const LONG_QUESTION = 'How does the verify-payment endpoint decide that a Note pays a quote, and what does the receipt bundle record? '.repeat(3);
const request = (body: unknown): ApiRequest => ({ method: 'POST', path: '/api/assistant/chat', params: {}, query: new URLSearchParams(), headers: {}, body, clientIp: '203.0.113.7' });

/** The extensions the chat's 402 declares and the ones /supported lists, for deps with or without a signer. */
async function declaredAndSupported(signing: boolean): Promise<{ declared: string[]; supported: string[] }> {
  const deps = { ...fakeDeps(), ...(signing ? { offerReceipts: createOfferReceiptSigner(generateKeyPairSync('ed25519').privateKey, 'http://127.0.0.1:4321') } : {}) };
  let required: string | undefined;
  try {
    await createChatHandler(deps)(request({ messages: [{ role: 'user', content: LONG_QUESTION }] }));
  } catch (error) {
    if (!(error instanceof ProblemError) || error.status !== 402) throw error;
    required = error.headers?.['payment-required'];
  }
  const offer = JSON.parse(Buffer.from(required!, 'base64').toString('utf8')) as { extensions: Record<string, unknown> };
  const supported = (await createX402SupportedHandler(deps)(request(undefined))).body as { extensions: string[] };
  return { declared: Object.keys(offer.extensions).sort(), supported: [...supported.extensions].sort() };
}

describe('the one list of honoured x402 extensions', () => {
  it('moves the 402 and /supported together: bazaar dropped from it is gone from both', async () => {
    expect(await declaredAndSupported(true)).toEqual({ declared: ['offer-receipt', 'payment-identifier'], supported: ['offer-receipt', 'payment-identifier'] });
  });

  it('leaves offer-receipt out of both on a server that cannot sign', async () => {
    expect(await declaredAndSupported(false)).toEqual({ declared: ['payment-identifier'], supported: ['payment-identifier'] });
  });
});
