/**
 * A compiled fast path in front of zod for request bodies. zod stays the one source of every request
 * shape and of every 400 a client reads; but on the hottest POST (the policy check) its parse of a
 * valid body cost about a sixth of the server's time per request, where the same rules compiled
 * by Ajv into straight-line code cost about half as much (docs/performance.md).
 *
 * So for a schema whose parse can only accept or refuse, never change, a value (strict or loose
 * objects, arrays, strings with lengths and flagless patterns, numbers and integers with bounds,
 * booleans, enums, literals, unions, optional and nullable: no defaults, transforms, coercions,
 * refinements or named formats), Ajv compiles the schema's own JSON Schema (`z.toJSONSchema`,
 * input view). A body Ajv accepts is exactly the body zod would have returned; anything else goes to
 * zod, which answers it as before. Any other schema gets no fast path. Both count a string's length
 * in code points, and patterns run without the `u` flag, as zod runs them.
 */
import { Ajv } from 'ajv';
import { z } from 'zod';

/** True when `value` is already the valid output of the schema; false says only "ask zod". */
export type CompiledRequestCheck = (value: unknown) => boolean;

// zod 4 keeps each schema's definition under `_zod.def`; only the parts read below are typed.
interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  format?: string;
  coerce?: boolean;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  element?: Schema;
  options?: Schema[];
  innerType?: Schema;
}
interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
}
type Schema = { _zod: { def: Def } };

/** Checks that only refuse, and whose JSON Schema keyword tests the same thing. */
const PLAIN_CHECKS = new Set(['min_length', 'max_length', 'length_equals', 'greater_than', 'less_than', 'multiple_of']);
/** Integer formats: `type: integer` with the format's bounds. */
const INTEGER_FORMATS = new Set(['safeint', 'int32', 'uint32']);

function checksArePlain(def: Def): boolean {
  return (def.checks ?? []).every(({ _zod: { def: check } }) => {
    if (PLAIN_CHECKS.has(check.check)) return true;
    // A pattern keeps its source in JSON Schema but loses its flags.
    return check.check === 'string_format' && check.format === 'regex' && check.pattern?.flags === '';
  });
}

/** Whether parsing with `schema` returns every value it accepts unchanged, and JSON Schema says exactly what it accepts. */
export function parsesUnchanged(schema: unknown): boolean {
  const def = (schema as Schema)._zod.def;
  if (def.coerce || !checksArePlain(def)) return false;
  switch (def.type) {
    case 'boolean':
    case 'null':
    case 'enum':
    case 'literal':
      return true;
    case 'string':
      return def.format === undefined;
    case 'number':
      return def.format === undefined || INTEGER_FORMATS.has(def.format);
    case 'object': {
      // A plain z.object drops unknown keys: its output differs from its input.
      const catchall = def.catchall?._zod.def.type;
      return (catchall === 'never' || catchall === 'unknown') && Object.values(def.shape ?? {}).every(parsesUnchanged);
    }
    case 'array':
      return parsesUnchanged(def.element);
    case 'union':
      return (def.options ?? []).every(parsesUnchanged);
    case 'optional':
    case 'nullable':
      return parsesUnchanged(def.innerType);
    default:
      return false;
  }
}

let ajv: Ajv | undefined;

/** The compiled check of `schema`, or undefined when its parse may change a value (then zod alone decides). */
export function compileRequestCheck(schema: z.ZodType): CompiledRequestCheck | undefined {
  if (!parsesUnchanged(schema)) return undefined;
  // Descriptions and zod's other annotations are not validation keywords: `strict: false` lets them be.
  ajv ??= new Ajv({ unicodeRegExp: false, strict: false });
  try {
    return ajv.compile(z.toJSONSchema(schema, { io: 'input', target: 'draft-7' })) as CompiledRequestCheck;
  } catch {
    // A fast path must never cost a route its answers: without one, zod decides as it always did.
    // (tests/unit/compiled-request-check.test.ts compiles every route's schema, so this is a bug's path.)
    return undefined;
  }
}
