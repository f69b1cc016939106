// `npm start`: serve the site on HOST:PORT with embedded defaults (no outside service needed),
// building first when there is no build, when the sources are newer than it, or when it was made
// for another origin (src/build/start-plan.ts). Without SITE_BASE_URL the base URL is the origin the
// server listens on.
//
// The server runs in this process, and the npm script `exec`s it (no shell in between), so a stop
// signal sent to npm reaches the server and nothing is left running. Its V8 flags
// (docs/performance.md, "Memory") are on the npm script that starts it, as on `npm run serve`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const fail = (error) => {
  // A malformed variable, a store this build cannot use, a port in use: one line that says what.
  console.error(`server: ${error?.message ?? error}`);
  process.exit(1);
};

let plan;
try {
  const { planStart } = await import('../src/build/start-plan.ts');
  plan = planStart(root, process.env);
} catch (error) {
  fail(error);
}
Object.assign(process.env, plan.env);
if (plan.rebuild) {
  console.log(`${plan.rebuild}: building for ${plan.target.base_url}`);
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const { main } = await import(join(root, 'dist/server/fast-entry.mjs'));
await main().catch(fail);
