/**
 * Paying a premium quote on the sandbox chain: mints the Note the quote asks for (value = price,
 * made out to the receiver, R4 = reserve box id, R5 = an expiry height the quote accepts, R6 = task
 * hash) and mines until it has the confirmations the quote needs. Used by `npm run sandbox:pay` and
 * callable from other tools. It refuses any server that does not say it is the sandbox: this code
 * must never be pointed at a chain where value is real.
 */
import { z } from 'zod';

const hex64 = z.string().regex(/^[0-9a-fA-F]{64}$/);

/** The premium quote fields a payment needs; the rest of the quote is carried along untouched. */
export const payableQuoteSchema = z.looseObject({
  tier: z.literal('premium', { message: 'only a premium quote needs a payment; a free-tier decision goes straight to chat' }),
  quoteId: z.string().min(1),
  taskHash: hex64,
  priceNanoErg: z.string().regex(/^[1-9][0-9]*$/),
  receiverAddress: z.string().min(1),
  reserveBoxId: hex64,
  noteExpiryMinHeight: z.int().min(1),
  minConfirmations: z.int().min(1),
});
export type PayableQuote = z.infer<typeof payableQuoteSchema>;

export interface SandboxPayment {
  quoteId: string;
  noteBoxId: string;
  transactionId: string;
  valueNanoErg: string;
  expiryHeight: number;
  height: number;
  confirmations: number;
}

/** Blocks of margin above the height the Note is verified at, so R5 stays in the future meanwhile. */
const EXPIRY_MARGIN_BLOCKS = 30;

async function sandboxCall<T>(sandboxUrl: string, path: string, timeoutMs: number, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${sandboxUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new Error(`no sandbox answers at ${sandboxUrl} (${(error as Error).message}); start it with \`npm run sandbox\` or set SANDBOX_URL`);
  }
  if (response.headers.get('x-ergo-sandbox') !== 'true') {
    throw new Error(`${sandboxUrl} is not the sandbox chain (no x-ergo-sandbox header); this command only pays on the sandbox`);
  }
  const answer = (await response.json()) as T & { detail?: string };
  if (!response.ok) throw new Error(`the sandbox refused ${path}: ${answer.detail ?? response.status}`);
  return answer;
}

/**
 * Asks the service at `apiUrl` for a quote for `question` (POST /api/assistant/quote) and returns
 * its answer: a premium quote to pay, or a free-tier decision (which needs no payment).
 */
export async function requestQuote(apiUrl: string, question: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(`${apiUrl.replace(/\/+$/, '')}/api/assistant/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ question }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new Error(`no service answers at ${apiUrl} (${(error as Error).message}); start it with \`npm start\` or pass --base`);
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`the quote endpoint answered ${response.status}: ${String(body.detail ?? body.title ?? 'no detail')}`);
  return body;
}

/** Mints on the sandbox at `sandboxUrl` the Note that pays `quote`; resolves once it has its confirmations. */
export async function payQuote(quote: unknown, options: { sandboxUrl: string; timeoutMs?: number }): Promise<SandboxPayment> {
  const parsed = payableQuoteSchema.safeParse(quote);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`not a premium quote as POST /api/assistant/quote returns it: ${issue.path.join('.') || 'quote'} ${issue.message}`);
  }
  const payable = parsed.data;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const sandboxUrl = options.sandboxUrl.replace(/\/+$/, '');
  const { height } = await sandboxCall<{ height: number }>(sandboxUrl, '/api/v1/networkState', timeoutMs);
  // Verified at about height + minConfirmations: R5 must still be above it then, and at least the quote's minimum.
  const expiryHeight = Math.max(payable.noteExpiryMinHeight, height + payable.minConfirmations + EXPIRY_MARGIN_BLOCKS);
  const minted = await sandboxCall<{ boxId: string; transactionId: string; value: string; height: number; confirmations: number }>(sandboxUrl, '/sandbox/notes', timeoutMs, {
    value: payable.priceNanoErg,
    receiver: payable.receiverAddress,
    reserveBoxId: payable.reserveBoxId,
    expiryHeight,
    taskHash: payable.taskHash,
    confirmations: payable.minConfirmations,
  });
  return {
    quoteId: payable.quoteId,
    noteBoxId: minted.boxId,
    transactionId: minted.transactionId,
    valueNanoErg: minted.value,
    expiryHeight,
    height: minted.height,
    confirmations: minted.confirmations,
  };
}
