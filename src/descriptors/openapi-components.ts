/**
 * The components of an OpenAPI description: each published schema its operations name, and each
 * shape those schemas share, registered once and referenced with `$ref` wherever it recurs (the
 * posture, dates and their leap-year pattern, findings, links, quotes, results). A shared shape is
 * a zod schema that schemas/ exports and that two or more schemas contain; its component is named
 * by its export (`postureSchema` -> `Posture`). zod's registry conversion writes the references.
 *
 * Requests are rendered as input (`io: 'input'`) and without `default` keywords, responses as
 * output; a shape whose two renderings differ gets a second component, suffixed `Input`.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import * as schemaModules from '../../schemas/index.ts';
import { problemSchema } from '../../schemas/problem.ts';
import type { PublishedSchema } from '../catalogue/types.ts';

type Io = 'input' | 'output';
type JsonSchema = Record<string, unknown>;

export const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const PROBLEM = 'Problem';
const PROBLEM_TITLE = 'Problem details (RFC 9457)';
const INPUT_SUFFIX = 'Input';
const OUTPUT_SUFFIX = 'Output';

/** Each zod schema schemas/ exports, with the component name its export gives it. */
function exportedShapes(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  const owners = new Map<string, z.ZodType>();
  for (const module of Object.values(schemaModules)) {
    for (const [exportName, value] of Object.entries(module)) {
      if (!(value instanceof z.ZodType) || names.has(value)) continue;
      const base = exportName.replace(/Schema$/, '');
      const name = base[0]!.toUpperCase() + base.slice(1);
      if (owners.has(name)) throw new Error(`OpenAPI components: two shapes of schemas/ would both be named ${name}`);
      owners.set(name, value);
      names.set(value, name);
    }
  }
  return names;
}

/**
 * The fields of the exported object shapes, each named after its owner and its name
 * (`probeSchema.status` -> `ProbeStatus`): an object extended into several (the probes, a
 * manifest and its registry entry) shares its fields' schemas with each of them, and such a field
 * is a shape like any other. Its owner is the object it came from: of those that have it, the one
 * with the fewest fields (the base of an extension). A field that is an exported shape (or a
 * described copy of one) keeps that shape's name. A derived name that an export has, that two
 * fields would get, or that ends like a request or response rendering's name is not used.
 */
export function fieldShapes(named: ReadonlyMap<z.ZodType, string>): Map<z.ZodType, string> {
  const isNamed = (schema: z.ZodType) => {
    for (let shape: z.ZodType | undefined = schema; shape; shape = shape._zod.parent as z.ZodType | undefined) if (named.has(shape)) return true;
    return false;
  };
  const owners = new Map<z.ZodType, { name: string; fields: number }>();
  for (const [owner, ownerName] of named) {
    const shape = (owner._zod.def as { shape?: Record<string, unknown> }).shape;
    if (!shape || typeof shape !== 'object') continue;
    const fields = Object.keys(shape).length;
    for (const [field, schema] of Object.entries(shape)) {
      if (!(schema instanceof z.ZodType) || isNamed(schema)) continue;
      const name = ownerName + field.replace(/(?:^|[_-])([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
      const known = owners.get(schema);
      if (!known || fields < known.fields || (fields === known.fields && name < known.name)) owners.set(schema, { name, fields });
    }
  }
  // A derived name is given to one field only, is no export's, and does not end as the name of a
  // shape's request or response rendering does.
  const exportNames = new Set(named.values());
  const derived = new Map<string, number>();
  for (const { name } of owners.values()) derived.set(name, (derived.get(name) ?? 0) + 1);
  const usable = (name: string) => !exportNames.has(name) && derived.get(name) === 1 && !name.endsWith(INPUT_SUFFIX) && !name.endsWith(OUTPUT_SUFFIX);
  return new Map([...owners].filter(([, { name }]) => usable(name)).map(([schema, { name }]) => [schema, name]));
}

/** The schemas a zod schema is built of, one level down (object fields, items, options, wrapped types). */
function childrenOf(schema: z.ZodType): Set<z.ZodType> {
  const children = new Set<z.ZodType>();
  const visit = (value: unknown, depth: number) => {
    if (value instanceof z.ZodType) children.add(value);
    else if (depth < 2 && value !== null && typeof value === 'object') for (const item of Object.values(value)) visit(item, depth + 1);
  };
  for (const value of Object.values(schema._zod.def)) visit(value, 0);
  return children;
}

/** Every schema reachable from `roots`, with how many distinct schemas contain it. */
function containment(roots: readonly z.ZodType[]): Map<z.ZodType, number> {
  const parents = new Map<z.ZodType, number>();
  const seen = new Set<z.ZodType>();
  const queue = [...roots];
  while (queue.length) {
    const schema = queue.pop()!;
    if (seen.has(schema)) continue;
    seen.add(schema);
    for (const child of childrenOf(schema)) {
      // A described copy (`shape.describe(...)`) is the shape with another description: zod refers to the shape it came from.
      for (let shape: z.ZodType | undefined = child; shape; shape = shape._zod.parent as z.ZodType | undefined) parents.set(shape, (parents.get(shape) ?? 0) + 1);
      queue.push(child);
    }
  }
  for (const root of roots) parents.set(root, parents.get(root) ?? 0);
  return parents;
}

/** Keywords whose value is a map of names to subschemas: the names are not keywords. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, left exactly as it is. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'examples', 'example']);

/** Each schema object of `schema` (subschemas included, data keywords left alone) passed through `edit`. */
function everySchema(schema: unknown, edit: (node: JsonSchema) => JsonSchema): unknown {
  if (Array.isArray(schema)) return schema.map((item) => everySchema(item, edit));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(edit(schema as JsonSchema))) {
    if (DATA_KEYWORDS.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, everySchema(sub, edit)]));
    else out[key] = everySchema(value, edit);
  }
  return out;
}

/**
 * A request schema without `default` keywords. A field with a default is one the client may leave
 * out, and that is how a request schema must read; but generators (openapi-typescript with its
 * default options among them) type any field that has a default as always present. The default
 * stays in each field's description; the published JSON Schema documents keep the keyword.
 */
const withoutDefault = ({ default: _default, ...node }: JsonSchema): JsonSchema => node;

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);
const ofType = (type: unknown, value: unknown) => type === jsonType(value) || (type === 'number' && typeof value === 'number');

/** Without a `type` that its `const` or `enum` already implies: the same schema, shorter. */
function withoutImpliedType(node: JsonSchema): JsonSchema {
  const { type, ...rest } = node;
  const values = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  return typeof type === 'string' && values && values.every((value) => ofType(type, value)) ? rest : node;
}

/** One rendering (input or output) of `roots` and of the shared shapes they reach, each shared one under `name + suffix`. */
function render(io: Io, roots: ReadonlyArray<readonly [string, z.ZodType]>, shared: ReadonlyMap<z.ZodType, string>, suffix: string): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of roots) registry.add(schema, { id: name });
  const reached = containment(roots.map(([, schema]) => schema));
  for (const [schema, name] of shared) if (reached.has(schema) && !registry.has(schema)) registry.add(schema, { id: name + suffix });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, unrepresentable: 'throw', uri: (id) => componentRef(id).$ref });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _dialect, $id: _id, ...schema }]) => [
      name,
      everySchema(schema, io === 'input' ? (node) => withoutImpliedType(withoutDefault(node)) : withoutImpliedType) as JsonSchema,
    ]),
  );
}

const renamed = (value: unknown, names: ReadonlyMap<string, string>): unknown =>
  JSON.parse(JSON.stringify(value), (key, item) => (key === '$ref' && typeof item === 'string' && names.has(item) ? names.get(item) : item));

/** The components for operations that name `used` (published schema names, and `Problem` for the shared problem body). */
export function openApiComponents(used: ReadonlySet<string>, published: readonly PublishedSchema[]): Record<string, JsonSchema> {
  const roots = published.filter((schema) => used.has(schema.name));
  const outputRoots = [
    ...roots.filter((schema) => schema.io === 'output').map((schema) => [schema.name, schema.schema] as const),
    ...(used.has(PROBLEM) ? [[PROBLEM, problemSchema] as const] : []),
  ];
  const inputRoots = roots.filter((schema) => schema.io === 'input').map((schema) => [schema.name, schema.schema] as const);
  const rootSchemas = new Set<z.ZodType>([...outputRoots, ...inputRoots].map(([, schema]) => schema));

  const contained = containment([...rootSchemas]);
  const exported = exportedShapes();
  const shared = new Map([...exported, ...fieldShapes(exported)].filter(([schema]) => !rootSchemas.has(schema) && (contained.get(schema) ?? 0) >= 2));

  // Each rendering also names the other's roots where it contains them (a profile inside a response, a manifest inside a request).
  const outputs = render('output', outputRoots, new Map([...shared, ...inputRoots.map(([name, schema]) => [schema, name + OUTPUT_SUFFIX] as const)]), '');
  const inputs = render('input', inputRoots, new Map([...shared, ...outputRoots.map(([name, schema]) => [schema, name] as const)]), INPUT_SUFFIX);

  // A shape rendered the same way for requests and responses is one component: each pair merged (alias -> canonical) while one still can be.
  const pairs: Array<readonly [alias: string, canonical: string]> = [
    ...Object.keys(inputs).filter((name) => name.endsWith(INPUT_SUFFIX) && outputs[name.slice(0, -INPUT_SUFFIX.length)]).map((name) => [name, name.slice(0, -INPUT_SUFFIX.length)] as const),
    ...Object.keys(outputs).filter((name) => name.endsWith(OUTPUT_SUFFIX) && inputs[name.slice(0, -OUTPUT_SUFFIX.length)]).map((name) => [name, name.slice(0, -OUTPUT_SUFFIX.length)] as const),
  ];
  const schemaOf = (name: string) => inputs[name] ?? outputs[name];
  let merged = new Map<string, string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [alias, canonical] of pairs) {
      const aliasRef = componentRef(alias).$ref;
      if (merged.has(aliasRef)) continue;
      const candidate = new Map(merged).set(aliasRef, componentRef(canonical).$ref);
      if (isDeepStrictEqual(renamed(schemaOf(alias), candidate), renamed(schemaOf(canonical), candidate))) {
        merged = candidate;
        changed = true;
      }
    }
  }

  const titles = new Map<string, string>([...roots.map((schema) => [schema.name, schema.title] as const), [PROBLEM, PROBLEM_TITLE]]);
  const order = (name: string) => (titles.has(name) ? (name === PROBLEM ? roots.length : roots.findIndex((schema) => schema.name === name)) : roots.length + 1);
  const kept = Object.entries({ ...outputs, ...inputs })
    .filter(([name]) => !merged.has(componentRef(name).$ref))
    .toSorted(([a], [b]) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0));
  const components = Object.fromEntries(kept.map(([name, schema]) => [name, { ...(titles.has(name) ? { title: titles.get(name) } : {}), ...(renamed(schema, merged) as JsonSchema) }]));
  return inlinedWhereNoLarger(components, new Set(titles.keys()));
}

/**
 * A component that is not a root is written where it is used wherever that makes the document no
 * larger: at a use that carries its own description (a URL or a digest format described for its
 * field, where the reference would only add its `$ref`), and everywhere when it is referenced once
 * or when its entry costs more than the references it saves. Other uses keep the reference.
 */
export function inlinedWhereNoLarger(components: Record<string, JsonSchema>, roots: ReadonlySet<string>): Record<string, JsonSchema> {
  const uses = new Map<string, JsonSchema[]>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(collect);
    if (value === null || typeof value !== 'object') return;
    const { $ref } = value as JsonSchema;
    if (typeof $ref === 'string') {
      const sites = uses.get($ref);
      if (sites) sites.push(value as JsonSchema);
      else uses.set($ref, [value as JsonSchema]);
    }
    Object.values(value).forEach(collect);
  };
  collect(components);
  const size = (value: unknown) => JSON.stringify(value).length;
  const written = (name: string, { $ref: _ref, ...siblings }: JsonSchema) => ({ ...components[name], ...siblings });
  /** The uses written out, and the components no use refers to any more. */
  const inlineSites = new Set<JsonSchema>();
  const dropped = new Set<string>();
  for (const name of Object.keys(components)) {
    if (roots.has(name)) continue;
    const sites = uses.get(componentRef(name).$ref) ?? [];
    if (sites.length === 0) continue;
    const growth = (site: JsonSchema) => size(written(name, site)) - size(site);
    const referenced = sites.length === 1 ? [] : sites.filter((site) => growth(site) > 0);
    // The component's entry (`"Name":{...},`) against what writing out its remaining uses would add.
    const entry = size(name) + size(components[name]) + 2;
    const keep = referenced.length > 0 && referenced.reduce((sum, site) => sum + growth(site), 0) > entry;
    for (const site of sites) if (!keep || !referenced.includes(site)) inlineSites.add(site);
    if (!keep) dropped.add(name);
  }
  if (inlineSites.size === 0) return components;
  const nameOf = new Map(Object.keys(components).map((name) => [componentRef(name).$ref, name]));
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (value === null || typeof value !== 'object') return value;
    const { $ref } = value as JsonSchema;
    const name = typeof $ref === 'string' ? nameOf.get($ref) : undefined;
    // A use decided on, or a reference in a copy written out elsewhere to a component that is gone.
    if (name && (inlineSites.has(value as JsonSchema) || dropped.has(name))) return inline(written(name, value as JsonSchema));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inline(item)]));
  };
  return Object.fromEntries(Object.entries(components).filter(([name]) => !dropped.has(name)).map(([name, schema]) => [name, inline(schema) as JsonSchema]));
}
