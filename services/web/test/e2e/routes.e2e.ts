import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import { KNOWN_PATHS } from '../../src/shell/known-paths.js';
import { chooseLanguage, expect, platform, seriousViolations, serveMetadata, test } from './fixtures.js';

/** Spec 4.6 routes (= menu_path of docs/menus-and-routing.md), the succession page included. */
const ROUTES = KNOWN_PATHS;

const SHOTS = fileURLToPath(new URL('../../test-results/routes/', import.meta.url));
// One signed-in page for the whole sweep: the browser keeps the (immutable, hashed) assets cached.
let context: BrowserContext;
let page: Page;
const errors: string[] = [];

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  context = await browser.newContext({ baseURL: platform.url });
  await serveMetadata(context);
  // The sweep reads its English texts ("Not available yet", the no-access text); words.e2e.ts walks it in both languages.
  await chooseLanguage(context, 'en');
  page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of/.test(msg.text())) errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  const res = await context.request.post('/api/auth/login', { data: platform.users.admin });
  const data = ((await res.json()) as { data: { accessToken: string; refreshToken: string } }).data;
  const session = JSON.stringify({ accessToken: data.accessToken, refreshToken: data.refreshToken });
  await page.addInitScript((value) => {
    if (!localStorage.getItem('csp.session')) localStorage.setItem('csp.session', value);
  }, session);
});

test.afterAll(async () => {
  await context?.close();
});

test.describe('every spec 4.6 route as SUPER_ADMIN', () => {
  for (const route of ROUTES) {
    test(`/${route} renders without console errors and passes axe`, async () => {
      errors.length = 0;
      await page.goto(`/${route}?settleMonth=${platform.month}`);
      const main = page.locator('main main');
      await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('.page-loading')).toHaveCount(0);
      if (await main.getByText('Not available yet').isVisible()) {
        test.info().annotations.push({ type: 'no page', description: `/${route}: the server offers no API for it yet` });
        test.skip(true, `/${route}: no API behind this menu yet`);
      }
      await expect(main.getByText('You do not have access to this page.')).toHaveCount(0);
      await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
      await expect(main.getByRole('alert').filter({ hasText: /\(E\d{3}|\([A-Z]\d{3}\)/ })).toHaveCount(0);
      const rows = await main.locator('.ant-table-tbody tr.ant-table-row').count();
      test.info().annotations.push({ type: 'rows', description: `/${route}: ${rows} rows on the first page` });
      await page.screenshot({ path: `${SHOTS}${route.replaceAll('/', '_')}.png`, fullPage: true });
      expect(errors).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
