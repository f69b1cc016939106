/**
 * `agent-economy sandbox pay <quote>`: pays a premium quote on the local sandbox chain with the
 * sandbox's own `payQuote` (which refuses any server that does not say it is the sandbox) and prints
 * the Note box id, ready for verify-payment. The service never hands out a stored quote, so the
 * quote is the body the client received from POST /api/assistant/quote: a file, `-` for stdin, or
 * the JSON itself; a bare quote id is refused with that explanation.
 */
import { existsSync, readFileSync } from 'node:fs';
import { payQuote } from '../sandbox/pay.ts';
import { CliError, EXIT_FAILED, type Output } from './output.ts';

function readQuote(argument: string, readStdin: () => string): unknown {
  let text: string;
  if (argument === '-') text = readStdin();
  else if (argument.trimStart().startsWith('{')) text = argument;
  else if (existsSync(argument)) text = readFileSync(argument, 'utf8');
  else if (/^[A-Za-z0-9_-]{1,128}$/.test(argument)) {
    throw new CliError(
      `"${argument}" is a quote id, but paying needs the quote itself (the service never hands stored quotes out): save the answer of POST /api/assistant/quote to a file and pass it, or pipe it in with -`,
    );
  } else throw new CliError(`no file ${argument}; pass the quote JSON as a file, as -, or inline`);
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`the quote in ${argument === '-' ? 'stdin' : argument} is not JSON`);
  }
}

export async function sandboxPay(
  argument: string,
  options: { sandboxUrl: string; json: boolean },
  output: Output,
  readStdin: () => string = () => readFileSync(0, 'utf8'),
): Promise<number> {
  const quote = readQuote(argument, readStdin);
  let payment;
  try {
    payment = await payQuote(quote, { sandboxUrl: options.sandboxUrl });
  } catch (error) {
    throw new CliError((error as Error).message, EXIT_FAILED);
  }
  if (options.json) {
    output.out(JSON.stringify(payment));
  } else {
    output.err(
      `paid quote ${payment.quoteId} on the sandbox at ${options.sandboxUrl}: Note ${payment.noteBoxId} (${payment.valueNanoErg} nanoERG, R5 ${payment.expiryHeight}) in transaction ${payment.transactionId}, ${payment.confirmations} confirmation(s) at height ${payment.height}`,
    );
    output.out(payment.noteBoxId);
  }
  return 0;
}
