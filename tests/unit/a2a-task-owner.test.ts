/**
 * The owner credential of an A2A task and ListTasks' cursor, as pure functions: what an
 * `Authorization` header proves (a bearer secret of 32 to 1024 token68 characters, kept only as a
 * domain-separated hash, compared in constant time), and a page token that names where a page ended
 * and nothing a client can bend into something else.
 */
import { describe, expect, it } from 'vitest';
import { pageTokenOf, readPageToken, stateFilterOf } from '../../src/domain/assistant/a2a-task-list.ts';
import { hashOwnerCredential, isTaskOwner, ownerCredentialOf } from '../../src/domain/assistant/a2a-task-owner.ts';
import { blake2b256Hex } from '../../src/domain/canonical-hash.ts';
import { hashRetryKey } from '../../src/domain/assistant/retry-key.ts';

const SECRET = 'Zm9vYmFyLWJhei0wMTIzNDU2Nzg5LWFiY2RlZmdoaWprbG1ub3A';

describe('the owner credential', () => {
  it('reads a bearer secret of 32 to 1024 token68 characters as its hash, the scheme in any case', () => {
    for (const header of [`Bearer ${SECRET}`, `bearer ${SECRET}`, `BEARER  ${SECRET}`, ` Bearer ${SECRET} `]) {
      expect(ownerCredentialOf(header), header).toEqual({ kind: 'owner', ownerHash: hashOwnerCredential(SECRET) });
    }
    expect(ownerCredentialOf(`Bearer ${'a'.repeat(32)}`).kind).toBe('owner');
    expect(ownerCredentialOf(`Bearer ${'a'.repeat(1024)}==`).kind).toBe('owner');
    expect(ownerCredentialOf(`Bearer a-b.c_d~e+f/g${'h'.repeat(20)}==`).kind).toBe('owner');
    expect(ownerCredentialOf(undefined)).toEqual({ kind: 'none' });
  });

  it('refuses what is not such a credential, saying why', () => {
    const cases: Array<[string, RegExp]> = [
      ['Basic dXNlcjpwYXNzd29yZA==', /not a Bearer credential/],
      ['Bearer', /not a Bearer credential/],
      ['', /not a Bearer credential/],
      [`Bearer ${'a'.repeat(31)}`, /has 31 characters/],
      [`Bearer ${'a'.repeat(1025)}`, /longer than 1024/],
      [`Bearer ${'a'.repeat(40)} extra`, /not a Bearer credential/],
      [`Bearer ${'a'.repeat(30)}=${'a'.repeat(10)}`, /outside that set/],
      [`Bearer ${'ü'.repeat(40)}`, /outside that set/],
    ];
    for (const [header, why] of cases) {
      const read = ownerCredentialOf(header);
      expect(read.kind, header).toBe('invalid');
      expect(read.kind === 'invalid' && read.message, header).toMatch(why);
    }
  });

  it('keeps a hash of its own domain: never the secret, its plain hash, or a retry key\'s hash', () => {
    const hash = hashOwnerCredential(SECRET);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(blake2b256Hex(SECRET));
    expect(hash).not.toBe(hashRetryKey(SECRET));
    expect(hashOwnerCredential(`${SECRET}x`)).not.toBe(hash);
  });

  it('owns a task only with the hash it was created with; a task without an owner is nobody\'s', () => {
    const owner = hashOwnerCredential(SECRET);
    expect(isTaskOwner(owner, hashOwnerCredential(SECRET))).toBe(true);
    expect(isTaskOwner(owner, hashOwnerCredential(`${SECRET}x`))).toBe(false);
    expect(isTaskOwner(owner, undefined)).toBe(false);
    expect(isTaskOwner(undefined, owner)).toBe(false);
    expect(isTaskOwner(undefined, undefined)).toBe(false);
    expect(isTaskOwner(owner, owner.slice(0, 32))).toBe(false);
    expect(isTaskOwner('', '')).toBe(false);
  });
});

describe('ListTasks page tokens', () => {
  const last = { updatedAt: new Date('2026-11-23T12:34:56.789Z'), taskId: '0f0e0d0c-0b0a-4909-8807-060504030201' };

  it('name where a page ended, and read back to it', () => {
    const token = pageTokenOf(last);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readPageToken(token)).toEqual(last);
  });

  it('refuse anything this service did not write: another version, a task id of another form, an instant not written as it writes them, garbage', () => {
    const encode = (text: string) => Buffer.from(text).toString('base64url');
    for (const token of [
      encode(`v2 ${last.updatedAt.toISOString()} ${last.taskId}`),
      encode(`v1 ${last.updatedAt.toISOString()} x' OR 1=1 --`),
      encode(`v1 2026-11-23T12:34:56Z ${last.taskId}`),
      encode(`v1 not-a-date ${last.taskId}`),
      encode(`v1 ${last.updatedAt.toISOString()} ${last.taskId} more`),
      '',
      'a.b',
      'x'.repeat(200),
    ]) {
      expect(readPageToken(token), token).toBeUndefined();
    }
  });

  it('filter states as A2A 1.0 names them: unspecified is any, a state no task here takes is none', () => {
    expect(stateFilterOf(undefined)).toBe('any');
    expect(stateFilterOf('TASK_STATE_UNSPECIFIED')).toBe('any');
    expect(stateFilterOf('TASK_STATE_CANCELED')).toBe('canceled');
    expect(stateFilterOf('TASK_STATE_INPUT_REQUIRED')).toBe('input-required');
    for (const state of ['TASK_STATE_SUBMITTED', 'TASK_STATE_REJECTED', 'TASK_STATE_AUTH_REQUIRED'] as const) expect(stateFilterOf(state)).toBe('none');
  });
});
