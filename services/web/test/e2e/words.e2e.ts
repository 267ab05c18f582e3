import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import { KNOWN_PATHS } from '../../src/shell/known-paths.js';
import { en, ko } from '../../src/i18n/messages.js';
import { chooseLanguage, expect, platform, seriousViolations, serveMetadata, test } from './fixtures.js';

/**
 * Every page in both languages reads in words: no visible text looks like a raw identifier. Data
 * values are allowed where data is shown (table cells, detail values, inputs); a tag in a cell is a
 * code drawn in words and is checked too.
 */
const RAW: { name: string; pattern: RegExp }[] = [
  { name: 'camelCase', pattern: /\b[a-z]+(?:[A-Z][a-z0-9]+)+\b/ },
  { name: 'UPPER_SNAKE', pattern: /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/ },
  { name: 'snake_case', pattern: /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/ },
  { name: 'placeholder', pattern: /\{\w+\}/ },
];

/** The visible words of the page that are not data: chrome, headers, labels, buttons, messages, tags. */
async function wordsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const DATA = '.ant-table-tbody td, .ant-descriptions-item-content, input, textarea, .ant-select-selection-item, .json-value, .ant-tree-title, .ant-timeline-item-content, .ant-list-item, .echarts';
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.trim();
      if (!el || !text) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || el.closest('[aria-hidden="true"], script, style')) continue;
      if (el.closest(DATA) && !el.closest('.status-tag')) continue;
      if (el.closest('.ant-layout-header')) continue; // the user's login id and role codes are data
      texts.push(text);
    }
    return texts;
  });
}

function rawHits(texts: string[]): string[] {
  const hits: string[] = [];
  for (const text of texts) for (const { name, pattern } of RAW) if (pattern.test(text)) hits.push(`${name}: ${text.slice(0, 80)}`);
  return [...new Set(hits)];
}

/** The home page, a 404 and every platform page, in groups small enough for a test each (< 3 min on 2 cores). */
const ALL_ROUTES = ['', 'no/such/page', ...KNOWN_PATHS];
const GROUP_SIZE = 9;
const ROUTE_GROUPS = Array.from({ length: Math.ceil(ALL_ROUTES.length / GROUP_SIZE) }, (_, i) => ALL_ROUTES.slice(i * GROUP_SIZE, (i + 1) * GROUP_SIZE));

const SHOTS = fileURLToPath(new URL('../../test-results/words/', import.meta.url));

for (const lang of ['ko', 'en'] as const) {
  test.describe(`every page reads in words (${lang})`, () => {
    let context: BrowserContext;
    let page: Page;
    test.beforeAll(async ({ browser }) => {
      mkdirSync(SHOTS, { recursive: true });
      context = await browser.newContext({ baseURL: platform.url });
      await serveMetadata(context);
      await chooseLanguage(context, lang);
      page = await context.newPage();
      const res = await context.request.post('/api/auth/login', { data: platform.users.admin });
      const data = ((await res.json()) as { data: { accessToken: string; refreshToken: string } }).data;
      await page.addInitScript((value) => {
        if (!localStorage.getItem('csp.session')) localStorage.setItem('csp.session', value);
      }, JSON.stringify({ accessToken: data.accessToken, refreshToken: data.refreshToken }));
    });
    test.afterAll(async () => {
      await context?.close();
    });

    for (const [index, routes] of ROUTE_GROUPS.entries()) {
      test(`${lang}: pages ${index + 1}/${ROUTE_GROUPS.length} show no raw identifier`, async () => {
        test.setTimeout(175_000);
        const report: Record<string, string[]> = {};
        for (const route of routes) {
          await page.goto(`/${route}?settleMonth=${platform.month}`);
          await expect(page.locator('main main').getByRole('heading', { level: 1 }).or(page.locator('main main .ant-result-title')).first()).toBeVisible({ timeout: 60_000 });
          await expect(page.locator('.page-loading')).toHaveCount(0);
          await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
          const hits = rawHits(await wordsOf(page));
          // A tab of a page with several resources is named in the page's language (never an English resource name).
          if (lang === 'ko') for (const tab of await page.getByRole('tab').allInnerTexts()) if (!/[\uac00-\ud7a3]/.test(tab)) hits.push(`tab: ${tab}`);
          if (hits.length) report[`/${route}`] = hits;
        }
        test.info().annotations.push({ type: `raw identifiers (${lang})`, description: JSON.stringify(report, null, 1) });
        expect(report).toEqual({});
      });
    }

    for (const width of [1440, 375]) {
      test(`${lang}: the cockpit, batch, settlement list and explain read in words at ${width} px, and pass axe`, async () => {
        test.setTimeout(175_000);
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/');
        await expect(page.locator('.month-close .close-step').first()).toBeVisible({ timeout: 60_000 });
        await page.screenshot({ path: `${SHOTS}home-${lang}-${width}.png`, fullPage: true });
        expect(rawHits(await wordsOf(page))).toEqual([]);
        await page.goto(`/settle/batch?run=${platform.runId}`);
        await expect(page.locator('.run-steps')).toBeVisible({ timeout: 60_000 });
        await page.screenshot({ path: `${SHOTS}batch-${lang}-${width}.png`, fullPage: true });
        expect(rawHits(await wordsOf(page))).toEqual([]);
        await page.goto(`/settle?settleMonth=${platform.month}`);
        const rows = page.locator('.ant-table-tbody tr.ant-table-row');
        await expect(rows.first()).toBeVisible({ timeout: 60_000 });
        await page.screenshot({ path: `${SHOTS}settle-${lang}-${width}.png`, fullPage: width === 1440 });
        expect(rawHits(await wordsOf(page))).toEqual([]);
        await page.goto(`/settle/explain/${await rows.first().getByRole('link', { name: lang === 'ko' ? /산출 근거/ : /Explain/ }).getAttribute('href').then((h) => h!.split('/').pop())}`);
        await expect(page.locator('.ant-collapse')).toBeVisible({ timeout: 60_000 });
        await page.screenshot({ path: `${SHOTS}explain-${lang}-${width}.png`, fullPage: width === 1440 });
        expect(rawHits(await wordsOf(page))).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        await page.setViewportSize({ width: 1440, height: 900 });
      });
    }
  });
}

test('every resource the services declare has a title in the catalog in Korean and English', () => {
  const meta = JSON.parse(readFileSync(platform.metaFile, 'utf8')) as { data: { resources: { name: string }[] } };
  const names = [...new Set(meta.data.resources.map((r) => r.name))].sort();
  expect(names.length).toBeGreaterThan(90);
  // resource-title.ts reads `resource.<name>` of the catalog.
  expect(names.filter((name) => !(`resource.${name}` in en) || !(`resource.${name}` in ko))).toEqual([]);
});

test.describe('Korean first', () => {
  test.use({ lang: null });
  test('a first visit opens in Korean and a 404 is told apart from no access', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
    await expect(page.getByRole('button', { name: '로그인' })).toBeVisible();
    await page.getByLabel('아이디').fill(platform.users.manager.loginId);
    await page.getByLabel('비밀번호').fill(platform.users.manager.password);
    await page.getByRole('button', { name: '로그인' }).click();
    await expect(page.getByRole('navigation', { name: 'Main menu' }).getByText('정산', { exact: true })).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByText('화면을 찾을 수 없습니다')).toBeVisible();
    await page.goto('/system/users');
    await expect(page.getByText('이 화면에 접근할 권한이 없습니다.')).toBeVisible();
    await expect(page.getByRole('button', { name: '홈 화면으로' })).toBeVisible();
  });
});
