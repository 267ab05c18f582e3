/**
 * What a user of the web client waits for, measured in Debian's Chromium (never a downloaded browser)
 * with Playwright. Every figure is taken inside the page (performance.now(), polled once per frame), so
 * the test machinery's round trips do not count.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** The browser tests' Chromium and flags (one list, services/web/test/platform/chromium.ts). */
export { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../services/web/test/platform/chromium.js';
export const VIEWPORT = { width: 1440, height: 900 };

export interface Session {
  accessToken: string;
  refreshToken: string;
}

export async function signIn(baseUrl: string, user: { loginId: string; password: string }): Promise<Session> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  const body = (await res.json()) as { data?: Session };
  if (!res.ok || !body.data) throw new Error(`sign-in: ${res.status}`);
  return { accessToken: body.data.accessToken, refreshToken: body.data.refreshToken };
}

/** A new context (empty cache) whose pages start signed in, like a user who signed in before. */
export async function signedInContext(browser: Browser, baseUrl: string, session: Session): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: VIEWPORT });
  await context.addInitScript((value) => {
    if (!localStorage.getItem('csp.session')) localStorage.setItem('csp.session', value);
  }, JSON.stringify(session));
  return context;
}

const FIRST_ROW = '.ant-table-tbody tr.ant-table-row';

/** In the page: the time (performance.now()) at which the path shows a data row of a finished list, else false. */
function rowShownAt(path: string): number | false {
  if (location.pathname !== path) return false;
  const row = document.querySelector('.ant-table-tbody tr.ant-table-row');
  if (!row || (row as HTMLElement).offsetParent === null) return false;
  // antd shows the previous rows under a spinner while the new list loads
  if (row.closest('.ant-table-wrapper')?.querySelector('.ant-spin-spinning')) return false;
  return performance.now();
}

/**
 * Cold first load: a new context (nothing cached), navigation start (performance.now() is measured from
 * it) to the first data row of the list visible.
 */
export async function coldLoad(
  browser: Browser,
  baseUrl: string,
  session: Session,
  path: string,
  /** Rewrites the page's HTML on its way in (an A/B of index.html on one server); the other variant passes through the same route. */
  transformHtml?: (html: string) => string,
): Promise<{ inPageMs: number; wallMs: number }> {
  const context = await signedInContext(browser, baseUrl, session);
  try {
    if (transformHtml) {
      await context.route(new URL(path, baseUrl).toString(), async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, body: transformHtml(await response.text()) });
      });
    }
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(path, { waitUntil: 'commit' });
    const pathname = new URL(path, baseUrl).pathname;
    const shown = await page.waitForFunction(rowShownAt, pathname, { polling: 'raf', timeout: 60_000 });
    const inPageMs = (await shown.jsonValue()) as number;
    return { inPageMs, wallMs: Date.now() - started };
  } finally {
    await context.close();
  }
}

export interface ListTarget {
  /** The menu path (the link's href). */
  path: string;
}

/** Makes the menu link of `path` visible: opens the submenus one by one until it shows (not measured). */
async function revealMenuLink(page: Page, path: string) {
  const link = page.locator(`.ant-menu a[href="${path}"]`);
  if (await link.isVisible()) return link;
  const titles = page.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  for (let i = 0; i < 30 && !(await link.isVisible()); i++) {
    const count = await titles.count();
    if (count === 0) break;
    await titles.nth(i % count).click();
    await page.waitForTimeout(300);
  }
  if (!(await link.isVisible())) throw new Error(`no menu link to ${path}`);
  return link;
}

/**
 * In-app navigation: click a menu link, until the first row of the new list shows. The router may keep the
 * old page on screen for a moment under the new address, and a list seen before may come from the client's
 * cache without a call: so "new" means rows other than the ones on screen at the click, with no spinner.
 */
export async function menuNavigation(page: Page, target: ListTarget): Promise<number> {
  await revealMenuLink(page, target.path);
  const clickedAt = await page.evaluate((path) => {
    const w = window as unknown as { benchOldRows?: string };
    w.benchOldRows = document.querySelector('.ant-table-tbody')?.innerHTML ?? '';
    const link = document.querySelector<HTMLAnchorElement>(`.ant-menu a[href="${path}"]`)!;
    const at = performance.now();
    link.click();
    return at;
  }, target.path);
  const shown = await page.waitForFunction(
    (path) => {
      const w = window as unknown as { benchOldRows?: string };
      if (location.pathname !== path) return false;
      const body = document.querySelector('.ant-table-tbody');
      const row = body?.querySelector<HTMLElement>('tr.ant-table-row');
      if (!body || !row || row.offsetParent === null || body.innerHTML === w.benchOldRows) return false;
      if (row.closest('.ant-table-wrapper')?.querySelector('.ant-spin-spinning')) return false;
      return performance.now();
    },
    target.path,
    { polling: 'raf', timeout: 60_000 },
  );
  return ((await shown.jsonValue()) as number) - clickedAt;
}

/** The open dropdown of a select (antd keeps closed ones in the page, hidden). */
const OPEN_DROPDOWN = '.ant-select-dropdown:not(.ant-select-dropdown-hidden)';

/**
 * Picker search: type a name into the agent picker (one input event, as a paste) until an option with
 * that name shows. Includes the picker's debounce: the user waits for it too.
 */
export async function pickerSearch(page: Page, pickerSelector: string, keyword: string): Promise<{ typedMs: number; searchMs: number }> {
  const picker = page.locator(pickerSelector);
  if (!(await page.locator(OPEN_DROPDOWN).isVisible())) await picker.click();
  await page.evaluate((selector) => {
    const input = document.querySelector<HTMLInputElement>(selector)!;
    const w = window as unknown as { benchTypedAt?: number };
    delete w.benchTypedAt;
    input.addEventListener('input', () => (w.benchTypedAt ??= performance.now()), { once: true });
  }, pickerSelector);
  const searched = page.waitForResponse((r) => r.url().includes('/api/agents?') && decodeURIComponent(r.url()).includes(`searchKeyword=${keyword}`));
  await picker.fill(keyword);
  await searched;
  const shown = await page.waitForFunction(
    ({ dropdown, keyword }) => {
      const w = window as unknown as { benchTypedAt?: number };
      if (w.benchTypedAt === undefined) return false;
      const options = document.querySelectorAll<HTMLElement>(`${dropdown} .ref-option`);
      for (const o of options) {
        if (o.offsetParent === null || !o.textContent?.includes(keyword)) continue;
        const now = performance.now();
        // the search call of this keyword: from its start (after the picker's debounce) to the option shown
        const call = performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/api/agents?') && decodeURIComponent(e.name).includes(`searchKeyword=${keyword}`))
          .pop();
        return { typedMs: now - w.benchTypedAt, searchMs: call ? now - call.startTime : -1 };
      }
      return false;
    },
    { dropdown: OPEN_DROPDOWN, keyword },
    { polling: 'raf', timeout: 60_000 },
  );
  return (await shown.jsonValue()) as { typedMs: number; searchMs: number };
}

/** p-th percentile (nearest rank) of the figures. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
