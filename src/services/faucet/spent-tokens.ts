/**
 * Which proof-of-work tokens were already spent. A token is only worth its work once, so each is
 * remembered until it would expire anyway (the end of the epoch after its own); after that the
 * epoch check refuses it and the entry is dropped.
 *
 * Kept in this process's memory for now: with several instances behind a load balancer a token
 * could be spent once per instance, which the per-address limit (one payout a day) still caps.
 * Sharing this set through the store or Redis is the step for a multi-instance faucet.
 */

export interface SpentTokens {
  /** Marks `key` spent until `expiresAt`; false when it was already spent (a replay). */
  claim(key: string, expiresAt: Date, now: Date): boolean;
}

/** Entries past which a claim first sweeps out the expired ones. */
const SWEEP_THRESHOLD = 10_000;

export class MemorySpentTokens implements SpentTokens {
  readonly #expiries = new Map<string, number>();

  claim(key: string, expiresAt: Date, now: Date): boolean {
    const known = this.#expiries.get(key);
    if (known !== undefined && known > now.getTime()) return false;
    if (this.#expiries.size >= SWEEP_THRESHOLD) this.sweep(now);
    this.#expiries.set(key, expiresAt.getTime());
    return true;
  }

  /** Drops every entry that has expired by `now`. */
  sweep(now: Date): void {
    for (const [key, expiry] of this.#expiries) if (expiry <= now.getTime()) this.#expiries.delete(key);
  }

  get size(): number {
    return this.#expiries.size;
  }
}
