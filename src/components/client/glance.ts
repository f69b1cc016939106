/**
 * The start page's proof at a glance: live status and the proof explorer read side by side, each
 * shown as soon as it answers (a failing one shows its problem, not a blank box).
 */
import type { LiveStatus, ProofExplorer } from '../../../schemas/live.ts';
import { humanize } from '../format.ts';
import { baseUrlOf, el, fetchJson, link, passFail, renderProblem, show } from './dom.ts';

function gates(status: LiveStatus): HTMLElement {
  return el(
    'div',
    {},
    el('h3', {}, 'Gates'),
    el('p', {}, el('strong', { class: status.ok ? 'ok' : 'bad' }, status.ok ? 'Every required probe passes.' : 'A required probe fails.'), ` Checked at ${status.checked_at}.`),
    el(
      'ul',
      {},
      // An optional part this deployment leaves out (no signer configured) is off, not failing: a healthy default shows no red.
      ...Object.entries(status.probes).map(([name, probe]) =>
        el('li', {}, !probe.required && probe.status === 'unconfigured' ? el('span', { class: 'muted' }, 'off') : passFail(probe.ok), ' ', humanize(name), probe.required ? '' : ' (optional)'),
      ),
    ),
    el('p', {}, 'Mainnet gate: ', el('code', {}, status.summary.mainnet_gate_status), '. ', el('a', { href: '/live/' }, 'Every probe, with what it found')),
  );
}

/**
 * The newest testnet receipt with its checks; without one, the newest sandbox receipt, said to be
 * one (a local demo's, never a proof).
 */
function latestReceipt(board: ProofExplorer, baseUrl: string): HTMLElement {
  const testnet = board.proofs.find((proof) => proof.kind === 'testnet_receipt');
  const receipt = testnet ?? board.sandbox_receipts[0];
  if (!receipt) {
    return el(
      'div',
      {},
      el('h3', {}, 'Latest receipt'),
      el('p', {}, 'No receipt has settled here yet. ', el('a', { href: '/assistant/' }, 'Pay for a premium answer'), ' to make one.'),
    );
  }
  const passed = receipt.checks.filter((check) => check.ok).length;
  return el(
    'div',
    {},
    el('h3', {}, testnet ? 'Latest testnet receipt' : 'Latest receipt (sandbox)'),
    testnet ? null : el('p', { class: 'muted' }, 'No receipt has settled on the Ergo testnet here yet; this one settled on the local sandbox chain: a demo, never a proof.'),
    // Whose checks: the proof explorer's. verify-receipt makes more of its own (the Note re-read on the
    // reader's chain source, the log proof), so a bare "14 of 14 checks" read as a different count.
    el(
      'p',
      {},
      el('a', { href: `/receipt/${receipt.id}` }, el('code', {}, receipt.id)),
      ` verified at ${receipt.verified_at}: `,
      el('strong', { class: passed === receipt.checks.length ? 'ok' : 'bad' }, `${passed} of the proof explorer's ${receipt.checks.length} checks pass`),
      '; ',
      el('code', {}, `npx agent-economy verify-receipt ${receipt.id.slice(0, 12)}…`),
      ' makes them again, and more, on your own chain source.',
    ),
    el('ul', {}, ...receipt.checks.map((check) => el('li', {}, passFail(check.ok), ' ', humanize(check.id)))),
    receipt.links.receipt ? el('p', {}, link(receipt.links.receipt, baseUrl, 'The receipt bundle (JSON)')) : null,
  );
}

function receiptLog(board: ProofExplorer, baseUrl: string): HTMLElement {
  const log = board.receipt_log;
  return el(
    'div',
    {},
    el('h3', {}, 'Receipt log'),
    el('p', {}, el('strong', {}, `${log.entries} ${log.entries === 1 ? 'entry' : 'entries'}`), ', one per stored receipt. ', el('strong', { class: log.agrees ? 'ok' : 'bad' }, log.agrees ? 'The store and the log agree.' : 'The store and the log disagree.')),
    log.checkpoint
      ? el('p', {}, `Newest checkpoint: size ${log.checkpoint.size}, root `, el('code', {}, log.checkpoint.root_hash), `, signed ${log.checkpoint.issued_at}.`)
      : el('p', {}, 'No signed checkpoint verifies yet.'),
    el('p', {}, link(log.checkpoint_url, baseUrl, 'The signed checkpoint'), ' · ', link(log.key_url, baseUrl, 'its key')),
  );
}

for (const section of document.querySelectorAll<HTMLElement>('[data-glance]')) {
  const output = section.querySelector('[data-output]')!;
  const state = section.querySelector('[data-state]')!;
  const baseUrl = baseUrlOf(section);
  // One slot per JSON read, each holding its cards once it answers.
  const slots: Node[][] = [[el('div', {}, 'Reading the live status…')], [el('div', {}, 'Reading the proof explorer…')]];
  const read = async (at: number, path: string, render: (body: unknown) => Node[]) => {
    try {
      const result = await fetchJson(path);
      slots[at] = result.ok ? render(result.body) : [renderProblem(result, path)];
    } catch (error) {
      slots[at] = [el('p', { class: 'notice' }, `Could not reach ${path}: ${String((error as Error)?.message ?? error)}`)];
    }
    show(output, ...slots.flat());
  };
  show(output, ...slots.flat());
  void Promise.all([
    read(0, section.dataset.live!, (body) => [gates(body as LiveStatus)]),
    read(1, section.dataset.proofs!, (body) => [latestReceipt(body as ProofExplorer, baseUrl), receiptLog(body as ProofExplorer, baseUrl)]),
  ]).then(() => (state.textContent = `Read at ${new Date().toISOString()}; the live status and the proof explorer pages say more.`));
}
