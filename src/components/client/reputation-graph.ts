/** Renders `/api/agents/reputation`: the totals, then one card per subject with its receipts as links. */
import type { ReputationGraph } from '../../../schemas/reputation.ts';
import { humanize } from '../format.ts';
import { el, loadInto } from './dom.ts';

type Subject = ReputationGraph['subjects'][number];

/** Our API links as paths on this origin (the body names the canonical host). */
const pathOf = (url: string) => {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
};

function subjectItem(subject: Subject): HTMLElement {
  return el(
    'li',
    {},
    el('p', { class: 'card-title' }, `${humanize(subject.kind)} `, el('code', {}, subject.subject_id)),
    el('p', {}, `${subject.receipt_count} receipt${subject.receipt_count === 1 ? '' : 's'}, ${subject.settled_erg} ERG settled, from ${subject.first_settled_at} to ${subject.last_settled_at}.`),
    el('ul', {}, ...subject.evidence.map((item) => el('li', {}, el('a', { href: `/receipt/${item.receipt_id}` }, `Receipt ${item.receipt_id.slice(0, 16)}…`), ` settled ${item.settled_at}`))),
    subject.receipt_count > subject.evidence.length
      ? el('p', {}, `The newest ${subject.evidence.length} of ${subject.receipt_count} receipts; `, el('a', { href: pathOf(subject.evidence_url) }, 'every receipt of this subject (JSON, a page at a time)'), '.')
      : null,
    el('p', { class: 'muted' }, subject.trust_boundary.statement),
  );
}

function render(graph: ReputationGraph): Node[] {
  const { summary } = graph;
  return [
    el(
      'dl',
      {},
      el('div', {}, el('dt', {}, 'Subjects'), el('dd', {}, String(summary.receipt_backed_subjects))),
      el('div', {}, el('dt', {}, 'Receipts counted'), el('dd', {}, `${summary.receipts_counted}, ${summary.total_settled_nanoerg} nanoERG in all`)),
      el('div', {}, el('dt', {}, 'Not counted'), el('dd', {}, `${summary.sandbox_receipts_excluded} sandbox receipts, ${summary.duplicate_receipts_ignored} repeated receipt ids`)),
      el('div', {}, el('dt', {}, 'Receipts without a payer'), el('dd', {}, `${summary.receipts_without_payer} (they credit their service provider only)`)),
      el('div', {}, el('dt', {}, 'Latest settlement'), el('dd', {}, summary.latest_settled_at ?? 'none yet')),
      el('div', {}, el('dt', {}, 'Generated'), el('dd', {}, graph.generated_at)),
    ),
    el('h3', {}, 'Subjects'),
    graph.subjects.length
      ? el('ol', { class: 'cards' }, ...graph.subjects.map(subjectItem))
      : el('p', {}, 'No subject yet: the graph stays empty until a receipt settles on the testnet.'),
    ...(graph.page.next_url ? [el('p', {}, `The first ${graph.subjects.length} of ${summary.receipt_backed_subjects} subjects; `, el('a', { href: pathOf(graph.page.next_url) }, 'the next ones (JSON)'), '.')] : []),
    el('h3', {}, 'How it is derived'),
    el('p', {}, graph.method.counts),
    el('ul', {}, el('li', {}, `Service provider: ${graph.method.subjects.service_provider}`), el('li', {}, `Agent: ${graph.method.subjects.agent}`)),
  ];
}

for (const section of document.querySelectorAll<HTMLElement>('[data-reputation-graph]')) {
  void loadInto(section, section.dataset.path!, (body) => render(body as ReputationGraph));
}
