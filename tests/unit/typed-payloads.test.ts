/**
 * Spec 9.2: every typed payload carries a `type` ending in `.v0` (`.v1` for the developer services
 * index) and a `version` field with value `v0`. Walks every response schema of the route table.
 */
import { describe, expect, it } from 'vitest';
import { toJsonSchemaDocument } from '../../src/catalogue/published.ts';
import { allRoutes } from '../../src/routes/table.ts';
import type { PublishedSchema } from '../../src/catalogue/types.ts';

interface JsonSchemaObject {
  properties?: Record<string, { const?: unknown; anyOf?: unknown[] }>;
  required?: string[];
  anyOf?: JsonSchemaObject[];
  oneOf?: JsonSchemaObject[];
}

/** The object variants of a response schema (a union answers one of several typed payloads). */
function variants(schema: JsonSchemaObject): JsonSchemaObject[] {
  const alternatives = schema.anyOf ?? schema.oneOf;
  return alternatives ? alternatives.flatMap(variants) : [schema];
}

const typedResponses = allRoutes().flatMap((route) => {
  const responses = route.kind === 'dynamic' ? Object.entries(route.responses).filter(([status]) => Number(status) < 300).map(([, response]) => response.schema) : [route.schema];
  return responses
    .filter((schema): schema is PublishedSchema => schema !== undefined)
    .flatMap((schema) => variants(toJsonSchemaDocument(schema) as JsonSchemaObject))
    .filter((variant) => typeof variant.properties?.type?.const === 'string')
    .map((variant) => [`${route.id}: ${String(variant.properties!.type!.const)}`, variant] as const);
});

describe('typed payloads', () => {
  it('are found in the route table', () => {
    expect(typedResponses.length).toBeGreaterThan(30);
  });

  it.each(typedResponses)('%s carries version v0', (_name, variant) => {
    expect(variant.properties?.version?.const).toBe('v0');
    expect(variant.required).toContain('version');
  });
});
