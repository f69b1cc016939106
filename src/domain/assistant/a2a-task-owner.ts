/**
 * Who owns an A2A task: the client that created it, proved by a bearer credential the client picks
 * itself and sends as `Authorization: Bearer <secret>` on the message that creates the task. A task
 * id is enough to read a task and to pay it (paying someone's task only completes it for them), but
 * ending it by choice (CancelTask, a `payment-rejected` message) and finding it in ListTasks take the
 * same credential again. The store keeps only a domain-separated hash, so a leaked database names no
 * credential; a task created without one has no owner, and nobody can end it but a payment or its
 * quote's expiry.
 */
import { timingSafeEqual } from 'node:crypto';
import { blake2b256Hex } from '../canonical-hash.ts';

/** A secret long enough that guessing it is hopeless, in RFC 6750's token68 characters. */
export const OWNER_CREDENTIAL_PATTERN = /^[A-Za-z0-9\-._~+/]{32,1024}=*$/;

export const OWNER_SECRET_RULE = 'a secret of 32 to 1024 characters, each a letter, a digit or one of - . _ ~ + / (padding = at the end)';

export const OWNER_CREDENTIAL_RULE = `"Bearer " then ${OWNER_SECRET_RULE}`;

/** What a request's `Authorization` header says of its owner: nothing, a credential's hash, or why it is no credential. */
export type OwnerCredential = { kind: 'none' } | { kind: 'owner'; ownerHash: string } | { kind: 'invalid'; message: string };

/** The stored form of an owner credential; domain-separated so it never equals a token's or a retry key's hash. */
export function hashOwnerCredential(secret: string): string {
  return blake2b256Hex(`agent-economy a2a task owner v0:${secret}`);
}

/** Reads an `Authorization` header: the scheme is case-insensitive (RFC 9110), the secret is not. */
export function ownerCredentialOf(authorization: string | undefined): OwnerCredential {
  if (authorization === undefined) return { kind: 'none' };
  const bearer = /^Bearer +(\S*)$/i.exec(authorization.trim());
  if (!bearer) return { kind: 'invalid', message: `the Authorization header must be ${OWNER_CREDENTIAL_RULE}; this one is not a Bearer credential` };
  if (!OWNER_CREDENTIAL_PATTERN.test(bearer[1]!)) {
    const length = bearer[1]!.length;
    const why = length < 32 ? `its secret has ${length} characters` : length > 1024 ? 'its secret is longer than 1024 characters' : 'its secret holds a character outside that set';
    return { kind: 'invalid', message: `the Authorization header must be ${OWNER_CREDENTIAL_RULE}; ${why}` };
  }
  return { kind: 'owner', ownerHash: hashOwnerCredential(bearer[1]!) };
}

/**
 * Whether the caller presenting `callerHash` owns a task whose stored owner is `ownerHash`. The hashes
 * are compared in constant time, so how long a refusal takes says nothing of how much of a guess was
 * right; a task without an owner is nobody's.
 */
export function isTaskOwner(ownerHash: string | undefined, callerHash: string | undefined): boolean {
  if (ownerHash === undefined || callerHash === undefined) return false;
  const owner = Buffer.from(ownerHash, 'hex');
  const caller = Buffer.from(callerHash, 'hex');
  return owner.length === caller.length && owner.length > 0 && timingSafeEqual(owner, caller);
}
