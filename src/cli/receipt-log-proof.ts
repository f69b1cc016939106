/**
 * The receipt-log part of `agent-economy verify-receipt`: a receipt proves its payment, but only its
 * log proof shows the site recorded it where every monitor sees it, so a site cannot hand one
 * reader a receipt it hides from the rest. The proof (c2sp.org/tlog-proof) is checked against the
 * verifier key the reader trusts, and against the receipt's own bytes, never an entry the site
 * names: the checkpoint's signature and origin, then the inclusion of the bundle's canonical JSON.
 */
import { readFileSync } from 'node:fs';
import { RECEIPT_LOG_PATH } from '../config/receipt-log.ts';
import { LOG_INCLUSION_CHECK } from '../domain/tlog/audit.ts';
import { checkReceiptProof, LOG_CHECKPOINT_CHECK } from '../domain/tlog/receipt-proof-check.ts';
import type { ProofCheck } from '../domain/receipt-proof.ts';
import { parseVerifierKey } from '../domain/tlog/note.ts';
import { parseCosignerKey } from '../domain/tlog/cosignature.ts';
import { witnessCheck as checkWitnesses, LOG_WITNESS_CHECK, type WitnessPolicy } from '../domain/tlog/receipt-proof-check.ts';
import { CliError, fetchBytes } from './output.ts';

export const LOG_KEY_CHECK = 'log_key';
export { LOG_CHECKPOINT_CHECK, LOG_INCLUSION_CHECK, LOG_WITNESS_CHECK, type WitnessPolicy };

export type LogCheck = ProofCheck & { pending?: boolean };

/** Where the proof and the key come from: the site (`base`), or the reader's files alone. */
export interface LogProofSource {
  base?: string;
  /** The verifier key the reader trusts (`--log-key`); absent, the site's key is trusted on first use. */
  logKey?: string;
  /** A saved `.tlog-proof` (`--proof`); absent, fetched from the site. */
  proofFile?: string;
  /** Witnesses the reader trusts (`--witness`) and how many must have cosigned the checkpoint (`--quorum`). */
  witnesses?: WitnessPolicy;
}



/**
 * `--witness` (repeatable: a witness's verifier key, type 0x04, or a file holding it) and `--quorum K`
 * (default: all of them); undefined when no witness is named.
 */
export function readWitnessOptions(values: Record<string, unknown>): WitnessPolicy | undefined {
  const given = Array.isArray(values.witness) ? (values.witness as string[]) : typeof values.witness === 'string' ? [values.witness] : [];
  if (given.length === 0) {
    if (values.quorum !== undefined) throw new CliError('--quorum needs --witness: the witnesses whose cosignatures count');
    return undefined;
  }
  const keys = given.map((value) => {
    if (value.includes('+')) return value.trim();
    try {
      return readFileSync(value, 'utf8').trim();
    } catch {
      throw new CliError(`--witness must be a witness verifier key <name>+<key id>+<base64 key> or a file holding one; "${value}" is neither`);
    }
  });
  const verifiers = keys.map((key) => {
    const parsed = parseCosignerKey(key);
    if (!parsed.ok) throw new CliError(`--witness ${key.slice(0, 80)} is not a witness verifier key (type 0x04): ${parsed.reason}`);
    return parsed.verifier;
  });
  const quorum = values.quorum === undefined ? keys.length : Number(values.quorum);
  if (!Number.isInteger(quorum) || quorum < 1 || quorum > keys.length) throw new CliError(`--quorum must be a whole number from 1 to the ${keys.length} witnesses named, got "${String(values.quorum)}"`);
  return { keys, verifiers, quorum };
}

/** The check that `note` carries at least the policy's quorum of valid witness cosignatures, dated no later than now. */
export const witnessCheck = (note: string, policy: WitnessPolicy): LogCheck => checkWitnesses(note, policy, Math.floor(Date.now() / 1000));

/** What the log checks found, for the JSON output. */
export interface LogVerdict {
  status: 'included' | 'pending' | 'failed';
  index?: number;
  treeSize?: number;
  rootHash?: string;
  verifierKey?: string;
  keySource?: 'given' | 'site (trusted on first use)';
}

/** The site unreachable is a failed log check, listed with the others, not an end of the command. */
async function fetchOrReason(url: string): Promise<Awaited<ReturnType<typeof fetchBytes>> | string> {
  try {
    return await fetchBytes(url);
  } catch (error) {
    if (error instanceof CliError) return error.message;
    throw error;
  }
}

const pass = (id: string, detail: string): LogCheck => ({ id, ok: true, detail });
const fail = (id: string, detail: string): LogCheck => ({ id, ok: false, detail });

/** A verifier key from `--log-key`: the line itself, or a file holding it. */
export function readVerifierKeyOption(value: string): string {
  let key = value.trim();
  if (!key.includes('+')) {
    try {
      key = readFileSync(value, 'utf8').trim();
    } catch {
      throw new CliError(`--log-key must be a verifier key <origin>+<key id>+<base64 key> or a file holding one; "${value}" is neither`);
    }
  }
  const parsed = parseVerifierKey(key);
  if (!parsed.ok) throw new CliError(`--log-key is not a signed-note verifier key: ${parsed.reason}`);
  return key;
}

/**
 * The log checks of one receipt bundle: the verifier key (given, or the site's own, named as
 * trusted on first use), the signed checkpoint the proof carries, and the inclusion of the bundle's
 * canonical JSON at the proof's index. A receipt the site has not put in a checkpoint yet (409) is
 * `pending`, which the caller counts as a failure only when it requires the log.
 */
export async function receiptLogChecks(bundle: unknown, receiptId: string | null, source: LogProofSource): Promise<{ checks: LogCheck[]; verdict: LogVerdict }> {
  const checks: LogCheck[] = [];
  let verifierKey = source.logKey;
  let keySource: LogVerdict['keySource'] = 'given';
  if (verifierKey) {
    checks.push(pass(LOG_KEY_CHECK, `Checkpoints must be signed by the verifier key you gave: ${verifierKey}.`));
  } else {
    const url = `${source.base}${RECEIPT_LOG_PATH}/key`;
    const answer = await fetchOrReason(url);
    if (typeof answer === 'string') {
      checks.push(fail(LOG_KEY_CHECK, `No verifier key to check the log proof with: ${answer}. Pass --log-key.`));
      return { checks, verdict: { status: 'failed' } };
    }
    const key = answer.text.trim();
    const parsed = answer.status === 200 ? parseVerifierKey(key) : undefined;
    if (!parsed?.ok) {
      checks.push(fail(LOG_KEY_CHECK, answer.status === 200 ? `${url} does not answer a verifier key: ${parsed && !parsed.ok ? parsed.reason : ''}.` : `${url} answered HTTP ${answer.status}; no key to check the log proof with.`));
      return { checks, verdict: { status: 'failed' } };
    }
    verifierKey = key;
    keySource = 'site (trusted on first use)';
    checks.push(pass(LOG_KEY_CHECK, `Verifier key ${key}, as the site serves it: trusted on first use. Keep it and pass --log-key, or a site that changes its key would go unnoticed.`));
  }
  const base = { verifierKey, keySource };

  let proofText: string;
  if (source.proofFile) {
    try {
      proofText = readFileSync(source.proofFile, 'utf8');
    } catch (error) {
      throw new CliError(`--proof ${source.proofFile} cannot be read: ${(error as Error).message}`);
    }
  } else {
    if (!receiptId) {
      checks.push(fail(LOG_INCLUSION_CHECK, 'The bundle has no receiptId, so its log proof cannot be asked for.'));
      return { checks, verdict: { status: 'failed', ...base } };
    }
    const url = `${source.base}/api/assistant/receipt/${encodeURIComponent(receiptId)}/proof`;
    const answer = await fetchOrReason(url);
    if (typeof answer === 'string') {
      checks.push(fail(LOG_INCLUSION_CHECK, `No log proof: ${answer}.`));
      return { checks, verdict: { status: 'failed', ...base } };
    }
    if (answer.status === 409) {
      const retry = answer.headers.get('retry-after');
      checks.push({ id: LOG_INCLUSION_CHECK, ok: true, pending: true, detail: `Pending: the site has logged receipt ${receiptId} but signed no checkpoint including it yet${retry ? `; ask again in ${retry} s` : ''}.` });
      return { checks, verdict: { status: 'pending', ...base } };
    }
    if (answer.status !== 200) {
      checks.push(fail(LOG_INCLUSION_CHECK, `${url} answered HTTP ${answer.status}${answer.problemDetail ? `: ${answer.problemDetail}` : ''}; the site gives no proof that it logged this receipt.`));
      return { checks, verdict: { status: 'failed', ...base } };
    }
    proofText = answer.text;
  }

  const checked = checkReceiptProof(bundle, proofText, verifierKey, source.witnesses, Math.floor(Date.now() / 1000));
  checks.push(...checked.checks);
  const { index, treeSize, rootHash } = checked;
  return { checks, verdict: { status: checked.status, ...(index === undefined ? {} : { index, treeSize, rootHash }), ...base } };
}
