/**
 * Reading a group of environment variables through one zod object whose keys are the variable
 * names, so every error names the variable it is about. Empty strings count as unset (a blank line
 * in an env file must not turn into a value), and values are never echoed: URLs may carry passwords.
 */
import { z } from 'zod';

const unset = (value: string | undefined): boolean => value === undefined || value.trim() === '';

/**
 * Parses the variables named by `schema`'s keys from `env`. Throws `<label>: VARIABLE <what it
 * must be>` for the first malformed one.
 */
export function readEnvironment<T extends z.ZodObject>(label: string, schema: T, env: Record<string, string | undefined>): z.output<T> {
  const given = Object.fromEntries(
    Object.keys(schema.shape)
      .filter((name) => !unset(env[name]))
      .map((name) => [name, env[name]!.trim()]),
  );
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${label}: ${String(issue.path[0] ?? '(environment)')} ${issue.message}`);
  }
  return parsed.data;
}

/** A whole number within [min, max] given as a decimal string; the message says the unit and range. */
export function integerVariable(min: number, max: number, unit: string) {
  const message = `must be a whole number of ${unit} from ${min} to ${max}`;
  return z
    .string()
    .regex(/^[0-9]{1,10}$/, message)
    .transform(Number)
    .refine((value) => value >= min && value <= max, message);
}
