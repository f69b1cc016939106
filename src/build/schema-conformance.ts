/**
 * Build-time conformance proof: every static descriptor the build writes is validated against the
 * JSON Schema document the build publishes for it, with a JSON Schema 2020-12 validator (ajv), not
 * with the zod schema it came from. The report is written next to the server bundle and the proof
 * explorer lists it as a conformance proof, so the claim "the published schemas validate the served
 * descriptors" is checked once per build rather than on every request.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { allRoutes } from '../routes/table.ts';
import type { StaticRoute } from '../routes/types.ts';
import type { SchemaConformanceReport } from '../../schemas/schema-conformance-report.ts';
import type { StaticDocument } from './static-documents.ts';

export { SCHEMA_CONFORMANCE_FILE } from '../../schemas/schema-conformance-report.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Validates each served static descriptor that names a schema against that schema's served document. */
export function schemaConformance(documents: readonly StaticDocument[], generatedAt: Date): SchemaConformanceReport {
  const byPath = new Map(documents.map((document) => [document.path, document]));
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  const routes = allRoutes().filter((route): route is StaticRoute & { schema: NonNullable<StaticRoute['schema']> } => route.kind === 'static' && route.host !== 'mcp' && route.schema !== undefined);
  const checks = routes.map((route) => {
    const schemaPath = `/agent-economy/${route.schema.file}`;
    const document = byPath.get(route.path);
    const schemaDocument = byPath.get(schemaPath);
    const base = { id: route.id, document: route.path, schema: schemaPath };
    if (!document || !schemaDocument) return { ...base, ok: false, detail: `${!document ? route.path : schemaPath} was not written by the build.` };
    const parsedSchema = JSON.parse(schemaDocument.body) as { $id?: string };
    const validate = ajv.getSchema(String(parsedSchema.$id)) ?? ajv.compile(parsedSchema);
    const valid = validate(JSON.parse(document.body));
    return valid
      ? { ...base, ok: true, detail: `${route.path} validates against ${schemaPath}.` }
      : {
          ...base,
          ok: false,
          detail: `${route.path} does not validate against ${schemaPath}: ${(validate.errors ?? [])
            .slice(0, 3)
            .map((error) => `${error.instancePath || '(root)'} ${error.message}`)
            .join('; ')}.`,
        };
  });
  return { generated_at: generatedAt.toISOString(), validator: 'ajv 2020-12 with ajv-formats', checks };
}
