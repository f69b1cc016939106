/**
 * Astro integration that turns the route table into files: at `astro:build:done` it writes every
 * static document into `dist/client`, precompresses every text file (brotli and gzip), records the
 * manifest the production server loads, writes CDN rules (`_headers`, `_redirects`) for hosts that
 * serve `dist/client` alone, and bundles our `node:http` entry. Under `astro dev` it serves the same
 * documents from memory so both modes answer the same bytes.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegration } from 'astro';
import { build as esbuild } from 'esbuild';
import { staticDocuments } from '../build/static-documents.ts';

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
        const documents = staticDocuments();
        for (const document of documents) {
          const target = join(clientDir, document.file);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, document.body);
        }
        logger.info(`wrote ${documents.length} static documents (descriptors, schemas, OpenAPI)`);

        const cdnHeaders = documents
          .map((doc) => [doc.path, `  Content-Type: ${doc.contentType}`, ...Object.entries(doc.headers).map(([k, v]) => `  ${k}: ${v}`), '  Access-Control-Allow-Origin: *'].join('\n'))
          .join('\n');
        await writeFile(join(clientDir, '_headers'), cdnHeaders + '\n');
        const rewrites = documents.filter((doc) => doc.file !== doc.path.slice(1)).map((doc) => `${doc.path} /${doc.file} 200`);
        await writeFile(join(clientDir, '_redirects'), rewrites.join('\n') + '\n');

        const compressed = await precompress(clientDir);
        logger.info(`precompressed ${compressed} files (brotli, gzip)`);

        await mkdir(serverDir, { recursive: true });
        const manifest = documents.map(({ path, file, contentType, headers }) => ({ path, file, contentType, headers }));
        await writeFile(join(serverDir, 'static-manifest.json'), JSON.stringify(manifest, null, 2));

        await esbuild({
          entryPoints: [join(root, 'src/server/fast-entry.ts')],
          outfile: join(serverDir, 'fast-entry.mjs'),
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node24',
          packages: 'external',
          sourcemap: 'linked',
          logLevel: 'warning',
        });
        const size = (await stat(join(serverDir, 'fast-entry.mjs'))).size;
        logger.info(`bundled ${relative(root, join(serverDir, 'fast-entry.mjs')).split(sep).join('/')} (${Math.round(size / 1024)} KiB)`);
      },
    },
  };
}
