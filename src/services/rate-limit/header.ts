import type { RateLimitDecision } from '../../domain/ports.ts';

/** The `RateLimit` header field of a decision (IETF RateLimit header fields): its limit, the requests left and the seconds until it resets. */
export const rateLimitField = ({ limit, remaining, resetSeconds }: Pick<RateLimitDecision, 'limit' | 'remaining' | 'resetSeconds'>): string =>
  `limit=${limit}, remaining=${remaining}, reset=${resetSeconds}`;
