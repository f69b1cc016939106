/** Renders `/api/agent-economy/proofs`: counts, each proof and its checks, and how to reconcile them yourself. */
import type { ProofExplorer } from '../../../schemas/live.ts';
import { humanize } from '../format.ts';
import { el, link, loadInto } from './dom.ts';

type Proof = ProofExplorer['proofs'][number];

function proofItem(proof: Proof, baseUrl: string): HTMLElement {
  const passed = proof.checks.filter((check) => check.ok).length;
  return el(
    'li',
    {},
    el('p', { class: 'card-title' }, proof.kind === 'testnet_receipt' ? el('a', { href: `/receipt/${proof.id}` }, `Receipt ${proof.id.slice(0, 16)}…`) : proof.id),
    // A subject is a sentence of its own ("... with its own reason."): it is not run into the time it was verified.
    el('p', {}, `${humanize(proof.kind)}: ${/[.!?]$/.test(proof.subject) ? proof.subject : `${proof.subject}.`} Verified ${proof.verified_at}. `, el('span', { class: passed === proof.checks.length ? 'ok' : 'bad' }, `${passed} of ${proof.checks.length} checks pass.`)),
    el('ul', {}, ...proof.checks.map((check) => el('li', {}, el('span', { class: check.ok ? 'ok' : 'bad' }, check.ok ? 'pass ' : 'fail '), el('code', {}, check.id), `: ${check.detail}`))),
    Object.keys(proof.links).length > 0 && el('p', {}, ...Object.entries(proof.links).flatMap(([name, url], index) => [index > 0 ? ' · ' : '', link(url, baseUrl, humanize(name))])),
  );
}

/** The log every receipt is checked against: its newest checkpoint, the key it verifies with, and whether the store agrees. */
function logSection(board: ProofExplorer, baseUrl: string): HTMLElement {
  const log = board.receipt_log;
  const { summary } = board;
  return el(
    'dl',
    {},
    el('div', {}, el('dt', {}, 'Checkpoint'), el('dd', {}, log.checkpoint ? `size ${log.checkpoint.size}, root ${log.checkpoint.root_hash}, signed ${log.checkpoint.issued_at}` : 'none verified')),
    el('div', {}, el('dt', {}, 'Entries'), el('dd', {}, String(log.entries))),
    el('div', {}, el('dt', {}, 'Verifier key'), el('dd', {}, el('code', {}, log.verifier_key))),
    el('div', {}, el('dt', {}, 'Log and store'), el('dd', {}, el('span', { class: log.agrees ? 'ok' : 'bad' }, log.agrees ? 'agree. ' : 'disagree. '), log.detail)),
    el('div', {}, el('dt', {}, 'Listed receipts in the checkpoint'), el('dd', {}, `${summary.receipts_in_checkpoint} proven; ${summary.receipts_not_proven_in_log} not (yet) proven`)),
    el('div', {}, el('dt', {}, 'Read it yourself'), el('dd', {}, link(log.checkpoint_url, baseUrl, 'checkpoint'), ' · ', link(log.key_url, baseUrl, 'key'), ' · ', el('code', {}, `${log.tiles_url}…`))),
  );
}

function render(board: ProofExplorer, baseUrl: string): Node[] {
  const { summary } = board;
  return [
    el(
      'dl',
      {},
      el('div', {}, el('dt', {}, 'Proofs counted'), el('dd', {}, `${summary.proof_count} (${summary.receipt_proofs} testnet receipts, ${summary.conformance_proofs} conformance proofs)`)),
      el('div', {}, el('dt', {}, 'Sandbox receipts'), el('dd', {}, `${summary.sandbox_receipts_excluded}, listed apart and never counted`)),
      el('div', {}, el('dt', {}, 'Mainnet gate'), el('dd', {}, el('code', {}, summary.mainnet_gate_status))),
      el('div', {}, el('dt', {}, 'Generated'), el('dd', {}, board.generated_at)),
    ),
    el('h3', {}, 'Receipt transparency log'),
    logSection(board, baseUrl),
    el('h3', {}, 'Proofs'),
    board.proofs.length ? el('ol', { class: 'cards' }, ...board.proofs.map((proof) => proofItem(proof, baseUrl))) : el('p', {}, 'No proof is recorded yet: the board stays empty until a receipt settles on the testnet.'),
    el('h3', {}, 'Sandbox receipts (not proofs)'),
    board.sandbox_receipts.length ? el('ol', { class: 'cards' }, ...board.sandbox_receipts.map((proof) => proofItem(proof, baseUrl))) : el('p', {}, 'None.'),
    el('h3', {}, 'Reconcile it yourself'),
    el('p', {}, board.reconciliation.description),
    el('pre', { tabindex: '0' }, el('code', {}, board.reconciliation.command)),
  ];
}

for (const section of document.querySelectorAll<HTMLElement>('[data-proof-explorer]')) {
  void loadInto(section, section.dataset.path!, (body, baseUrl) => render(body as ProofExplorer, baseUrl));
}
