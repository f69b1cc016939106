/**
 * The wallet-agent group through the route table: every static body builds and parses with its
 * schema and with the published JSON Schema, carries the fields the spec names, and the POST
 * handler answers the engine's verdict.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { REFERENCE_FLOW_STAGES } from '../../schemas/wallet-agent.ts';
import { type PolicyCheckRequest, policyCheckRequestSchema, policyVerdictSchema, walletAgentPolicyProfileSchema } from '../../schemas/policy-check.ts';
import { schemaUrl, site, siteUrl, typeName } from '../../src/config/site.ts';
import { POSTURE } from '../../src/descriptors/common.ts';
import { POLICY_CHECKS, POLICY_REASON_CODES, POLICY_WARNING_CODES } from '../../schemas/policy-codes.ts';
import { checkPolicy } from '../../src/domain/policy-engine.ts';
import { examplePolicyCheckRequest, examplePolicyVerdict } from '../../src/domain/policy-examples.ts';
import type { ApiRequest } from '../../src/lib/api.ts';
import { handlePolicyCheck } from '../../src/routes/groups/wallet-agent.ts';
import { toJsonSchemaDocument } from '../../src/catalogue/published.ts';
import { routeById } from '../../src/routes/table.ts';
import type { PublishedSchema } from '../../src/catalogue/types.ts';
import type { DynamicRoute, StaticRoute } from '../../src/routes/types.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));

function staticRoute(id: string): StaticRoute {
  const route = routeById().get(id);
  if (!route || route.kind !== 'static') throw new Error(`no static route ${id}`);
  return route;
}

/** Builds a static body, parses it with its zod schema and validates it with the published JSON Schema. */
function build(id: string): Record<string, any> {
  const route = staticRoute(id);
  const body = JSON.parse(JSON.stringify(route.build!()));
  route.schema!.schema.parse(body);
  expectValidAgainstPublished(route.schema!, body);
  return body;
}

function expectValidAgainstPublished(published: PublishedSchema, body: unknown) {
  const validate = ajv.compile({ ...toJsonSchemaDocument(published), $id: undefined });
  const valid = validate(body);
  expect(validate.errors ?? [], published.file).toEqual([]);
  expect(valid).toBe(true);
}

/** Every property of every object in a JSON Schema carries a description. */
function undescribedProperties(schema: unknown, path = ''): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const missing: string[] = [];
  for (const [key, value] of Object.entries((node.properties as Record<string, Record<string, unknown>>) ?? {})) {
    if (typeof value.description !== 'string') missing.push(`${path}/${key}`);
    missing.push(...undescribedProperties(value, `${path}/${key}`));
  }
  if (node.items) missing.push(...undescribedProperties(node.items, `${path}/items`));
  for (const option of [...((node.anyOf as unknown[]) ?? []), ...((node.oneOf as unknown[]) ?? [])]) missing.push(...undescribedProperties(option, path));
  return missing;
}

describe('wallet-agent routes', () => {
  it('declares the fixed ids, paths and pages', () => {
    const expected: Array<[string, string, string]> = [
      ['wallet-agent', 'GET', '/api/agent-economy/wallet-agent'],
      ['policy-check-contract', 'GET', '/api/agent-economy/wallet-agent/policy-check'],
      ['policy-check', 'POST', '/api/agent-economy/wallet-agent/policy-check'],
      ['reference-flow', 'GET', '/api/agent-economy/wallet-agent/reference-flow'],
      ['policy-profile-template', 'GET', '/agent-economy/wallet-agent-policy-profile.template.v0.json'],
    ];
    for (const [id, method, path] of expected) {
      const route = routeById().get(id);
      expect(route, id).toBeDefined();
      expect([route!.method, route!.path]).toEqual([method, path]);
      expect(route!.page, id).toMatch(/^\/wallet-agent\//);
    }
    const check = routeById().get('policy-check') as DynamicRoute;
    expect(check.request!.file).toBe('wallet-agent-policy-check.schema.v0.json');
    expect(check.request!.io).toBe('input');
    expect(check.responses[200]!.schema!.file).toBe('wallet-agent-policy-verdict.schema.v0.json');
    expect(Object.keys(check.responses).map(Number).sort()).toEqual([200, 400]);
    expect(staticRoute('policy-profile-template').schema!.file).toBe('wallet-agent-policy-profile.schema.v0.json');
  });

  it('publishes schemas whose every field is described', () => {
    const check = routeById().get('policy-check') as DynamicRoute;
    const published = [
      check.request!,
      check.responses[200]!.schema!,
      ...['wallet-agent', 'policy-check-contract', 'reference-flow', 'policy-profile-template'].map((id) => staticRoute(id).schema!),
    ];
    for (const schema of published) {
      const document = toJsonSchemaDocument(schema);
      expect(document.$id).toBe(schemaUrl(schema.file));
      expect(undescribedProperties(document), schema.file).toEqual([]);
    }
    const request = toJsonSchemaDocument(check.request!) as { additionalProperties?: unknown; properties: Record<string, { additionalProperties?: unknown }> };
    expect(request.additionalProperties).toBe(false);
    expect(request.properties.profile!.additionalProperties).toBe(false);
    expect(request.properties.proposed_action!.additionalProperties).toBe(false);
  });
});

describe('GET /api/agent-economy/wallet-agent', () => {
  it('is the safety specification with policy links', () => {
    const body = build('wallet-agent');
    expect(body).toMatchObject({
      ok: true,
      type: typeName('agent_economy.wallet_agent.v0'),
      version: 'v0',
      status: 'testnet_live_proof',
      posture: POSTURE,
      network: 'testnet',
      authority: { wallet_authority: 'host_application', agent_holds_private_keys: false, service_signs_transactions: false },
      mainnet_gate: { status: 'closed' },
    });
    expect(body.policy).toEqual({
      check_api: siteUrl('/api/agent-economy/wallet-agent/policy-check'),
      contract_api: siteUrl('/api/agent-economy/wallet-agent/policy-check'),
      profile_schema: schemaUrl('wallet-agent-policy-profile.schema.v0.json'),
      request_schema: schemaUrl('wallet-agent-policy-check.schema.v0.json'),
      verdict_schema: schemaUrl('wallet-agent-policy-verdict.schema.v0.json'),
      profile_template: siteUrl('/agent-economy/wallet-agent-policy-profile.template.v0.json'),
      reference_flow: siteUrl('/api/agent-economy/wallet-agent/reference-flow'),
    });
    expect(body.actions.map((entry: { action: string }) => entry.action)).toEqual([
      'quote',
      'simulate',
      'sign_specific_transaction',
      'broadcast_simulated_transaction',
      'verify_note',
      'fetch_receipt',
    ]);
    expect(body.policy_checks.map((entry: { check: string }) => entry.check)).toEqual([...POLICY_CHECKS]);
    expect(body.signing_boundary).toMatch(/never signs, never broadcasts, never receives or stores private keys/);
    expect(body.mainnet_gate.blockers.map((blocker: { id: string }) => blocker.id)).toEqual(['external-review', 'mainnet-script-identity']);
  });
});

describe('GET /api/agent-economy/wallet-agent/policy-check (contract)', () => {
  const body = () => build('policy-check-contract');

  it('names schema, request_schema, example_request and strict_contract (spec 2.2)', () => {
    const contract = body();
    expect(contract.type).toBe(typeName('agent_economy.wallet_agent_policy_contract.v0'));
    expect(contract.schema).toBe(schemaUrl('wallet-agent-policy-profile.schema.v0.json'));
    expect(contract.request_schema).toBe(schemaUrl('wallet-agent-policy-check.schema.v0.json'));
    expect(contract.verdict_schema).toBe(schemaUrl('wallet-agent-policy-verdict.schema.v0.json'));
    expect(contract.template).toBe(siteUrl('/agent-economy/wallet-agent-policy-profile.template.v0.json'));
    expect(contract.check_api).toEqual({ method: 'POST', url: siteUrl('/api/agent-economy/wallet-agent/policy-check'), content_type: 'application/json' });
    expect(policyCheckRequestSchema.parse(contract.example_request)).toEqual(examplePolicyCheckRequest);
    expect(contract.strict_contract).toMatchObject({
      unknown_keys: 'rejected',
      invalid_request: { status: 400, code: 'invalid_request' },
      money: 'exact_integer_nanoerg',
      default_decision: 'deny',
      deterministic: true,
      allowed_networks: ['testnet'],
      signs_transactions: false,
      broadcasts_transactions: false,
      stores_private_keys: false,
      grants_wallet_authority: false,
    });
    expect(new RegExp(contract.strict_contract.decimal_pattern).test('0.050000000')).toBe(true);
    expect(new RegExp(contract.strict_contract.decimal_pattern).test('0.05')).toBe(false);
  });

  it('shows the verdict the engine computes for the example request, which allows it', () => {
    const contract = body();
    expect(contract.example_verdict).toEqual(examplePolicyVerdict());
    expect(contract.example_verdict).toMatchObject({
      allowed: true,
      ok: true,
      summary: 'policy_allows_exact_testnet_action',
      reasons: [],
      checked_at: '2026-11-23T00:00:00.000Z',
    });
    const recomputed = checkPolicy(contract.example_request as PolicyCheckRequest, new Date(contract.example_verdict.checked_at));
    expect(recomputed).toEqual(contract.example_verdict);
    expect(body()).toEqual(contract);
  });

  it('binds the example to a reproducible task hash', () => {
    const contract = body();
    expect(contract.example_task.canonical_json).toBe(
      '{"kind":"assistant_premium_turn","network":"testnet","question":"Which checks does the wallet-agent policy check run before a host wallet signs a transaction?"}',
    );
    expect(contract.example_request.proposed_action.task_hash).toBe(contract.example_task.task_hash);
  });

  it('lists every reason and warning code with its meaning, and every check in order', () => {
    const contract = body();
    expect(contract.reason_codes.map((entry: { code: string }) => entry.code)).toEqual(POLICY_REASON_CODES.map((entry) => entry.code));
    expect(contract.warning_codes.map((entry: { code: string }) => entry.code)).toEqual(POLICY_WARNING_CODES.map((entry) => entry.code));
    for (const entry of [...contract.reason_codes, ...contract.warning_codes]) {
      expect(entry.meaning.length, entry.code).toBeGreaterThan(20);
      expect(entry.field, entry.code).toMatch(/^\/(profile|proposed_action)\//);
    }
    expect(contract.checks.map((entry: { check: string }) => entry.check)).toEqual([...POLICY_CHECKS]);
    expect(contract.checks.flatMap((entry: { reason_codes: string[] }) => entry.reason_codes)).toEqual(POLICY_REASON_CODES.map((entry) => entry.code));
    expect(contract.rules.join(' ')).toMatch(/never signs, broadcasts or stores keys/);
  });

  it('publishes an example request that validates against the published request schema', () => {
    const check = routeById().get('policy-check') as DynamicRoute;
    const contract = body();
    expectValidAgainstPublished(check.request!, contract.example_request);
    expectValidAgainstPublished(check.responses[200]!.schema!, contract.example_verdict);
  });
});

describe('GET /api/agent-economy/wallet-agent/reference-flow', () => {
  it('has steps, security boundaries and stop conditions covering every stage', () => {
    const flow = build('reference-flow');
    expect(flow.type).toBe(typeName('agent_economy.wallet_agent_reference_flow.v0'));
    for (const stage of REFERENCE_FLOW_STAGES) {
      expect(flow.stop_conditions.some((condition: { stage: string }) => condition.stage === stage), stage).toBe(true);
      expect(flow.steps.some((step: { stage: string }) => step.stage === stage), stage).toBe(true);
      expect(flow.security_boundaries.some((boundary: { stage: string }) => boundary.stage === stage), stage).toBe(true);
    }
    expect(flow.steps.map((step: { order: number }) => step.order)).toEqual(flow.steps.map((_: unknown, index: number) => index + 1));
    const checkStep = flow.steps.find((step: { id: string }) => step.id === 'check-policy');
    expect(checkStep).toMatchObject({ method: 'POST', endpoint: siteUrl('/api/agent-economy/wallet-agent/policy-check') });
    const signers = flow.steps.filter((step: { policy_action?: string }) => step.policy_action === 'sign_specific_transaction' || step.policy_action === 'broadcast_simulated_transaction');
    expect(signers.filter((step: { actor: string }) => step.actor !== 'host_wallet').map((step: { id: string }) => step.id)).toEqual(['check-policy']);
    expect(flow.steps.filter((step: { id: string }) => step.id === 'sign-transaction' || step.id === 'broadcast-transaction').every((step: { endpoint?: string }) => step.endpoint === undefined)).toBe(true);
    expect(flow.links.profile_template).toBe(siteUrl('/agent-economy/wallet-agent-policy-profile.template.v0.json'));
  });
});

describe('GET the policy profile template', () => {
  it('is a valid profile that allows the example action', () => {
    const template = build('policy-profile-template');
    expect(walletAgentPolicyProfileSchema.parse(template)).toEqual(examplePolicyCheckRequest.profile);
    expect(template).toMatchObject({ type: `${site.namespace}.agent_economy.wallet_agent_policy_profile.v0`, version: 'v0', network: 'testnet' });
    expect(checkPolicy({ profile: walletAgentPolicyProfileSchema.parse(template), proposed_action: examplePolicyCheckRequest.proposed_action }, new Date()).allowed).toBe(true);
  });
});

describe('POST /api/agent-economy/wallet-agent/policy-check handler', () => {
  const post = (body: unknown): ApiRequest => ({
    method: 'POST',
    path: '/api/agent-economy/wallet-agent/policy-check',
    params: {},
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json' },
    body,
    clientIp: '127.0.0.1',
  });

  it('answers 200 with a verdict that parses with the verdict schema', async () => {
    const before = Date.now();
    const response = await handlePolicyCheck(post(structuredClone(examplePolicyCheckRequest)));
    expect(response.status).toBe(200);
    const verdict = policyVerdictSchema.parse(response.body);
    expect(verdict.allowed).toBe(true);
    expect(Date.parse(verdict.checked_at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(verdict.checked_at)).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('answers 200 with a denial carrying the reason for an unsafe request', async () => {
    const request = structuredClone(examplePolicyCheckRequest) as PolicyCheckRequest;
    request.proposed_action.recipient = '3WxTzV4MNKeeX2MHFVPXsugKUNrMrto5DeCMctSEW8e2UATdZ99G';
    const response = await handlePolicyCheck(post(request));
    expect(response.status).toBe(200);
    const verdict = policyVerdictSchema.parse(response.body);
    expect(verdict).toMatchObject({ allowed: false, ok: false, summary: 'policy_denies_action' });
    expect(verdict.reasons.map((reason) => reason.code)).toEqual(['recipient_not_allowed']);
  });
});
