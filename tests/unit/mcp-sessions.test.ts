/**
 * The MCP host's session table (src/mcp/sessions.ts): the cap per client address, the global cap
 * making room by evicting the session idle the longest, and the refusal when every session is
 * mid-call, which the integration tests cannot hold still long enough to see.
 */
import { describe, expect, it } from 'vitest';
import { clientKey, SessionTable, type Session } from '../../src/mcp/sessions.ts';

const session = (client: string, lastUsed: number, calls = 0): Session => ({ client, lastUsed, calls, open: calls });

describe('clientKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    [undefined, 'unknown'],
  ])('%s is the client %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});

describe('SessionTable', () => {
  it('at the per-client cap, gives a client\'s new session the place of its own idle session; refuses it only while every one is mid-call, initializations in progress included', () => {
    const table = new SessionTable<Session>({ maxSessions: 100, maxPerClient: 2 });
    table.add('a1', session('a', 1));
    table.add('a2', session('a', 2, 1));
    table.add('b1', session('b', 0));
    const third = table.admit('a');
    expect(third.admitted).toBe(true);
    // a1, its one idle session, is promised to the third; a2 is mid-call: a fourth is refused, and another client is not.
    expect(table.admit('a')).toEqual({ admitted: false, reason: 'client_limit' });
    expect(table.admit('b').admitted).toBe(true);
    // Its own session goes, not another client's idle one, even one used longer ago.
    if (third.admitted) expect(third.makeRoom()).toMatchObject({ id: 'a1' });
    expect(table.get('b1')).toBeDefined();
    expect(table.get('a2')).toBeDefined();
  });

  it('lets a client that never ends its sessions (the SDK\'s usual close()) connect again and again at its cap', () => {
    const table = new SessionTable<Session>({ maxSessions: 100, maxPerClient: 8 });
    for (let at = 0; at < 8; at++) table.add(`lazy${at}`, session('lazy', at));
    for (let again = 0; again < 20; again++) {
      const admission = table.admit('lazy');
      expect(admission.admitted, `connection ${again + 9}`).toBe(true);
      if (!admission.admitted) break;
      const made = admission.makeRoom();
      expect(made?.session.client).toBe('lazy');
      admission.release();
      table.add(`again${again}`, session('lazy', 100 + again));
    }
    expect(table.heldBy('lazy')).toBe(8);
    expect(table.size).toBe(8);
  });

  it('gives back an own eviction promised to an initialization that failed', () => {
    const table = new SessionTable<Session>({ maxSessions: 100, maxPerClient: 1 });
    table.add('a1', session('a', 1));
    const failing = table.admit('a');
    expect(failing.admitted).toBe(true);
    expect(table.admit('a')).toEqual({ admitted: false, reason: 'client_limit' });
    if (failing.admitted) failing.release();
    expect(table.get('a1')).toBeDefined();
    expect(table.admit('a').admitted).toBe(true);
  });

  it('at the global cap, evicts the session with no call in flight that was used the longest time ago', () => {
    const table = new SessionTable<Session>({ maxSessions: 3, maxPerClient: 10 });
    table.add('busy-oldest', session('a', 1, 1));
    table.add('idle-old', session('b', 2));
    table.add('idle-new', session('c', 3));
    const admission = table.admit('d');
    expect(admission.admitted).toBe(true);
    // Nothing is evicted until the new session is made.
    expect(table.get('idle-old')).toBeDefined();
    if (admission.admitted) expect(admission.makeRoom()).toMatchObject({ id: 'idle-old' });
    expect(table.get('idle-old')).toBeUndefined();
    expect(table.heldBy('b')).toBe(0);
    expect(table.size).toBe(2);
  });

  it('answers session_limit only when every session is mid-call', () => {
    const table = new SessionTable<Session>({ maxSessions: 2, maxPerClient: 10 });
    table.add('x', session('a', 1, 1));
    table.add('y', session('b', 2, 2));
    expect(table.admit('c')).toEqual({ admitted: false, reason: 'session_limit' });
    table.get('y')!.calls = 0;
    const admission = table.admit('c');
    expect(admission.admitted).toBe(true);
    if (admission.admitted) expect(admission.makeRoom()).toMatchObject({ id: 'y' });
  });

  it('promises each idle session to one newcomer only, and takes the promise back when the initialize fails', () => {
    const table = new SessionTable<Session>({ maxSessions: 2, maxPerClient: 10 });
    table.add('busy', session('a', 1, 1));
    table.add('idle', session('b', 2));
    const first = table.admit('c');
    expect(first.admitted).toBe(true);
    expect(table.admit('d')).toEqual({ admitted: false, reason: 'session_limit' });
    // The first initialize failed before its session was made: the idle session stays, and is free to give way again.
    if (first.admitted) first.release();
    expect(table.get('idle')).toBeDefined();
    const second = table.admit('d');
    expect(second.admitted).toBe(true);
    if (second.admitted) expect(second.makeRoom()).toMatchObject({ id: 'idle' });
  });

  it('counts initializations in progress against the global cap, so a burst cannot pass it', () => {
    const table = new SessionTable<Session>({ maxSessions: 2, maxPerClient: 10 });
    expect(table.admit('a').admitted).toBe(true);
    expect(table.admit('b').admitted).toBe(true);
    // Nothing registered yet, so nothing to evict.
    expect(table.admit('c')).toEqual({ admitted: false, reason: 'session_limit' });
  });

  it('gives a client its slot back when its session is deleted, once however often it is deleted', () => {
    const table = new SessionTable<Session>({ maxSessions: 10, maxPerClient: 1 });
    // Mid-call, so nothing of the client's can make room.
    table.add('a1', session('a', 1, 1));
    expect(table.admit('a').admitted).toBe(false);
    expect(table.delete('a1')).toBeDefined();
    expect(table.delete('a1')).toBeUndefined();
    expect(table.heldBy('a')).toBe(0);
    expect(table.admit('a').admitted).toBe(true);
  });
});
