/**
 * The `agent-economy` command (package `bin`, bundled by `npm run build` into
 * `dist/cli/agent-economy.mjs`): verify a receipt, reconcile the proof explorer, run a developer tool
 * or a policy check offline,
 * solve the faucet's proof of work, pay a sandbox quote. Every command has `--help`; every failure
 * is one line on stderr and a non-zero exit, never a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { fileURLToPath } from 'node:url';
import packageJson from '../../package.json' with { type: 'json' };
import { loadSandboxConfig } from '../config/sandbox.ts';
import { defaultBaseUrl } from '../config/build-origin.ts';
import { site } from '../config/site.ts';
import { routePath } from '../catalogue/lookup.ts';
import { ERGO_EXPLORER_URL_DEFAULT } from '../config/chain.ts';
import { createChainClient, explorerNetwork, type ExplorerChainClient } from '../services/chain/explorer-client.ts';
import { CliError, EXIT_FAILED, EXIT_USAGE, processOutput, type Output } from './output.ts';
import { loadFaucetConfig } from '../config/faucet.ts';
import { readDescriptor, solveFaucetChallenge } from './faucet-solve.ts';
import { inspect } from './inspect.ts';
import { policyCheck } from './policy-check.ts';
import { sandboxPay } from './sandbox-pay.ts';
import { ajvValidator, reconcile } from './reconcile.ts';
import { verifyReceipt, type VerifierChain } from './verify-receipt.ts';
import { readVerifierKeyOption, readWitnessOptions } from './receipt-log-proof.ts';
import { readSignedReceiptOption } from './signed-receipt.ts';
import { monitor } from './monitor.ts';
import { reputationFromLog } from './reputation.ts';
import { witnessKey, witnessServe } from './witness.ts';

const CHAIN_TIMEOUT_MS = 10_000;

/**
 * The chain source at `explorerUrl`, read through the same Explorer API client the server uses. It
 * is asked which chain it serves once, when a receipt first needs it, and its client is made for
 * that chain, so a testnet client still refuses any answer the sandbox marks.
 */
function verifierChain(explorerUrl: string): VerifierChain {
  let network: Promise<'testnet' | 'sandbox'> | undefined;
  let client: Promise<ExplorerChainClient> | undefined;
  const networkOnce = () =>
    (network ??= explorerNetwork(explorerUrl, CHAIN_TIMEOUT_MS).catch((error: unknown) => {
      network = undefined;
      throw error;
    }));
  return {
    explorerUrl,
    network: networkOnce,
    getBox: async (boxId) => {
      client ??= networkOnce().then((source) => createChainClient({ explorerUrl, timeoutMs: CHAIN_TIMEOUT_MS, retries: 1, source }));
      return (await client).getBox(boxId);
    },
    getTransactionPayer: async (transactionId) => {
      client ??= networkOnce().then((source) => createChainClient({ explorerUrl, timeoutMs: CHAIN_TIMEOUT_MS, retries: 1, source }));
      return (await client).getTransactionPayer(transactionId);
    },
  };
}

interface Command {
  usage: string;
  summary: string;
  help: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Positional arguments required, by name. */
  positionals: string[];
  run: (positionals: string[], values: Record<string, string | boolean | string[] | undefined>, output: Output) => Promise<number> | number;
}

/** The site the build was made for (SITE_BASE_URL overrides it), so `npm start` on another port needs no flag. */
const DEFAULT_BASE = defaultBaseUrl(import.meta.url);
const baseOption = { base: { type: 'string' as const } };
const jsonOption = { json: { type: 'boolean' as const } };
const baseOf = (values: Record<string, string | boolean | string[] | undefined>): string => {
  const base = typeof values.base === 'string' ? values.base : DEFAULT_BASE;
  try {
    const url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new CliError(`--base must be an absolute http(s) URL such as ${DEFAULT_BASE}, got "${base}"`);
  }
  return base.replace(/\/+$/, '');
};

/**
 * The chain source receipts are checked against: `--explorer`, else ERGO_EXPLORER_URL, else the
 * public testnet explorer. Never one the bundle or the site names: they are the party being checked.
 */
const chainOf = (values: Record<string, string | boolean | string[] | undefined>): VerifierChain => {
  const fromFlag = typeof values.explorer === 'string';
  const explorer = fromFlag ? (values.explorer as string) : process.env.ERGO_EXPLORER_URL || ERGO_EXPLORER_URL_DEFAULT;
  try {
    const url = new URL(explorer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new CliError(`${fromFlag ? '--explorer' : 'ERGO_EXPLORER_URL'} must be an absolute http(s) URL such as ${ERGO_EXPLORER_URL_DEFAULT}, got "${explorer}"`);
  }
  return verifierChain(explorer.replace(/\/+$/, ''));
};
const witnessOptions = { witness: { type: 'string' as const, multiple: true as const }, quorum: { type: 'string' as const } };
const witnessesOf = (values: Record<string, unknown>) => {
  const witnesses = readWitnessOptions(values);
  return witnesses ? { witnesses } : {};
};
const witnessHelp = [
  "  --witness VKEY   a witness whose cosignature the checkpoint must carry (its verifier key, type 0x04, or a",
  '                   file holding it; repeatable): a checkpoint its witnesses cosigned was shown to them, so',
  '                   the log cannot show you a fork of what they saw',
  '  --quorum K       how many of the --witness keys must have cosigned (default: all of them)',
];
const explorerHelp = [
  `  --explorer URL   Explorer API to re-read Notes from (default ERGO_EXPLORER_URL, else ${ERGO_EXPLORER_URL_DEFAULT})`,
  '                   Never the explorer a bundle or the site names: whoever wrote the bundle would choose',
  '                   who confirms it. A bundle whose chain is not the one this source serves fails;',
  '                   a sandbox receipt is checked by naming that sandbox here.',
];

const COMMANDS: Record<string, Command> = {
  'verify-receipt': {
    usage: 'agent-economy verify-receipt <receiptId|txId|file> [--base URL] [--explorer URL] [--log-key KEY] [--witness VKEY ... [--quorum K]] [--proof FILE] [--signed-receipt JWS|FILE [--x402-key KEY]] [--offline] [--require-log] [--json]',
    summary: 'Re-verify one receipt bundle: every hash recomputed, the Note re-read on your chain source, its log proof checked.',
    help: [
      'Fetches the bundle from the site by receipt id or settlement transaction id (or reads it from a',
      'file), recomputes the receipt id, the task hash and the Note binding from the serialized registers,',
      'checks amount and confirmations, then re-reads the Note box from your chain source and compares it.',
      "Then checks the receipt's log proof (GET /api/assistant/receipt/{id}/proof): the checkpoint's",
      "signature by the log's verifier key and its origin, and the inclusion of the bundle's own canonical JSON.",
      '',
      'Options:',
      `  --base URL       site to fetch the receipt from (default ${DEFAULT_BASE})`,
      ...explorerHelp,
      "  --log-key KEY    the log's verifier key to trust (the line, or a file holding it); without it the",
      "                   site's own key is fetched and reported as trusted on first use",
      ...witnessHelp,
      '  --proof FILE     a saved .tlog-proof instead of the one the site serves now',
      '  --signed-receipt JWS|FILE  the signed x402 receipt of the paid answer (its JWS, the receipt object, or',
      '                   the PAYMENT-RESPONSE header value): its signature must verify with the site\'s x402',
      '                   key and it must name this receipt, its settlement transaction and its quote',
      '  --x402-key KEY   the x402 signing key to trust (a JWK\'s x); without it the site\'s did:web',
      '                   document is read and its key reported as trusted on first use',
      '  --offline        read nothing but the bundle file, --proof and --log-key (all three required):',
      '                   no network at all, so the Note is not re-read on a chain',
      '  --require-log    fail a receipt no checkpoint includes yet (by default reported as pending)',
      '  --json           print one JSON object instead of check lines',
      '',
      'Exit status: 0 every check passes (a pending log proof included), 1 a check fails, 2 bad usage.',
    ].join('\n'),
    options: {
      ...baseOption,
      explorer: { type: 'string' },
      'log-key': { type: 'string' },
      ...witnessOptions,
      proof: { type: 'string' },
      'signed-receipt': { type: 'string' },
      'x402-key': { type: 'string' },
      offline: { type: 'boolean' },
      'require-log': { type: 'boolean' },
      ...jsonOption,
    },
    positionals: ['receiptId|txId|file'],
    run: ([target], values, output) =>
      verifyReceipt(
        target!,
        {
          base: baseOf(values),
          json: Boolean(values.json),
          ...(typeof values['log-key'] === 'string' ? { logKey: readVerifierKeyOption(values['log-key']) } : {}),
          ...witnessesOf(values),
          ...(typeof values.proof === 'string' ? { proofFile: values.proof } : {}),
          ...(typeof values['signed-receipt'] === 'string' ? { signedReceipt: readSignedReceiptOption(values['signed-receipt']) } : {}),
          ...(typeof values['x402-key'] === 'string' ? { x402Key: values['x402-key'] } : {}),
          offline: Boolean(values.offline),
          requireLog: Boolean(values['require-log']),
        },
        chainOf(values),
        output,
      ),
  },
  reconcile: {
    usage: 'agent-economy reconcile [--base URL] [--explorer URL] [--log-key KEY] [--witness VKEY ... [--quorum K]] [--json] [--sandbox]',
    summary: 'Re-verify every proof the proof explorer lists.',
    help: [
      'Reads the proof explorer of the site and re-verifies each proof from the outside: receipt proofs',
      "from their bundles and your chain source, the policy proof by asking the site's policy check about its",
      'published example and each unsafe variant, the schema proof by validating every served descriptor',
      'against its served JSON Schema. Shows a progress bar on a terminal.',
      '',
      'Options:',
      `  --base URL       site whose proofs to reconcile (default ${DEFAULT_BASE})`,
      ...explorerHelp,
      "  --log-key KEY    also check each receipt's log proof against this verifier key (the line, or a file",
      '                   holding it); with --witness alone, the site\'s own key is trusted on first use',
      ...witnessHelp,
      '  --json           one JSON line per proof: {id, kind, ok, site_reported_ok, checks}',
      '  --sandbox        also re-verify the sandbox receipts listed apart (never proofs; they pass only',
      '                   with --explorer naming that sandbox)',
      '',
      'Exit status: 0 every proof reconciles, 1 a proof fails, 2 bad usage.',
    ].join('\n'),
    options: { ...baseOption, explorer: { type: 'string' }, 'log-key': { type: 'string' }, ...witnessOptions, ...jsonOption, sandbox: { type: 'boolean' } },
    positionals: [],
    run: async (_positionals, values, output) =>
      reconcile(
        {
          base: baseOf(values),
          json: Boolean(values.json),
          sandbox: Boolean(values.sandbox),
          ...(typeof values['log-key'] === 'string' || values.witness !== undefined
            ? { log: { ...(typeof values['log-key'] === 'string' ? { logKey: readVerifierKeyOption(values['log-key']) } : {}), ...witnessesOf(values) } }
            : {}),
        },
        { chain: chainOf(values), validateJsonSchema: await ajvValidator() },
        output,
      ),
  },
  monitor: {
    usage: 'agent-economy monitor --state FILE [--base URL] [--log-key KEY] [--witness VKEY ... [--quorum K]] [--json]',
    summary: "Watch the receipt log: each checkpoint must extend the last one kept, each new entry be its leaf's receipt.",
    help: [
      "Fetches the receipt log's checkpoint and verifies its signature, then reads the level-0 tiles from where",
      'the last run stopped and recomputes from them both the root kept in FILE (the log must not have forked',
      'or shrunk) and the new signed root (the tiles must be the signed tree). Reads every new entry bundle and',
      'checks each entry hashes to its leaf, is canonical JSON and a receipt bundle whose id is its own. Only',
      'then is the new checkpoint kept. Run it on a schedule; the first run reads the whole log.',
      '',
      'Options:',
      '  --state FILE     where the verifier key, the last checkpoint and a few subtree hashes are kept (made',
      '                   on the first run)',
      `  --base URL       site whose log to watch (default ${DEFAULT_BASE})`,
      "  --log-key KEY    the log's verifier key (the line, or a file holding it); without it the key kept in",
      "                   FILE, or on the first run the site's own, trusted on first use",
      ...witnessHelp,
      '  --json           print one JSON object on success',
      '',
      'Exit status: 0 the log is consistent and the state was updated; 1 the log forked, shrank, served a',
      'checkpoint, tile or entry that does not verify, or could not be read (the state is left as it was);',
      '2 bad usage.',
    ].join('\n'),
    options: { ...baseOption, state: { type: 'string' }, 'log-key': { type: 'string' }, ...witnessOptions, ...jsonOption },
    positionals: [],
    run: (_positionals, values, output) => {
      if (typeof values.state !== 'string') throw new CliError('monitor needs --state FILE: where the last checkpoint it accepted is kept');
      return monitor(
        {
          stateFile: values.state,
          base: baseOf(values),
          json: Boolean(values.json),
          ...(typeof values['log-key'] === 'string' ? { logKey: readVerifierKeyOption(values['log-key']) } : {}),
          ...witnessesOf(values),
        },
        output,
      );
    },
  },
  'witness key': {
    usage: 'agent-economy witness key --key FILE --name NAME',
    summary: "Print a witness's verifier key (type 0x04), making its Ed25519 key in FILE first when there is none.",
    help: [
      'A witness cosigns a log\'s checkpoints (c2sp.org/tlog-cosignature, cosignature/v1) only after checking',
      'each extends the last one it cosigned. This prints the key a log is given in LOG_WITNESSES, and readers',
      'in --witness: <name>+<key id>+<base64(0x04 || public key)>. The key file is made (mode 0600) when absent.',
      '',
      'Options:',
      '  --key FILE       the witness\'s Ed25519 private key (PKCS#8 PEM); made when absent',
      '  --name NAME      the witness\'s key name, a schema-less URL such as witness.example/w1',
      '',
      'Exit status: 0 printed; 2 bad usage or a key file that is not the witness\'s alone.',
    ].join('\n'),
    options: { key: { type: 'string' }, name: { type: 'string' } },
    positionals: [],
    run: (_positionals, values, output) => witnessKey(values, output),
  },
  'witness serve': {
    usage: 'agent-economy witness serve --key FILE --name NAME --state FILE --log VKEY [--log VKEY ...] [--port P] [--host H]',
    summary: 'Run a c2sp.org/tlog-witness: POST /add-checkpoint cosigns a checkpoint only when it extends the last one.',
    help: [
      'Serves POST /add-checkpoint (c2sp.org/tlog-witness): the body is `old <size>`, the consistency proof from',
      'that size, an empty line and the signed checkpoint. The witness checks the log\'s signature (403 if none',
      'verifies, 404 for a log it does not witness), that the old size is the one it last cosigned (409 with its',
      'size otherwise, or when the same size has another root) and the proof (422); then it keeps the new size',
      'and root in --state, durably, and only then answers with its cosignature. It never cosigns two',
      'inconsistent checkpoints of a log, across restarts. Its state must never be lost: a witness that lost',
      'it is retired (a new key, a new name), not restarted. Prints one JSON line when it listens.',
      '',
      'Options:',
      '  --key FILE       the witness\'s Ed25519 private key (PKCS#8 PEM, mode 0600; `witness key` makes one)',
      '  --name NAME      the witness\'s key name, as `witness key` printed it',
      '  --state FILE     the last checkpoint cosigned per log (made on the first cosignature)',
      '  --log VKEY       a log to witness: its verifier key, or a file holding it (repeatable)',
      '  --port P         port to listen on (default 0: any free one, printed)',
      '  --host H         address to listen on (default 127.0.0.1)',
      '',
      'Exit status: 0 stopped by SIGTERM or SIGINT; 2 bad usage, a key or state file it cannot use.',
    ].join('\n'),
    options: { key: { type: 'string' }, name: { type: 'string' }, state: { type: 'string' }, log: { type: 'string', multiple: true }, port: { type: 'string' }, host: { type: 'string' } },
    positionals: [],
    run: (_positionals, values, output) => witnessServe(values, output),
  },
  reputation: {
    usage: 'agent-economy reputation --from-log [--base URL] [--explorer URL] [--log-key KEY] [--json]',
    summary: "Recompute the site's reputation graph from its receipt log and compare: equal, or every difference.",
    help: [
      'Reads GET /api/agents/reputation, which names the receipt log checkpoint (size and root) it was derived',
      "from, then the log's signed checkpoint (its signature checked with the verifier key), every level-0 tile",
      'and entry bundle up to it (each entry against its leaf, each a receipt bundle whose id is its own), checks',
      'the named tree is the first entries of the signed one, and derives the graph from those entries with the',
      "site's own rules: the payer of each testnet receipt is the first input of its settlement transaction,",
      'read from your chain source. Prints OK when both graphs agree, else each difference.',
      '',
      'Options:',
      '  --from-log       required: the entries of the log are the only receipts read',
      `  --base URL       site whose graph and log to read (default ${DEFAULT_BASE})`,
      `  --explorer URL   Explorer API the payers are read from (default ERGO_EXPLORER_URL, else ${ERGO_EXPLORER_URL_DEFAULT})`,
      "  --log-key KEY    the log's verifier key (the line, or a file holding it); without it the site's own,",
      '                   trusted on first use',
      '  --json           print one JSON object',
      '',
      'Exit status: 0 equal; 1 the graphs differ, or the log did not verify; 2 bad usage.',
    ].join('\n'),
    options: { ...baseOption, 'from-log': { type: 'boolean' }, explorer: { type: 'string' }, 'log-key': { type: 'string' }, ...jsonOption },
    positionals: [],
    run: (_positionals, values, output) => {
      if (values['from-log'] !== true) throw new CliError('reputation needs --from-log: it recomputes the graph from the receipt log (the only source it has)');
      const chain = chainOf(values);
      return reputationFromLog(
        {
          base: baseOf(values),
          json: Boolean(values.json),
          explorerUrl: chain.explorerUrl,
          payerOf: chain.getTransactionPayer,
          ...(typeof values['log-key'] === 'string' ? { logKey: readVerifierKeyOption(values['log-key']) } : {}),
        },
        output,
      );
    },
  },
  inspect: {
    usage: 'agent-economy inspect <hash|address|box|tx|receipt> <input | file | -> [--hex] [--network mainnet|testnet] [--json]',
    summary: 'Run a developer tool offline: hash, decode an address, parse a box or a transaction, check a receipt bundle agrees with itself.',
    help: [
      'Runs the same code and request schema as POST /api/dev/tools and the MCP dev tools, offline. The input is',
      'the argument itself, the text of the file it names, or stdin for -. Prints one line of what was found',
      '(warnings on stderr); --json prints the whole result body the endpoint would answer.',
      '',
      'Options:',
      '  --hex              the input is hex bytes (a hash input, an ErgoTree, box or transaction bytes)',
      '  --network NAME     mainnet or testnet (default testnet): address encoding and prefix checks',
      '  --json             print the result body',
      '',
      'A receipt is checked against itself only (id, hashes, parts): verify-receipt reads the chain.',
      '',
      'Exit status: 0 read, 1 the input is not the object named (or an invalid address, a failing receipt), 2 bad usage.',
    ].join('\n'),
    options: { hex: { type: 'boolean' }, network: { type: 'string' }, ...jsonOption },
    positionals: ['action', 'input'],
    run: ([action, input], values, output) =>
      inspect(action!, input!, { hex: Boolean(values.hex), network: values.network as string | undefined, json: Boolean(values.json) }, output),
  },
  'policy-check': {
    usage: 'agent-economy policy-check <request.json> [--json]',
    summary: 'Run the wallet-agent policy check locally on a {profile, proposed_action} file.',
    help: [
      'Runs the same policy engine and request schema as POST /api/agent-economy/wallet-agent/policy-check,',
      'offline. Prints the verdict with every reason and warning; --json prints the verdict body.',
      'Nothing is signed or broadcast: an allow is advice to the host wallet, not authority.',
      '',
      'Exit status: 0 allowed, 1 denied, 2 the file is missing or not a valid request.',
    ].join('\n'),
    options: { ...jsonOption },
    positionals: ['request.json'],
    run: ([file], values, output) => policyCheck(file!, { json: Boolean(values.json) }, output),
  },
  'faucet-solve': {
    usage: 'agent-economy faucet-solve <testnet address> [--base URL | --bits N] [--json]',
    summary: "Solve the faucet's proof-of-work challenge for an address; prints a challengeToken.",
    help: [
      'Solves the proof of work POST /api/dev/faucet asks for (challengeToken) for one testnet address.',
      "With --base, the difficulty and the epoch come from that site's faucet descriptor; with --bits, from",
      'the option; otherwise from FAUCET_POW_BITS as the server reads it. The token is good for one payout',
      'request until the end of the next epoch.',
      '',
      'Options:',
      '  --base URL   site whose faucet descriptor (GET /api/dev/faucet) sets difficulty and epoch',
      '  --bits N     leading zero bits to find (0 to 32)',
      '  --json       print {challengeToken, epoch, bits, validUntil} instead of the token alone',
      '',
      'Exit status: 0 solved, 1 the descriptor could not be read, 2 bad usage or not a testnet address.',
    ].join('\n'),
    options: { ...baseOption, bits: { type: 'string' }, ...jsonOption },
    positionals: ['testnet address'],
    run: async ([address], values, output) => {
      if (values.base !== undefined && values.bits !== undefined) throw new CliError('faucet-solve takes --base or --bits, not both');
      let bits: number | undefined;
      if (typeof values.bits === 'string') {
        bits = /^[0-9]{1,2}$/.test(values.bits) ? Number(values.bits) : Number.NaN;
        if (!(bits >= 0 && bits <= 32)) throw new CliError(`--bits must be a whole number from 0 to 32, got "${values.bits}"`);
      }
      let parameters: Awaited<ReturnType<typeof readDescriptor>> | undefined;
      if (values.base !== undefined) {
        try {
          parameters = await readDescriptor(`${baseOf(values)}${routePath('faucet-descriptor')}`);
        } catch (error) {
          throw new CliError((error as Error).message, EXIT_FAILED);
        }
      }
      let solved;
      try {
        solved = solveFaucetChallenge(address!, { bits: bits ?? parameters?.bits ?? loadFaucetConfig().powBits, epochSeconds: parameters?.epochSeconds, epoch: parameters?.epoch });
      } catch (error) {
        throw new CliError((error as Error).message);
      }
      output.out(values.json ? JSON.stringify({ ...solved, validUntil: solved.validUntil.toISOString() }) : solved.challengeToken);
      if (!values.json) output.err(`solved ${solved.bits} bits for epoch ${solved.epoch}; valid until ${solved.validUntil.toISOString()}, for one payout request`);
      return 0;
    },
  },
  'sandbox pay': {
    usage: 'agent-economy sandbox pay <quoteId | quote.json | - | JSON> [--base URL] [--sandbox-url URL] [--json]',
    summary: 'Pay a premium quote on the local sandbox chain; prints the Note box id.',
    help: [
      'Mints on the sandbox chain the Note a premium quote asks for (value = price, R4 reserve box id,',
      'R5 expiry, R6 task hash) and mines its confirmations, then prints the Note box id for verify-payment.',
      'A quoteId is read back from the service (GET /api/assistant/quote/{id} at --base); a file, - for',
      'stdin, or the JSON itself is the body POST /api/assistant/quote answered and needs no service.',
      'Refuses any server that does not identify as the sandbox, so it can never spend on a real chain.',
      '',
      'Options:',
      `  --base URL         service that issued the quote (default ${DEFAULT_BASE})`,
      '  --sandbox-url URL  the sandbox chain (default SANDBOX_URL, or http://127.0.0.1:SANDBOX_PORT)',
      '  --json             print the whole payment as JSON instead of the Note box id',
      '',
      'Exit status: 0 paid, 1 the quote or the sandbox is not there or refused, 2 bad usage.',
    ].join('\n'),
    options: { ...baseOption, 'sandbox-url': { type: 'string' }, ...jsonOption },
    positionals: ['quote'],
    run: ([quote], values, output) =>
      sandboxPay(
        quote!,
        { sandboxUrl: typeof values['sandbox-url'] === 'string' ? values['sandbox-url'] : loadSandboxConfig().url, base: baseOf(values), json: Boolean(values.json) },
        output,
      ),
  },
};

const GENERAL_HELP = (): string =>
  [
    `agent-economy ${packageJson.version}: verify the proof surface of ${site.name} (Ergo testnet).`,
    '',
    'Usage: agent-economy <command> [options]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((command) => `  ${command.usage}\n      ${command.summary}`),
    '',
    'Run `agent-economy <command> --help` for a command. Nothing here signs a transaction, broadcasts or holds a wallet key;',
    'only `witness` signs: cosignatures of a log\'s checkpoints, with the witness\'s own key.',
  ].join('\n');

/** Runs the command line `argv` (without node and script); resolves to the exit status. */
export async function runCli(argv: string[], output: Output = processOutput()): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      const topic = name === 'help' ? rest.join(' ') : undefined;
      output.out(topic && COMMANDS[topic] ? `${COMMANDS[topic].usage}\n\n${COMMANDS[topic].help}` : GENERAL_HELP());
      return name === undefined ? EXIT_USAGE : 0;
    }
    if (name === '--version' || name === '-v') {
      output.out(packageJson.version);
      return 0;
    }
    // Two-word commands (`sandbox pay`) are looked up by both words.
    const twoWords = rest[0] !== undefined && COMMANDS[`${name} ${rest[0]}`] ? `${name} ${rest.shift()}` : undefined;
    const commandName = twoWords ?? name;
    const command = COMMANDS[commandName];
    if (!command) {
      const group = Object.keys(COMMANDS).filter((key) => key.startsWith(`${name} `));
      throw new CliError(
        group.length ? `${name} needs a subcommand: ${group.map((key) => key.split(' ')[1]).join(', ')}; run agent-economy ${group[0]} --help` : `unknown command "${name}"; run agent-economy --help for the list`,
      );
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      output.out(`${command.usage}\n\n${command.help}`);
      return 0;
    }
    let parsed: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
    try {
      parsed = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true }) as typeof parsed;
    } catch (error) {
      throw new CliError(`${commandName}: ${(error as Error).message.split('\n')[0]}; usage: ${command.usage}`);
    }
    if (parsed.positionals.length !== command.positionals.length) {
      const expected = command.positionals.length ? command.positionals.map((positional) => `<${positional}>`).join(' ') : 'no arguments';
      throw new CliError(`${commandName} takes ${expected}; usage: ${command.usage}`);
    }
    return await command.run(parsed.positionals, parsed.values, output);
  } catch (error) {
    if (error instanceof CliError) {
      output.err(`agent-economy: ${error.message}`);
      return error.exitCode;
    }
    output.err(`agent-economy: unexpected failure: ${(error as Error)?.message ?? String(error)}`);
    return 1;
  }
}

/** The commands, by the name they are run by (`witness serve`). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    () => process.exit(1),
  );
}
