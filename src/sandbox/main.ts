/**
 * `npm run sandbox`: starts the sandbox chain on 127.0.0.1:SANDBOX_PORT (default 4323) and says how
 * to point the service at it. Its chain is kept in SANDBOX_CHAIN_FILE (default
 * `DATA_DIR/sandbox-chain.json`) and continues from it after a restart, so the Notes paid with it
 * stay on it while the service's receipts name them; `npm run sandbox -- --fresh` starts an empty
 * chain in its place. Stops on SIGINT or SIGTERM.
 */
import { loadSandboxConfig } from '../config/sandbox.ts';
import { startSandbox } from './server.ts';

const FRESH = 'npm run sandbox -- --fresh';
const USAGE = [
  'usage: npm run sandbox [-- --fresh]',
  '  --fresh   start an empty chain at SANDBOX_START_HEIGHT, replacing the one kept in SANDBOX_CHAIN_FILE',
  '  --help    print this',
].join('\n');

/** The command's arguments; throws naming one it does not take. */
function readSandboxArguments(args: readonly string[]): { fresh: boolean; help: boolean } {
  const read = { fresh: false, help: false };
  for (const arg of args) {
    if (arg === '--fresh') read.fresh = true;
    else if (arg === '--help' || arg === '-h') read.help = true;
    else throw new Error(`unknown argument '${arg}'\n${USAGE}`);
  }
  return read;
}

async function main(): Promise<void> {
  const { fresh, help } = readSandboxArguments(process.argv.slice(2));
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadSandboxConfig();
  const sandbox = await startSandbox({ port: config.port, startHeight: config.startHeight, blockSeconds: config.blockSeconds, chainFile: config.chainFile, fresh });
  const kept = {
    continued: `  chain kept in ${config.chainFile}, continued from the last run (${sandbox.chain.boxCount} boxes); \`${FRESH}\` starts an empty one in its place`,
    new: `  chain kept in ${config.chainFile} (a new one; a restart continues it); \`${FRESH}\` starts an empty one in its place`,
    fresh: `  chain kept in ${config.chainFile}, started empty (--fresh) in place of the one kept there`,
  };
  const lines = [
    `sandbox chain listening on ${sandbox.url} (height ${sandbox.chain.height}; a local stand-in for the Ergo testnet, never a proof)`,
    kept[sandbox.kept!.start],
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
