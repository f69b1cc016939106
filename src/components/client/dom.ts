/**
 * The small DOM toolkit of the browser scripts: build elements without innerHTML (nothing fetched is
 * ever parsed as markup), render any JSON value the way the build-time renderer does, and show a
 * problem answer (4xx/5xx) so a person sees what the server said instead of a blank box.
 */
import { cardTitle, codeClass, columnsOf, humanize, isCommand, isLinkable, isPrimitive, isTabular, isToken, localHref, proseParts, wrapPieces } from '../format.ts';

type Child = Node | string | number | false | null | undefined;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined) node.setAttribute(name, value);
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    node.append(typeof child === 'number' ? String(child) : child);
  }
  return node;
}

/** A check's outcome as the pages mark it: `pass` in the good colour, `fail` in the bad. */
export const passFail = (ok: boolean): HTMLSpanElement => el('span', { class: ok ? 'ok' : 'bad' }, ok ? 'pass' : 'fail');

/** The site origin the page was built for, so our absolute URLs render as paths. */
export function baseUrlOf(root: HTMLElement): string {
  return root.closest<HTMLElement>('[data-base-url]')?.dataset.baseUrl ?? location.origin;
}

/** A long value with a `<wbr>` after each separator, where it wraps first (format.ts wrapPieces; mirrors Code.astro). */
const wrapping = (text: string): Array<Node | string> => wrapPieces(text).flatMap((piece, index) => (index > 0 ? [el('wbr'), piece] : [piece]));

/** A link to `url`; without `text` it shows the URL (as a path on this site), which may wrap after a separator. */
export function link(url: string, baseUrl: string, text?: string): HTMLAnchorElement {
  const href = localHref(url, baseUrl);
  return text === undefined ? el('a', { href }, ...wrapping(href)) : el('a', { href }, text);
}

/** A value as code, marked as a long one (format.ts codeClass) when it is, so a table lets it wrap (mirrors Code.astro). */
export function code(value: string | number): HTMLElement {
  const text = String(value);
  const long = codeClass(text);
  return el('code', { class: long }, ...(long ? wrapping(text) : [text]));
}

/** Text as the descriptors write it: `backticked` words and bare long values become code (mirrors Prose.astro). */
export function prose(text: string): Node {
  return el('span', {}, ...proseParts(text).map((part) => (part.code ? code(part.text) : part.text)));
}

/** Mirrors JsonView.astro: objects as definition lists, flat object arrays as tables, URLs as links. */
export function renderValue(value: unknown, baseUrl: string, name = ''): Node {
  if (value === null || value === undefined) return el('span', { class: 'muted' }, 'none');
  if (typeof value === 'string') {
    if (isLinkable(value)) return link(value, baseUrl);
    if (isCommand(name, value)) return el('pre', { tabindex: '0' }, el('code', {}, value));
    if (isToken(value)) return code(value);
    return prose(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return el('code', {}, String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return el('span', { class: 'muted' }, 'none');
    if (value.every(isPrimitive)) return el('ul', {}, ...value.map((item) => el('li', {}, renderValue(item, baseUrl, name))));
    if (isTabular(value)) {
      const columns = columnsOf(value);
      return el(
        'div',
        { class: 'scroll', tabindex: '0', role: 'group', 'aria-label': humanize(name || 'table') },
        el(
          'table',
          {},
          el('thead', {}, el('tr', {}, ...columns.map((column) => el('th', { scope: 'col' }, humanize(column))))),
          el('tbody', {}, ...value.map((row) => el('tr', {}, ...columns.map((column) => el('td', {}, renderValue(row[column], baseUrl, column)))))),
        ),
      );
    }
    return el(
      'ol',
      { class: 'cards' },
      ...value.map((item) => {
        const title = item && typeof item === 'object' && !Array.isArray(item) ? cardTitle(item as Record<string, unknown>) : undefined;
        return el('li', {}, title ? el('p', { class: 'card-title' }, title) : null, renderValue(item, baseUrl, name));
      }),
    );
  }
  return el(
    'dl',
    {},
    ...Object.entries(value as Record<string, unknown>).map(([key, inner]) => el('div', {}, el('dt', {}, humanize(key)), el('dd', {}, renderValue(inner, baseUrl, key)))),
  );
}

export interface FetchedJson {
  status: number;
  ok: boolean;
  body: unknown;
  /** The raw text (a text/plain answer, or any body that is not JSON). */
  text: string;
  headers: Headers;
}

/** GET or POST JSON (or, with `accept`, another type, whose errors are still JSON problems); never throws for an HTTP status, only for a network failure. */
export async function fetchJson(path: string, init: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal; accept?: string } = {}): Promise<FetchedJson> {
  const accept = init.accept ?? 'application/json';
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? { accept } : { accept, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, ok: response.ok, body, text, headers: response.headers };
}

const STATUS_MEANING: Record<number, string> = {
  400: 'the request was refused as invalid',
  402: 'payment is required or could not be verified',
  404: 'nothing was found',
  410: 'the quote has expired',
  429: 'too many requests; wait and retry',
  502: 'an upstream service failed',
  503: 'a dependency is not configured or not available right now',
};

/** A non-2xx answer as a readable notice: status, title, detail, code, each named field, and the raw body. */
export function renderProblem(result: FetchedJson, what: string): HTMLElement {
  const problem = (result.body && typeof result.body === 'object' ? result.body : {}) as Record<string, unknown>;
  const errors = Array.isArray(problem.errors) ? (problem.errors as Array<Record<string, unknown>>) : [];
  return el(
    'div',
    { class: 'notice', role: 'status' },
    el('p', {}, el('strong', { class: 'bad' }, `${what} answered ${result.status}`), STATUS_MEANING[result.status] ? `: ${STATUS_MEANING[result.status]}.` : '.'),
    typeof problem.title === 'string' && el('p', {}, el('strong', {}, String(problem.title)), typeof problem.code === 'string' ? ' (code ' : '', typeof problem.code === 'string' ? el('a', { href: `/problems/#${problem.code}` }, el('code', {}, String(problem.code))) : '', typeof problem.code === 'string' ? ')' : ''),
    typeof problem.detail === 'string' && el('p', {}, String(problem.detail)),
    errors.length > 0 &&
      el('ul', {}, ...errors.map((error) => el('li', {}, el('code', {}, String(error.path ?? error.field ?? '')), ' ', String(error.message ?? '')))),
    el('details', {}, el('summary', {}, 'Raw answer'), el('pre', { tabindex: '0' }, el('code', {}, result.text || '(empty body)'))),
  );
}

/** Replaces the children of a container and announces the change to assistive technology. */
export function show(container: Element, ...nodes: Node[]): void {
  container.replaceChildren(...nodes);
}

/**
 * Reads `path` into `section`: `[data-state]` says what is being read and then what was read (with
 * the time when `stamp`), `[data-output]` shows `render` of a 2xx body, the problem of any other
 * answer, or a notice when the site cannot be reached. Never throws.
 */
export async function loadInto(section: HTMLElement, path: string, render: (body: unknown, baseUrl: string) => Node[], stamp = false): Promise<void> {
  const state = section.querySelector('[data-state]')!;
  const output = section.querySelector('[data-output]')!;
  state.textContent = `Reading ${path}…`;
  try {
    const result = await fetchJson(path);
    state.textContent = stamp ? `Read ${path} at ${new Date().toISOString()}.` : `Read ${path}.`;
    show(output, ...(result.ok ? render(result.body, baseUrlOf(section)) : [renderProblem(result, path)]));
  } catch (error) {
    state.textContent = '';
    show(output, el('p', { class: 'notice' }, `Could not reach ${path}: ${String((error as Error)?.message ?? error)}`));
  }
}
