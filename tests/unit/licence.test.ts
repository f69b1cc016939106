/**
 * The project is MIT-licensed (issue 37: the owner's choice), and says so wherever an integrator's
 * tool looks: a LICENSE file, `license` in every package.json, and `info.license` (an SPDX
 * identifier) in both OpenAPI documents.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildMcpHostOpenApiDocument, buildOpenApiDocument } from '../../src/descriptors/openapi.ts';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('the licence', () => {
  it('is the MIT licence, in LICENSE', () => {
    const text = read('LICENSE');
    expect(text.split('\n')[0]).toBe('MIT License');
    expect(text).toContain('Permission is hereby granted, free of charge, to any person obtaining a copy');
    expect(text).toMatch(/^Copyright \(c\) \d{4} \S.*$/m);
  });

  it('is named MIT by every package.json, the packages included', () => {
    const manifests = ['package.json', ...readdirSync(new URL('packages/', root)).map((name) => `packages/${name}/package.json`)];
    expect(manifests.length).toBeGreaterThan(1);
    for (const path of manifests) expect((JSON.parse(read(path)) as { license?: string }).license, path).toBe('MIT');
  });

  it('is in both OpenAPI documents as an SPDX identifier', () => {
    for (const document of [buildOpenApiDocument(), buildMcpHostOpenApiDocument({ maxSessions: 1, maxSessionsPerClient: 1 })]) {
      expect(document.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    }
  });
});
