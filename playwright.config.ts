/**
 * Browser tests in the system Chromium (Debian package `chromium`, never a downloaded browser),
 * headless, with the flags a closed network needs. The built server is started once on a free
 * loopback port by tests/e2e/global-setup.ts (honouring DIST_DIR), as the contract tests do.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  globalSetup: './tests/e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 10_000 },
  workers: 2,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        '--no-proxy-server',
      ],
    },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
