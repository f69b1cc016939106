/**
 * Parts that several operations of an OpenAPI description carry word for word (a rate-limit answer,
 * its `Retry-After` header, the facilitator's request body), written once under `components` and
 * referenced where they recur. Only what recurs is moved: a part used once stays where it is.
 *
 * Names: a response is named by its catalogue entry (`ResponseDoc.name`; a recurring response
 * without one stays inline), a header by its field name (`Retry-After` -> `RetryAfter`), a request
 * body by the schema component it carries.
 */
type Json = Record<string, unknown>;
type Operation = { requestBody?: Json; responses?: Record<string, Json> };
type Paths = Record<string, Record<string, Operation>>;

export interface SharedParts {
  responses: Record<string, Json>;
  headers: Record<string, Json>;
  requestBodies: Record<string, Json>;
}

const ref = (kind: keyof SharedParts, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Each distinct value by its JSON text, with how often it occurs and the name it would take. */
class Occurrences {
  readonly #seen = new Map<string, { count: number; name?: string }>();

  add(value: unknown, name: string | undefined): void {
    const key = JSON.stringify(value);
    const entry = this.#seen.get(key) ?? { count: 0 };
    entry.count += 1;
    entry.name ??= name;
    this.#seen.set(key, entry);
  }

  /** Values that recur and have a name, by JSON text; the first value to claim a name keeps it. */
  shared(): Map<string, string> {
    const names = new Map<string, string>();
    const taken = new Set<string>();
    for (const [key, { count, name }] of this.#seen) {
      if (count < 2 || !name || taken.has(name)) continue;
      taken.add(name);
      names.set(key, name);
    }
    return names;
  }
}

const headerName = (field: string) => field.replace(/-/g, '');
const schemaName = (body: Json): string | undefined => {
  const schema = (Object.values((body.content as Record<string, Json> | undefined) ?? {})[0]?.schema ?? {}) as Json;
  return typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
};

/**
 * `paths` with recurring parts replaced by references, and those parts. `responseNames` maps a
 * response object's JSON text to the name its catalogue entry gives it.
 */
export function withSharedParts(paths: Paths, responseNames: ReadonlyMap<string, string>): { paths: Paths; components: SharedParts } {
  const operations = Object.values(paths).flatMap((item) => Object.values(item));
  const headers = new Occurrences();
  for (const { responses = {} } of operations) {
    for (const response of Object.values(responses)) {
      for (const [field, header] of Object.entries((response.headers as Json | undefined) ?? {})) if (!('$ref' in (header as Json))) headers.add(header, headerName(field));
    }
  }
  const sharedHeaders = headers.shared();
  const headerComponents: Record<string, Json> = {};
  const withHeaderRefs = (response: Json): Json => {
    if (!response.headers) return response;
    const replaced = Object.entries(response.headers as Json).map(([field, header]) => {
      const name = '$ref' in (header as Json) ? undefined : sharedHeaders.get(JSON.stringify(header));
      if (!name) return [field, header];
      headerComponents[name] = header as Json;
      return [field, ref('headers', name)];
    });
    return { ...response, headers: Object.fromEntries(replaced) };
  };

  // Responses are compared as written, before their headers become references.
  const responses = new Occurrences();
  const bodies = new Occurrences();
  for (const { requestBody, responses: byStatus = {} } of operations) {
    for (const response of Object.values(byStatus)) if (!('$ref' in response)) responses.add(response, responseNames.get(JSON.stringify(response)));
    if (requestBody) bodies.add(requestBody, schemaName(requestBody));
  }
  const sharedResponses = responses.shared();
  const sharedBodies = bodies.shared();
  const responseComponents: Record<string, Json> = {};
  const bodyComponents: Record<string, Json> = {};

  const rewritten: Paths = {};
  for (const [path, item] of Object.entries(paths)) {
    rewritten[path] = {};
    for (const [method, operation] of Object.entries(item)) {
      const out: Operation & Json = { ...operation };
      if (operation.responses) {
        out.responses = Object.fromEntries(
          Object.entries(operation.responses).map(([status, response]) => {
            const name = '$ref' in response ? undefined : sharedResponses.get(JSON.stringify(response));
            if (!name) return [status, withHeaderRefs(response)];
            responseComponents[name] = withHeaderRefs(response);
            return [status, ref('responses', name)];
          }),
        );
      }
      const bodyName = operation.requestBody && sharedBodies.get(JSON.stringify(operation.requestBody));
      if (bodyName) {
        bodyComponents[bodyName] = operation.requestBody!;
        out.requestBody = ref('requestBodies', bodyName);
      }
      rewritten[path][method] = out;
    }
  }
  return { paths: rewritten, components: { responses: responseComponents, headers: headerComponents, requestBodies: bodyComponents } };
}
