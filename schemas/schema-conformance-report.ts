/**
 * The shape of the build's schema conformance report (`dist/server/schema-conformance.json`), apart
 * from the validator that writes it: the server reads the report at run time and must not load a
 * JSON Schema validator (a build-time tool) to do so.
 */
import { z } from 'zod';

export const SCHEMA_CONFORMANCE_FILE = 'schema-conformance.json';

export const schemaConformanceReportSchema = z.strictObject({
  generated_at: z.iso.datetime(),
  validator: z.string(),
  checks: z.array(
    z.strictObject({
      id: z.string().describe('Route id of the descriptor.'),
      ok: z.boolean(),
      detail: z.string(),
      document: z.string().describe('Path of the served descriptor.'),
      schema: z.string().describe('Path of the published JSON Schema document.'),
    }),
  ),
});
export type SchemaConformanceReport = z.infer<typeof schemaConformanceReportSchema>;
