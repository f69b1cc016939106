/** Fills every `[data-live-json]` section with its route's current answer, or with the problem it returned. */
import { loadInto, renderValue } from './dom.ts';

for (const section of document.querySelectorAll<HTMLElement>('[data-live-json]')) {
  void loadInto(section, section.dataset.path!, (body, baseUrl) => [renderValue(body, baseUrl)], true);
}
