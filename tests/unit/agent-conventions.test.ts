/**
 * llms.txt, llms-full.txt and the A2A agent card are derived from the route table and the
 * manifests: they name every surface, say the posture, and the card validates against its schema.
 * The request examples of the API reference are the endpoints' own and pass their request schemas.
 */
import { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { describe, expect, it } from 'vitest';
import { agentCardSchema } from '../../schemas/agent-card.ts';
import { site } from '../../src/config/site.ts';
import { buildAgentCard, buildLlmsFullTxt, buildLlmsTxt } from '../../src/descriptors/agent-conventions.ts';
import { buildCapabilityManifest } from '../../src/descriptors/discovery.ts';
import { requestExample } from '../../src/descriptors/request-examples.ts';
import { examplePolicyCheckRequest } from '../../src/domain/policy-examples.ts';
import { allRoutes } from '../../src/routes/table.ts';
import { templatePath } from '../../src/catalogue/lookup.ts';

describe('llms.txt', () => {
  const text = buildLlmsTxt();

  it('follows the llmstxt.org shape: title, summary quote, sections of links', () => {
    expect(text.split('\n')[0]).toBe(`# ${site.name}`);
    expect(text.split('\n')[2]).toBe(`> ${site.description}`);
    expect(text).toMatch(/^## Start here$/m);
    expect(text).toMatch(/^## Optional$/m);
    for (const line of text.split('\n').filter((l) => l.startsWith('- ['))) expect(line).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)\s]+\)/);
  });

  it('says the posture and links every human page of the route table', () => {
    expect(text).toContain('Ergo testnet only');
    expect(text).toContain('mainnet gate is closed');
    for (const page of new Set(allRoutes().flatMap((route) => (route.page ? [route.page] : []))))
      expect(text).toContain(`(${site.base_url}${page})`);
  });

  it('llms-full.txt adds every endpoint with a command', () => {
    const full = buildLlmsFullTxt();
    expect(full.startsWith(text)).toBe(true);
    for (const route of allRoutes()) expect(full).toContain(`### ${route.method} ${templatePath(route.path)}\n`);
    expect(full).toContain(JSON.stringify(examplePolicyCheckRequest));
  });
});

describe('A2A agent card', () => {
  const card = buildAgentCard();

  it('validates against its published schema', () => {
    expect(agentCardSchema.safeParse(card).success).toBe(true);
  });

  it('has one skill per capability, each naming the endpoints that deliver it', () => {
    const manifest = buildCapabilityManifest();
    expect(card.skills.map((skill) => skill.id)).toEqual(manifest.capabilities.map((capability) => capability.id));
    for (const [index, skill] of card.skills.entries()) {
      expect(skill.examples).toHaveLength(manifest.capabilities[index]!.endpoints.length);
      expect(skill.description).toContain('Never signs');
    }
  });

  it('names the A2A endpoint it serves (JSON-RPC, A2A 1.0 and 0.3) and the OpenAPI document for everything else', () => {
    expect(card.supportedInterfaces.map((entry) => [entry.protocolBinding, entry.protocolVersion, entry.url])).toEqual([
      ['JSONRPC', '1.0', `${site.base_url}/a2a`],
      ['JSONRPC', '0.3', `${site.base_url}/a2a`],
    ]);
    // What an A2A 0.3 client reads to find the endpoint, Major.Minor as A2A 1.0 writes versions in a card.
    expect(card).toMatchObject({ protocolVersion: '0.3', preferredTransport: 'JSONRPC', url: `${site.base_url}/a2a` });
    expect(allRoutes().find((route) => route.path === '/a2a')).toMatchObject({ method: 'POST', protocol: 'json-rpc' });
    // The A2A endpoint works without the OpenAPI extension, so no extension is required.
    expect(card.capabilities.extensions.map((extension) => [extension.uri, extension.required])).toContainEqual([`${site.base_url}/agent-economy/openapi.v0.json`, false]);
    expect(card.capabilities.extensions.every((extension) => !extension.required)).toBe(true);
  });

  it('has A2A 1.0\'s shape: every field it carries is one the SDK\'s AgentCard reads back unchanged, but what 0.3 clients need', () => {
    const json = JSON.parse(JSON.stringify(card)) as Record<string, unknown>;
    const read = SdkAgentCard.toJSON(SdkAgentCard.fromJSON(json)) as Record<string, any>;
    // ProtoJSON leaves out proto3 defaults (empty strings, lists and maps, false), which the card
    // writes out: both sides are compared without them. A field the SDK does not know would be missing.
    const withoutDefaults = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(withoutDefaults);
      if (!value || typeof value !== 'object') return value;
      const kept = Object.entries(value).map(([key, item]) => [key, withoutDefaults(item)] as const);
      const isDefault = (item: unknown) => item === '' || item === false || (Array.isArray(item) && item.length === 0) || (item !== null && typeof item === 'object' && Object.keys(item).length === 0);
      return Object.fromEntries(kept.filter(([, item]) => !isDefault(item)));
    };
    const { protocolVersion, url, preferredTransport, securitySchemes, ...v1 } = json as Record<string, any>;
    expect([protocolVersion, url, preferredTransport]).toEqual(['0.3', `${site.base_url}/a2a`, 'JSONRPC']);
    // The scheme's 0.3 form beside its 1.0 one: `type` and its members.
    const { type, scheme, bearerFormat, description, ...owner1_0 } = securitySchemes.a2aTaskOwner;
    expect({ type, scheme, bearerFormat, description }).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: owner1_0.httpAuthSecurityScheme.bearerFormat, description: owner1_0.httpAuthSecurityScheme.description });
    expect(withoutDefaults(read)).toEqual(withoutDefaults({ ...v1, securitySchemes: { a2aTaskOwner: owner1_0 } }));
    // The 0.3 fields 1.0 moved are gone, not carried in their old place beside the new one.
    expect(json).not.toHaveProperty('supportsAuthenticatedExtendedCard');
    expect(json.capabilities).not.toHaveProperty('stateTransitionHistory');
    expect(card.capabilities.extendedAgentCard).toBe(false);
  });

  it('declares the task owner credential as an HTTP bearer scheme, optional: one alternative needs no credential', () => {
    const sdkCard = SdkAgentCard.fromJSON(JSON.parse(JSON.stringify(card)));
    expect(sdkCard.securitySchemes.a2aTaskOwner?.scheme).toMatchObject({ $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer' } });
    const described = (sdkCard.securitySchemes.a2aTaskOwner?.scheme?.value as { description: string }).description;
    for (const operation of ['SendMessage', 'CancelTask', 'ListTasks', 'payment-rejected', 'only its hash is kept', 'nobody\'s']) expect(described).toContain(operation);
    expect(sdkCard.securityRequirements).toEqual([{ schemes: {} }, { schemes: { a2aTaskOwner: { list: [] } } }]);
    // The SDK's 0.3 reader (a card without supportedInterfaces, as 0.3 wrote them) reads the same scheme and the endpoint.
    const { supportedInterfaces: _newer, ...legacy } = JSON.parse(JSON.stringify(card)) as Record<string, unknown>;
    const read0_3 = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }).normalizeAgentCard(legacy);
    expect(read0_3.securitySchemes.a2aTaskOwner?.scheme).toMatchObject({ $case: 'httpAuthSecurityScheme', value: { scheme: 'bearer', description: described } });
    expect(read0_3.supportedInterfaces).toEqual([expect.objectContaining({ url: `${site.base_url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' })]);
    expect(card.skills.every((skill) => skill.securityRequirements.length === 0)).toBe(true);
    expect(card.signatures).toEqual([]);
  });
});

describe('request examples', () => {
  it('every route has a command, and POST bodies pass the route request schema', () => {
    for (const route of allRoutes()) {
      const example = requestExample(route.id);
      expect(example, route.id).toBeDefined();
      if (route.kind !== 'dynamic' || route.method !== 'POST' || !route.request) continue;
      // Commands that need a caller's value (an address, a Note box id) say which in their note.
      if (example!.note) continue;
      const match = /--data-binary '(\{.*\})'$/.exec(example!.command);
      expect(match, route.id).not.toBeNull();
      const body = JSON.parse(match![1]!.replaceAll(`'\\''`, `'`));
      expect(route.request.schema.safeParse(body).success, route.id).toBe(true);
    }
  });

  it('a path parameter is read from a named shell variable', () => {
    const example = requestExample('assistant-receipt')!;
    expect(example.command).toContain('"$RECEIPT_ID"');
    expect(example.command).not.toContain('{id}');
  });

  it('the policy check example is the contract example', () => {
    expect(requestExample('policy-check')!.command).toContain(JSON.stringify(examplePolicyCheckRequest));
  });
});
