/**
 * The MCP host's open sessions and who holds them. Two limits, so that no client can keep the others
 * out (issue 36: one address opened 94 sessions and every other client got 503 for 15 minutes):
 * - each client address holds at most `maxPerClient` sessions: at that cap a new session takes the
 *   place of that client's own session unused the longest among those with no call in flight, so a
 *   client that never ends its sessions (the SDK's usual close() does not) is not locked out by its
 *   own idle ones; one more is refused (429) only while every session of it is mid-call;
 * - at `maxSessions`, a new session takes the place of the one unused the longest among those with
 *   no call in flight, so a new client always gets one unless every session is mid-call (503).
 */
import { isIPv6 } from 'node:net';

/** What the table needs to know of a session; the host adds its transport and server. */
export interface Session {
  /** The client it belongs to (clientKey of the address that opened it). */
  client: string;
  /** When a request of it last began or ended (ms since the epoch). */
  lastUsed: number;
  /** POST and DELETE requests of it in flight: while there is one, it is mid-call and never evicted. */
  calls: number;
  /**
   * Requests of it in flight of every kind, its GET event stream included; the idle sweep closes
   * only sessions with none. An open event stream alone does not protect a session from eviction:
   * every SDK client keeps one, so counting it would let anyone hold the cap again.
   */
  open: number;
}

export type Admission<S extends Session> =
  | {
      admitted: true;
      /**
       * Call as the new session is made: at the cap, removes the session idle the longest and
       * returns it for the caller to close. Not before: an initialize request that then fails
       * (a wrong Accept header, say) must not cost another client its session.
       */
      makeRoom: () => { id: string; session: S } | undefined;
      /** Gives back the slot held while the session initializes; call once its initialize request ends. */
      release: () => void;
    }
  | { admitted: false; reason: 'client_limit' | 'session_limit' };

/**
 * The client a socket address stands for: an IPv4 address (IPv4-mapped IPv6 included) as itself,
 * an IPv6 address as its /64, the block one subscriber is usually given, so a single client cannot
 * pass the per-client cap by using more of its own addresses.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.split('%')[0]!;
  if (!isIPv6(bare)) return address;
  const [head = '', tail] = bare.split('::');
  const groups = (text: string) => (text === '' ? [] : text.split(':'));
  const headGroups = groups(head);
  const tailGroups = tail === undefined ? [] : groups(tail);
  // A dotted IPv4 tail is two groups' worth of bits.
  const tailWidth = tailGroups.reduce((width, group) => width + (group.includes('.') ? 2 : 1), 0);
  const expanded = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailWidth).fill('0'), ...tailGroups];
  return `${expanded
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

export class SessionTable<S extends Session> {
  readonly #sessions = new Map<string, S>();
  /** Sessions held, and initializations in progress, per client. */
  readonly #held = new Map<string, number>();
  #initializing = 0;
  /** Admitted initializations that will evict a session when their session is made. */
  #evictionsPromised = 0;
  /** Of those, the ones that will evict a session of their own client, per client. */
  readonly #ownEvictionsPromised = new Map<string, number>();

  readonly limits: { maxSessions: number; maxPerClient: number };

  constructor(limits: { maxSessions: number; maxPerClient: number }) {
    this.limits = limits;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): S | undefined {
    return this.#sessions.get(id);
  }

  ids(): string[] {
    return [...this.#sessions.keys()];
  }

  entries(): IterableIterator<[string, S]> {
    return this.#sessions.entries();
  }

  add(id: string, session: S): void {
    this.#sessions.set(id, session);
    this.#count(session.client, 1);
  }

  /** Removes a session; undefined when it was already gone (closed twice, or evicted). */
  delete(id: string): S | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    this.#sessions.delete(id);
    this.#count(session.client, -1);
    return session;
  }

  /** Sessions `client` holds or is initializing. */
  heldBy(client: string): number {
    return this.#held.get(client) ?? 0;
  }

  /**
   * Whether `client` may start a session now, making room if needed. Initializations in progress
   * count against both limits, so a burst of initialize requests cannot pass either.
   */
  admit(client: string): Admission<S> {
    // At its own cap, a client's new session replaces its own idle one: the table does not grow.
    const ownRoom = this.heldBy(client) >= this.limits.maxPerClient;
    if (ownRoom && this.#idleCount(client) <= (this.#ownEvictionsPromised.get(client) ?? 0)) return { admitted: false, reason: 'client_limit' };
    const needsRoom = !ownRoom && this.#sessions.size + this.#initializing >= this.limits.maxSessions;
    if (needsRoom && this.#idleCount() <= this.#evictionsPromised) return { admitted: false, reason: 'session_limit' };
    if (needsRoom || ownRoom) this.#evictionsPromised++;
    if (ownRoom) this.#ownEvictionsPromised.set(client, (this.#ownEvictionsPromised.get(client) ?? 0) + 1);
    this.#initializing++;
    this.#count(client, 1);
    let promised = needsRoom || ownRoom;
    let released = false;
    const unpromise = () => {
      promised = false;
      this.#evictionsPromised--;
      if (!ownRoom) return;
      const left = (this.#ownEvictionsPromised.get(client) ?? 1) - 1;
      if (left <= 0) this.#ownEvictionsPromised.delete(client);
      else this.#ownEvictionsPromised.set(client, left);
    };
    const makeRoom = () => {
      if (!promised) return undefined;
      unpromise();
      // Chosen now, not at admission: the session idle the longest then may have been used since.
      const id = this.#idleLongest(ownRoom ? client : undefined);
      return id === undefined ? undefined : { id, session: this.delete(id)! };
    };
    const release = () => {
      if (released) return;
      released = true;
      if (promised) unpromise();
      this.#initializing--;
      this.#count(client, -1);
    };
    return { admitted: true, makeRoom, release };
  }

  /** Sessions with no call in flight: of `client`, or of every client. */
  #idleCount(client?: string): number {
    let count = 0;
    for (const session of this.#sessions.values()) if (session.calls <= 0 && (client === undefined || session.client === client)) count++;
    return count;
  }

  /** The session with no call in flight that was used the longest time ago: of `client`, or of every client. */
  #idleLongest(client?: string): string | undefined {
    let oldest: string | undefined;
    let oldestUse = Infinity;
    for (const [id, session] of this.#sessions) {
      if (session.calls <= 0 && (client === undefined || session.client === client) && session.lastUsed < oldestUse) {
        oldest = id;
        oldestUse = session.lastUsed;
      }
    }
    return oldest;
  }

  #count(client: string, change: number): void {
    const count = (this.#held.get(client) ?? 0) + change;
    if (count <= 0) this.#held.delete(client);
    else this.#held.set(client, count);
  }
}
