/**
 * Property tests of the x402 facilitator (fast-check): a request whose `paymentRequirements` or
 * `paymentPayload.accepted` differs in any one field from the requirements this server issued for
 * the quote (a value changed, a key removed, an unknown key added) is refused by verify and by
 * settle, and the Note, which pays the honest requirements, stays unclaimed.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { x402FacilitatorRequestSchema, x402PaymentRequiredSchema, type X402Requirements } from '../../schemas/x402.ts';
import { decodeX402Header } from '../../src/domain/assistant/x402.ts';
import type { ApiRequest, Handler } from '../../src/lib/api.ts';
import { ProblemError } from '../../src/lib/problem-error.ts';
import { createChatHandler } from '../../src/routes/assistant/chat.ts';
import { createX402SettleHandler, createX402VerifyHandler } from '../../src/routes/assistant/x402-facilitator.ts';
import { fakeDeps, noteBox, TEST_RECEIVER_ADDRESS, type FakeDeps } from '../helpers/fakes.ts';

const QUESTION = 'Which registers must a Note carry, what does each bind it to, and how does the facilitator judge it? '.repeat(3);
const OTHER_PAYEE = '3WvdWQMfUeKFcsQudPM4zqTCcncSAtYZgi96Vr3zLJqYQVn2qmaw';

function post(body: unknown): ApiRequest {
  return { method: 'POST', path: '/api/x402/facilitator/x', params: {}, query: new URLSearchParams(), headers: {}, body, clientIp: '203.0.113.9' };
}

/** The requirements the chat's 402 offers for `question`: what this server issued, byte for byte. */
async function issuedRequirements(deps: FakeDeps, question: string): Promise<X402Requirements> {
  const chat = createChatHandler(deps);
  const offer = await Promise.resolve(chat(post({ messages: [{ role: 'user', content: question }] }))).then(
    () => undefined,
    (error: unknown) => (error instanceof ProblemError ? error.headers['payment-required'] : undefined),
  );
  if (!offer) throw new Error('expected a 402 with PAYMENT-REQUIRED');
  return x402PaymentRequiredSchema.parse(decodeX402Header(offer)).accepts[0]!;
}

interface Scene {
  deps: FakeDeps;
  requirements: X402Requirements;
  /** Another quote's id, stored here too: naming it must not make a mismatch pass. */
  otherQuoteId: string;
  noteBoxId: string;
}

/** A fresh service with a quote offered over x402 and a confirmed Note on the chain that pays exactly it. */
async function scene(): Promise<Scene> {
  const deps = fakeDeps();
  const requirements = await issuedRequirements(deps, QUESTION);
  const otherQuoteId = (await issuedRequirements(deps, `${QUESTION} Another.`)).extra.quoteId;
  const box = noteBox({
    boxId: 'be'.repeat(32),
    transactionId: 'ef'.repeat(32),
    value: BigInt(requirements.amount),
    reserveBoxId: requirements.extra.reserveBoxId,
    expiryHeight: requirements.extra.noteExpiryMinHeight,
    taskHash: requirements.extra.taskHash,
    creationHeight: deps.chain.currentHeight,
    inclusionHeight: deps.chain.currentHeight,
  });
  deps.chain.boxes.set(box.boxId, box);
  deps.chain.payers.set(box.transactionId, OTHER_PAYEE);
  deps.chain.currentHeight += requirements.extra.minConfirmations;
  return { deps, requirements, otherQuoteId, noteBoxId: box.boxId };
}

const honestRequest = ({ requirements, noteBoxId }: Scene) => ({
  x402Version: 2,
  paymentPayload: { x402Version: 2, accepted: structuredClone(requirements), payload: { noteBoxId } },
  paymentRequirements: structuredClone(requirements),
});

type Leaf = Exclude<keyof X402Requirements, 'extra'> | `extra.${keyof X402Requirements['extra']}`;
type Draw = { otherQuoteId: string; text: string; step: number };

const bump = (value: unknown, step: number) => String(BigInt(String(value)) + BigInt(step));
const otherHex = (value: unknown) => (String(value).startsWith('0') ? '1' : '0') + String(value).slice(1);

/**
 * For each field of the requirements, values a liar or a careless resource server would send
 * instead (next to any JSON value at all). `Record` over the fields makes a new field without
 * mutations a type error.
 */
const PLAUSIBLE: Record<Leaf, ReadonlyArray<(value: unknown, d: Draw) => unknown>> = {
  scheme: [() => 'upto', () => 'EXACT', (_, d) => d.text],
  network: [() => 'ergo:mainnet', () => 'eip155:8453', (value) => `${value} `],
  asset: [() => 'USDC', () => 'erg', () => '0x036CbD53842c5426634e7929541eC2318f3dCF7e'],
  amount: [(value) => String(BigInt(String(value)) * 100n), (value, d) => bump(value, d.step), (value, d) => bump(value, -d.step), (value) => Number(value), () => '0'],
  payTo: [() => OTHER_PAYEE, () => TEST_RECEIVER_ADDRESS.toLowerCase(), (value) => `${value}x`],
  maxTimeoutSeconds: [(value, d) => Number(value) + d.step, (value, d) => Number(value) - d.step, (value) => String(value), (value) => Number(value) * 100],
  'extra.paymentFlow': [() => 'deferred', () => 'exact', (_, d) => d.text],
  'extra.quoteId': [(_, d) => d.otherQuoteId, () => 'q_00000000AAAAAAAAAAAAAAAA', (value) => String(value).toUpperCase()],
  'extra.taskHash': [otherHex, (value) => String(value).toUpperCase(), () => '00'.repeat(32)],
  'extra.reserveBoxId': [otherHex, (value) => String(value).toUpperCase(), () => 'ff'.repeat(32)],
  'extra.noteExpiryMinHeight': [(value, d) => Number(value) + d.step, (value, d) => Number(value) - d.step, (value) => String(value)],
  'extra.minConfirmations': [(value, d) => Number(value) + d.step, () => 0, (value) => String(value)],
};
const LEAVES = Object.keys(PLAUSIBLE) as Leaf[];

type Mutation =
  | { op: 'set'; path: string[]; change: (value: unknown, d: Draw) => unknown }
  | { op: 'delete'; path: string[] }
  | { op: 'add'; path: string[]; value: unknown };

const draw: fc.Arbitrary<Draw> = fc.record({ otherQuoteId: fc.constant(''), text: fc.string({ maxLength: 12 }), step: fc.integer({ min: 1, max: 1_000 }) });
const KNOWN_KEYS = ['extra', ...LEAVES.map((leaf) => leaf.replace(/^extra\./, ''))];
// `__proto__` is no key any handler sees: zod leaves it out of every object it parses, at every route.
const unknownKey = fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !KNOWN_KEYS.includes(key) && key !== '__proto__');

/** A change to `value`, printed in a counterexample by what it sets. */
const setTo = (value: unknown) => Object.assign(() => value, { [fc.toStringMethod]: () => fc.stringify(value) });

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // A field set to a plausible wrong value, or to any JSON value at all.
  fc.constantFrom(...LEAVES).chain((leaf) =>
    fc
      .oneof(
        fc.nat({ max: PLAUSIBLE[leaf].length - 1 }).map((index) => Object.assign((value: unknown, d: Draw) => PLAUSIBLE[leaf][index]!(value, d), { [fc.toStringMethod]: () => `PLAUSIBLE['${leaf}'][${index}]` })),
        fc.jsonValue().map(setTo),
      )
      .map((change): Mutation => ({ op: 'set', path: leaf.split('.'), change })),
  ),
  fc.jsonValue().map((value): Mutation => ({ op: 'set', path: ['extra'], change: setTo(value) })),
  fc.constantFrom(...LEAVES, 'extra').map((leaf): Mutation => ({ op: 'delete', path: leaf.split('.') })),
  fc.tuple(fc.constantFrom([], ['extra']), unknownKey, fc.jsonValue()).map(([at, key, value]): Mutation => ({ op: 'add', path: [...at, key], value })),
);

/** `target` with one mutation applied to a copy, or undefined when it changes nothing. */
function mutated(target: Record<string, unknown>, m: Mutation, d: Draw): Record<string, unknown> | undefined {
  const copy = structuredClone(target);
  const parent = m.path.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, copy);
  const key = m.path.at(-1)!;
  if (m.op === 'delete') delete parent[key];
  else Object.defineProperty(parent, key, { value: m.op === 'add' ? m.value : m.change(parent[key], d), enumerable: true, writable: true, configurable: true });
  // As the wire carries it: a change JSON cannot tell apart (undefined, -0) is no change.
  const sent = JSON.parse(JSON.stringify(copy)) as Record<string, unknown>;
  return isDeepStrictEqual(sent, JSON.parse(JSON.stringify(target))) ? undefined : sent;
}

const TARGETS = ['paymentRequirements', 'paymentPayload.accepted', 'both'] as const;
type Target = (typeof TARGETS)[number];

/** The facilitator request with `m` applied to the requirements, the accepted copy, or both alike (a consistent lie). */
function requestWith(s: Scene, target: Target, m: Mutation, d: Draw) {
  const request = honestRequest(s);
  const changed = mutated(s.requirements, m, d);
  if (!changed) return undefined;
  if (target !== 'paymentPayload.accepted') request.paymentRequirements = structuredClone(changed) as X402Requirements;
  if (target !== 'paymentRequirements') request.paymentPayload.accepted = structuredClone(changed) as X402Requirements;
  return request;
}

/** The answer as the server gives it: the request schema first (a 400 naming the field), then the handler. */
async function facilitate(handler: Handler, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const parsed = x402FacilitatorRequestSchema.safeParse(body);
  if (!parsed.success) return { status: 400, body: { errors: parsed.error.issues.map((issue) => issue.path.join('.')) } };
  const response = await handler(post(parsed.data));
  return { status: response.status, body: response.body as Record<string, unknown> };
}

describe('x402 facilitator, property: nothing but the issued requirements pays', () => {
  it('verifies and settles the honest request (the mutations below start from a request that pays)', async () => {
    const s = await scene();
    const verified = await facilitate(createX402VerifyHandler(s.deps), honestRequest(s));
    expect(verified).toEqual({ status: 200, body: { isValid: true, payer: OTHER_PAYEE } });
    const settled = await facilitate(createX402SettleHandler(s.deps), honestRequest(s));
    expect(settled.body).toMatchObject({ success: true, transaction: 'ef'.repeat(32) });
    expect(await s.deps.store.isNoteUsed(s.noteBoxId)).toBe(true);
  });

  it('refuses on verify and on settle every request with one field changed, removed or added, and claims nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TARGETS), mutation, draw, async (target, m, d) => {
        const s = await scene();
        const request = requestWith(s, target, m, { ...d, otherQuoteId: s.otherQuoteId });
        fc.pre(request !== undefined);
        const field = m.path.join('.');
        for (const handler of [createX402VerifyHandler(s.deps), createX402SettleHandler(s.deps)]) {
          const answer = await facilitate(handler, request);
          if (answer.status === 400) {
            // Only the payload's own fields are read strictly; the refusal names the field.
            expect(target).not.toBe('paymentRequirements');
            expect(answer.body.errors).toContainEqual(expect.stringMatching(/^paymentPayload\.accepted\./));
            continue;
          }
          expect(answer.status).toBe(200);
          const { isValid, success, invalidReason, errorReason, invalidMessage, errorMessage } = answer.body;
          expect(isValid ?? success).toBe(false);
          const reason = invalidReason ?? errorReason;
          if (reason === 'quote_not_found') {
            // The payload names the quote: one that was never issued is refused as such.
            expect(target).not.toBe('paymentRequirements');
            expect(m.path[m.path.length - 1]).toMatch(/^(quoteId|extra)$/);
            continue;
          }
          expect(['requirements_mismatch', 'unsupported_scheme']).toContain(reason);
          // A consistent lie naming another stored quote differs from that quote's requirements elsewhere (its task hash).
          const named = target === 'both' ? (field === 'extra.quoteId' ? 'paymentRequirements.extra.' : `paymentRequirements.${field}`) : `${target}.${field}`;
          expect(invalidMessage ?? errorMessage).toContain(named);
        }
        expect(await s.deps.store.isNoteUsed(s.noteBoxId)).toBe(false);
        expect(s.deps.store.receipts).toHaveLength(0);
      }),
      { numRuns: 300 },
    );
  });
});
