/**
 * The faucet's anti-abuse proof of work, in the spirit of the chain it pays on: find a nonce such
 * that blake2b256 of the UTF-8 text `<address>:<epoch>:<nonce>` starts with `bits` zero bits, where
 * epoch = floor(unix seconds / epoch length). The token `<epoch>:<nonce>` is bound to one address
 * (the address is in the preimage), valid for the current and the previous epoch, and needs no
 * third party and no server state to check: only its single use is remembered (services/faucet).
 * The faucet descriptor publishes these parameters; this module is the one implementation the
 * server and the solver share. It hashes with Fleet SDK's JavaScript blake2b256, not the faster
 * WebAssembly one (domain/blake2b.ts): the default difficulty (config/faucet.ts) was chosen for a
 * few seconds of this solver, and the server checks one hash per request.
 */
import { blake2b256, hex, utf8 } from '@fleet-sdk/crypto';

export interface ChallengeParameters {
  /** Leading zero bits required; 0 turns the proof of work off. */
  bits: number;
  epochSeconds: number;
}

export type ChallengeVerdict =
  | { ok: true; epoch: number; nonce: string; digest: string; expiresAt: Date }
  | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'not_yet_valid' | 'insufficient_work'; message: string };

const NONCE_PATTERN = /^[0-9a-z]{1,32}$/;
const TOKEN_PATTERN = /^([0-9]{1,12}):([0-9a-z]{1,32})$/;

export const epochAt = (now: Date, epochSeconds: number): number => Math.floor(now.getTime() / 1000 / epochSeconds);

export const challengePreimage = (address: string, epoch: number, nonce: string): string => `${address}:${epoch}:${nonce}`;

/** Number of leading zero bits of `bytes`. */
export function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

const digestOf = (address: string, epoch: number, nonce: string): Uint8Array => blake2b256(utf8.decode(challengePreimage(address, epoch, nonce)));

/**
 * Checks a `challengeToken` for `address` at `now`. A token for epoch e is accepted during epochs e
 * and e + 1, so a solution found just before an epoch boundary still counts; it expires at the end
 * of epoch e + 1, which is also how long its single use must be remembered.
 */
export function verifyChallengeToken(address: string, token: string | undefined, parameters: ChallengeParameters, now: Date): ChallengeVerdict {
  if (token === undefined) {
    return { ok: false, reason: 'missing', message: `challengeToken is required: solve the proof of work (${parameters.bits} zero bits) published by the faucet descriptor.` };
  }
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return { ok: false, reason: 'malformed', message: 'challengeToken must be "<epoch>:<nonce>": a decimal epoch, a colon, then 1 to 32 characters 0-9 or a-z.' };
  const epoch = Number(match[1]);
  const nonce = match[2]!;
  const current = epochAt(now, parameters.epochSeconds);
  if (epoch > current) return { ok: false, reason: 'not_yet_valid', message: `The token is for epoch ${epoch}, but the current epoch is ${current}: check the clock that computed it.` };
  if (epoch < current - 1) {
    return { ok: false, reason: 'expired', message: `The token is for epoch ${epoch}; only epochs ${current - 1} and ${current} are accepted now. Solve a new challenge.` };
  }
  const digest = digestOf(address, epoch, nonce);
  const zeros = leadingZeroBits(digest);
  if (zeros < parameters.bits) {
    return {
      ok: false,
      reason: 'insufficient_work',
      message: `blake2b256("${challengePreimage(address, epoch, nonce)}") starts with ${zeros} zero bits; ${parameters.bits} are required. The token is bound to the address it was solved for.`,
    };
  }
  return { ok: true, epoch, nonce, digest: hex.encode(digest), expiresAt: new Date((epoch + 2) * parameters.epochSeconds * 1000) };
}

/**
 * Finds a token for `address` in `epoch` by counting nonces in base 36 from `startNonce`. Expected
 * work is 2^bits hashes. Returns undefined after `maxAttempts` tries.
 */
export function solveChallenge(address: string, epoch: number, bits: number, options: { startNonce?: number; maxAttempts?: number } = {}): string | undefined {
  const start = options.startNonce ?? 0;
  const attempts = options.maxAttempts ?? Number.MAX_SAFE_INTEGER;
  for (let counter = start; counter < start + attempts; counter++) {
    const nonce = counter.toString(36);
    if (!NONCE_PATTERN.test(nonce)) break;
    if (leadingZeroBits(digestOf(address, epoch, nonce)) >= bits) return `${epoch}:${nonce}`;
  }
  return undefined;
}
