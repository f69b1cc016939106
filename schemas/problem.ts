/**
 * RFC 9457 problem details, the one error body of the API (except the validation results of
 * publish, accept and quote, which keep their own documented shapes). `code` is stable and
 * machine-readable; `errors[]` keeps zod's `{path, message}` vocabulary so a client can point at
 * the offending field.
 */
import { z } from 'zod';

export const problemFieldErrorSchema = z.object({
  path: z.string().describe('JSON Pointer (RFC 6901) to the offending value; empty for the whole body.'),
  code: z.string().describe('Machine-readable reason for this field, e.g. `invalid_type`, `unrecognized_keys`.'),
  message: z.string().describe('What is wrong and what would be accepted.'),
});

export const problemSchema = z
  .object({
    type: z.string().describe('URI identifying the problem type; resolves to its human explanation.'),
    title: z.string().describe('Short summary of the problem type.'),
    status: z.int().min(400).max(599).describe('HTTP status code.'),
    detail: z.string().describe('Explanation of this occurrence.'),
    code: z.string().regex(/^[a-z][a-z0-9_]*$/).describe('Stable machine-readable error code.'),
    errors: z.array(problemFieldErrorSchema).optional().describe('Each offending field, when the body was invalid.'),
    instance: z.string().optional().describe('Request path of this occurrence.'),
    retry_after_seconds: z.int().min(0).optional().describe('When retrying makes sense: seconds to wait.'),
  })
  .catchall(z.unknown())
  .describe('RFC 9457 problem details with a stable `code`.');
export type Problem = z.infer<typeof problemSchema>;
export type ProblemFieldError = z.infer<typeof problemFieldErrorSchema>;
