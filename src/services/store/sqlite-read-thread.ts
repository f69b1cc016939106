/**
 * The embedded store's reads, answered off the event loop. `node:sqlite` runs a statement on the
 * thread that calls it; a read that meets pages not in memory (a store of a million receipts is
 * gigabytes) or a long list held the server's event loop for tens of milliseconds, and every
 * request waited behind it. Here one worker thread per process holds a read-only connection to
 * each open database file and runs the reads; the event loop only sends the statement and takes
 * the rows back (a round trip of about 20 microseconds).
 *
 * The thread is shared by every store the process opens (tests open hundreds) and started on the
 * first read. It keeps the process alive only while a read is waiting for it. If it ends, the
 * reads waiting for it fail as the driver reports it and the next read starts a new one, which
 * opens the same files again. A read sees the newest committed state when it starts, as a second
 * connection in WAL mode does; the writer's connection stays on the event loop (its statements are
 * single-row writes on indexed keys, and the group commit needs its transaction there), and the
 * thread runs the writer's checkpoints.
 */
import { Worker } from 'node:worker_threads';
import { lowerNewHelperThreads } from '../../lib/helper-threads.ts';

/** What the thread answers for a statement that failed: enough for the driver to classify it. */
export interface ReadFailure {
  kind: 'TypeError' | 'RangeError' | 'Error';
  message: string;
  errcode?: number;
  errstr?: string;
  code?: string;
}

type Request =
  | { op: 'open'; connection: number; file: string; busyTimeoutMs: number }
  | { op: 'all'; id: number; connection: number; sql: string; params: unknown[] }
  | { op: 'close'; id: number; connection: number };

type Answer = { id: number; rows: unknown[] } | { id: number; failure: ReadFailure };

/**
 * The thread's whole program, started from its source text (`eval`), so that the same code runs
 * from the TypeScript sources, the bundled server and the bundled command line without a file of
 * its own to find. It may use nothing from this module's scope.
 */
function readThread(): void {
  const { parentPort } = process.getBuiltinModule('node:worker_threads');
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  type Connection = { db: InstanceType<typeof DatabaseSync>; statements: Map<string, ReturnType<InstanceType<typeof DatabaseSync>['prepare']>> };
  const connections = new Map<number, Connection | { failure: unknown }>();
  const MAX_CACHED_STATEMENTS = 256;

  const failureOf = (error: unknown) => {
    const e = error as Error & { errcode?: number; errstr?: string; code?: string };
    const kind = error instanceof TypeError ? 'TypeError' : error instanceof RangeError ? 'RangeError' : 'Error';
    return { kind, message: e?.message ?? String(error), errcode: e?.errcode, errstr: e?.errstr, code: e?.code };
  };

  parentPort!.on('message', (request: Request) => {
    if (request.op === 'open') {
      try {
        const db = new DatabaseSync(request.file, { timeout: request.busyTimeoutMs });
        db.exec('PRAGMA query_only = 1');
        connections.set(request.connection, { db, statements: new Map() });
      } catch (error) {
        connections.set(request.connection, { failure: error });
      }
      return;
    }
    if (request.op === 'close') {
      const connection = connections.get(request.connection);
      connections.delete(request.connection);
      try {
        if (connection && 'db' in connection && connection.db.isOpen) connection.db.close();
        parentPort!.postMessage({ id: request.id, rows: [] });
      } catch (error) {
        parentPort!.postMessage({ id: request.id, failure: failureOf(error) });
      }
      return;
    }
    const connection = connections.get(request.connection);
    try {
      if (!connection) throw Object.assign(new Error('the embedded store is closed'), { errcode: 21, errstr: 'bad parameter or other API misuse' });
      if ('failure' in connection) throw connection.failure;
      let statement = connection.statements.get(request.sql);
      if (!statement) {
        if (connection.statements.size >= MAX_CACHED_STATEMENTS) connection.statements.clear();
        statement = connection.db.prepare(request.sql.replace(/\$(\d+)/g, '?$1'));
        connection.statements.set(request.sql, statement);
      }
      parentPort!.postMessage({ id: request.id, rows: statement.all(...(request.params as never[])) });
    } catch (error) {
      parentPort!.postMessage({ id: request.id, failure: failureOf(error) });
    }
  });
}

/** The error the thread reported, rebuilt as the driver would have met it on the event loop. */
export function errorOf(failure: ReadFailure): Error {
  if (failure.kind === 'TypeError') return Object.assign(new TypeError(failure.message), { code: failure.code });
  if (failure.kind === 'RangeError') return Object.assign(new RangeError(failure.message), { code: failure.code });
  return Object.assign(new Error(failure.message), { errcode: failure.errcode, errstr: failure.errstr, code: failure.code });
}

interface Waiting {
  resolve: (rows: unknown[]) => void;
  reject: (error: unknown) => void;
}

/**
 * The thread's heap: it holds one statement's rows until they are sent (the largest the store asks
 * for is a few hundred receipts, about a megabyte). A worker's default young generation may grow to
 * 192 MiB, which resident memory would show; a read past these limits ends the thread, so its reads
 * fail as unavailable and the next read starts a new one.
 */
const READ_THREAD_HEAP = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 64 };

let thread: Worker | undefined;
const waiting = new Map<number, Waiting>();
/** Every open connection, so that a new thread can open them again. */
const open = new Map<number, { file: string; busyTimeoutMs: number }>();
let nextId = 0;
let nextConnection = 0;

function started(): Worker {
  if (thread) return thread;
  const worker = new Worker(`(${readThread.toString()})()`, { eval: true, name: 'sqlite reads', resourceLimits: READ_THREAD_HEAP });
  worker.unref();
  // Started on the first read, after the server's first look: it yields a busy core to the loop from the start.
  worker.once('online', () => lowerNewHelperThreads());
  worker.on('message', (answer: Answer) => {
    const read = waiting.get(answer.id);
    if (!read) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if ('rows' in answer) read.resolve(answer.rows);
    else read.reject(errorOf(answer.failure));
  });
  const ended = (error: unknown) => {
    if (thread !== worker) return;
    thread = undefined;
    const reads = [...waiting.values()];
    waiting.clear();
    const failure = error instanceof Error ? error : new Error(`the read thread ended (exit code ${String(error)})`);
    for (const read of reads) read.reject(Object.assign(new Error(`embedded store reads: ${failure.message}`, { cause: failure }), { errcode: 10 }));
  };
  worker.on('error', ended);
  worker.on('exit', ended);
  for (const [connection, { file, busyTimeoutMs }] of open) worker.postMessage({ op: 'open', connection, file, busyTimeoutMs } satisfies Request);
  thread = worker;
  return worker;
}

/** A read-only connection to `file` held by the read thread. */
export interface ReadConnection {
  /** The rows of one statement (`$1`-style parameters), or the error SQLite raised for it. */
  all<R>(sql: string, params: unknown[]): Promise<R[]>;
  /**
   * Copies the WAL's committed pages into the database file (a PASSIVE checkpoint: it waits for no
   * reader or writer). The writer leaves this to the thread: a checkpoint of a few thousand pages
   * took 17 ms, which a commit that reached the automatic threshold spent on the event loop.
   */
  checkpoint(): Promise<void>;
  /** Closes the connection after the reads already sent; resolves once the file is closed. */
  close(): Promise<void>;
}

/** Opens a read-only connection to `file` on the read thread (opened there before its first read). */
export function openReadConnection(file: string, busyTimeoutMs: number): ReadConnection {
  const connection = ++nextConnection;
  open.set(connection, { file, busyTimeoutMs });
  thread?.postMessage({ op: 'open', connection, file, busyTimeoutMs } satisfies Request);
  return {
    all: <R>(sql: string, params: unknown[]) => ask<R>({ op: 'all', id: ++nextId, connection, sql, params }),
    async checkpoint(): Promise<void> {
      // A statement like any read: query_only forbids changes to the content, not a checkpoint.
      if (open.has(connection)) await ask({ op: 'all', id: ++nextId, connection, sql: 'PRAGMA wal_checkpoint(PASSIVE)', params: [] });
    },
    async close(): Promise<void> {
      if (!open.delete(connection)) return;
      // No thread runs: the file is open nowhere.
      if (!thread) return;
      await ask({ op: 'close', id: ++nextId, connection });
    },
  };
}

/** Sends `request` to the thread (started if need be) and answers what it answers. */
function ask<R>(request: Extract<Request, { id: number }>): Promise<R[]> {
  const worker = started();
  return new Promise<R[]>((resolve, reject) => {
    try {
      worker.postMessage(request);
    } catch (error) {
      // A parameter that cannot cross to the thread cannot be bound either: the caller's bug.
      reject(new TypeError(`embedded store read: a parameter cannot be bound (${(error as Error).message})`, { cause: error }));
      return;
    }
    if (waiting.size === 0) worker.ref();
    waiting.set(request.id, { resolve: resolve as (rows: unknown[]) => void, reject });
  });
}

/**
 * Ends the read thread now, as a crash would: the reads waiting for it fail as unavailable, and
 * the next read starts a new thread that opens every connection again. For the tests of that path.
 */
export async function endReadThread(): Promise<void> {
  await thread?.terminate();
}
