/**
 * One error type for the whole API. Anything thrown as a ProblemError becomes an RFC 9457
 * `application/problem+json` response with its status and stable code; anything else thrown is a
 * bug and becomes a 500 without internals.
 */
import type { z } from 'zod';
import type { Problem, ProblemFieldError } from '../../schemas/problem.ts';
import { siteUrl } from '../config/site.ts';
import type { ProblemCode } from './problem-codes.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Human explanation of each code lives on one page; the `type` URI points at its anchor. */
export const problemTypeUrl = (code: ProblemCode): string => siteUrl(`/problems/#${code}`);

export class ProblemError extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly errors: ProblemFieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(
    status: number,
    code: ProblemCode,
    title: string,
    detail: string,
    options: {
      errors?: ProblemFieldError[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
      /**
       * The outside failure behind the problem, for the operator: the server logs it with the
       * request id, and it never reaches the body, whose detail says what failed in our own words.
       */
      cause?: unknown;
    } = {},
  ) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProblemError';
    this.status = status;
    this.code = code;
    this.title = title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }

  toBody(instance?: string): Problem {
    return {
      type: problemTypeUrl(this.code),
      title: this.title,
      status: this.status,
      detail: this.message,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(instance ? { instance } : {}),
      ...this.extra,
    };
  }
}

/** RFC 6901 JSON Pointer of a zod issue path. */
export function jsonPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part) => '/' + String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

/** zod issues in the problem vocabulary: one entry per offending field, unknown keys each named. */
export function fieldErrorsFromZod(error: z.core.$ZodError): ProblemFieldError[] {
  const out: ProblemFieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: jsonPointer([...issue.path, key]), code: 'unrecognized_keys', message: `unknown key "${key}" is not allowed here` });
      }
    } else {
      out.push({ path: jsonPointer(issue.path), code: issue.code, message: issue.message });
    }
  }
  return out;
}

/** 400 for a body that does not match its schema, naming every offending field. */
export function invalidRequest(error: z.core.$ZodError, what = 'request body'): ProblemError {
  const errors = fieldErrorsFromZod(error);
  const fields = [...new Set(errors.map((e) => e.path || '(body)'))].slice(0, 8).join(', ');
  return new ProblemError(400, 'invalid_request', 'Invalid request', `The ${what} is invalid at: ${fields}.`, { errors });
}
