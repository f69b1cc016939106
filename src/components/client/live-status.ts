/** Renders `/api/agent-economy/live`: the overall verdict, the summary and one row per probe. */
import type { LiveStatus } from '../../../schemas/live.ts';
import { MAINNET_BLOCKERS } from '../../descriptors/mainnet-blockers.ts';
import { humanize } from '../format.ts';
import { el, link, loadInto, passFail, prose } from './dom.ts';
import { refreshTimelines } from './timeline.ts';

function render(status: LiveStatus, baseUrl: string): Node[] {
  const latest = status.summary.latest_full_receipt_id;
  return [
    el('p', { class: 'lead' }, el('strong', { class: status.ok ? 'ok' : 'bad' }, status.ok ? 'Every required probe passes.' : 'A required probe fails.'), ` Checked at ${status.checked_at}; results are reused for ${status.cached_for_seconds} s.`),
    el(
      'dl',
      {},
      el('div', {}, el('dt', {}, 'Surfaces live'), el('dd', {}, status.summary.gates_live.length ? status.summary.gates_live.join(', ') : 'none')),
      el('div', {}, el('dt', {}, 'Mainnet gate'), el('dd', {}, el('code', {}, status.summary.mainnet_gate_status), ` (closed by design until these exist: ${MAINNET_BLOCKERS.map((blocker) => blocker.label).join('; ')})`)),
      el('div', {}, el('dt', {}, 'Latest full receipt'), el('dd', {}, latest ? el('a', { href: `/receipt/${latest}` }, el('code', {}, latest)) : 'none settled yet')),
    ),
    el(
      'div',
      { class: 'scroll', tabindex: '0', role: 'group', 'aria-label': 'Probes' },
      el(
        'table',
        {},
        el('thead', {}, el('tr', {}, ...['Probe', 'Result', 'Required', 'State', 'What was found', 'Latency'].map((name) => el('th', { scope: 'col' }, name)))),
        el(
          'tbody',
          {},
          ...Object.entries(status.probes).map(([name, probe]) =>
            el(
              'tr',
              {},
              el('th', { scope: 'row' }, humanize(name)),
              el('td', {}, passFail(probe.ok)),
              el('td', {}, probe.required ? 'yes' : 'no'),
              el('td', {}, el('code', {}, probe.status)),
              el('td', {}, prose(probe.detail)),
              el('td', {}, probe.latency_ms === undefined ? '' : `${probe.latency_ms} ms`),
            ),
          ),
        ),
      ),
    ),
    el('p', {}, 'Next: ', link(status.links.proofs, baseUrl, 'proof explorer (JSON)'), ' · ', link(status.links.mainnet_gate, baseUrl, 'mainnet gate (JSON)'), ' · ', link(status.links.openapi, baseUrl, 'OpenAPI')),
  ];
}

for (const section of document.querySelectorAll<HTMLElement>('[data-live-status]')) {
  const refresh = section.querySelector<HTMLButtonElement>('[data-refresh]')!;
  const load = async () => {
    refresh.disabled = true;
    await loadInto(section, section.dataset.path!, (body, baseUrl) => render(body as LiveStatus, baseUrl));
    // This reading may have been kept in the history the timeline draws.
    await refreshTimelines();
    refresh.disabled = false;
    refresh.hidden = false;
  };
  refresh.addEventListener('click', () => void load());
  void load();
}
