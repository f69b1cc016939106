/**
 * No page of the build links a path that only POST answers as if it were a page (a browser following
 * it would get a JSON 405): descriptors rendered as pages show such a path and link its section of
 * the API reference instead, a section that exists. The assistant page names every route of the
 * assistant in its machine-readable box.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/routes/table.ts';
import { DIST_DIR } from '../helpers/built-server.ts';

const CLIENT = join(DIST_DIR, 'client');

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? htmlFiles(path) : entry.name.endsWith('.html') ? [path] : [];
  });
}

const postOnly = new Map(
  [...new Set(allRoutes().map((route) => route.path))]
    .filter((path) => !path.includes('{') && allRoutes().every((route) => route.path !== path || route.method !== 'GET'))
    .map((path) => [path, allRoutes().find((route) => route.path === path)!.id]),
);

describe('links on the pages', () => {
  const pages = htmlFiles(CLIENT).map((file) => ({ file: file.slice(CLIENT.length), html: readFileSync(file, 'utf8') }));

  it('never point at a path only POST answers; such a path links its API reference section, which exists', () => {
    expect(postOnly.get('/a2a')).toBe('a2a');
    expect(pages.length).toBeGreaterThan(10);
    const reference = readFileSync(join(CLIENT, 'api-reference/index.html'), 'utf8');
    let shown = 0;
    for (const { file, html } of pages) {
      // A long path shown as a link may carry <wbr> after its separators (where it may wrap): the text is the same.
      for (const [, href, shownText] of html.matchAll(/<a [^>]*?href="([^"]*)"[^>]*>((?:[^<]|<wbr>)*)<\/a>/g)) {
        const text = shownText!.replaceAll('<wbr>', '');
        const path = href!.split(/[?#]/)[0]!;
        expect(postOnly.has(path), `${file} links ${href}`).toBe(false);
        if (postOnly.has(text)) {
          expect(href, `${file}: ${text}`).toBe(`/api-reference/#op-${postOnly.get(text)}`);
          shown++;
        }
      }
    }
    expect(shown, 'the descriptor pages show POST-only paths as links to their reference').toBeGreaterThan(0);
    for (const id of postOnly.values()) expect(reference, id).toContain(`id="op-${id}"`);
  });

  it('the assistant page names every assistant route in its machine-readable box, each with its reference', () => {
    const html = readFileSync(join(CLIENT, 'assistant/index.html'), 'utf8');
    const box = html.slice(html.indexOf('aria-label="Machine-readable"'));
    const assistant = allRoutes().filter((route) => route.tag === 'Assistant');
    expect(assistant.map((route) => route.id)).toEqual(expect.arrayContaining(['a2a', 'assistant-chat', 'assistant-verify-payment', 'assistant-receipt', 'assistant-receipt-proof']));
    for (const route of assistant) {
      expect(box, route.id).toContain(`<code>${route.method} ${route.path}</code>`);
      expect(box, route.id).toContain(`href="/api-reference/#op-${route.id}"`);
    }
  });

  it('offers "open" in the API reference only for a GET that answers as linked (no template, no required query parameter)', () => {
    const reference = readFileSync(join(CLIENT, 'api-reference/index.html'), 'utf8');
    const opened = [...reference.matchAll(/<a href="([^"]+)">open<\/a>/g)].map(([, href]) => href!);
    expect(opened.length).toBeGreaterThan(5);
    // The reputation evidence needs its subject: linked bare it answered 400.
    expect(opened).not.toContain('/api/agents/reputation/evidence');
    const required = allRoutes().filter((route) => route.kind === 'dynamic' && route.query && Object.values(route.query.shape).some((field) => !(field as { safeParse: (value: unknown) => { success: boolean } }).safeParse(undefined).success));
    expect(required.map((route) => route.id)).toContain('reputation-evidence');
    for (const route of required) expect(opened, route.id).not.toContain(route.path);
  });

  it('writes a path template one way everywhere: {tilePath}, as OpenAPI does, never the catalogue\'s {tilePath+}', () => {
    const published = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        return entry.isDirectory() ? published(path) : /\.(json|html|txt)$/.test(entry.name) ? [path] : [];
      });
    const files = published(CLIENT);
    expect(files.some((file) => readFileSync(file, 'utf8').includes('/tile/{tilePath}'))).toBe(true);
    for (const file of files) expect(readFileSync(file, 'utf8').includes('+}'), file.slice(CLIENT.length)).toBe(false);
  });
});
