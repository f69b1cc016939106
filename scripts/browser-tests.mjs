// `npm run test:e2e` (and the last step of `npm test`): the Playwright browser tests in the system
// Chromium (/usr/bin/chromium, Debian's package; a test tool's own browser download does not work
// on these machines). Where that browser is missing they are skipped, saying why, so a newcomer's
// `npm test` passes without it; with CI=true (`.ci/run`, which installs it) they are required.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM) && process.env.CI !== 'true') {
  console.warn(`[skipped] browser tests: ${CHROMIUM} is missing (install Debian's chromium package, as .ci/run does; required when CI=true)`);
  process.exit(0);
}
const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const { status, signal } = spawnSync(process.execPath, [cli, 'test', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(status ?? (signal ? 1 : 0));
