#!/usr/bin/env node
// The `agent-economy` command: runs the bundle `npm run build` writes to dist/cli, on the Node 24
// the project pins (node_modules/.bin/node) when `npx` found an older system Node first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/cli/agent-economy.mjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('agent-economy: not built yet; run `npm run build` in this repository first\n');
  process.exit(2);
}
const pinned = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
if (Number(process.versions.node.split('.')[0]) < 24 && existsSync(pinned)) {
  const run = spawnSync(pinned, [bundle, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
const { runCli } = await import(new URL('../dist/cli/agent-economy.mjs', import.meta.url).href);
process.exit(await runCli(process.argv.slice(2)));
