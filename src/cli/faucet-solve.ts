/**
 * `npm run faucet:solve -- <testnet address> [--bits N] [--descriptor URL]`: solves the faucet's
 * proof-of-work challenge and prints a `challengeToken`, so a newcomer can try the faucet end to
 * end. The difficulty comes from `--bits`, else from the faucet descriptor at `--descriptor`
 * (which also gives the server's epoch), else from FAUCET_POW_BITS as the server would read it.
 * The address is checked first, exactly as the faucet checks it.
 */
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { FAUCET_EPOCH_SECONDS, loadFaucetConfig } from '../config/faucet.ts';
import { decodeAddress } from '../domain/ergo/address.ts';
import { epochAt, solveChallenge } from '../domain/faucet/proof-of-work.ts';

export interface SolvedChallenge {
  challengeToken: string;
  epoch: number;
  bits: number;
  /** When the faucet stops accepting the token (end of the epoch after its own). */
  validUntil: Date;
}

/**
 * Solves the challenge for `address`. Throws an Error with a sentence for the user when the
 * address is not a valid testnet address, since the faucet would refuse it anyway.
 */
export function solveFaucetChallenge(address: string, options: { bits: number; epochSeconds?: number; epoch?: number; now?: Date }): SolvedChallenge {
  const check = decodeAddress(address);
  if (!check.valid) throw new Error(`"${address}" is not a valid Ergo address: ${check.message}`);
  if (check.network !== 'testnet') throw new Error(`"${address}" is a ${check.network} address; the faucet pays testnet addresses only`);
  const epochSeconds = options.epochSeconds ?? FAUCET_EPOCH_SECONDS;
  const epoch = options.epoch ?? epochAt(options.now ?? new Date(), epochSeconds);
  // A random start keeps two solvers of the same address from finding the same (single-use) nonce.
  const challengeToken = solveChallenge(address, epoch, options.bits, { startNonce: randomInt(0, 36 ** 8) });
  if (!challengeToken) throw new Error('no nonce found in the nonce space; choose fewer bits');
  return { challengeToken, epoch, bits: options.bits, validUntil: new Date((epoch + 2) * epochSeconds * 1000) };
}

interface DescriptorParameters {
  bits: number;
  epochSeconds: number;
  epoch: number;
}

export async function readDescriptor(url: string): Promise<DescriptorParameters> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000), headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`the faucet descriptor at ${url} answered ${response.status}`);
  const body = (await response.json()) as { anti_abuse?: { difficulty_bits?: unknown; challenge?: { epoch_seconds?: unknown; current_epoch?: unknown } } };
  const { difficulty_bits: bits, challenge } = body.anti_abuse ?? {};
  if (typeof bits !== 'number' || typeof challenge?.epoch_seconds !== 'number' || typeof challenge.current_epoch !== 'number') {
    throw new Error(`${url} is not a faucet descriptor (anti_abuse.difficulty_bits and anti_abuse.challenge are missing)`);
  }
  return { bits, epochSeconds: challenge.epoch_seconds, epoch: challenge.current_epoch };
}

function usage(): never {
  console.error('usage: npm run faucet:solve -- <testnet address> [--bits N] [--descriptor URL]');
  process.exit(2);
}

export async function main(argv: string[]): Promise<void> {
  const positional: string[] = [];
  let bits: number | undefined;
  let descriptor: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--bits') {
      bits = Number(argv[++index]);
      if (!Number.isInteger(bits) || bits < 0 || bits > 32) usage();
    } else if (argument === '--descriptor') {
      descriptor = argv[++index] ?? usage();
    } else if (argument.startsWith('--')) usage();
    else positional.push(argument);
  }
  if (positional.length !== 1) usage();
  const parameters = descriptor ? await readDescriptor(descriptor) : undefined;
  const effectiveBits = bits ?? parameters?.bits ?? loadFaucetConfig().powBits;
  const started = performance.now();
  const solved = solveFaucetChallenge(positional[0]!, { bits: effectiveBits, epochSeconds: parameters?.epochSeconds, epoch: parameters?.epoch });
  console.error(
    `solved ${solved.bits} bits for epoch ${solved.epoch} in ${Math.round(performance.now() - started)} ms; valid until ${solved.validUntil.toISOString()}, for one payout request:`,
  );
  console.log(solved.challengeToken);
}

// Run only as `node src/cli/faucet-solve.ts`: bundled into the `agent-economy` command, import.meta.url is the bundle's.
if (process.argv[1]?.endsWith('faucet-solve.ts') && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`faucet:solve: ${(error as Error)?.message ?? error}`);
    process.exit(1);
  });
}
