/**
 * `npm run sandbox:pay`: pays a premium quote on the running sandbox chain.
 *
 *   npm run -s sandbox:pay -- <quoteId>           reads the quote back from the service (--base) and
 *                                                 pays it; prints the Note box id
 *   npm run -s sandbox:pay -- quote.json          pays the quote in the file (`-`: stdin; or the JSON
 *                                                 itself) and prints the Note box id
 *   npm run -s sandbox:pay -- --question "..."    asks the service for a quote first, pays it, and
 *                                                 prints the verify-payment request body, ready to POST
 *
 * Details go to stderr, so stdout can be captured or piped (`| curl ... -d @-`).
 */
import { parseArgs } from 'node:util';
import { readQuoteArgument } from '../cli/sandbox-pay.ts';
import { loadSandboxConfig } from '../config/sandbox.ts';
import { defaultBaseUrl } from '../config/build-origin.ts';
import { payQuote, requestQuote } from './pay.ts';

/** The site the build was made for (SITE_BASE_URL overrides it), as the agent-economy command defaults to. */
const DEFAULT_BASE = defaultBaseUrl(import.meta.url);

const USAGE = [
  'usage: npm run -s sandbox:pay -- <quoteId | quote.json | - | JSON> [--base URL]  pay a premium quote, print the Note box id',
  '       npm run -s sandbox:pay -- --question TEXT [--base URL]  ask for a quote, pay it, print the verify-payment body',
  `(the sandbox is found at SANDBOX_URL; --base, the service, defaults to ${DEFAULT_BASE})`,
].join('\n');

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { question: { type: 'string' }, base: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadSandboxConfig();
  let quote: unknown;
  if (values.question !== undefined) {
    const answer = await requestQuote(values.base ?? DEFAULT_BASE, values.question);
    if (answer.tier === 'free') {
      process.stderr.write(`the service answers this question on the free tier (${String(answer.reason ?? '')}); no payment needed: send it to chat\n`);
      return;
    }
    quote = answer;
  } else quote = await readQuoteArgument(positionals[0] ?? '-', values.base ?? DEFAULT_BASE);
  const payment = await payQuote(quote, { sandboxUrl: config.url });
  process.stderr.write(
    `paid quote ${payment.quoteId} on the sandbox at ${config.url}: Note ${payment.noteBoxId} (${payment.valueNanoErg} nanoERG, R5 ${payment.expiryHeight}) in transaction ${payment.transactionId}, ${payment.confirmations} confirmation(s) at height ${payment.height}\n`,
  );
  if (values.question !== undefined) {
    process.stdout.write(`${JSON.stringify({ quote: { quoteId: payment.quoteId }, question: values.question, noteBoxId: payment.noteBoxId })}\n`);
  } else {
    process.stdout.write(`${payment.noteBoxId}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox:pay: ${(error as Error)?.message ?? error}\n`);
  process.exit(1);
});
