/**
 * Validators for the components of an OpenAPI document. Components reference each other with
 * `#/components/schemas/...`, so each is compiled inside the document, never on its own.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export function componentValidators(document: unknown): (nameOrRef: string) => ValidateFunction {
  const openapi = document as { components: { schemas: Record<string, unknown> } };
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  ajv.addSchema({ $id: 'https://openapi.test/document.json', components: openapi.components });
  return (nameOrRef) => {
    const name = nameOrRef.replace('#/components/schemas/', '');
    if (!(name in openapi.components.schemas)) throw new Error(`OpenAPI has no component ${name}`);
    const ref = `https://openapi.test/document.json#/components/schemas/${name}`;
    return ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  };
}

type RequestBody = { $ref?: string; content?: Record<string, { examples?: Record<string, { summary: string; value: unknown }> }> };

/** An operation's request body, its `#/components/requestBodies/...` reference followed (bodies several operations share). */
export function requestBodyOf(document: unknown, operation: { requestBody?: RequestBody }): RequestBody | undefined {
  const body = operation.requestBody;
  if (!body?.$ref) return body;
  return (document as { components: { requestBodies?: Record<string, RequestBody> } }).components.requestBodies?.[body.$ref.split('/').pop()!];
}
