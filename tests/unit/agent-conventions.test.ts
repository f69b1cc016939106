/**
 * llms.txt, llms-full.txt and the A2A agent card are derived from the route table and the
 * manifests: they name every surface, say the posture, and the card validates against its schema.
 * The request examples of the API reference are the endpoints' own and pass their request schemas.
 */
import { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
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
    expect(card).toMatchObject({ preferredTransport: 'JSONRPC', url: `${site.base_url}/a2a` });
    expect(card.supportedInterfaces.map((entry) => [entry.protocolBinding, entry.protocolVersion, entry.url])).toEqual([
      ['JSONRPC', '1.0', `${site.base_url}/a2a`],
      ['JSONRPC', '0.3', `${site.base_url}/a2a`],
    ]);
    expect(allRoutes().find((route) => route.path === '/a2a')).toMatchObject({ method: 'POST', protocol: 'json-rpc' });
    // The A2A endpoint works without the OpenAPI extension, so no extension is required.
    expect(card.capabilities.extensions.map((extension) => [extension.uri, extension.required])).toContainEqual([`${site.base_url}/agent-economy/openapi.v0.json`, false]);
    expect(card.capabilities.extensions.every((extension) => !extension.required)).toBe(true);
  });

  it('is an AgentCard of @a2a-js/sdk as it is: the type takes it (npm run check), and the SDK reads every field of it back', () => {
    const typed: SdkAgentCard = card;
    const json = JSON.parse(JSON.stringify(typed)) as Record<string, unknown>;
    const read = SdkAgentCard.toJSON(SdkAgentCard.fromJSON(json)) as Record<string, unknown>;
    // The fields A2A 1.0 defines come back unchanged (empty lists and maps included); the 0.3 ones it does not know are dropped.
    // Empty strings and lists are proto3 defaults, which the SDK's JSON leaves out.
    expect(read.supportedInterfaces).toEqual(card.supportedInterfaces.map(({ tenant, ...entry }) => ({ ...entry, ...(tenant ? { tenant } : {}) })));
    for (const field of ['name', 'description', 'provider', 'version', 'documentationUrl', 'defaultInputModes', 'defaultOutputModes']) expect(read[field], field).toEqual(json[field]);
    expect(read.skills).toEqual(card.skills.map(({ securityRequirements, ...skill }) => ({ ...skill, ...(securityRequirements.length ? { securityRequirements } : {}) })));
    expect((read.capabilities as { extensions: unknown[] }).extensions).toEqual(card.capabilities.extensions.map(({ uri, description }) => expect.objectContaining({ uri, description })));
    expect(read).not.toHaveProperty('signatures');
    expect(card).toMatchObject({ securitySchemes: {}, securityRequirements: [], signatures: [] });
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
