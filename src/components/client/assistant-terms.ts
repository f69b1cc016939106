/** Renders `/api/assistant/terms`: the free allowance, the premium turn's price and rules, as this server runs them. */
import type { AssistantTerms } from '../../../schemas/assistant-terms.ts';
import { el, loadInto, prose } from './dom.ts';

const minutes = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`);

function render(terms: AssistantTerms): Node[] {
  const { free_tier: free, premium } = terms;
  return [
    el(
      'dl',
      {},
      el('div', {}, el('dt', {}, 'Free questions'), el('dd', {}, `${free.daily_limit} a day per client, up to ${free.max_characters} characters each`)),
      el('div', {}, el('dt', {}, 'Longest question'), el('dd', {}, `${terms.question_max_characters} characters`)),
      el('div', {}, el('dt', {}, 'Premium turn'), el('dd', {}, `${premium.price} testnet ERG (${premium.price_nanoerg} nanoERG)${premium.payable ? '' : '; premium quotes are not issued on this server now'}`)),
      el('div', {}, el('dt', {}, 'A quote can be paid for'), el('dd', {}, minutes(premium.quote_lifetime_seconds))),
      el('div', {}, el('dt', {}, 'Confirmations needed'), el('dd', {}, String(premium.min_confirmations))),
      el('div', {}, el('dt', {}, 'Payment token valid for'), el('dd', {}, minutes(premium.payment_token_lifetime_seconds))),
      premium.receiver_address && el('div', {}, el('dt', {}, 'Pays'), el('dd', {}, el('code', {}, premium.receiver_address))),
    ),
    el('h3', {}, 'What the Note must be'),
    el('ul', {}, ...terms.note_rules.map((rule) => el('li', {}, prose(rule.rule), ' ', el('span', { class: 'muted' }, `(else ${rule.code})`)))),
  ];
}

for (const section of document.querySelectorAll<HTMLElement>('[data-assistant-terms]')) {
  void loadInto(section, section.dataset.path!, (body) => render(body as AssistantTerms));
}
