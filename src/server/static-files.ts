/**
 * `dist/client` held in memory: each file with its strong ETag and the brotli and gzip variants the
 * build wrote beside it, so a GET is a map lookup and a write, never a disk read or a compression.
 */
import { acceptedCodings } from '../lib/accept-encoding.ts';
import { strongEtag } from '../lib/etag.ts';
import { staticCacheControlFor } from '../lib/response-headers.ts';
import { contentTypeOf } from '../lib/content-types.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface StaticVariant {
  body: Buffer;
  /** Complete raw header list for a 200 with this body, built once at load. */
  rawHeaders: string[];
}

export interface StaticEntry {
  identity: StaticVariant;
  br?: StaticVariant;
  gzip?: StaticVariant;
  etag: string;
  contentType: string;
  rawHeaders: { notModified: string[] };
}

export interface StaticManifestEntry {
  path: string;
  file: string;
  contentType: string;
  headers: Record<string, string>;
}


function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

function readVariant(file: string, suffix: string): Buffer | undefined {
  return existsSync(file + suffix) ? readFileSync(file + suffix) : undefined;
}

/**
 * An answer held in memory: its body, the variants the client may ask for, and the raw header lists
 * of its 200s and its 304, made once.
 */
export function staticEntryOf(
  body: { identity: Buffer; br?: Buffer | undefined; gzip?: Buffer | undefined; etag?: string },
  contentType: string,
  cacheControl: string,
  baseHeaders: string[],
  extraHeaders: Record<string, string> = {},
): StaticEntry {
  const etag = body.etag ?? strongEtag(body.identity);
  const common = [...baseHeaders, 'content-type', contentType, 'etag', etag, 'cache-control', cacheControl, 'vary', 'accept-encoding', ...Object.entries(extraHeaders).flat()];
  const variant = (bytes: Buffer | undefined, encoding?: string): StaticVariant | undefined =>
    bytes && { body: bytes, rawHeaders: [...common, ...(encoding ? ['content-encoding', encoding] : []), 'content-length', String(bytes.length)] };
  return { identity: variant(body.identity)!, br: variant(body.br, 'br'), gzip: variant(body.gzip, 'gzip'), etag, contentType, rawHeaders: { notModified: common } };
}

/**
 * Loads every file of `clientDir`. Descriptor files come from the manifest (their URL has no
 * extension); pages map `x/index.html` to `/x/` and `/x`; other files answer at their own path.
 */
export function loadStaticFiles(clientDir: string, manifest: StaticManifestEntry[], baseHeadersFor: (contentType: string) => string[] = () => []): Map<string, StaticEntry> {
  const files = new Map<string, StaticEntry>();
  const fromManifest = new Map(manifest.map((entry) => [entry.file, entry]));
  for (const absolute of walk(clientDir)) {
    if (absolute.endsWith('.br') || absolute.endsWith('.gz')) continue;
    const file = relative(clientDir, absolute).split(sep).join('/');
    const described = fromManifest.get(file);
    const contentType = described?.contentType ?? contentTypeOf(file);
    const entry = staticEntryOf(
      { identity: readFileSync(absolute), br: readVariant(absolute, '.br'), gzip: readVariant(absolute, '.gz') },
      contentType,
      staticCacheControlFor('/' + file),
      baseHeadersFor(contentType),
      described?.headers,
    );
    if (described) {
      files.set(described.path, entry);
      continue;
    }
    files.set('/' + file, entry);
    if (file === 'index.html') files.set('/', entry);
    else if (file.endsWith('/index.html')) {
      const dir = '/' + file.slice(0, -'index.html'.length);
      files.set(dir, entry);
      files.set(dir.slice(0, -1), entry);
    }
  }
  return files;
}

/** Picks the smallest variant the client accepts: brotli, then gzip, then identity. */
export function negotiateEncoding(entry: StaticEntry, acceptEncoding: string | undefined): StaticVariant {
  if (!acceptEncoding || (!entry.br && !entry.gzip)) return entry.identity;
  const accepted = acceptedCodings(acceptEncoding);
  if (entry.br && accepted.has('br')) return entry.br;
  if (entry.gzip && accepted.has('gzip')) return entry.gzip;
  return entry.identity;
}
