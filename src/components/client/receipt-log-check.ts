/**
 * The receipt page's log check: the receipt's c2sp.org/tlog-proof and the log's verifier key are
 * read from the site and checked here with WebCrypto (verifyTlogProofWithWebCrypto, by the rules
 * the server's verifier uses): the key's ID, the checkpoint's Ed25519 signature and origin, and the
 * inclusion of this receipt's canonical JSON, as served, at the proof's index. A receipt no
 * checkpoint includes yet is shown as pending and asked for again when the site says to.
 */
import { canonicalJson } from '../../domain/canonical-hash.ts';
import { encodeBase64 } from '../../domain/tlog/base64.ts';
import { LOG_PROOF_STEPS, verifyTlogProofWithWebCrypto, type LogProofStep, type WebCryptoProofVerdict } from '../../domain/tlog/webcrypto-tlog-proof.ts';
import { code, el, fetchJson, prose, renderProblem, show, type FetchedJson } from './dom.ts';

export interface LogCheckPaths {
  /** `/api/assistant/receipt/{id}/proof`, the id filled in. */
  proofPath: string;
  keyPath: string;
  /** Witnesses the reader named (`?witness=`, `?quorum=`): their cosignatures are counted too. */
  witnesses?: { keys: string[]; quorum: number };
}

/** How many times a pending proof is asked for again before the page stops and says to reload. */
const MAX_PENDING_ROUNDS = 12;

const STEP_NAMES: Record<LogProofStep, string> = {
  verifier_key: 'the verifier key',
  proof_text: 'the proof text',
  checkpoint_signature: "the checkpoint's signature",
  checkpoint: "the checkpoint's origin and tree",
  inclusion: "this receipt's inclusion",
  witnesses: "the witnesses' cosignatures",
};

type Outcome = 'pass' | 'fail' | 'not checked' | 'not reached';
const OUTCOME_CLASS: Record<Outcome, string> = { pass: 'ok', fail: 'bad', 'not checked': 'muted', 'not reached': 'muted' };

function stepsTable(rows: Array<{ step: LogProofStep; outcome: Outcome; detail: string }>): HTMLElement {
  return el(
    'div',
    { class: 'scroll', tabindex: '0', role: 'group', 'aria-label': 'Receipt log, checked in this browser' },
    el(
      'table',
      {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Step'), el('th', { scope: 'col' }, 'Result'), el('th', { scope: 'col' }, 'What was compared'))),
      el('tbody', {}, ...rows.map((row) => el('tr', {}, el('th', { scope: 'row' }, code(row.step)), el('td', {}, el('span', { class: OUTCOME_CLASS[row.outcome] }, row.outcome)), el('td', {}, prose(row.detail))))),
    ),
  );
}

/** Each step's row: what passed, the one that failed and why, and the ones a failure left unchecked. */
function verdictRows(verdict: WebCryptoProofVerdict, verifierKey: string, paths: LogCheckPaths): Array<{ step: LogProofStep; outcome: Outcome; detail: string }> {
  const keyName = verifierKey.slice(0, verifierKey.indexOf('+'));
  // The witnesses' row only for a reader who named witnesses.
  const steps = LOG_PROOF_STEPS.filter((step) => step !== 'witnesses' || paths.witnesses);
  if (!verdict.ok) {
    const failedAt = steps.indexOf(verdict.step);
    return steps.map((step, i) =>
      i < failedAt ? { step, outcome: 'pass', detail: `${STEP_NAMES[step][0]!.toUpperCase()}${STEP_NAMES[step].slice(1)} passed.` } : i === failedAt ? { step, outcome: 'fail', detail: `${verdict.reason}.` } : { step, outcome: 'not reached', detail: 'Not checked: an earlier step failed.' },
    );
  }
  const { index, size, origin, root, signatureUnchecked } = verdict;
  return [
    { step: 'verifier_key', outcome: 'pass', detail: `${verifierKey}, as ${paths.keyPath} serves it; its key ID is its key's. Trusted on first use: compare it with a key you kept.` },
    { step: 'proof_text', outcome: 'pass', detail: `${paths.proofPath} is a c2sp.org/tlog-proof@v1 text for entry ${index}.` },
    signatureUnchecked
      ? { step: 'checkpoint_signature', outcome: 'not checked', detail: `${signatureUnchecked[0]!.toUpperCase()}${signatureUnchecked.slice(1)}; the command below checks it.` }
      : { step: 'checkpoint_signature', outcome: 'pass', detail: `The checkpoint's Ed25519 signature by ${keyName} verifies over its text (WebCrypto).` },
    { step: 'checkpoint', outcome: 'pass', detail: `Origin ${origin}, the key's name; tree size ${size}, root ${encodeBase64(root)}.` },
    { step: 'inclusion', outcome: 'pass', detail: `SHA-256(0x00 || this receipt's canonical JSON, as served) folded with the proof's hashes gives the checkpoint's root: entry ${index} of ${size}.` },
    ...(paths.witnesses
      ? [{ step: 'witnesses' as const, outcome: 'pass' as const, detail: `Cosigned by ${verdict.cosigners!.join(', ')} (${paths.witnesses.quorum} of the ${paths.witnesses.keys.length} witnesses you named required): they saw this tree extend what they saw before.` }]
      : []),
  ];
}

function renderVerdict(verdict: WebCryptoProofVerdict, verifierKey: string, paths: LogCheckPaths): Node[] {
  const summary = verdict.ok
    ? el(
        'p',
        {},
        el('strong', { class: 'ok' }, 'Included in the signed checkpoint'),
        `: entry ${verdict.index} of the receipt log, checkpoint size ${verdict.size}`,
        verdict.signatureUnchecked ? ' (its signature not checked in this browser).' : '.',
      )
    : el('p', {}, el('strong', { class: 'bad' }, `Not verified: ${STEP_NAMES[verdict.step]} failed`), verdict.index === undefined ? '.' : ` (entry ${verdict.index}${verdict.size === undefined ? '' : `, checkpoint size ${verdict.size}`}).`);
  return [summary, stepsTable(verdictRows(verdict, verifierKey, paths)), el('p', { class: 'muted' }, 'Read from ', el('a', { href: paths.proofPath }, paths.proofPath), ' and ', el('a', { href: paths.keyPath }, paths.keyPath), '.')];
}

const notice = (...children: Array<Node | string>) => el('p', { class: 'notice' }, ...children);

/** Reads the proof and the key, checks them against `bundle`, and shows the result in `container`; never throws. */
export async function checkReceiptLog(container: Element, bundle: unknown, paths: LogCheckPaths, round = 0): Promise<void> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    show(container, notice('This page is not served over HTTPS, so this browser offers no WebCrypto: the receipt log proof was not checked here. The command below checks it.'));
    return;
  }
  let proof: FetchedJson;
  let key: FetchedJson;
  try {
    [proof, key] = await Promise.all([fetchJson(paths.proofPath, { accept: 'text/plain' }), fetchJson(paths.keyPath, { accept: 'text/plain' })]);
  } catch (error) {
    show(container, notice(`Could not read the receipt log proof: ${String((error as Error)?.message ?? error)}`));
    return;
  }
  if (proof.status === 409) {
    const seconds = Number(proof.headers.get('retry-after')) || 5;
    const index = (proof.body as { index?: unknown } | undefined)?.index;
    const entry = typeof index === 'number' ? `entry ${index} of the receipt log` : 'in the receipt log';
    const more = round < MAX_PENDING_ROUNDS;
    show(container, el('p', {}, el('strong', {}, 'Pending'), `: this receipt is ${entry}, but no signed checkpoint includes it yet; ${more ? 'asking again' : 'ask again (reload the page)'} in ${seconds} s.`));
    if (more) setTimeout(() => void checkReceiptLog(container, bundle, paths, round + 1), seconds * 1000);
    return;
  }
  if (!proof.ok) {
    show(container, el('p', {}, el('strong', { class: 'bad' }, 'No log proof'), ': the site gives no proof that it logged this receipt.'), renderProblem(proof, paths.proofPath));
    return;
  }
  if (!key.ok) {
    show(container, el('p', {}, el('strong', { class: 'bad' }, 'Not verified: the verifier key could not be read'), '.'), renderProblem(key, paths.keyPath));
    return;
  }
  const verifierKey = key.text.trim();
  let verdict: WebCryptoProofVerdict;
  try {
    verdict = await verifyTlogProofWithWebCrypto(new TextEncoder().encode(canonicalJson(bundle)), proof.text, verifierKey, subtle, paths.witnesses);
  } catch (error) {
    show(container, notice(`The receipt log proof could not be checked in this browser: ${String((error as Error)?.message ?? error)}`));
    return;
  }
  show(container, ...renderVerdict(verdict, verifierKey, paths));
}
