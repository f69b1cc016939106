/**
 * The chain height a premium quote is issued at, without a chain round trip per quote. Ergo makes a
 * block about every two minutes, so a height a few seconds old names the same block almost always;
 * a quote built on it at worst sets `issuedHeight` and `noteExpiryMinHeight` a block low, which only
 * widens what the payer may do. The staleness is bounded: a height is served for at most `maxAgeMs`;
 * past half that age the next caller starts one refresh in the background and still gets the held
 * value; past `maxAgeMs` callers wait for a fresh read (one read shared by all of them) and get its
 * error when the chain does not answer. Payment verification never uses this: it reads the height
 * itself, so confirmations are never counted short.
 */
import { logger } from '../logger.ts';

export function recentHeight(read: () => Promise<number>, maxAgeMs: number, now: () => number = () => performance.now()): () => Promise<number> {
  if (maxAgeMs <= 0) return read;
  let held: { height: number; at: number } | undefined;
  let inFlight: Promise<number> | undefined;

  const refresh = (): Promise<number> => {
    inFlight ??= (async () => {
      const startedAt = now();
      try {
        const height = await read();
        // A slower read that started earlier never replaces a newer height.
        if (!held || startedAt >= held.at) held = { height, at: startedAt };
        return height;
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  return async () => {
    const age = held ? now() - held.at : Infinity;
    if (held && age < maxAgeMs) {
      if (age >= maxAgeMs / 2 && !inFlight) {
        refresh().catch((error: unknown) => logger.warn({ err: error }, 'chain: background height refresh failed; the held height is served until it is too old'));
      }
      return held.height;
    }
    return refresh();
  };
}
