/**
 * A tiny scripted HTTP server on a free loopback port, for failure paths a real service will not
 * produce on demand: slow answers, garbage, 5xx, 404 then a node fallback. Each path maps to a list
 * of behaviours consumed in order (the last one repeats), and every request is counted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hang: true }
  | { stallBody: true; status?: number };

export interface FakeServer {
  url: string;
  hits: (path: string) => number;
  /** Requests received on any path. */
  requests: () => number;
  set: (path: string, ...behaviours: Behaviour[]) => void;
  close: () => Promise<void>;
}

export async function startFakeServer(): Promise<FakeServer> {
  const scripts = new Map<string, Behaviour[]>();
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const script = scripts.get(path);
    const behaviour: Behaviour = script ? (script.length > 1 ? script.shift()! : script[0]!) : { status: 404, body: '{"status":404,"reason":"not scripted"}' };
    if ('hang' in behaviour) return;
    if ('stallBody' in behaviour) {
      res.writeHead(behaviour.status ?? 200, { 'content-type': 'application/json' });
      res.write('{"height":');
      return;
    }
    res.writeHead(behaviour.status, { 'content-type': 'application/json', ...behaviour.headers });
    res.end(behaviour.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: (path) => counts.get(path) ?? 0,
    requests: () => [...counts.values()].reduce((sum, count) => sum + count, 0),
    set: (path, ...behaviours) => void scripts.set(path, behaviours),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
