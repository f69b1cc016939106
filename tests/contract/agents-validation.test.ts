/**
 * Publish, job acceptance and job quote over HTTP against the built server. Each endpoint accepts
 * its own guide's example with the result the guide shows; a blocked submission, including one that
 * fails the request schema, is a 400 carrying the same result document; unreadable bodies stay
 * problem responses; and every body validates against the schema the server publishes (ajv,
 * compiled from the served OpenAPI document).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer, type RunningServer } from '../helpers/built-server.ts';
import { componentValidators } from '../helpers/openapi-components.ts';


type Json = Record<string, any>;
interface Endpoint {
  path: string;
  /** Field of the GET guide that holds the example body, and the one that holds its result. */
  example: string;
  exampleResult: string;
  /** Field of the result that says the submission passed. */
  passed: string;
}
const ENDPOINTS: Record<'publish' | 'accept' | 'quote', Endpoint> = {
  publish: { path: '/api/agents/publish', example: 'example_manifest', exampleResult: 'example_validation_result', passed: 'accepted_for_operator_review' },
  accept: { path: '/api/jobs/accept', example: 'example_intent', exampleResult: 'example_result', passed: 'accepted_for_operator_review' },
  quote: { path: '/api/jobs/quote', example: 'example_request', exampleResult: 'example_result', passed: 'quote_scaffold_ready' },
};
const NAMES = Object.keys(ENDPOINTS) as Array<keyof typeof ENDPOINTS>;

let server: RunningServer;
let openapi: Json;
const guides = {} as Record<keyof typeof ENDPOINTS, Json>;
const validateResult = {} as Record<keyof typeof ENDPOINTS, ValidateFunction>;
const validateRequest = {} as Record<keyof typeof ENDPOINTS, ValidateFunction>;
let validateProblem: ValidateFunction;

beforeAll(async () => {
  server = await startBuiltServer();
  openapi = (await (await fetch(`${server.url}/agent-economy/openapi.v0.json`)).json()) as Json;
  const component = componentValidators(openapi);
  for (const name of NAMES) {
    const { path } = ENDPOINTS[name];
    const post = openapi.paths[path].post;
    validateResult[name] = component(post.responses['200'].content['application/json'].schema.$ref);
    validateRequest[name] = component(post.requestBody.content['application/json'].schema.$ref);
    guides[name] = (await (await fetch(`${server.url}${path}`)).json()) as Json;
  }
  validateProblem = component('Problem');
});
afterAll(async () => server?.stop());

async function post(path: string, body: string, contentType = 'application/json') {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: (await response.json()) as Json };
}
const submit = (name: keyof typeof ENDPOINTS, body: unknown) => post(ENDPOINTS[name].path, JSON.stringify(body));
const example = (name: keyof typeof ENDPOINTS): Json => structuredClone(guides[name][ENDPOINTS[name].example]);

function expectResultShape(name: keyof typeof ENDPOINTS, answer: { status: number; contentType: string; body: Json }) {
  expect(answer.contentType).toMatch(/^application\/json/);
  const valid = validateResult[name](answer.body);
  expect(valid, JSON.stringify(validateResult[name].errors?.slice(0, 5))).toBe(true);
}

describe.each(NAMES)('POST %s', (name) => {
  const { passed } = ENDPOINTS[name];

  it('accepts the guide’s own example, with the result the guide publishes (but for checked_at)', async () => {
    expect(validateRequest[name](example(name)), JSON.stringify(validateRequest[name].errors)).toBe(true);
    const answer = await submit(name, example(name));
    expect(answer.status).toBe(200);
    expectResultShape(name, answer);
    expect(answer.body[passed]).toBe(true);
    expect(answer.body.errors).toEqual([]);
    expect(Date.now() - Date.parse(answer.body.checked_at)).toBeLessThan(60_000);
    expect({ ...answer.body, checked_at: 'x' }).toEqual({ ...guides[name][ENDPOINTS[name].exampleResult], checked_at: 'x' });
  });

  it('blocks a submission that fails a check with a 400 carrying the same result document', async () => {
    const body = example(name);
    body.posture.mainnet_ready = true;
    const answer = await submit(name, body);
    expect(answer.status).toBe(400);
    expectResultShape(name, answer);
    expect(answer.body[passed]).toBe(false);
    expect(answer.body.errors).toEqual([{ code: 'posture_mainnet_ready', path: '/posture/mainnet_ready', message: expect.any(String) }]);
    expect(answer.body.next_steps.map((step: Json) => step.id)).toContain('fix-findings');
  });

  it('reports a schema failure in the result document, together with the other checks’ findings', async () => {
    const body = example(name);
    body.surprise = 'Fully audited and r\u0456sk-free';
    delete body.posture.network;
    const answer = await submit(name, body);
    expect(answer.status).toBe(400);
    expectResultShape(name, answer);
    expect(answer.body.errors.map((e: Json) => [e.code, e.path])).toEqual([
      ['schema_missing_field', '/posture/network'],
      ['schema_unknown_key', '/surprise'],
      ['forbidden_claim', '/surprise'],
      ['forbidden_claim', '/surprise'],
    ]);
  });

  it.each([
    ['an empty object', {}],
    ['an array', []],
    ['a number', 42],
    ['null', null],
  ])('answers %s with a 400 result document, not a problem', async (_what, body) => {
    const answer = await submit(name, body);
    expect(answer.status).toBe(400);
    expectResultShape(name, answer);
    expect(answer.body[passed]).toBe(false);
    expect(answer.body.errors.length).toBeGreaterThan(0);
    for (const error of answer.body.errors) expect(error.code).toMatch(/^schema_/);
  });

  it('keeps unreadable bodies as problem responses from the shared reader', async () => {
    const { path } = ENDPOINTS[name];
    const malformed = await post(path, '{"job_id":');
    expect(malformed.status).toBe(400);
    expect(malformed.contentType).toMatch(/^application\/problem\+json/);
    expect(validateProblem(malformed.body)).toBe(true);
    expect(malformed.body.code).toBe('invalid_json');

    const wrongType = await post(path, JSON.stringify(example(name)), 'text/plain');
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.code).toBe('unsupported_media_type');

    const oversize = await post(path, JSON.stringify({ padding: 'x'.repeat(70 * 1024) }));
    expect(oversize.status).toBe(413);
    expect(oversize.contentType).toMatch(/^application\/problem\+json/);
  });

  it('documents both answers of its 400 in the OpenAPI document', () => {
    const content = openapi.paths[ENDPOINTS[name].path].post.responses['400'].content;
    expect(Object.keys(content)).toEqual(['application/json', 'application/problem+json']);
    expect(content['application/json'].schema.$ref).toBe(openapi.paths[ENDPOINTS[name].path].post.responses['200'].content['application/json'].schema.$ref);
  });
});

describe('what each validation adds', () => {
  it('publish: a disguised claim anywhere in the manifest blocks it, at its JSON Pointer', async () => {
    const manifest = example('publish');
    manifest.endpoints[0].purpose = 'M\u0430innet\u200B-ready and \uFF41\uFF55\uFF44\uFF49\uFF54\uFF45\uFF44';
    const answer = await submit('publish', manifest);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: Json) => [e.code, e.path])).toEqual([
      ['forbidden_claim', '/endpoints/0/purpose'],
      ['forbidden_claim', '/endpoints/0/purpose'],
    ]);
    expect(answer.body.published).toBe(false);
    expect(answer.body.service_id).toBe(manifest.id);
  });

  it('publish: a disclaimer passes', async () => {
    const manifest = example('publish');
    manifest.description = `${manifest.description} Not audited; never holds custody.`.slice(0, 600);
    const answer = await submit('publish', manifest);
    expect(answer.status).toBe(200);
    expect(answer.body.accepted_for_operator_review).toBe(true);
  });

  it('accept: the same intent always gets the same accepted_job_id, another intent another one', async () => {
    const first = await submit('accept', example('accept'));
    const again = await submit('accept', example('accept'));
    const changed = example('accept');
    changed.proposed_output.description += ' Delivered as one JSON file.';
    const other = await submit('accept', changed);
    expect(first.body.accepted_job_id).toMatch(/^[0-9a-f]{64}$/);
    expect(again.body.accepted_job_id).toBe(first.body.accepted_job_id);
    expect(other.body.accepted_job_id).toMatch(/^[0-9a-f]{64}$/);
    expect(other.body.accepted_job_id).not.toBe(first.body.accepted_job_id);
    expect(first.body.assigned).toBe(false);
  });

  it('accept: an unknown job and a closed one are named at /job_id', async () => {
    const board = (await (await fetch(`${server.url}/api/jobs`)).json()) as Json;
    const closed = board.jobs.find((job: Json) => job.status === 'closed');
    for (const jobId of ['job-that-does-not-exist', closed.id]) {
      const intent = { ...example('accept'), job_id: jobId };
      const answer = await submit('accept', intent);
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ code: jobId === closed.id ? 'job_closed' : 'job_unknown', path: '/job_id' });
      expect(answer.body.accepted_job_id).toBeNull();
      expect(answer.body.job_id).toBe(jobId);
    }
  });

  it('quote: the scaffold is an agreement draft and a handoff that escrows nothing; blocked, it is null', async () => {
    const ready = await submit('quote', example('quote'));
    const { agreement_draft: draft, settlement_handoff: handoff } = ready.body.quote;
    expect(draft.quoteId).toBe(ready.body.accepted_job_id);
    expect(draft.terms.status).toBe('draft_pending_operator_review');
    expect(handoff).toMatchObject({ escrowed: false, signer: 'host_wallet', task_hash: draft.taskHash, amount_nanoerg: draft.priceNanoErg });
    expect(handoff.statement).toMatch(/nothing is escrowed/i);

    const overpriced = example('quote');
    overpriced.quote_terms.amount = '1000.000000000';
    const blocked = await submit('quote', overpriced);
    expect(blocked.status).toBe(400);
    expectResultShape('quote', blocked);
    expect(blocked.body).toMatchObject({ quote_scaffold_ready: false, quote: null, accepted_job_id: null });
    expect(blocked.body.errors.map((e: Json) => e.code)).toEqual(['quote_terms_amount_exceeds_reward']);
  });
});

describe('the roadmap', () => {
  it('lists the three validations as live now that they answer', async () => {
    const roadmap = (await (await fetch(`${server.url}/api/agent-economy/roadmap`)).json()) as Json;
    const phaseOf = (id: string) => roadmap.phases.find((phase: Json) => phase.items.some((item: Json) => item.id === id))?.id;
    expect(phaseOf('validation-for-operator-review')).toBe('live');
  });
});
