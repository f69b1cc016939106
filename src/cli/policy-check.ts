/**
 * `agent-economy policy-check <request.json>`: the wallet-agent policy engine run locally on a
 * request file ({profile, proposed_action}), the same engine and schema as the site's endpoint, so
 * an agent can gate a signature without a network call. Exit 0 when allowed, 1 when denied: a
 * script that signs only after `agent-economy policy-check` succeeds fails closed.
 */
import { readFileSync } from 'node:fs';
import { policyCheckRequestSchema } from '../../schemas/policy-check.ts';
import { checkPolicy } from '../domain/policy-engine.ts';
import { fieldErrorsFromZod } from '../lib/problem-error.ts';
import { CliError, EXIT_FAILED, type Output } from './output.ts';

export function policyCheck(file: string, options: { json: boolean }, output: Output, now: Date = new Date()): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = policyCheckRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const fields = fieldErrorsFromZod(parsed.error)
      .slice(0, 4)
      .map((entry) => `${entry.path || '(request)'} ${entry.message}`)
      .join('; ');
    throw new CliError(`${file} is not a policy-check request: ${fields}`);
  }
  const verdict = checkPolicy(parsed.data, now);
  if (options.json) {
    output.out(JSON.stringify(verdict, null, 2));
  } else {
    output.out(`${verdict.allowed ? 'ALLOWED' : 'DENIED'}  ${verdict.summary}  (profile ${verdict.profile_id})`);
    for (const reason of verdict.reasons) output.out(`  reason   ${reason.code}: ${reason.message}`);
    for (const warning of verdict.warnings) output.out(`  warning  ${warning.code}: ${warning.message}`);
    output.out(verdict.signing_boundary);
  }
  return verdict.allowed ? 0 : EXIT_FAILED;
}
