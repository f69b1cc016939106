/**
 * `agent-economy verify-receipt <receiptId|txId|file>`: fetches a receipt bundle from the site (or
 * reads it from a file), recomputes every hash offline, re-reads the Note from the verifier's own
 * chain source and prints each check. The same checks as the proof explorer, run by the reader
 * instead of the site.
 *
 * The chain source is the reader's choice (`--explorer`, `ERGO_EXPLORER_URL`, else the public
 * testnet explorer), never the explorer the bundle names: whoever writes a bundle could otherwise
 * name a server of theirs to confirm it. For the same reason a bundle whose `chain` is not the
 * chain that source serves fails, whatever its hashes say.
 *
 * The receipt's log proof is checked too (receipt-log-proof.ts), and the signed x402 receipt of the
 * paid answer when one is given (signed-receipt.ts); with `--offline` the bundle, the proof and the
 * keys are all there is, and nothing is fetched.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import { ERGO_EXPLORER_URL_DEFAULT } from '../config/chain.ts';
import { receiptOfflineChecks, settlementCheck, SETTLEMENT_CHECK, type ProofCheck } from '../domain/receipt-proof.ts';
import { receiptLogChecks, type LogVerdict, type WitnessPolicy } from './receipt-log-proof.ts';
import { signedReceiptCheck } from './signed-receipt.ts';
import type { ChainBox } from '../domain/ports.ts';
import { duplicateKeyIn } from '../lib/duplicate-keys.ts';
import { checkLine, CliError, EXIT_FAILED, fetchJson, type Output } from './output.ts';

/** The chain source the person verifying chose, and what it serves. */
export interface VerifierChain {
  /** Base URL of its Explorer API, named in every settlement check. */
  explorerUrl: string;
  /** Which chain it serves, as it says itself (the sandbox marks its answers). */
  network: () => Promise<'testnet' | 'sandbox'>;
  /** The box as that chain reports it now; undefined when it does not know it. */
  getBox: (boxId: string) => Promise<ChainBox | undefined>;
  /** The address of the first input of a transaction (who paid); undefined when the chain cannot say. */
  getTransactionPayer: (transactionId: string) => Promise<string | undefined>;
}

export interface VerifyOptions {
  base: string;
  json: boolean;
  /** The verifier key to trust (`--log-key`); absent, the site's is trusted on first use. */
  logKey?: string;
  /** Witnesses whose cosignatures the proof's checkpoint must carry, at least their quorum. */
  witnesses?: WitnessPolicy;
  /** A saved tlog-proof (`--proof`) instead of the site's. */
  proofFile?: string;
  /** Nothing fetched: the bundle file, `proofFile` and `logKey` are all there is; the Note is not re-read. */
  offline?: boolean;
  /** A receipt no checkpoint includes yet fails instead of being reported pending. */
  requireLog?: boolean;
  /** A signed x402 receipt (`--signed-receipt`, its JWS) to check against the bundle. */
  signedReceipt?: string;
  /** The x402 signing key to trust (`--x402-key`); absent, the site's DID document is read. */
  x402Key?: string;
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The bundle from a file path, or from the site's receipt endpoint by receipt id or transaction id. */
export async function loadReceipt(target: string, base: string): Promise<{ text: string; bundle: unknown; from: string }> {
  if (existsSync(target) && statSync(target).isFile()) {
    try {
      const text = readFileSync(target, 'utf8');
      return { text, bundle: parseBundleText(text, target), from: target };
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`${target} is not a JSON receipt bundle: ${(error as Error).message}`);
    }
  }
  if (!ID.test(target)) throw new CliError(`"${target}" is neither a file nor a receipt id or transaction id`);
  const url = `${base}/api/assistant/receipt/${encodeURIComponent(target)}`;
  const answer = await fetchJson(url, { allowNotFound: true });
  if (!answer) throw new CliError(`no receipt with receipt id or transaction id ${target} at ${base}`, EXIT_FAILED);
  if (answer.status !== 200) throw new CliError(`${url} answered HTTP ${answer.status}`, EXIT_FAILED);
  return { text: answer.text, bundle: parseBundleText(answer.text, url), from: url };
}

/** The bundle in `text`, refused when a member is named twice: the checks and the log would each take the last value. */
function parseBundleText(text: string, from: string): unknown {
  const bundle: unknown = JSON.parse(text);
  const duplicate = duplicateKeyIn(text, bundle);
  if (duplicate !== null) throw new CliError(`${from} names the member at ${duplicate} twice: a receipt bundle must name each member once (I-JSON, RFC 7493), so it is not checked`, EXIT_FAILED);
  return bundle;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const NETWORK_NAMES = { testnet: 'the testnet', sandbox: 'the local sandbox chain (its answers carry x-ergo-sandbox)' } as const;

/** The settlement check of a bundle that claims another chain than the verifier reads: no box is read. */
function chainMismatch(claimed: unknown, network: 'testnet' | 'sandbox', explorerUrl: string): ProofCheck {
  const remedy =
    network === 'sandbox'
      ? `A sandbox cannot confirm a testnet payment: verify against a testnet Explorer API (without --explorer and ERGO_EXPLORER_URL, ${ERGO_EXPLORER_URL_DEFAULT}).`
      : claimed === 'sandbox'
        ? 'A sandbox receipt never proves a testnet payment; to check it against the sandbox it was made on, name that sandbox with --explorer URL.'
        : 'Only testnet and sandbox receipts exist.';
  return {
    id: SETTLEMENT_CHECK,
    ok: false,
    detail: `Chain mismatch: the bundle says ${typeof claimed === 'string' ? claimed : JSON.stringify(claimed ?? null)}, but the chain source you verify against, ${explorerUrl}, is ${NETWORK_NAMES[network]}. ${remedy}`,
  };
}

/**
 * Every check of one bundle (its JSON text and parsed value): the offline ones, then the settlement
 * re-read from `chain`. Nothing the bundle names is contacted.
 */
export async function receiptChecks(text: string, bundle: unknown, chain: VerifierChain): Promise<ProofCheck[]> {
  const checks = receiptOfflineChecks(text);
  if (!isRecord(bundle) || typeof bundle.noteBoxId !== 'string') return checks;
  const receipt = bundle as unknown as ReceiptBundle;
  try {
    const network = await chain.network();
    if (receipt.chain !== network) {
      checks.push(chainMismatch(receipt.chain, network, chain.explorerUrl));
      return checks;
    }
    const box = await chain.getBox(receipt.noteBoxId);
    checks.push(settlementCheck(receipt, box, { name: network, explorerUrl: chain.explorerUrl }));
  } catch (error) {
    checks.push({ id: SETTLEMENT_CHECK, ok: false, detail: `The chain source ${chain.explorerUrl} could not be read: ${(error as Error).message}` });
  }
  return checks;
}

export async function verifyReceipt(target: string, options: VerifyOptions, chain: VerifierChain, output: Output): Promise<number> {
  if (options.offline) {
    if (!options.proofFile || !options.logKey) throw new CliError('--offline needs --proof FILE and --log-key KEY: offline, nothing but them and the bundle is read');
    if (!(existsSync(target) && statSync(target).isFile())) throw new CliError(`--offline needs the bundle as a file; "${target}" is not one`);
  }
  const { text, bundle, from } = await loadReceipt(target, options.base);
  const receiptId = isRecord(bundle) && typeof bundle.receiptId === 'string' ? bundle.receiptId : null;
  const checks: Array<ProofCheck & { pending?: boolean }> = options.offline ? receiptOfflineChecks(text) : await receiptChecks(text, bundle, chain);
  const log = await receiptLogChecks(bundle, receiptId, { base: options.base, logKey: options.logKey, proofFile: options.proofFile, ...(options.witnesses ? { witnesses: options.witnesses } : {}) });
  checks.push(...log.checks.map((check) => (check.pending && options.requireLog ? { id: check.id, ok: false, detail: `${check.detail} --require-log asks for a proof now.` } : check)));
  if (options.signedReceipt !== undefined) {
    if (options.offline && !options.x402Key) throw new CliError('--offline with --signed-receipt needs --x402-key: offline, the site\'s DID document is not read');
    checks.push(await signedReceiptCheck(options.signedReceipt, bundle, { base: options.base, x402Key: options.x402Key }));
  }
  const ok = checks.every((check) => check.ok);
  const claimed = isRecord(bundle) && typeof bundle.chain === 'string' ? bundle.chain : null;
  const explorer = options.offline ? null : chain.explorerUrl;
  if (options.json) {
    output.out(JSON.stringify({ receiptId, chain: claimed, from, explorer, ok, log: log.verdict satisfies LogVerdict, checks }));
  } else {
    output.out(`receipt ${receiptId ?? '(no receiptId)'} on the ${claimed ?? 'unknown'} chain, from ${from}; ${explorer ? `Note re-read from ${explorer}` : 'offline: the Note is not re-read'}`);
    for (const check of checks) output.out(checkLine(check));
    const failed = checks.filter((check) => !check.ok).length;
    const pending = log.verdict.status === 'pending' && ok ? ' (the log proof is pending)' : '';
    output.out(ok ? `verified: all ${checks.length} checks pass${pending}` : `NOT verified: ${failed} of ${checks.length} checks fail`);
    if (ok && claimed === 'sandbox') output.out('note: a sandbox receipt proves the flow works, never a testnet payment');
  }
  return ok ? 0 : EXIT_FAILED;
}
