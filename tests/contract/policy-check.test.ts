/**
 * The policy check over HTTP against the built server: the contract's own example is allowed, each
 * unsafe variant the spec names is denied with its reason, malformed requests are 400 problems
 * naming the field, and every body validates against the schema the server publishes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { componentValidators } from '../helpers/openapi-components.ts';

const PATH = '/api/agent-economy/wallet-agent/policy-check';

type Json = Record<string, any>;
let server: RunningServer;
let contract: Json;
let validateVerdict: (body: unknown) => boolean;
let validateProblem: (body: unknown) => boolean;

beforeAll(async () => {
  server = await startBuiltServer();
  contract = (await (await fetch(`${server.url}${PATH}`)).json()) as Json;
  const openapi = (await (await fetch(`${server.url}/agent-economy/openapi.v0.json`)).json()) as Json;
  const validator = componentValidators(openapi);
  validateVerdict = validator(openapi.paths[PATH].post.responses['200'].content['application/json'].schema.$ref);
  validateProblem = validator('Problem');
});
afterAll(async () => server?.stop());

async function check(body: unknown) {
  const response = await fetch(`${server.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
}

const variant = (mutate: (request: Json) => void) => {
  const request = structuredClone(contract.example_request) as Json;
  mutate(request);
  return request;
};

describe('POST policy-check against the built server', () => {
  it('allows the contract example, and its example verdict matches a live one but for checked_at', async () => {
    const { status, body } = await check(contract.example_request);
    expect(status).toBe(200);
    expect(validateVerdict(body)).toBe(true);
    expect(body.allowed).toBe(true);
    expect(body.summary).toBe('policy_allows_exact_testnet_action');
    expect(body.reasons).toEqual([]);
    expect({ ...body, checked_at: 'x' }).toEqual({ ...contract.example_verdict, checked_at: 'x' });
  });

  it.each([
    ['an over-cap amount', (r: Json) => (r.proposed_action.amount = '999999.000000000'), '/proposed_action/amount'],
    ['a recipient outside the allowlist', (r: Json) => (r.proposed_action.recipient = '3WwUnknownRecipientAddress'), '/proposed_action/recipient'],
    ['a stale expiry', (r: Json) => (r.proposed_action.expiry_height_delta = r.profile.expiry_height_limit + 1), '/proposed_action/expiry_height_delta'],
    ['a missing receipt expectation', (r: Json) => (r.proposed_action.receipt_expected = false), '/proposed_action/receipt_expected'],
    ['mainnet', (r: Json) => (r.proposed_action.network = 'mainnet'), '/proposed_action/network'],
  ])('denies %s, naming the field', async (_what, mutate, field) => {
    const { status, body } = await check(variant(mutate));
    expect(status).toBe(200);
    expect(validateVerdict(body)).toBe(true);
    expect(body.allowed).toBe(false);
    expect(body.ok).toBe(false);
    expect(body.reasons.map((reason: Json) => reason.field)).toContain(field);
  });

  it.each([
    ['a decimal without nine fraction digits', (r: Json) => (r.proposed_action.amount = '0.01'), '/proposed_action/amount'],
    ['an unknown key', (r: Json) => (r.profile.extra = true), '/profile/extra'],
    ['an unknown action', (r: Json) => (r.proposed_action.action = 'drain_wallet'), '/proposed_action/action'],
    ['a wrong profile version', (r: Json) => (r.profile.version = 'v1'), '/profile/version'],
    ['a missing proposed action', (r: Json) => delete r.proposed_action, '/proposed_action'],
  ])('answers 400 for %s', async (_what, mutate, field) => {
    const { status, body } = await check(variant(mutate));
    expect(status).toBe(400);
    expect(validateProblem(body)).toBe(true);
    expect(body.code).toBe('invalid_request');
    expect(body.errors.map((error: Json) => error.path)).toContain(field);
  });
});
