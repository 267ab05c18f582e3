import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/platform/chromium.js';

/**
 * Browser tests against Debian's Chromium (never a downloaded browser): @playwright/test is pinned
 * to 1.64.1, the release built for Chromium 156, the major of Debian's `chromium` package.
 */
export default defineConfig({
  testDir: './test/e2e',
  testMatch: /.*\.e2e\.ts$/,
  // One platform for all tests, and a 2-core machine: one browser at a time.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  globalSetup: './test/global-setup.ts',
  globalTeardown: './test/global-teardown.ts',
  outputDir: './test-results/output',
  reporter: [['list'], ['./test/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
