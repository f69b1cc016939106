/**
 * `agent-economy sandbox pay <quoteId>`: pays a premium quote on the local sandbox chain with the
 * sandbox's own `payQuote` (which refuses any server that does not say it is the sandbox) and prints
 * the Note box id, ready for verify-payment. A quote id is read back from the service at `--base`
 * (GET /api/assistant/quote/{id}); the quote body itself (a file, `-` for stdin, or the JSON) pays
 * without asking the service.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { quoteId as quoteIdSchema } from '../../schemas/assistant.ts';
import { routePath } from '../catalogue/lookup.ts';
import { payQuote } from '../sandbox/pay.ts';
import { CliError, EXIT_FAILED, fetchJson, type Output } from './output.ts';

/** The quote the service stored under `id`, or a one-line reason it has none. */
async function fetchQuote(base: string, id: string): Promise<unknown> {
  const url = `${base}${routePath('assistant-quote-read').replace('{id}', encodeURIComponent(id))}`;
  const answer = (await fetchJson(url))!;
  if (answer.status === 200) return answer.body;
  const detail = (answer.body as { detail?: unknown }).detail;
  throw new CliError(`${url} answered HTTP ${answer.status}${typeof detail === 'string' ? `: ${detail}` : ''}`, EXIT_FAILED);
}

/**
 * The quote an argument names: a quote id (read from the service at `base`), `-` (stdin), inline JSON
 * or a file, relative to the folder the command was typed in (`npm run` moves to the project's root
 * and names that folder INIT_CWD).
 */
export async function readQuoteArgument(argument: string, base: string, readStdin: () => string = () => readFileSync(0, 'utf8')): Promise<unknown> {
  let text: string;
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), argument);
  if (argument === '-') text = readStdin();
  else if (argument.trimStart().startsWith('{')) text = argument;
  else if (existsSync(file)) text = readFileSync(file, 'utf8');
  else if (quoteIdSchema.safeParse(argument).success) return fetchQuote(base, argument);
  else throw new CliError(`"${argument}" is neither a quote id nor a file; pass a quoteId, a quote JSON file, - or the JSON inline`);
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`the quote in ${argument === '-' ? 'stdin' : argument} is not JSON`);
  }
}

export async function sandboxPay(
  argument: string,
  options: { sandboxUrl: string; base: string; json: boolean },
  output: Output,
  readStdin: () => string = () => readFileSync(0, 'utf8'),
): Promise<number> {
  const quote = await readQuoteArgument(argument, options.base, readStdin);
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
