/**
 * The daily free allowance: read for a quote's decision, reserved for a chat turn. A chat reserves
 * its turn before the model is asked (one atomic store statement, so N parallel questions from one
 * client get exactly the limit) and gives it back when no answer came, so a provider failure does
 * not use the allowance up.
 */
import { decideTier, questionLength, utcDay, type TierDecision } from '../../domain/assistant/pricing.ts';
import { blake2b256Hex } from '../../domain/canonical-hash.ts';
import { logger } from '../../services/logger.ts';
import { fromStore, type AssistantDeps } from '../../services/paid-turn/deps.ts';

type Deps = Pick<AssistantDeps, 'store' | 'config'>;

/**
 * The key the daily free allowance is counted under: a hash of the client address, so the store
 * never holds the address itself.
 */
export function clientKeyOf(clientIp: string): string {
  let key = clientKeys.get(clientIp);
  if (key === undefined) {
    // Bounded: a flood of new addresses empties the memo rather than growing it.
    if (clientKeys.size >= MAX_CLIENT_KEYS) clientKeys.clear();
    key = blake2b256Hex(`assistant-free-tier:${clientIp}`);
    clientKeys.set(clientIp, key);
  }
  return key;
}

/** Client keys already hashed: the same clients ask again and again, and each hash is a blake2b run. */
const clientKeys = new Map<string, string>();
const MAX_CLIENT_KEYS = 10_000;

/** Whether `question` could be free at all (length, the tier switched on): only then is the store asked. */
const mayBeFree = ({ config }: Deps, question: string) => config.freeTier.dailyLimit > 0 && questionLength(question) <= config.freeTier.maxCharacters;

/** The free-tier decision for this client today, as the quote endpoint answers it; reserves nothing. */
export async function decideFreeTier(deps: Deps, clientIp: string, question: string, now: Date): Promise<TierDecision> {
  const usedToday = mayBeFree(deps, question) ? await fromStore(() => deps.store.getFreeUsage(clientKeyOf(clientIp), utcDay(now))) : 0;
  return decideTier(question, usedToday, deps.config.freeTier);
}

export interface FreeTurn {
  decision: TierDecision;
  /** Gives the reserved turn back (no answer came); nothing when none was reserved. Never throws. */
  release: () => Promise<void>;
}

const NOTHING_RESERVED = async () => undefined;

/** The free-tier decision for a chat turn, with the turn reserved when it is free. */
export async function takeFreeTurn(deps: Deps, clientIp: string, question: string, now: Date): Promise<FreeTurn> {
  const { store, config } = deps;
  if (!mayBeFree(deps, question)) return { decision: decideTier(question, 0, config.freeTier), release: NOTHING_RESERVED };
  const clientKey = clientKeyOf(clientIp);
  const day = utcDay(now);
  const count = await fromStore(() => store.reserveFreeUsage(clientKey, day, config.freeTier.dailyLimit));
  if (count === null) return { decision: decideTier(question, config.freeTier.dailyLimit, config.freeTier), release: NOTHING_RESERVED };
  return {
    decision: decideTier(question, count - 1, config.freeTier),
    release: async () => {
      try {
        await store.releaseFreeUsage(clientKey, day);
      } catch (error) {
        // The client keeps one turn fewer today; the answer the caller reports (the model's failure) matters more.
        logger.warn({ err: error }, 'free turn not given back after a failed answer');
      }
    },
  };
}
