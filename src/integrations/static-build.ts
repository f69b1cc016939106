/**
 * Astro integration that turns the route table into files: at `astro:build:done` it writes every
 * static document into `dist/client`, precompresses every text file (brotli and gzip), records the
 * manifest the production server loads, writes CDN rules (`_headers`, `_redirects`) for hosts that
 * serve `dist/client` alone, validates every descriptor against its published schema (the report the
 * proof explorer lists), and bundles our `node:http` entry, the MCP host and the `agent-economy`
 * command. Under `astro dev` it serves the same documents from memory so both modes answer the same bytes.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegration } from 'astro';
import { build as esbuild } from 'esbuild';
import * as pagefind from 'pagefind';
import { schemaConformance, SCHEMA_CONFORMANCE_FILE } from '../build/schema-conformance.ts';
import { builtDocuments, DOCS_CORPUS_FILE } from '../build/site-documents.ts';
import { ANSWER_INDEX_FILE, answerIndexData } from '../build/answer-index-file.ts';
import { termsFactDocument } from '../build/fact-documents.ts';
import { staticDocuments } from '../build/static-documents.ts';
import { BUILD_ORIGIN_FILE, buildOriginOf } from '../config/build-origin.ts';
import { site } from '../config/site.ts';
import { cdnHeaders, runtimePaths } from '../build/cdn-rules.ts';
import { contentTypeOf } from '../lib/content-types.ts';
import { RECEIPT_PAGE_SLOTS_SEGMENT, RECEIPT_PAGE_TEMPLATE_FILE } from '../lib/receipt-page.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(html|json|js|mjs|css|svg|txt|xml|webmanifest)$/i;
/** Below this size a compressed variant saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 256;

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}

async function precompress(clientDir: string): Promise<number> {
  const files = (await walk(clientDir)).filter((file) => COMPRESSIBLE.test(file));
  let written = 0;
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      if (data.length < MIN_COMPRESS_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
        gzipAsync(data, { level: 9 }),
      ]);
      if (br.length < data.length) await writeFile(file + '.br', br);
      if (gz.length < data.length) await writeFile(file + '.gz', gz);
      written++;
    }),
  );
  return written;
}

/**
 * Site search: Pagefind indexes the built pages of `clientDir` (the `<main data-pagefind-body>` of
 * each) and writes its index to `clientDir/pagefind`, before precompression so the index ships with
 * the rest. Pagefind's own failures are rethrown with their cause, failing the build.
 */
async function buildSearchIndex(clientDir: string): Promise<number> {
  try {
    const { index, errors } = await pagefind.createIndex({});
    if (!index) throw new Error(errors.join('; ') || 'no index created');
    const indexed = await index.addDirectory({ path: clientDir });
    if (indexed.errors.length > 0) throw new Error(indexed.errors.join('; '));
    if (indexed.page_count === 0) throw new Error(`no page found to index under ${clientDir}`);
    const written = await index.writeFiles({ outputPath: join(clientDir, 'pagefind') });
    if (written.errors.length > 0) throw new Error(written.errors.join('; '));
    return indexed.page_count;
  } catch (error) {
    throw new Error(`static build: the Pagefind search index failed: ${(error as Error).message}`, { cause: error });
  } finally {
    await pagefind.close();
  }
}

const run = promisify(execFile);

/** The server's bundle; `fast-entry.mjs` beside it turns on the compile cache first, then loads it. */
const SERVER_MAIN = 'server-main';
const COMPILE_CACHE_DIR = 'compile-cache';
const WARM_COMPILE_CACHE = 'AGENT_ECONOMY_WARM_COMPILE_CACHE';

/**
 * `dist/server/fast-entry.mjs`: V8's code for every module of the server (and the CommonJS packages it
 * loads on first use) is kept in `dist/server/compile-cache`, made by the build, so a start reads
 * compiled code instead of compiling about 6 MB of JavaScript again. Static imports load before a
 * module's own code runs, so the cache is turned on here, before the bundle is imported. A cache
 * made by another Node version or for other files is ignored by Node and rewritten.
 */
const SERVER_ENTRY = `// Written by src/integrations/static-build.ts: turns on the compile cache, then loads the server.
import { createRequire, enableCompileCache, flushCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

enableCompileCache(fileURLToPath(new URL('./${COMPILE_CACHE_DIR}', import.meta.url)));
const server = await import('./${SERVER_MAIN}.mjs');
export const main = server.main;

if (process.env.${WARM_COMPILE_CACHE} === '1') {
  // The build's run: the packages loaded on first use too, then the cache written, and no server.
  const load = createRequire(import.meta.url);
  for (const name of ['undici', 'pg']) load(name);
  flushCompileCache();
  process.stdout.write('warmed');
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(\`server: \${error?.message ?? error}\`);
    process.exit(1);
  });
}
`;

/** The list of paths a CDN forwards to the runtime (src/build/cdn-rules.ts), beside `client` and `server` in `dist/`: not served. */
export const RUNTIME_PATHS_FILE = 'runtime-paths.txt';

/** The assistant widget, bundled with its dependencies, at the site's root. */
export const WIDGET_FILE = 'assistant-widget.js';

export function staticBuild(): AstroIntegration {
  let root = '';
  return {
    name: 'agent-economy:static-build',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((req, res, next) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') return next();
          const path = new URL(req.url ?? '/', 'http://dev').pathname;
          // The built server fills `/receipt/{id}` from a template; under `astro dev` the page that takes `?id=` shows it.
          const receipt = /^\/receipt\/([^/]+)\/?$/.exec(path);
          if (receipt && receipt[1] !== RECEIPT_PAGE_SLOTS_SEGMENT) {
            res.writeHead(302, { location: `/receipt/?id=${receipt[1]}` });
            return void res.end();
          }
          const document = staticDocuments().find((doc) => doc.path === path);
          if (!document) return next();
          res.writeHead(200, { 'content-type': document.contentType, ...document.headers });
          res.end(req.method === 'HEAD' ? undefined : document.body);
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const clientDir = fileURLToPath(dir);
        const distDir = dirname(clientDir.replace(/[\\/]$/, ''));
        const serverDir = join(distDir, 'server');
        // The receipt page with its slots is the server's template, not a page of its own.
        const slotsDir = join(clientDir, 'receipt', RECEIPT_PAGE_SLOTS_SEGMENT);
        await mkdir(serverDir, { recursive: true });
        await rename(join(slotsDir, 'index.html'), join(serverDir, RECEIPT_PAGE_TEMPLATE_FILE));
        await rm(slotsDir, { recursive: true });
        const documents = staticDocuments();
        for (const document of documents) {
          const target = join(clientDir, document.file);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, document.body);
        }
        logger.info(`wrote ${documents.length} static documents (descriptors, schemas, OpenAPI)`);
        // The assistant widget as one module with what it imports (marked), so a page without a
        // bundler or an import map embeds it with one <script type="module" src>.
        await esbuild({ entryPoints: [join(root, 'packages/assistant-widget/assistant-widget.js')], outfile: join(clientDir, WIDGET_FILE), bundle: true, format: 'esm', minify: true, target: 'es2022', logLevel: 'warning' });
        logger.info(`bundled the assistant widget as /${WIDGET_FILE} (${Math.round((await stat(join(clientDir, WIDGET_FILE))).size / 1024)} KiB)`);

        const rewrites = documents.filter((doc) => doc.file !== doc.path.slice(1)).map((doc) => `${doc.path} /${doc.file} 200`);
        await writeFile(join(clientDir, '_redirects'), rewrites.join('\n') + '\n');

        const pages = await buildSearchIndex(clientDir);
        logger.info(`indexed ${pages} pages for site search (Pagefind)`);
        // Every file at the path it is served at: a descriptor at its own, a page at its folder's.
        const described = new Map(documents.map((doc) => [doc.file, doc]));
        const served = (await walk(clientDir)).map((file) => relative(clientDir, file).split(sep).join('/')).filter((file) => !/\.(br|gz)$/.test(file) && file !== '_headers' && file !== '_redirects');
        const cdnFiles = served.sort().map((file) => {
          const doc = described.get(file);
          if (doc) return { path: doc.path, contentType: doc.contentType, headers: doc.headers };
          return { path: `/${file.replace(/(^|\/)index\.html$/, '$1')}`, contentType: contentTypeOf(file) };
        });
        await writeFile(join(clientDir, '_headers'), cdnHeaders(cdnFiles));
        await writeFile(join(distDir, RUNTIME_PATHS_FILE), runtimePaths().join('\n') + '\n');

        const compressed = await precompress(clientDir);
        logger.info(`precompressed ${compressed} files (brotli, gzip)`);

        const manifest = documents.map(({ path, file, contentType, headers }) => ({ path, file, contentType, headers }));
        await writeFile(join(serverDir, 'static-manifest.json'), JSON.stringify(manifest, null, 2));
        await writeFile(join(serverDir, BUILD_ORIGIN_FILE), JSON.stringify(buildOriginOf(site), null, 2) + '\n');
        const corpus = builtDocuments();
        await writeFile(join(serverDir, DOCS_CORPUS_FILE), JSON.stringify(corpus));
        const answers = answerIndexData(corpus, [termsFactDocument()]);
        await writeFile(join(serverDir, ANSWER_INDEX_FILE), JSON.stringify(answers));
        logger.info(`indexed ${answers.sentences.length} sentences and facts for the assistant`);
        logger.info(`built for ${site.base_url} (MCP host ${site.mcp_url})`);

        const conformance = schemaConformance(documents, new Date());
        await writeFile(join(serverDir, SCHEMA_CONFORMANCE_FILE), JSON.stringify(conformance, null, 2) + '\n');
        const failing = conformance.checks.filter((check) => !check.ok);
        if (failing.length) logger.warn(`schema conformance: ${failing.map((check) => check.detail).join(' ')}`);
        else logger.info(`schema conformance: ${conformance.checks.length} served descriptors validate against their published schemas`);

        // The production server, the MCP host (`npm run mcp`) and the `agent-economy` command.
        const shared = { bundle: true, platform: 'node', format: 'esm', target: 'node24', packages: 'external', sourcemap: 'linked', logLevel: 'warning' } as const;
        // The site and the MCP host in one build with code splitting: what the site imports only
        // when it runs the MCP host in process (MCP_WITH_SITE) stays in a chunk it never loads
        // otherwise, and both share one copy of the runtime (store, limiter) when it does. Chunks
        // sit beside the entries, where the build's own files are looked up from import.meta.url.
        const serverEntries = { [SERVER_MAIN]: join(root, 'src/server/fast-entry.ts'), mcp: join(root, 'src/mcp/main.ts') };
        await esbuild({ ...shared, entryPoints: serverEntries, outdir: serverDir, splitting: true, outExtension: { '.js': '.mjs' }, chunkNames: 'bundle-chunk-[hash]' });
        await writeFile(join(serverDir, 'fast-entry.mjs'), SERVER_ENTRY);
        const cliFile = join(distDir, 'cli', 'agent-economy.mjs');
        await esbuild({ ...shared, entryPoints: [join(root, 'src/cli/main.ts')], outfile: cliFile, banner: { js: '#!/usr/bin/env node' } });
        for (const file of [...Object.keys(serverEntries).map((name) => join(serverDir, `${name}.mjs`)), cliFile]) {
          logger.info(`bundled ${relative(root, file).split(sep).join('/')} (${Math.round((await stat(file)).size / 1024)} KiB)`);
        }
        // The server's modules compiled once here rather than by every start (issue 53: cold start).
        const warmed = await run(process.execPath, [join(serverDir, 'fast-entry.mjs')], { env: { ...process.env, [WARM_COMPILE_CACHE]: '1' } });
        logger.info(`compiled the server's modules into dist/server/${COMPILE_CACHE_DIR} (${warmed.stdout.trim()})`);
      },
    },
  };
}
