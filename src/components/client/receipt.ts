/**
 * Lays one receipt bundle out in the order a person checks it. The receipt id is recomputed here with
 * `computeReceiptId`, the function the server stores receipts with, the receipt log proof is checked
 * here with WebCrypto (receipt-log-check.ts), and the proof explorer's re-verification of the same
 * receipt is shown beside them when the explorer lists it.
 */
import type { ProofExplorer } from '../../../schemas/live.ts';
import type { ReceiptBundle } from '../../../schemas/receipt.ts';
import { computeReceiptId } from '../../domain/receipt-id.ts';
import { humanize } from '../format.ts';
import { baseUrlOf, code, el, fetchJson, link, passFail, prose, renderProblem, renderValue, show } from './dom.ts';
import { checkReceiptLog } from './receipt-log-check.ts';

const section = document.querySelector<HTMLElement>('[data-receipt]');

/** The id from `/receipt/{id}`, else from `?id=`. */
function receiptIdFromLocation(declared: string): string {
  if (declared) return declared;
  const match = /^\/receipt\/([^/]+)\/?$/.exec(location.pathname);
  if (match) return decodeURIComponent(match[1]!);
  return new URLSearchParams(location.search).get('id')?.trim() ?? '';
}

const row = (term: string, ...value: Array<Node | string>) => el('div', {}, el('dt', {}, term), el('dd', {}, ...value));

function checksTable(label: string, checks: Array<{ id: string; ok: boolean; detail: string }>): HTMLElement {
  return el(
    'div',
    { class: 'scroll', tabindex: '0', role: 'group', 'aria-label': label },
    el(
      'table',
      {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Check'), el('th', { scope: 'col' }, 'Result'), el('th', { scope: 'col' }, 'What was compared'))),
      el('tbody', {}, ...checks.map((check) => el('tr', {}, el('th', { scope: 'row' }, code(check.id)), el('td', {}, passFail(check.ok)), el('td', {}, prose(check.detail))))),
    ),
  );
}

function recomputedId(bundle: ReceiptBundle): { ok: boolean; detail: string } {
  try {
    const { receiptId, ...withoutId } = bundle as unknown as Record<string, unknown>;
    const computed = computeReceiptId(withoutId);
    return computed === receiptId
      ? { ok: true, detail: `blake2b256 of the RFC 8785 canonical JSON of the bundle without receiptId is ${computed}, the declared receipt id.` }
      : { ok: false, detail: `blake2b256 of the canonical JSON without receiptId is ${computed}, but the bundle declares ${String(receiptId)}.` };
  } catch (error) {
    return { ok: false, detail: `The receipt id could not be recomputed: ${(error as Error).message}` };
  }
}

function render(bundle: ReceiptBundle, proofChecks: Array<{ id: string; ok: boolean; detail: string }> | undefined, verifyCommand: string, jsonPath: string, baseUrl: string): Node[] {
  const { agreement, verification_receipt: verification, settlement_receipt: settlement } = bundle;
  const own = recomputedId(bundle);
  const sandbox = bundle.chain === 'sandbox';
  return [
    el(
      'p',
      { class: 'lead' },
      el('strong', { class: 'ok' }, humanize(bundle.status)),
      ` on the ${sandbox ? 'local sandbox chain' : 'Ergo testnet'}: a ${humanize(bundle.receipt_type).toLowerCase()} issued ${bundle.issued_at}.`,
    ),
    ...(sandbox ? [el('p', { class: 'notice' }, 'This receipt settled on the sandbox chain: useful for trying the flow, never counted as a testnet proof.')] : []),
    el(
      'dl',
      {},
      row('Receipt id', code(bundle.receiptId)),
      row('Note box id', code(bundle.noteBoxId)),
      row('Settlement transaction', code(bundle.settlementTxId)),
      row('Task hash', code(bundle.taskHash)),
      row('JSON', el('a', { href: jsonPath }, jsonPath)),
    ),
    el('h3', {}, '1. What was agreed'),
    el('p', {}, 'The quote the payer accepted, copied from the stored quote.'),
    el(
      'dl',
      {},
      row('Quote', code(agreement.quoteId)),
      row('Price', code(agreement.price), ' testnet ERG (', code(agreement.priceNanoErg), ' nanoERG)'),
      row('Pay to', code(agreement.receiverAddress)),
      row('Reserve box (R4)', code(agreement.reserveBoxId)),
      row('Lowest expiry height (R5)', code(agreement.noteExpiryMinHeight)),
      row('Confirmations needed', code(agreement.minConfirmations)),
      row('Quoted at height', code(agreement.issuedHeight)),
      row('Payable until', agreement.expiresAt),
      row('Terms', renderValue(agreement.terms, baseUrl)),
    ),
    el('h3', {}, '2. How the Note was checked'),
    el('p', {}, `Checked at ${verification.checkedAt} against the ${verification.chain.source} chain (${verification.chain.via}, height ${verification.chain.height}) through `, link(verification.chain.explorer, baseUrl), '.'),
    checksTable('Payment checks', verification.checks.map((check) => ({ id: check.code, ok: check.ok, detail: check.detail }))),
    el('h3', {}, '3. What the chain holds'),
    el(
      'dl',
      {},
      row('Value', code(settlement.valueNanoErg), ' nanoERG'),
      row('Created at height', code(settlement.creationHeight)),
      row('Included at height', code(settlement.inclusionHeight)),
      row('Confirmations when verified', code(settlement.confirmations)),
      ...(['R4', 'R5', 'R6'] as const).map((register) =>
        row(`${register} (${register === 'R5' ? 'Int' : 'Coll[Byte]'})`, code(settlement.registers[register].value), el('br'), el('span', { class: 'muted' }, 'serialized '), code(settlement.registers[register].serializedValue)),
      ),
    ),
    el('h3', {}, '4. The quote it answered'),
    el('p', {}, 'Task hash derivation: ', code(bundle.quote_evidence.task_hash_derivation), '. The question itself is not published.'),
    el('details', {}, el('summary', {}, 'The quote as issued'), renderValue(bundle.quote_evidence.quote, baseUrl)),
    el('h3', {}, '5. Check it yourself'),
    checksTable('Recomputed in this browser', [{ id: 'receipt_id', ...own }]),
    el('p', { class: 'muted' }, 'That the bundle agrees with itself: no chain is read here. Whether the Note was paid on chain is what the command below checks, against a chain source you choose.'),
    el('p', {}, 'That the site logged it where every monitor sees it: the receipt log proof, checked in this browser against the log\'s signed checkpoint.'),
    el('div', { 'data-log-check': '', 'aria-live': 'polite' }, el('p', { class: 'muted' }, 'Reading the receipt log proof…')),
    proofChecks
      ? el('div', {}, el('p', {}, 'Re-verified by the proof explorer (the same checks the command below runs):'), checksTable('Proof explorer checks', proofChecks))
      : el('p', {}, 'The proof explorer does not list this receipt yet; run the command below to re-verify it against the chain.'),
    // The command reads the chain you name, never the explorer the bundle names: a sandbox receipt needs your sandbox.
    el('pre', { tabindex: '0' }, el('code', {}, sandbox ? `${verifyCommand} --explorer <your sandbox chain, e.g. http://127.0.0.1:4323>` : verifyCommand)),
  ];
}

async function load(root: HTMLElement): Promise<void> {
  const state = root.querySelector('[data-state]')!;
  const output = root.querySelector('[data-output]')!;
  const id = receiptIdFromLocation(root.dataset.id ?? '');
  if (!id) return;
  const jsonPath = root.dataset.receiptPath!.replace('{id}', encodeURIComponent(id));
  const verifyCommand = root.dataset.verifyCommand!.replace('<receiptId|txId>', id);
  state.textContent = `Reading ${jsonPath}…`;
  try {
    const [receipt, proofs] = await Promise.all([fetchJson(jsonPath), fetchJson(root.dataset.proofsPath!).catch(() => undefined)]);
    if (!receipt.ok) {
      state.textContent = '';
      show(output, renderProblem(receipt, jsonPath));
      return;
    }
    const bundle = receipt.body as ReceiptBundle;
    const board = proofs?.ok ? (proofs.body as ProofExplorer) : undefined;
    const listed = board && [...board.proofs, ...board.sandbox_receipts].find((proof) => proof.id === bundle.receiptId);
    state.textContent = `Read ${jsonPath}.`;
    let nodes: Node[];
    try {
      nodes = render(bundle, listed?.checks, verifyCommand, jsonPath, baseUrlOf(root));
    } catch {
      // An older or partial receipt: show it as stored rather than nothing.
      nodes = [el('p', { class: 'notice' }, 'This receipt is not a full receipt bundle; it is shown as stored.'), renderValue(receipt.body, baseUrlOf(root))];
    }
    show(output, ...nodes);
    const logCheck = output.querySelector('[data-log-check]');
    if (logCheck) {
      const proofPath = root.dataset.receiptProofPath!.replace('{id}', encodeURIComponent(bundle.receiptId));
      // `?witness=<key>` (repeatable) and `?quorum=K`: the witnesses this reader trusts, as verify-receipt's --witness and --quorum.
      const query = new URLSearchParams(location.search);
      const keys = query.getAll('witness').filter((key) => key.trim() !== '');
      const quorum = Number(query.get('quorum') ?? keys.length);
      const witnesses = keys.length ? { keys, quorum: Number.isInteger(quorum) && quorum >= 1 && quorum <= keys.length ? quorum : keys.length } : undefined;
      void checkReceiptLog(logCheck, receipt.body, { proofPath, keyPath: root.dataset.logKeyPath!, ...(witnesses ? { witnesses } : {}) });
    }
  } catch (error) {
    state.textContent = '';
    show(output, el('p', { class: 'notice' }, `Could not read the receipt: ${String((error as Error)?.message ?? error)}`));
  }
}

if (section) void load(section);
