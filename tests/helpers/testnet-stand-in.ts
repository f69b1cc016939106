/**
 * The sandbox chain passed off as the Ergo testnet: a loopback proxy that forwards every request to
 * the sandbox and drops the `x-ergo-sandbox` marker from the answers. A server with
 * CHAIN_SOURCE=testnet pointed at it stores testnet receipts, which is how the tests reach what only
 * testnet settlements produce (the reputation graph, the proof explorer's testnet proofs) without
 * the network. Test-only: nothing in src/ can be pointed at it by accident.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_MARKER_HEADER } from '../../src/services/chain/explorer-client.ts';

export interface TestnetStandIn {
  url: string;
  close(): Promise<void>;
}

export async function startTestnetStandIn(sandboxUrl: string): Promise<TestnetStandIn> {
  const target = new URL(sandboxUrl);
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      const headers = { ...answer.headers };
      delete headers[SANDBOX_MARKER_HEADER];
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    upstream.once('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
