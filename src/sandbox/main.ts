/**
 * `npm run sandbox`: starts the sandbox chain on 127.0.0.1:SANDBOX_PORT (default 4323) and says how
 * to point the service at it. Stops on SIGINT or SIGTERM; its chain lives in memory only.
 */
import { loadSandboxConfig } from '../config/sandbox.ts';
import { startSandbox } from './server.ts';

async function main(): Promise<void> {
  const config = loadSandboxConfig();
  const sandbox = await startSandbox({ port: config.port, startHeight: config.startHeight, blockSeconds: config.blockSeconds });
  const lines = [
    `sandbox chain listening on ${sandbox.url} (height ${sandbox.chain.height}; a local stand-in for the Ergo testnet, never a proof)`,
    `  Explorer API v1: ${sandbox.url}/api/v1    node API: ${sandbox.url}    controls: ${sandbox.url}/sandbox`,
    `  run the service against it:  ERGO_EXPLORER_URL=${sandbox.url} CHAIN_SOURCE=sandbox npm start`,
    `  pay a premium quote:         SANDBOX_URL=${sandbox.url} npm run -s sandbox:pay -- quote.json`,
    config.blockSeconds > 0 ? `  a block is mined every ${config.blockSeconds} s` : '  blocks are mined on demand: each Note mints one, POST /sandbox/mine adds more',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${(error as Error)?.message ?? error}\n`);
  process.exit(1);
});
