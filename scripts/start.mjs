// `npm start`: build when the sources are newer than the last build (or there is none), then serve.
// Embedded defaults only: no outside service is needed. The site runs in this process, so its V8
// flags (docs/performance.md, "Memory") are on the npm script that starts it, as on `npm run serve`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'dist/server/fast-entry.mjs');
const sources = ['src', 'schemas', 'content', 'public', 'astro.config.mjs', 'package.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stats.mtimeMs);
}

const builtAt = existsSync(entry) ? statSync(entry).mtimeMs : 0;
const changedAt = Math.max(...sources.map((source) => newestMtime(join(root, source))));
if (changedAt > builtAt) {
  console.log(builtAt ? 'sources changed since the last build: building' : 'no build yet: building');
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const { main } = await import(entry);
await main().catch((error) => {
  // A store this build cannot use, a port in use: one line that says what, not a stack trace.
  console.error(`server: ${error?.message ?? error}`);
  process.exit(1);
});
