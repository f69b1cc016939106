/**
 * Loads each server-drawn picture of the page, shows it, and puts its `<desc>` in the caption, so the
 * words and the picture describe the same reading. The SVG is parsed as data (DOMParser never runs
 * scripts) and shown through a data: URL, which the page's CSP allows for images. Of overlapping
 * loads of one figure, only the latest one started is shown.
 */
const latest = new WeakMap<HTMLElement, number>();

export async function refreshTimelines(): Promise<void> {
  await Promise.all(
    [...document.querySelectorAll<HTMLElement>('[data-timeline]')].map(async (figure) => {
      const turn = (latest.get(figure) ?? 0) + 1;
      latest.set(figure, turn);
      const caption = figure.querySelector<HTMLElement>('[data-caption]')!;
      try {
        const response = await fetch(figure.dataset.path!, { cache: 'no-store' });
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        const svg = await response.text();
        const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml');
        if (parsed.documentElement.localName !== 'svg' || parsed.querySelector('parsererror')) throw new Error('the answer is not an SVG picture');
        if (latest.get(figure) !== turn) return;
        figure.querySelector<HTMLImageElement>('[data-image]')!.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
        caption.textContent = parsed.querySelector('desc')?.textContent ?? '';
      } catch (error) {
        if (latest.get(figure) === turn) caption.textContent = `The picture could not be read just now (${(error as Error).message}); reload the page to try again.`;
      }
    }),
  );
}
