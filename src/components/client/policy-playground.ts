/**
 * The playground's behaviour: presets fill the request box, submit POSTs it to the policy check, and
 * the verdict is laid out with every reason explained by the contract's own reason-code text.
 */
import type { PolicyVerdict } from '../../../schemas/policy-check.ts';
import { humanize } from '../format.ts';
import { el, fetchJson, renderProblem, show } from './dom.ts';

const root = document.querySelector<HTMLElement>('[data-policy-playground]');

function explanation(template: HTMLTemplateElement, code: string): Node {
  const entry = template.content.querySelector(`[data-code="${CSS.escape(code)}"]`);
  return entry ? el('span', {}, ...Array.from(entry.cloneNode(true).childNodes)) : document.createTextNode('See the reason codes of the contract below.');
}

function renderVerdict(verdict: PolicyVerdict, template: HTMLTemplateElement): Node[] {
  const nodes: Node[] = [
    el('h3', {}, 'Verdict'),
    el(
      'p',
      { class: 'lead', 'data-verdict': verdict.allowed ? 'allowed' : 'denied' },
      el('strong', { class: verdict.allowed ? 'ok' : 'bad' }, verdict.allowed ? 'Allowed' : 'Denied'),
      ': ',
      el('code', {}, verdict.summary),
      ` for profile ${verdict.profile_id}, checked at ${verdict.checked_at}.`,
    ),
  ];
  if (verdict.reasons.length > 0) {
    nodes.push(
      el('h3', {}, `Reasons (${verdict.reasons.length})`),
      el(
        'ol',
        { class: 'cards', 'data-reasons': '' },
        ...verdict.reasons.map((reason) =>
          el(
            'li',
            { 'data-reason-code': reason.code },
            el('p', { class: 'card-title' }, el('code', {}, reason.code), ' at ', el('code', {}, reason.field)),
            el('p', {}, reason.message),
            el('p', {}, el('strong', {}, 'What it means: '), explanation(template, reason.code)),
          ),
        ),
      ),
    );
  } else {
    nodes.push(el('p', {}, 'No reason: every check passed. The host wallet may now sign exactly this action; the policy check itself never signs.'));
  }
  if (verdict.warnings.length > 0) {
    nodes.push(
      el('h3', {}, `Warnings (${verdict.warnings.length})`),
      el('ul', {}, ...verdict.warnings.map((warning) => el('li', {}, el('code', {}, warning.code), ` at ${warning.field}: ${warning.message} `, explanation(template, warning.code)))),
    );
  }
  nodes.push(
    el('h3', {}, 'Checks in order'),
    el('ol', {}, ...verdict.checks.map((check) => el('li', {}, el('span', { class: check.passed ? 'ok' : 'bad' }, check.passed ? 'pass ' : 'fail '), humanize(check.check)))),
    el('p', { class: 'muted' }, verdict.signing_boundary),
  );
  return nodes;
}

if (root) {
  const form = root.querySelector<HTMLFormElement>('[data-playground-form]')!;
  const textarea = form.querySelector<HTMLTextAreaElement>('textarea')!;
  const output = root.querySelector('[data-playground-output]')!;
  const template = root.querySelector<HTMLTemplateElement>('template[data-explanations]')!;
  const endpoint = root.dataset.endpoint!;
  root.querySelector('[data-playground-fallback]')?.remove();
  form.hidden = false;

  for (const button of form.querySelectorAll<HTMLButtonElement>('[data-preset]')) {
    button.addEventListener('click', () => {
      textarea.value = button.dataset.preset!;
      show(output);
      textarea.focus();
    });
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    let request: unknown;
    try {
      request = JSON.parse(textarea.value);
    } catch (error) {
      show(output, el('p', { class: 'notice', role: 'status' }, el('strong', { class: 'bad' }, 'Not JSON: '), (error as Error).message));
      return;
    }
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    submit.disabled = true;
    show(output, el('p', {}, 'Checking…'));
    fetchJson(endpoint, { method: 'POST', body: request })
      .then((result) => show(output, ...(result.ok ? renderVerdict(result.body as PolicyVerdict, template) : [renderProblem(result, `POST ${endpoint}`)])))
      .catch((error: unknown) => show(output, el('p', { class: 'notice' }, `Could not reach ${endpoint}: ${String((error as Error)?.message ?? error)}`)))
      .finally(() => {
        submit.disabled = false;
      });
  });
}
