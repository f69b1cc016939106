import type { RateLimitDecision } from '../../domain/ports.ts';

/**
 * The `RateLimit` and `RateLimit-Policy` header fields of a decision, as the IETF draft
 * (draft-ietf-httpapi-ratelimit-headers-12) writes them: structured-field lists whose item is the
 * policy's name, `RateLimit` with the requests left (`r`) and the seconds until the window resets
 * (`t`), `RateLimit-Policy` with the quota (`q`) and its window (`w`). The name is the limit's own
 * (`"chat"`, `"quote"`), so a client sees which limit an answer counted in.
 */
export function rateLimitFields(policy: string, { limit, windowSeconds, remaining, resetSeconds }: Pick<RateLimitDecision, 'limit' | 'windowSeconds' | 'remaining' | 'resetSeconds'>): { ratelimit: string; 'ratelimit-policy': string } {
  return { ratelimit: `"${policy}";r=${remaining};t=${resetSeconds}`, 'ratelimit-policy': `"${policy}";q=${limit};w=${windowSeconds}` };
}
