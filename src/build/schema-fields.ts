/**
 * A JSON Schema (as published in the OpenAPI document) flattened into rows a person can read: one
 * row per field with its dotted path, a short type, whether it is required and its description.
 * Used by the API reference, which is generated from the OpenAPI document and nothing else, and by
 * the assistant's corpus, which says the same request bodies in sentences (data-sentences.ts).
 */

export type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  description?: string;
  title?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
};

export interface FieldRow {
  path: string;
  type: string;
  required: boolean;
  description: string;
}

const SAFE_INTEGER = 9007199254740991;

/** A compact type: `string (uri)`, `"testnet"`, `one of: quote, simulate`, `array of object`, `integer ≥ 1`. */
export function typeOf(schema: JsonSchema): string {
  if (schema.$ref) return `see ${schema.$ref.split('/').pop()}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return `one of: ${schema.enum.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ')}`;
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) return variants.map(typeOf).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  if (type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}${schema.minItems ? `, at least ${schema.minItems}` : ''}`;
  const bounds: string[] = [];
  if (schema.format) bounds.push(schema.format);
  if (schema.pattern) bounds.push(`pattern ${schema.pattern}`);
  if (schema.minLength !== undefined && schema.maxLength !== undefined) bounds.push(`${schema.minLength} to ${schema.maxLength} characters`);
  else if (schema.minLength) bounds.push(`at least ${schema.minLength} characters`);
  if (schema.minimum !== undefined && schema.minimum > -SAFE_INTEGER) bounds.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined && schema.maximum < SAFE_INTEGER) bounds.push(`≤ ${schema.maximum}`);
  return bounds.length ? `${type} (${bounds.join('; ')})` : type;
}

/** Rows for every field down to `maxDepth` levels; arrays of objects continue under `name[]`. */
export function fieldRows(schema: JsonSchema, maxDepth = 3, prefix = '', depth = 0): FieldRow[] {
  const target = schema.type === 'array' && schema.items ? schema.items : schema;
  if (!target.properties || depth >= maxDepth) return [];
  const required = new Set(target.required ?? []);
  return Object.entries(target.properties).flatMap(([name, property]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    const row: FieldRow = { path, type: typeOf(property), required: required.has(name), description: property.description ?? '' };
    const childPrefix = property.type === 'array' ? `${path}[]` : path;
    return [row, ...fieldRows(property, maxDepth, childPrefix, depth + 1)];
  });
}

/** The variants of a schema that is a union of objects (each shown apart), else the schema itself. */
export function variantsOf(schema: JsonSchema): JsonSchema[] {
  const variants = schema.oneOf ?? schema.anyOf;
  return variants && variants.every((variant) => variant.properties) ? variants : [schema];
}

/**
 * The document with every reference to a component written out where it is used (a use-site
 * description kept over the component's), so that a person reads each body whole. A reference to a
 * component already being written out (a recursive shape) stays a reference. The operations' own
 * `content` schemas stay references: they name the body.
 */
export function writtenOut<Document extends { paths: unknown; components: { schemas: Record<string, JsonSchema> } }>(document: Document): Document {
  const components = document.components as unknown as Record<string, Record<string, unknown>>;
  const target = (ref: string) => {
    const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(ref) ?? [];
    return kind && name ? components[kind]?.[name] : undefined;
  };
  const expand = (value: unknown, open: ReadonlySet<string>, keepBodyRef: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => expand(item, open, false));
    if (value === null || typeof value !== 'object') return value;
    const { $ref, ...siblings } = value as Record<string, unknown>;
    if (typeof $ref === 'string' && !keepBodyRef && !open.has($ref) && target($ref)) {
      return expand({ ...(target($ref) as object), ...siblings }, new Set([...open, $ref]), false);
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, open, key === 'schema' && isMediaType(value))]));
  };
  const isMediaType = (value: object) => Object.keys(value).every((key) => key === 'schema' || key === 'examples' || key === 'example');
  const schemas = Object.fromEntries(Object.entries(document.components.schemas).map(([name, schema]) => [name, expand(schema, new Set([`#/components/schemas/${name}`]), false)]));
  return { ...document, paths: expand(document.paths, new Set(), false), components: { ...document.components, schemas } } as Document;
}

/** `WalletAgentPolicyVerdict` from `#/components/schemas/WalletAgentPolicyVerdict`. */
export const componentName = (ref: string): string => ref.split('/').pop() ?? ref;

/** An operation's body (a request's or a response's `content`): its media type, and the component its schema names. */
export function contentSchema(content: Record<string, { schema?: { $ref?: string } }> | undefined, schemas: Record<string, JsonSchema>) {
  const [mediaType, entry] = Object.entries(content ?? {})[0] ?? [];
  const ref = entry?.schema?.$ref;
  const name = ref ? componentName(ref) : undefined;
  return { mediaType, name, schema: name ? schemas[name] : undefined };
}

