/**
 * Loads each server-drawn picture of the page once, shows it, and puts its `<desc>` in the caption,
 * so the words and the picture describe the same reading. The SVG is parsed as data (DOMParser never
 * runs scripts) and shown through a data: URL, which the page's CSP allows for images.
 */
export async function refreshTimelines(): Promise<void> {
  await Promise.all(
    [...document.querySelectorAll<HTMLElement>('[data-timeline]')].map(async (figure) => {
      const caption = figure.querySelector<HTMLElement>('[data-caption]')!;
      try {
        const response = await fetch(figure.dataset.path!, { cache: 'no-store' });
        if (!response.ok) throw new Error(`${response.status}`);
        const svg = await response.text();
        const description = new DOMParser().parseFromString(svg, 'image/svg+xml').querySelector('desc')?.textContent;
        figure.querySelector<HTMLImageElement>('[data-image]')!.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
        if (description) caption.textContent = description;
      } catch (error) {
        caption.textContent = `The picture could not be read just now (${(error as Error).message}); reload the page to try again.`;
      }
    }),
  );
}
