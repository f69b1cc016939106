/**
 * `agent-economy inspect <action> <input>`: the developer tools (hash, address, box, tx, receipt)
 * offline, through the same request schema and the same code as POST /api/dev/tools and the MCP
 * dev tools (runDevTool), so the three can never answer differently.
 */
import { existsSync, readFileSync } from 'node:fs';
import { devToolRequestSchema } from '../../schemas/dev-tools.ts';
import { runDevTool } from '../domain/dev-tools.ts';
import { InspectionInputError } from '../domain/ergo/inspection-error.ts';
import { fieldErrorsFromZod } from '../lib/problem-error.ts';
import { CliError, EXIT_FAILED, type Output } from './output.ts';

export interface InspectOptions {
  hex: boolean;
  network: string | undefined;
  json: boolean;
  readStdin?: () => string;
}

/** The input an argument names: `-` for stdin, an existing file's text, or the argument itself. */
function readInput(argument: string, readStdin: () => string): string {
  if (argument === '-') return readStdin().trim();
  if (existsSync(argument)) return readFileSync(argument, 'utf8').trim();
  return argument;
}

/** One line that says what the tool found, for a person; --json prints the whole body instead. */
function headline(action: string, result: any): string {
  switch (action) {
    case 'hash':
      return `blake2b256 ${result.digest} (${result.input_bytes} bytes)`;
    case 'address':
      return result.valid
        ? `VALID ${result.network} ${result.address_type} ${result.address}  ErgoTree ${result.ergo_tree} (version ${result.ergo_tree_header.version}${result.ergo_tree_header.body_parsed ? '' : ', body not parsed'})`
        : `INVALID (${result.invalid_reason}) ${result.message}`;
    case 'box':
      return `box ${result.box_id}  ${result.value_erg} ERG  ${result.address}`;
    case 'tx':
      return `tx ${result.tx_id}${result.tx_id_given_order ? `  (entries as given: ${result.tx_id_given_order})` : ''}  ${result.inputs.length} in, ${result.outputs.length} out${result.signed ? ', signed' : ', unsigned'}`;
    default:
      return result.verified
        ? `receipt ${result.computed_receipt_id} agrees with itself (${result.checks.length} checks, offline; the chain is not read, so this does not show it was paid: use verify-receipt)`
        : `receipt ${result.computed_receipt_id} FAILS ${result.failed_checks.join(', ')}`;
  }
}

export function inspect(action: string, argument: string, options: InspectOptions, output: Output): number {
  const input = readInput(argument, options.readStdin ?? (() => readFileSync(0, 'utf8')));
  const parsed = devToolRequestSchema.safeParse({ action, input, encoding: options.hex ? 'hex' : 'utf8', ...(options.network ? { network: options.network } : {}) });
  if (!parsed.success) {
    const fields = fieldErrorsFromZod(parsed.error)
      .slice(0, 3)
      .map((entry) => `${entry.path || '(request)'} ${entry.message}`)
      .join('; ');
    throw new CliError(`not a dev tools request: ${fields}`);
  }
  let answer: ReturnType<typeof runDevTool>;
  try {
    answer = runDevTool(parsed.data);
  } catch (error) {
    if (error instanceof InspectionInputError) throw new CliError(`${error.reason}: ${error.message}`, EXIT_FAILED);
    throw error;
  }
  if (options.json) output.out(JSON.stringify(answer, null, 2));
  else {
    output.out(headline(action, answer.result));
    for (const warning of answer.warnings) output.err(`warning  ${warning.code}: ${warning.message}`);
  }
  const result = answer.result as { valid?: boolean; verified?: boolean };
  return result.valid === false || result.verified === false ? EXIT_FAILED : 0;
}
