/**
 * Imports run one way (docs/architecture.md): schemas and configuration at the bottom, the route
 * catalogue on them, the domain, descriptors and services above, the route table binding handlers,
 * the entries on top. madge, reading the project's tsconfig, finds every import cycle in src/ and
 * schemas/ (dynamic imports included); there must be none.
 */
import madge from 'madge';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('import graph', () => {
  it('has no cycle in src/ and schemas/', async () => {
    const graph = await madge([`${ROOT}src`, `${ROOT}schemas`], { fileExtensions: ['ts'], tsConfig: `${ROOT}tsconfig.json`, baseDir: ROOT });
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(150);
    expect(graph.circular()).toEqual([]);
  }, 60_000);

  it('keeps the catalogue on schemas and configuration, and schemas and configuration on nothing above them', async () => {
    const graph = await madge([`${ROOT}src/catalogue`, `${ROOT}schemas`, `${ROOT}src/config`], { fileExtensions: ['ts'], tsConfig: `${ROOT}tsconfig.json`, baseDir: ROOT });
    const below: Record<string, RegExp> = {
      'src/catalogue/': /^(src\/catalogue\/|src\/config\/|schemas\/|content\/|package\.json$)/,
      'schemas/': /^(src\/config\/|schemas\/|content\/|package\.json$)/,
      'src/config/': /^(src\/config\/|schemas\/|content\/|package\.json$)/,
    };
    const upward = Object.entries(graph.obj()).flatMap(([file, imports]) => {
      const layer = Object.keys(below).find((prefix) => file.startsWith(prefix));
      return layer ? imports.filter((target) => !below[layer]!.test(target)).map((target) => `${file} -> ${target}`) : [];
    });
    expect(upward).toEqual([]);
  }, 60_000);

  it('keeps every layer of src/ off the layers above it', async () => {
    const graph = await madge(`${ROOT}src`, { fileExtensions: ['ts'], tsConfig: `${ROOT}tsconfig.json`, baseDir: ROOT });
    const entries = ['src/server/', 'src/mcp/', 'src/cli/', 'src/pages/', 'src/components/', 'src/integrations/', 'src/sandbox/'];
    const above: Record<string, string[]> = {
      'src/lib/': ['src/domain/', 'src/descriptors/', 'src/services/', 'src/routes/', 'src/build/', ...entries],
      'src/domain/': ['src/descriptors/', 'src/services/', 'src/routes/', 'src/build/', ...entries],
      'src/descriptors/': ['src/services/', 'src/routes/', 'src/build/', ...entries],
      'src/services/': ['src/routes/', 'src/build/', ...entries],
      'src/routes/': ['src/build/', ...entries],
    };
    const upward = Object.entries(graph.obj()).flatMap(([file, imports]) => {
      const layer = Object.keys(above).find((prefix) => file.startsWith(prefix));
      return layer ? imports.filter((target) => above[layer]!.some((prefix) => target.startsWith(prefix))).map((target) => `${file} -> ${target}`) : [];
    });
    expect(upward).toEqual([]);
  }, 60_000);
});
