/**
 * Every published schema document, collected from the route catalogue (static bodies, request bodies
 * and response bodies), keyed by file name. Two routes may share one schema; two different zod
 * schemas under one file name is an error.
 */
import { catalogue } from './index.ts';
import type { PublishedSchema } from './types.ts';

let cached: PublishedSchema[] | undefined;

export function publishedSchemas(): PublishedSchema[] {
  if (cached) return cached;
  const byFile = new Map<string, PublishedSchema>();
  const add = (published: PublishedSchema | undefined) => {
    if (!published) return;
    const existing = byFile.get(published.file);
    if (existing && (existing.schema !== published.schema || existing.io !== published.io)) {
      throw new Error(`published schema ${published.file} is declared twice with different definitions`);
    }
    const sameName = [...byFile.values()].find((p) => p.name === published.name && p.file !== published.file);
    if (sameName) throw new Error(`published schema name ${published.name} used by ${sameName.file} and ${published.file}`);
    byFile.set(published.file, published);
  };
  for (const route of catalogue()) {
    if (route.kind === 'static') add(route.schema);
    else {
      add(route.request);
      for (const response of Object.values(route.responses)) add(response.schema);
    }
  }
  cached = [...byFile.values()].sort((a, b) => a.file.localeCompare(b.file));
  return cached;
}
