/**
 * `agent-economy verify-receipt <receiptId|txId|file>`: fetches a receipt bundle from the site (or
 * reads it from a file), recomputes every hash offline, re-reads the Note from the chain source and
 * prints each check. The same checks as the proof explorer, run by the reader instead of the site.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ReceiptBundle } from '../../schemas/receipt.ts';
import { receiptOfflineChecks, settlementCheck, SETTLEMENT_CHECK, type ProofCheck } from '../domain/receipt-proof.ts';
import type { ChainBox } from '../domain/ports.ts';
import { checkLine, CliError, EXIT_FAILED, fetchJson, type Output } from './output.ts';

/** Reads one box from the Explorer API at `explorerUrl`; undefined when the chain does not know it. */
export type BoxReader = (explorerUrl: string, source: 'testnet' | 'sandbox', boxId: string) => Promise<ChainBox | undefined>;

export interface VerifyOptions {
  base: string;
  /** Explorer API to re-read the Note from; by default the one the bundle was verified against. */
  explorer?: string;
  json: boolean;
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The bundle from a file path, or from the site's receipt endpoint by receipt id or transaction id. */
export async function loadReceipt(target: string, base: string): Promise<{ text: string; bundle: unknown; from: string }> {
  if (existsSync(target) && statSync(target).isFile()) {
    try {
      const text = readFileSync(target, 'utf8');
      return { text, bundle: JSON.parse(text), from: target };
    } catch (error) {
      throw new CliError(`${target} is not a JSON receipt bundle: ${(error as Error).message}`);
    }
  }
  if (!ID.test(target)) throw new CliError(`"${target}" is neither a file nor a receipt id or transaction id`);
  const url = `${base}/api/assistant/receipt/${encodeURIComponent(target)}`;
  const answer = await fetchJson(url, { allowNotFound: true });
  if (!answer) throw new CliError(`no receipt with receipt id or transaction id ${target} at ${base}`, EXIT_FAILED);
  if (answer.status !== 200) throw new CliError(`${url} answered HTTP ${answer.status}`, EXIT_FAILED);
  return { text: answer.text, bundle: answer.body, from: url };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every check of one bundle (its JSON text and parsed value): the offline ones, then the settlement re-read from the chain. */
export async function receiptChecks(text: string, bundle: unknown, readBox: BoxReader, explorerOverride?: string): Promise<ProofCheck[]> {
  const checks = receiptOfflineChecks(text);
  if (!isRecord(bundle) || typeof bundle.noteBoxId !== 'string') return checks;
  const receipt = bundle as unknown as ReceiptBundle;
  const source = receipt.chain === 'sandbox' ? 'sandbox' : 'testnet';
  const explorer = explorerOverride ?? receipt.verification_receipt?.chain?.explorer;
  if (typeof explorer !== 'string') {
    checks.push({ id: SETTLEMENT_CHECK, ok: false, detail: 'The bundle names no explorer to re-read the Note from; pass --explorer URL.' });
    return checks;
  }
  try {
    const box = await readBox(explorer.replace(/\/+$/, ''), source, receipt.noteBoxId);
    checks.push(settlementCheck(receipt, box, { name: source, explorerUrl: explorer }));
  } catch (error) {
    checks.push({ id: SETTLEMENT_CHECK, ok: false, detail: `The ${source} chain source ${explorer} could not be read: ${(error as Error).message}` });
  }
  return checks;
}

export async function verifyReceipt(target: string, options: VerifyOptions, readBox: BoxReader, output: Output): Promise<number> {
  const { text, bundle, from } = await loadReceipt(target, options.base);
  const checks = await receiptChecks(text, bundle, readBox, options.explorer);
  const ok = checks.every((check) => check.ok);
  const receiptId = isRecord(bundle) && typeof bundle.receiptId === 'string' ? bundle.receiptId : null;
  const chain = isRecord(bundle) && typeof bundle.chain === 'string' ? bundle.chain : null;
  if (options.json) {
    output.out(JSON.stringify({ receiptId, chain, from, ok, checks }));
  } else {
    output.out(`receipt ${receiptId ?? '(no receiptId)'} on the ${chain ?? 'unknown'} chain, from ${from}`);
    for (const check of checks) output.out(checkLine(check));
    const failed = checks.filter((check) => !check.ok).length;
    output.out(ok ? `verified: all ${checks.length} checks pass` : `NOT verified: ${failed} of ${checks.length} checks fail`);
    if (ok && chain === 'sandbox') output.out('note: a sandbox receipt proves the flow works, never a testnet payment');
  }
  return ok ? 0 : EXIT_FAILED;
}
