import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

export interface PlatformInfo {
  url: string;
  users: Record<'admin' | 'manager' | 'agent' | 'clerk' | 'locked' | 'approver', { loginId: string; password: string }>;
  agentId: number;
  month: string;
  runId: number;
  metaFile: string;
  services: string[];
}

export const platform: PlatformInfo = JSON.parse(process.env.WEB_E2E_PLATFORM ?? '{}') as PlatformInfo;

/** Console errors and page errors of the page, network status lines aside (a refused call is a test's business). */
export interface ConsoleLog {
  errors: string[];
}

export const test = base.extend<{ consoleLog: ConsoleLog; lang: 'en' | 'ko' | null }>({
  baseURL: platform.url,
  // The journeys below are written in English, a remembered choice; Korean is the app's default
  // (`test.use({ lang: 'ko' })`, or null for a first visit that chose nothing).
  lang: ['en', { option: true }],
  consoleLog: async ({ page }, use) => {
    const log: ConsoleLog = { errors: [] };
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of/.test(msg.text())) {
        log.errors.push(msg.text());
      }
    });
    page.on('pageerror', (err) => log.errors.push(`pageerror: ${err.message}`));
    await use(log);
  },
  context: async ({ context, lang }, use) => {
    await serveMetadata(context);
    if (lang) await chooseLanguage(context, lang);
    await use(context);
  },
});

export { expect };

/** Until the gateway routes /api/meta/resources itself, the services' own metadata answers (tests only). */
export async function serveMetadata(context: BrowserContext): Promise<void> {
  await context.route('**/api/meta/resources', async (route) => {
    try {
      const response = await route.fetch();
      if (response.status() === 404) await route.fulfill({ path: platform.metaFile, contentType: 'application/json' });
      else await route.fulfill({ response });
    } catch (err) {
      // The page moved on (navigated, closed) while the request was in flight: its response was disposed and
      // nobody waits for the answer any more. Anything else is a real failure.
      if (!/disposed|closed/i.test(String(err))) throw err;
    }
  });
}

/** The language a user chose before (kept in localStorage), unless the page has a choice already. */
export async function chooseLanguage(context: BrowserContext, lang: 'en' | 'ko'): Promise<void> {
  await context.addInitScript((chosen) => {
    if (!localStorage.getItem('csp.lang')) localStorage.setItem('csp.lang', chosen);
  }, lang);
}

/** A month on the wire (`YYYYMM`) as the month picker shows and takes it (`YYYY-MM`). */
export function monthText(month: string): string {
  return `${month.slice(0, 4)}-${month.slice(4)}`;
}

export async function login(page: Page, who: keyof PlatformInfo['users']): Promise<void> {
  const user = platform.users[who];
  await page.goto('/login');
  // Another user of the same page signs out first (a signed-in user is sent on from /login).
  if (await page.evaluate(() => localStorage.getItem('csp.session') !== null)) {
    await page.evaluate(() => localStorage.removeItem('csp.session'));
    await page.goto('/login');
  }
  await page.getByLabel('Login ID').fill(user.loginId);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
}

/** axe-core on the current page: the serious and critical violations (expected: none). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Finite CSS animations and transitions first (a panel opening, a fade-in): axe reads text that is still half
  // transparent as too faint. Endless ones (spinners) are left running.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}
