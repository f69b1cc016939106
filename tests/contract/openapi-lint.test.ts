/**
 * The OpenAPI document as an integrator's tooling sees it: Redocly's recommended rules (redocly.yaml,
 * where a rule is turned off only with the reason beside it) find no error and no warning in the
 * built `/agent-economy/openapi.v0.json`; every POST operation carries a request example its own
 * request schema accepts; every operation is explicitly public (the A2A endpoint's optional owner
 * credential is offered beside none) and names a 4xx answer.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryById } from '../../src/catalogue/index.ts';
import { DIST_DIR, ROOT } from '../helpers/built-server.ts';
import { requestBodyOf } from '../helpers/openapi-components.ts';

const source = readFileSync(join(DIST_DIR, 'client/agent-economy/openapi.v0.json'), 'utf8');
const document = JSON.parse(source) as { paths: Record<string, Record<string, any>>; components: { securitySchemes?: Record<string, unknown> } };
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post'].includes(method))
    .map(([method, operation]) => ({ path, method, operation })),
);

describe('OpenAPI document', () => {
  it('passes Redocly\'s recommended lint with no error and no warning', async () => {
    const config = await createConfig(readFileSync(join(ROOT, 'redocly.yaml'), 'utf8'), { configPath: join(ROOT, 'redocly.yaml') });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.v0.json', config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? ''}`)).toEqual([]);
  }, 60_000);

  it('gives every POST operation a request example that its request schema accepts', () => {
    const posts = operations.filter(({ method }) => method === 'post');
    expect(posts.length).toBeGreaterThanOrEqual(9);
    for (const { path, operation } of posts) {
      const examples = requestBodyOf(document, operation)?.content?.['application/json']?.examples;
      expect(examples, path).toBeDefined();
      const route = entryById().get(operation.operationId.replace(/[A-Z]/g, (c: string) => `-${c.toLowerCase()}`));
      expect(route?.kind === 'dynamic' && route.request, path).toBeTruthy();
      for (const example of Object.values(examples!)) {
        expect(example.summary.length, path).toBeGreaterThan(0);
        if (route?.kind === 'dynamic' && route.request) expect(route.request.schema.safeParse(example.value).success, path).toBe(true);
      }
    }
  });

  it('declares every operation public (an optional credential only beside none) and names a 4xx answer on each', () => {
    const schemes = document.components.securitySchemes ?? {};
    for (const { path, method, operation } of operations) {
      const [anonymous, ...optional] = operation.security as Array<Record<string, string[]>>;
      if (anonymous !== undefined) expect(anonymous, `${method} ${path}: no credential is one of the alternatives`).toEqual({});
      for (const requirement of optional) for (const name of Object.keys(requirement)) expect(schemes, `${method} ${path}`).toHaveProperty(name);
      expect(Object.keys(operation.responses).some((status) => status.startsWith('4')), `${method} ${path}`).toBe(true);
    }
  });
});
