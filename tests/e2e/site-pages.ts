/**
 * The pages of the build, read from the built `client` folder (every `index.html`), so the browser
 * tests visit exactly what the build produced: a page added later is tested without editing a list.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DIST_DIR } from '../helpers/built-server.ts';

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/** Site paths of every built page (`/`, `/jobs/`, ...), sorted. */
export function builtPages(): string[] {
  const client = join(DIST_DIR, 'client');
  return walk(client)
    .filter((file) => file.endsWith(`${sep}index.html`) || file === join(client, 'index.html'))
    .map((file) => '/' + relative(client, file).split(sep).join('/').replace(/index\.html$/, ''))
    .filter((path) => !path.startsWith('/pagefind/'))
    .sort();
}

/** The on-demand receipt page with an id no store holds: it must still render and explain the 404. */
export const UNKNOWN_RECEIPT_PATH = `/receipt/${'0'.repeat(64)}`;
