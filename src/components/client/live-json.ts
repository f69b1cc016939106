/** Fills every `[data-live-json]` section with its route's current answer, or with the problem it returned. */
import { baseUrlOf, el, fetchJson, renderProblem, renderValue, show } from './dom.ts';

for (const section of document.querySelectorAll<HTMLElement>('[data-live-json]')) {
  const path = section.dataset.path!;
  const state = section.querySelector('[data-state]')!;
  const output = section.querySelector('[data-output]')!;
  state.textContent = `Reading ${path}…`;
  fetchJson(path)
    .then((result) => {
      state.textContent = `Read ${path} at ${new Date().toISOString()}.`;
      show(output, result.ok ? renderValue(result.body, baseUrlOf(section)) : renderProblem(result, path));
    })
    .catch((error: unknown) => {
      state.textContent = '';
      show(output, el('p', { class: 'notice' }, `Could not reach ${path}: ${String((error as Error)?.message ?? error)}`));
    });
}
