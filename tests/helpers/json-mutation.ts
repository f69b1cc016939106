/**
 * Random changes to a JSON example, for property tests that throw near-valid bodies at a schema or
 * a route: one value replaced, removed, or given a new sibling key.
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON value of any shape whose strings may hold any UTF-16 code unit, lone surrogates included. */
export const anyJson = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' });

/** Arguments of `mutate`, drawn by fast-check. */
export const mutation = fc.tuple(fc.nat(), fc.constantFrom('replace' as const, 'remove' as const, 'add' as const), anyJson, fc.string({ unit: 'binary', maxLength: 8 }));

/** Every path into `value`, the root included. */
function pathsOf(value: Json, path: Array<string | number> = []): Array<Array<string | number>> {
  const children = Array.isArray(value) ? value.map((item, index) => pathsOf(item, [...path, index])) : value && typeof value === 'object' ? Object.entries(value).map(([key, item]) => pathsOf(item, [...path, key])) : [];
  return [path, ...children.flat()];
}

/** `example` with the value at one of its paths replaced, removed, or given a new sibling key. */
export function mutate(example: Json, pick: number, operation: 'replace' | 'remove' | 'add', value: Json, key: string): Json {
  const copy = structuredClone(example);
  const paths = pathsOf(copy);
  const path = paths[pick % paths.length]!;
  if (path.length === 0) return operation === 'replace' ? value : copy;
  const parent = path.slice(0, -1).reduce<any>((node, part) => node[part], copy);
  const last = path[path.length - 1]!;
  if (operation === 'replace') parent[last] = value;
  else if (operation === 'remove') Array.isArray(parent) ? parent.splice(Number(last), 1) : delete parent[last];
  else if (!Array.isArray(parent)) parent[key] = value;
  return copy;
}
