/**
 * Gates for tests that need PostgreSQL (127.0.0.1:5432, trust auth, database `test`, user postgres)
 * or Redis (127.0.0.1:6379). With CI=true a missing service fails the suite; otherwise its tests
 * are skipped with a printed reason, so a laptop without them still runs everything else.
 */
import net from 'node:net';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function gate(name: string, url: string, defaultPort: number): Promise<boolean> {
  if (await reachable(url, defaultPort)) return true;
  const where = new URL(url).host;
  if (process.env.CI === 'true') throw new Error(`${name} is required when CI=true but nothing answers at ${where}`);
  console.warn(`[skipped] ${name} tests: nothing answers at ${where} (they are required when CI=true)`);
  return false;
}

export const postgresAvailable = (): Promise<boolean> => gate('PostgreSQL', POSTGRES_URL, 5432);
export const redisAvailable = (): Promise<boolean> => gate('Redis', REDIS_URL, 6379);

/** A TCP server on a free loopback port that accepts connections and never answers: a hung peer. */
export async function startBlackHole(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
