/**
 * The assistant contract (spec 2.10, 4.5, 7, 8): request schemas accept what the spec allows and
 * reject each invalid case it names, response schemas hold the decided shapes, the route table
 * documents every status, and the signer-health handler behaves as documented against a real HTTP
 * server. The paid-turn handlers are tested with in-memory ports in assistant-handlers.test.ts.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequestSchema, chatResponseSchema, quoteRequestSchema, quoteResponseSchema, verifyPaymentRequestSchema, type PremiumQuote } from '../../schemas/assistant.ts';
import { activitySchema, signerHealthSchema } from '../../schemas/assistant-status.ts';
import { problemSchema } from '../../schemas/problem.ts';
import { receiptBundleSchema, verifyPaymentResponseSchema, type ReceiptBundle } from '../../schemas/receipt.ts';
import { loadAssistantConfig } from '../../src/config/assistant.ts';
import { typeName } from '../../src/config/site.ts';
import type { ApiRequest } from '../../src/lib/api.ts';
import { ProblemError } from '../../src/lib/problem-error.ts';
import { createSignerHealthHandler } from '../../src/routes/groups/assistant.ts';
import { cachedSignerProbe } from '../../src/services/signer-health.ts';
import { routeUrl } from '../../src/catalogue/lookup.ts';
import { toJsonSchemaDocument } from '../../src/catalogue/published.ts';
import { publishedSchemas } from '../../src/catalogue/schemas-index.ts';
import { routeById } from '../../src/routes/table.ts';
import type { DynamicRoute } from '../../src/routes/types.ts';

/** Deterministic 64-hex values standing for box ids, transaction ids and digests. */
const hex = (label: string) => createHash('sha256').update(label).digest('hex');

const reserveBoxId = hex('reserve box');
const taskHash = hex('task hash');
const noteBoxId = hex('note box');
const settlementTxId = hex('settlement transaction');
const receiptId = hex('receipt bundle');
const testnetAddress = '3WvsT2Gm4EpsM9Pg18PdY6XyhNNMqXDsvJTbbf6ihLvAmSb7u5RN';

const premiumQuote: PremiumQuote = {
  type: typeName('agent_economy.assistant_quote.v0'),
  version: 'v0',
  tier: 'premium',
  quoteId: 'q_7Hc2mW9xKpL4',
  taskHash,
  price: '0.010000000',
  priceNanoErg: '10000000',
  receiverAddress: testnetAddress,
  reserveBoxId,
  noteExpiryMinHeight: 1_300_000,
  minConfirmations: 1,
  issuedHeight: 1_299_280,
  expiresAt: '2026-11-23T12:30:00Z',
  noteRequirements: {
    R4: { type: 'Coll[Byte]', meaning: 'Reserve box id the Note draws on.', value: reserveBoxId },
    R5: { type: 'Int', meaning: 'Expiry height, at least noteExpiryMinHeight.', value: 1_300_000 },
    R6: { type: 'Coll[Byte]', meaning: 'Task hash binding the Note to this quote and question.', value: taskHash },
  },
};

const CHECK_CODES = [
  'question_matches_quote',
  'note_found',
  'note_confirmed',
  'note_not_expired',
  'reserve_matches',
  'task_hash_present',
  'task_hash_matches',
  'pays_receiver',
  'value_covers_price',
  'created_after_quote',
  'note_unused',
];

const bundle: ReceiptBundle = {
  receiptId,
  version: 'v0',
  receipt_type: 'full_receipt_bundle',
  completeness: 'full_receipt_bundle',
  status: 'settled_on_chain',
  chain: 'testnet',
  noteBoxId,
  settlementTxId,
  taskHash,
  agreement: {
    quoteId: premiumQuote.quoteId,
    taskHash,
    price: '0.010000000',
    priceNanoErg: '10000000',
    receiverAddress: testnetAddress,
    reserveBoxId,
    noteExpiryMinHeight: 1_300_000,
    minConfirmations: 1,
    issuedHeight: 1_299_280,
    expiresAt: '2026-11-23T12:30:00Z',
    terms: {
      deliverable: 'One premium answer from the hosted assistant to the quoted question.',
      payment_rail: 'accord_v0_note',
      single_use: true,
      payment_token_lifetime_seconds: 1800,
    },
  },
  verification_receipt: {
    noteBoxId,
    checks: CHECK_CODES.map((code) => ({ code, ok: true, detail: `${code} passed` })),
    checkedAt: '2026-11-23T12:10:00Z',
    chain: { source: 'testnet', via: 'explorer_api_v1', explorer: 'https://api-testnet.ergoplatform.com', height: 1_299_290 },
  },
  settlement_receipt: {
    settlementTxId,
    noteBoxId,
    valueNanoErg: '10000000',
    creationHeight: 1_299_284,
    inclusionHeight: 1_299_286,
    confirmations: 5,
    registers: {
      R4: { serializedValue: `0e20${reserveBoxId}`, value: reserveBoxId },
      R5: { serializedValue: '04c0d89e01', value: 1_300_000 },
      R6: { serializedValue: `0e20${taskHash}`, value: taskHash },
    },
  },
  quote_evidence: { quote: premiumQuote, task_hash_derivation: 'blake2b256(rfc8785({quoteId, question, history}))' },
  issued_at: '2026-11-23T12:10:01Z',
};

const issuePaths = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) =>
  (result.error?.issues ?? []).map((issue) => issue.path.join('.'));

describe('quote request (spec 2.10, 8)', () => {
  it('accepts a question alone and with a history of {role, content} turns', () => {
    expect(quoteRequestSchema.safeParse({ question: 'How do I verify a receipt bundle offline?' }).success).toBe(true);
    const withHistory = {
      question: 'And how is its receipt id computed?',
      history: [
        { role: 'user', content: 'What is a Note?' },
        { role: 'assistant', content: 'A box carrying a reserve id, an expiry height and a task hash.' },
      ],
    };
    expect(quoteRequestSchema.parse(withHistory)).toEqual(withHistory);
  });

  it('accepts exactly 4000 characters and rejects 4001, counting characters as code points', () => {
    expect(quoteRequestSchema.safeParse({ question: 'q'.repeat(4000) }).success).toBe(true);
    const tooLong = quoteRequestSchema.safeParse({ question: 'q'.repeat(4001) });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error!.issues[0]).toMatchObject({ code: 'too_big', path: ['question'] });
    // 4000 astral characters are 8000 UTF-16 units but 4000 characters, as JSON Schema's maxLength counts.
    expect(quoteRequestSchema.safeParse({ question: '\u{1F50E}'.repeat(4000) }).success).toBe(true);
    expect(quoteRequestSchema.safeParse({ question: '\u{1F50E}'.repeat(4001) }).success).toBe(false);
  });

  it('rejects a missing or empty question, extra keys, a history item with an extra key or an unknown role', () => {
    expect(issuePaths(quoteRequestSchema.safeParse({}))).toEqual(['question']);
    expect(issuePaths(quoteRequestSchema.safeParse({ question: '' }))).toEqual(['question']);
    expect(quoteRequestSchema.safeParse({ question: 'Price?', model: 'fast' }).error!.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['model'] });
    const extraInItem = quoteRequestSchema.safeParse({ question: 'Price?', history: [{ role: 'user', content: 'hi', name: 'alice' }] });
    expect(extraInItem.error!.issues[0]).toMatchObject({ code: 'unrecognized_keys', path: ['history', 0], keys: ['name'] });
    expect(issuePaths(quoteRequestSchema.safeParse({ question: 'Price?', history: [{ role: 'system', content: 'obey' }] }))).toEqual(['history.0.role']);
  });

  it('publishes the same limits in its JSON Schema', () => {
    const document = toJsonSchemaDocument((routeById().get('assistant-quote') as DynamicRoute).request!);
    const properties = document.properties as Record<string, Record<string, unknown>>;
    expect(properties.question).toMatchObject({ type: 'string', minLength: 1, maxLength: 4000 });
    expect(document.additionalProperties).toBe(false);
    expect(document.required).toEqual(['question']);
  });
});

describe('quote response', () => {
  it('accepts a free-tier decision and a premium quote, told apart by tier', () => {
    const free = {
      type: typeName('agent_economy.assistant_quote.v0'),
      version: 'v0',
      tier: 'free',
      reason: 'Short question within the daily free allowance.',
      free_questions_remaining_today: 3,
      next: routeUrl('assistant-chat'),
    };
    expect(quoteResponseSchema.parse(free)).toEqual(free);
    expect(quoteResponseSchema.parse(premiumQuote)).toEqual(premiumQuote);
  });

  it('publishes exactly the decided premium fields, none other allowed', () => {
    const route = routeById().get('assistant-quote') as DynamicRoute;
    const document = toJsonSchemaDocument(route.responses[200]!.schema!);
    const premium = (document.oneOf as Array<Record<string, unknown>>).find(
      (variant) => (variant.properties as Record<string, { const?: string }>).tier!.const === 'premium',
    )!;
    expect(Object.keys(premium.properties as object).sort()).toEqual(
      [
        'type',
        'version',
        'tier',
        'quoteId',
        'taskHash',
        'price',
        'priceNanoErg',
        'receiverAddress',
        'reserveBoxId',
        'noteExpiryMinHeight',
        'minConfirmations',
        'issuedHeight',
        'expiresAt',
        'noteRequirements',
        'reason',
      ].sort(),
    );
    expect(premium.required).not.toContain('reason');
    expect(premium.additionalProperties).toBe(false);
  });

  it('rejects a premium quote whose two amounts differ or whose R6 is not its task hash', () => {
    expect(issuePaths(quoteResponseSchema.safeParse({ ...premiumQuote, priceNanoErg: '1000000' }))).toContain('priceNanoErg');
    const wrongR6 = { ...premiumQuote, noteRequirements: { ...premiumQuote.noteRequirements, R6: { ...premiumQuote.noteRequirements.R6, value: hex('other') } } };
    expect(issuePaths(quoteResponseSchema.safeParse(wrongR6))).toContain('noteRequirements');
    expect(quoteResponseSchema.safeParse({ ...premiumQuote, price: '0.01' }).success).toBe(false);
  });
});

describe('chat', () => {
  it('accepts messages with and without a payment token', () => {
    expect(chatRequestSchema.safeParse({ messages: [{ role: 'user', content: 'What does the mainnet gate need?' }] }).success).toBe(true);
    expect(chatRequestSchema.safeParse({ messages: [{ role: 'user', content: 'Explain R5.' }], paymentToken: 'x'.repeat(43) }).success).toBe(true);
  });

  it('rejects empty messages, extra keys and malformed items', () => {
    expect(chatRequestSchema.safeParse({ messages: [] }).error!.issues[0]).toMatchObject({ code: 'too_small', path: ['messages'] });
    expect(chatRequestSchema.safeParse({}).success).toBe(false);
    expect(chatRequestSchema.safeParse({ messages: [{ role: 'user', content: 'hi' }], stream: true }).error!.issues[0]).toMatchObject({
      code: 'unrecognized_keys',
    });
    expect(issuePaths(chatRequestSchema.safeParse({ messages: [{ role: 'user' }] }))).toEqual(['messages.0.content']);
  });

  it('ties receiptId to the tier of the answer', () => {
    const answer = {
      type: typeName('agent_economy.assistant_chat.v0'),
      version: 'v0',
      tier: 'premium',
      answer: 'R5 holds the Note expiry height as an `Int`.',
      citations: [{ title: 'Paid assistant turn', url: routeUrl('assistant-quote') }],
      receiptId,
      model: { provider: 'docs', name: 'site-pages' },
    };
    expect(chatResponseSchema.safeParse(answer).success).toBe(true);
    expect(chatResponseSchema.safeParse({ ...answer, receiptId: null }).success).toBe(false);
    expect(chatResponseSchema.safeParse({ ...answer, tier: 'free', receiptId: null }).success).toBe(true);
  });
});

describe('verify-payment request (spec 2.10, 8)', () => {
  const valid = { quote: { quoteId: premiumQuote.quoteId }, question: 'Explain R5.', noteBoxId };

  it('accepts the quote object with extra keys and a Note box id in either case', () => {
    expect(verifyPaymentRequestSchema.safeParse(valid).success).toBe(true);
    const parsed = verifyPaymentRequestSchema.parse({ ...valid, quote: premiumQuote, noteBoxId: noteBoxId.toUpperCase() });
    expect(parsed.quote.taskHash).toBe(taskHash);
  });

  it('rejects a Note box id of 63 characters or with non-hex characters', () => {
    expect(issuePaths(verifyPaymentRequestSchema.safeParse({ ...valid, noteBoxId: noteBoxId.slice(1) }))).toEqual(['noteBoxId']);
    expect(issuePaths(verifyPaymentRequestSchema.safeParse({ ...valid, noteBoxId: `${noteBoxId.slice(1)}g` }))).toEqual(['noteBoxId']);
    expect(issuePaths(verifyPaymentRequestSchema.safeParse({ ...valid, noteBoxId: `${noteBoxId}0` }))).toEqual(['noteBoxId']);
  });

  it('rejects a missing or empty quoteId, an empty question and extra top-level keys', () => {
    expect(issuePaths(verifyPaymentRequestSchema.safeParse({ ...valid, quote: {} }))).toEqual(['quote.quoteId']);
    expect(issuePaths(verifyPaymentRequestSchema.safeParse({ ...valid, quote: { quoteId: '' } }))).toEqual(['quote.quoteId']);
    expect(issuePaths(verifyPaymentRequestSchema.safeParse({ ...valid, question: '' }))).toEqual(['question']);
    expect(verifyPaymentRequestSchema.safeParse({ ...valid, paymentTxId: settlementTxId }).error!.issues[0]).toMatchObject({ code: 'unrecognized_keys' });
  });
});

describe('receipt bundle and verify-payment response', () => {
  it('accepts a consistent full receipt bundle', () => {
    expect(receiptBundleSchema.parse(bundle)).toEqual(bundle);
  });

  it('rejects a bundle whose parts disagree or that records a failed check', () => {
    const poor = { ...bundle, settlement_receipt: { ...bundle.settlement_receipt, valueNanoErg: '9999999' } };
    expect(issuePaths(receiptBundleSchema.safeParse(poor))).toEqual(['settlement_receipt.valueNanoErg']);
    const otherNote = { ...bundle, verification_receipt: { ...bundle.verification_receipt, noteBoxId: hex('another note') } };
    expect(issuePaths(receiptBundleSchema.safeParse(otherNote))).toEqual(['verification_receipt.noteBoxId']);
    const failed = {
      ...bundle,
      verification_receipt: { ...bundle.verification_receipt, checks: bundle.verification_receipt.checks.map((c, i) => (i === 3 ? { ...c, ok: false } : c)) },
    };
    expect(issuePaths(receiptBundleSchema.safeParse(failed))).toEqual(['verification_receipt.checks.3.ok']);
    expect(receiptBundleSchema.safeParse({ ...bundle, chain: 'sandbox' }).success).toBe(false);
    expect(receiptBundleSchema.safeParse({ ...bundle, status: 'pending' }).success).toBe(false);
  });

  it('accepts a verification response that carries its bundle, and only a matching one', () => {
    const response = {
      type: typeName('agent_economy.assistant_payment_verification.v0'),
      version: 'v0',
      paymentToken: 'kX9fQ2mZr7Lw0bTn4VyHc8sJdPa1eGu6oRiK3tMxNvE',
      paymentTokenExpiresAt: '2026-11-23T12:40:01Z',
      receiptId,
      receiptUrl: routeUrl('assistant-receipt').replace('{id}', receiptId),
      settlementTxId,
      receiptProofUrl: routeUrl('assistant-receipt-proof').replace('{id}', receiptId),
      receipt: bundle,
    };
    expect(verifyPaymentResponseSchema.safeParse(response).success).toBe(true);
    expect(issuePaths(verifyPaymentResponseSchema.safeParse({ ...response, receiptId: hex('other receipt') }))).toEqual(['receiptId']);
    expect(verifyPaymentResponseSchema.safeParse({ ...response, paymentToken: 'short' }).success).toBe(false);
  });
});

describe('activity', () => {
  it('has events with kinds, times, amounts, task hashes and receipt ids, and no private fields', () => {
    const feed = {
      type: typeName('agent_economy.assistant_activity.v0'),
      version: 'v0',
      events: [
        { kind: 'turn_answered', at: '2026-11-23T12:11:00Z', taskHash, receiptId },
        { kind: 'payment_verified', at: '2026-11-23T12:10:01Z', amountNanoErg: '10000000', taskHash, receiptId },
        { kind: 'quote_issued', at: '2026-11-23T12:00:00Z', amountNanoErg: '10000000', taskHash },
      ],
    };
    expect(activitySchema.parse(feed)).toEqual(feed);
    expect(activitySchema.safeParse({ ...feed, events: [{ kind: 'question_asked', at: '2026-11-23T12:00:00Z' }] }).success).toBe(false);
    const document = toJsonSchemaDocument(publishedSchemas().find((p) => p.file === 'assistant-activity.schema.v0.json')!);
    const event = ((document.properties as Record<string, { items: { properties: object } }>).events!.items.properties);
    expect(Object.keys(event).sort()).toEqual(['amountNanoErg', 'at', 'kind', 'receiptId', 'taskHash']);
  });
});

describe('route table', () => {
  const expected: Record<string, { method: string; path: string; statuses: number[]; handler: boolean }> = {
    'assistant-quote': { method: 'POST', path: '/api/assistant/quote', statuses: [200, 400, 422, 429, 503], handler: true },
    'assistant-chat': { method: 'POST', path: '/api/assistant/chat', statuses: [200, 400, 402, 422, 429, 502, 503], handler: true },
    'assistant-verify-payment': { method: 'POST', path: '/api/assistant/verify-payment', statuses: [200, 400, 402, 409, 410, 429, 503], handler: true },
    'assistant-activity': { method: 'GET', path: '/api/assistant/activity', statuses: [200, 503], handler: true },
    'assistant-signer-health': { method: 'GET', path: '/api/assistant/signer-health', statuses: [200, 503], handler: true },
    'assistant-receipt': { method: 'GET', path: '/api/assistant/receipt/{id}', statuses: [200, 404, 503], handler: true },
    'assistant-quote-read': { method: 'GET', path: '/api/assistant/quote/{id}', statuses: [200, 400, 404, 410, 503], handler: true },
  };

  it.each(Object.entries(expected))('%s documents its method, path and every status of the spec', (id, want) => {
    const route = routeById().get(id);
    expect(route?.kind).toBe('dynamic');
    const dynamic = route as DynamicRoute;
    expect({ method: dynamic.method, path: dynamic.path, tag: dynamic.tag }).toEqual({ method: want.method, path: want.path, tag: 'Assistant' });
    expect(Object.keys(dynamic.responses).map(Number)).toEqual(want.statuses);
    expect(Boolean(dynamic.handler)).toBe(want.handler);
    expect(dynamic.responses[200]!.schema).toBeDefined();
  });

  it('gives the quote route the assistant page, rate limits a Retry-After header and 402 every Note code', () => {
    expect(routeById().get('assistant-quote')!.page).toBe('/assistant/');
    for (const id of ['assistant-quote', 'assistant-chat', 'assistant-verify-payment']) {
      expect((routeById().get(id) as DynamicRoute).responses[429]!.headers).toHaveProperty('Retry-After');
    }
    const notePayment = (routeById().get('assistant-verify-payment') as DynamicRoute).responses[402]!.description;
    for (const code of ['NOTE_NOT_FOUND', 'NOTE_UNCONFIRMED', 'NOTE_EXPIRED', 'RESERVE_MISMATCH', 'TASK_HASH_MISSING', 'TASK_HASH_MISMATCH', 'INSUFFICIENT_VALUE', 'NOTE_TOO_OLD', 'NOTE_ALREADY_USED']) {
      expect(notePayment).toContain(code);
      expect(notePayment).toContain(`\`${code.toLowerCase()}\``);
    }
  });

  it('publishes every assistant schema under the file names decided, each convertible to JSON Schema', () => {
    const files = publishedSchemas().filter((p) => p.file.startsWith('assistant-'));
    expect(files.map((p) => `${p.file}:${p.io}`).sort()).toEqual(
      [
        'assistant-activity.schema.v0.json:output',
        'assistant-chat-request.schema.v0.json:input',
        'assistant-chat.schema.v0.json:output',
        'assistant-premium-quote.schema.v0.json:output',
        'assistant-quote-request.schema.v0.json:input',
        'assistant-quote.schema.v0.json:output',
        'assistant-receipt.schema.v0.json:output',
        'assistant-signer-health.schema.v0.json:output',
        'assistant-terms.schema.v0.json:output',
        'assistant-verify-payment-request.schema.v0.json:input',
        'assistant-verify-payment.schema.v0.json:output',
      ].sort(),
    );
    for (const published of files) expect(toJsonSchemaDocument(published).$id).toMatch(/\/agent-economy\/assistant-[a-z-]+\.schema\.v0\.json$/);
  });
});

describe('assistant configuration', () => {
  it('defaults to no signer and a 2000 ms timeout, strips a trailing slash', () => {
    expect(loadAssistantConfig({})).toEqual({ signer: { url: null, timeoutMs: 2000 } });
    expect(loadAssistantConfig({ SIGNER_URL: 'http://127.0.0.1:8700/', SIGNER_TIMEOUT_MS: '750' })).toEqual({
      signer: { url: 'http://127.0.0.1:8700', timeoutMs: 750 },
    });
  });

  it('names the variable and what it must look like, without echoing the value', () => {
    expect(() => loadAssistantConfig({ SIGNER_URL: 'signer.internal:8700' })).toThrow(/^assistant configuration: SIGNER_URL must be an absolute http\(s\) URL/);
    expect(() => loadAssistantConfig({ SIGNER_URL: 'ftp://user:secret@signer' })).toThrow(/SIGNER_URL/);
    expect(() => loadAssistantConfig({ SIGNER_URL: 'ftp://user:secret@signer' })).not.toThrow(/secret/);
    expect(() => loadAssistantConfig({ SIGNER_TIMEOUT_MS: '2s' })).toThrow(/SIGNER_TIMEOUT_MS must be an integer number of milliseconds from 100 to 30000/);
    expect(() => loadAssistantConfig({ SIGNER_TIMEOUT_MS: '50' })).toThrow(/SIGNER_TIMEOUT_MS/);
  });
});

describe('signer health handler', () => {
  let server: Server | undefined;
  let requests = 0;

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
    requests = 0;
  });

  /** A signer stand-in on a free loopback port; `answer` decides how /health responds. */
  async function signer(answer: (respond: (status: number, body: string) => void) => void): Promise<string> {
    server = createServer((request, response) => {
      requests += 1;
      if (request.url !== '/health') {
        response.writeHead(404).end();
        return;
      }
      answer((status, body) => response.writeHead(status, { 'content-type': 'application/json' }).end(body));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it('answers 200 healthy when /health answers 2xx', async () => {
    const url = await signer((respond) => respond(200, JSON.stringify({ ok: true })));
    const response = await createSignerHealthHandler(cachedSignerProbe({ url, timeoutMs: 2000 }, 0))(fakeRequest('/api/assistant/signer-health'));
    expect(response.status).toBe(200);
    const health = signerHealthSchema.parse(response.body);
    expect(health).toMatchObject({ ok: true, configured: true, status: 'healthy' });
    expect(health.latency_ms).toBeGreaterThanOrEqual(0);
    expect(health.detail).not.toContain(url);
  });

  it('answers 503 degraded when /health answers 500 or reports ok: false', async () => {
    const url = await signer((respond) => respond(500, JSON.stringify({ ok: false })));
    const error = await captureProblem(() => createSignerHealthHandler(cachedSignerProbe({ url, timeoutMs: 2000 }, 0))(fakeRequest('/api/assistant/signer-health')));
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'signer_degraded' });
    expect(signerHealthSchema.parse(error.extra.signer_health)).toMatchObject({ ok: false, configured: true, status: 'degraded' });
    expect(problemSchema.safeParse(error.toBody('/api/assistant/signer-health')).success).toBe(true);
    expect(error.message).toContain('HTTP 500');

    server!.removeAllListeners('request');
    server!.on('request', (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":false}'));
    const reported = await captureProblem(() => createSignerHealthHandler(cachedSignerProbe({ url, timeoutMs: 2000 }, 0))(fakeRequest('/api/assistant/signer-health')));
    expect(reported.code).toBe('signer_degraded');
  });

  it('answers 503 unreachable within the timeout when /health hangs', async () => {
    const url = await signer(() => {
      /* never answers */
    });
    const started = performance.now();
    const error = await captureProblem(() => createSignerHealthHandler(cachedSignerProbe({ url, timeoutMs: 300 }, 0))(fakeRequest('/api/assistant/signer-health')));
    const elapsed = performance.now() - started;
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'signer_unreachable' });
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1500);
    expect(error.message).toBe('The signer did not answer its health check within 300 ms.');
  });

  it('answers 503 unreachable when nothing listens', async () => {
    const url = await signer((respond) => respond(200, '{}'));
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const error = await captureProblem(() => createSignerHealthHandler(cachedSignerProbe({ url, timeoutMs: 1000 }, 0))(fakeRequest('/api/assistant/signer-health')));
    expect(error.code).toBe('signer_unreachable');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('answers 503 unconfigured without probing when no signer URL is set', async () => {
    const error = await captureProblem(() => createSignerHealthHandler(cachedSignerProbe({ url: null, timeoutMs: 2000 }, 0))(fakeRequest('/api/assistant/signer-health')));
    expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'signer_unconfigured' });
    expect(signerHealthSchema.parse(error.extra.signer_health)).toMatchObject({ ok: false, configured: false, status: 'unconfigured' });
    expect((error.extra.signer_health as { latency_ms?: number }).latency_ms).toBeUndefined();
  });

  it('shares one probe between requests within the cache window', async () => {
    const url = await signer((respond) => respond(200, '{"ok":true}'));
    const handler = createSignerHealthHandler(cachedSignerProbe({ url, timeoutMs: 2000 }, 60_000));
    const [first, second] = await Promise.all([handler(fakeRequest('/h')), handler(fakeRequest('/h'))]);
    await handler(fakeRequest('/h'));
    expect(first.body).toBe(second.body);
    expect(requests).toBe(1);
  });
});

describe('published JSON Schemas agree with the zod schemas', () => {
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  const validator = (file: string) => {
    const published = publishedSchemas().find((p) => p.file === file)!;
    return ajv.compile(toJsonSchemaDocument(published));
  };

  it('accept the valid examples and reject the spec invalid cases, as zod does', () => {
    const quoteRequest = validator('assistant-quote-request.schema.v0.json');
    expect(quoteRequest({ question: '\u{1F50E}'.repeat(4000) })).toBe(true);
    expect(quoteRequest({ question: 'q'.repeat(4001) })).toBe(false);
    expect(quoteRequest({ question: 'Price?', history: [{ role: 'user', content: 'hi', name: 'alice' }] })).toBe(false);
    const verifyRequest = validator('assistant-verify-payment-request.schema.v0.json');
    expect(verifyRequest({ quote: premiumQuote, question: 'Explain R5.', noteBoxId })).toBe(true);
    expect(verifyRequest({ quote: { quoteId: 'q1' }, question: 'Explain R5.', noteBoxId: noteBoxId.slice(1) })).toBe(false);
    expect(validator('assistant-chat-request.schema.v0.json')({ messages: [] })).toBe(false);
    expect(validator('assistant-quote.schema.v0.json')(premiumQuote)).toBe(true);
    expect(validator('assistant-receipt.schema.v0.json')(bundle)).toBe(true);
  });
});

function fakeRequest(path: string, params: Record<string, string> = {}): ApiRequest {
  return { method: 'GET', path, params, query: new URLSearchParams(), headers: {}, body: undefined, clientIp: '127.0.0.1' };
}

async function captureProblem(run: () => unknown): Promise<ProblemError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error('expected a ProblemError');
}
