import type { Browser, Page } from '@playwright/test';
import { expect, platform, test } from './fixtures.js';

// The first load of a page (issue 24): index.html starts the calls the page needs before the app's code has
// arrived (src/api/boot-fetch.ts), and the app uses those answers instead of asking again.
test.use({ trace: 'off' });

/** A new browser context (nothing cached) whose pages start signed in as the administrator, with every API call it makes. */
async function signedInPage(browser: Browser): Promise<{ page: Page; calls: string[]; token: string; close(): Promise<void> }> {
  const context = await browser.newContext({ baseURL: platform.url });
  const res = await context.request.post('/api/auth/login', { data: platform.users.admin });
  const data = ((await res.json()) as { data: { accessToken: string; refreshToken: string } }).data;
  await context.addInitScript((value) => {
    if (!localStorage.getItem('csp.session')) localStorage.setItem('csp.session', value);
    localStorage.setItem('csp.lang', 'en');
  }, JSON.stringify({ accessToken: data.accessToken, refreshToken: data.refreshToken }));
  const page = await context.newPage();
  const calls: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  return { page, calls, token: data.accessToken, close: () => context.close() };
}

const count = (calls: string[], call: string) => calls.filter((c) => c === call).length;

/** In the page: the calls index.html started (as boot-fetch.ts keys them) and those not yet taken by the app. */
async function bootCalls(page: Page): Promise<{ started: string[]; untaken: string[] }> {
  return page.evaluate(() => {
    const boot = (window as unknown as { __cspBoot?: { started: string[]; answers: Record<string, unknown> } }).__cspBoot;
    return { started: boot?.started ?? [], untaken: Object.keys(boot?.answers ?? {}) };
  });
}

test.describe('the first load of a page', () => {
  test('the settlement list asks once for the user, the menu, the list and its summary, started before the app had loaded', async ({ browser }) => {
    const { page, calls, close } = await signedInPage(browser);
    const month = platform.month;
    await page.goto(`/settle?settleMonth=${month}`);
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(count(calls, 'GET /api/auth/me')).toBe(1);
    expect(count(calls, 'GET /api/menus/my')).toBe(1);
    expect(count(calls, `GET /api/settle?pageSize=20&settleMonth=${month}`)).toBe(1);
    expect(count(calls, `GET /api/settle/summary?settleMonth=${month}`)).toBe(1);
    // no other list call: the page's own ask was answered by the one started by index.html
    expect(calls.filter((c) => c.startsWith('GET /api/settle?'))).toEqual([`GET /api/settle?pageSize=20&settleMonth=${month}`]);
    // started by index.html, and all taken by the app
    expect(await bootCalls(page)).toEqual({
      started: ['/api/auth/me', '/api/menus/my', `/api/settle?pageSize=20&settleMonth=${month}`, `/api/settle/summary?settleMonth=${month}`],
      untaken: [],
    });
    await close();
  });

  test("the cockpit asks once for the latest run and for its month's summary, and shows that month", async ({ browser }) => {
    const { page, calls, close, token } = await signedInPage(browser);
    const latest = await page.request.get(`${platform.url}/api/batch/settlement/runs?pageSize=1`, { headers: { authorization: `Bearer ${token}` } });
    const month = ((await latest.json()) as { data: { list: { settleMonth: string }[] } }).data.list[0]!.settleMonth;
    calls.length = 0;
    await page.goto('/');
    await expect(page.locator('.month-close .ant-card-head-title').first()).toHaveText(`Month close ${month.slice(0, 4)}-${month.slice(4)}`);
    await expect(page.locator('.month-close .close-step').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(count(calls, 'GET /api/auth/me')).toBe(1);
    expect(count(calls, 'GET /api/menus/my')).toBe(1);
    expect(count(calls, 'GET /api/batch/settlement/runs?pageSize=1')).toBe(1);
    expect(count(calls, 'GET /api/notices?pageSize=5&isActive=true')).toBe(1);
    expect(count(calls, `GET /api/settle/summary?settleMonth=${month}`)).toBe(1);
    expect(count(calls, `GET /api/receive/status?settleMonth=${month}`)).toBe(1);
    expect((await bootCalls(page)).started).toEqual([
      '/api/auth/me',
      '/api/menus/my',
      '/api/notices?isActive=true&pageSize=5',
      '/api/batch/settlement/runs?pageSize=1',
      `/api/receive/status?settleMonth=${month}`,
      `/api/batch/settlement/runs?pageSize=1&settleMonth=${month}`,
      `/api/settle/summary?settleMonth=${month}`,
    ]);
    await close();
  });

  test('a generic page asks once for the metadata, the user and the menu, and lists its rows', async ({ browser }) => {
    const { page, calls, close } = await signedInPage(browser);
    await page.goto('/org/agents');
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(count(calls, 'GET /api/meta/resources')).toBe(1);
    expect(count(calls, 'GET /api/auth/me')).toBe(1);
    expect(count(calls, 'GET /api/menus/my')).toBe(1);
    await close();
  });
});
