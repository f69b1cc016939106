/**
 * Declaring a published schema document, and turning it into JSON Schema 2020-12 with
 * `z.toJSONSchema`. Nothing here is written by hand: the zod schema is the only source.
 */
import { z } from 'zod';
import { schemaUrl } from '../config/site.ts';
import type { PublishedSchema } from './types.ts';

/**
 * A schema served at `/agent-economy/<file>`. `name` is its OpenAPI component name (PascalCase);
 * `io` is `input` for request bodies and `output` for response bodies.
 */
export function publish(file: string, name: string, title: string, schema: z.ZodType, io: 'input' | 'output' = 'output'): PublishedSchema {
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*\.schema\.v0\.json$/.test(file)) {
    throw new Error(`published schema file "${file}" must be kebab-case and end in .schema.v0.json`);
  }
  return { file, name, title, schema, io };
}

/** The JSON Schema document of a published schema, with `$id` under `{schema_base}/agent-economy/`. */
export function toJsonSchemaDocument(published: PublishedSchema): Record<string, unknown> {
  const generated = z.toJSONSchema(published.schema, { target: 'draft-2020-12', io: published.io, unrepresentable: 'throw' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema: $schema ?? 'https://json-schema.org/draft/2020-12/schema',
    $id: schemaUrl(published.file),
    title: published.title,
    ...rest,
  };
}
