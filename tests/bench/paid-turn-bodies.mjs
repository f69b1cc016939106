// verify-payment bodies for load runs, each spending its own Note: quotes from the server under test,
// Notes minted on the in-process sandbox (in the mempool), then the blocks their confirmations need
// mined at once. Shared by `npm run bench` and `npm run bench:profile` (PROFILE_ROUTE=turn).
import { ErgoAddress } from '@fleet-sdk/core';
import { PREMIUM_QUESTION } from '../helpers/paid-turn.ts';

/** `count` JSON bodies for POST /api/assistant/verify-payment against `base`, paid on `sandbox`. */
export async function paidTurnBodies(sandbox, base, count) {
  const quotes = [];
  for (let made = 0; made < count; made += 64) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(64, count - made) }, async () => {
        const response = await fetch(`${base}/api/assistant/quote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: PREMIUM_QUESTION }) });
        if (response.status !== 200) throw new Error(`bench: the quote answered ${response.status} ${await response.text()}`);
        return response.json();
      }),
    );
    quotes.push(...batch);
  }
  const confirmations = Math.max(...quotes.map((quote) => quote.minConfirmations));
  const bodies = quotes.map((quote) => {
    const note = sandbox.chain.mintNote({
      value: BigInt(quote.priceNanoErg),
      ergoTree: ErgoAddress.fromBase58(quote.receiverAddress).ergoTree,
      reserveBoxId: quote.reserveBoxId,
      expiryHeight: Math.max(quote.noteExpiryMinHeight, sandbox.chain.height + 100),
      taskHash: quote.taskHash,
      confirmations: 0,
    });
    return JSON.stringify({ quote, question: PREMIUM_QUESTION, noteBoxId: note.boxId });
  });
  sandbox.chain.mine(confirmations);
  return bodies;
}
