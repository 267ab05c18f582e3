import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { chooseLanguage, expect, monthText, platform, seriousViolations, serveMetadata, test } from './fixtures.js';

const SHOTS = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));
type Lang = 'ko' | 'en';
const WORDS = {
  ko: { loginId: '아이디', password: '비밀번호', signIn: '로그인' },
  en: { loginId: 'Login ID', password: 'Password', signIn: 'Sign in' },
};

interface PayoutRow {
  ruleId: number;
  gradeId: number;
  gradeName: string;
  payoutPct: string;
  effectiveFrom: string;
  effectiveTo: string | null;
}

async function signIn(page: Page, lang: Lang): Promise<void> {
  await page.goto('/login');
  if (await page.evaluate(() => localStorage.getItem('csp.session') !== null)) {
    await page.evaluate(() => localStorage.removeItem('csp.session'));
    await page.goto('/login');
  }
  await page.getByLabel(WORDS[lang].loginId).fill(platform.users.admin.loginId);
  await page.getByLabel(WORDS[lang].password).fill(platform.users.admin.password);
  await page.getByRole('button', { name: WORDS[lang].signIn }).click();
  await expect(page.getByRole('button', { name: WORDS[lang].signIn })).toBeHidden();
}

async function token(request: APIRequestContext): Promise<string> {
  const auth = await request.post(`${platform.url}/api/auth/login`, { data: platform.users.admin });
  return ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
}

/** The first day of the settled month: the payout rule picked must be in force then. */
const monthDay = `${monthText(platform.month ?? '')}-01`;

// The backend (services/ledger-settlement simulations) was built alongside this page: without its routes
// every step of this journey needs a server that is not there, so the journey says so instead of failing.
let live = false;
let target: PayoutRow | undefined;

test.describe('what-if simulations', () => {
  test.use({ lang: 'ko' });

  test.beforeAll(async ({ request }) => {
    const auth = { authorization: `Bearer ${await token(request)}` };
    live = (await request.get(`${platform.url}/api/simulations/rule-tables`, { headers: auth })).ok();
    // Setup, not the journey: a payout rule that really priced the settled month (read off the explain of the
    // month's first settlements), among the rows the editor's picker offers first (newest 50).
    const settles = await request.get(`${platform.url}/api/settle?settleMonth=${platform.month}&pageSize=20`, { headers: auth });
    const settleIds = ((await settles.json()) as { data: { list: Array<{ settleId: number }> } }).data.list.map((r) => r.settleId);
    const used = new Map<number, number>();
    for (const id of settleIds) {
      const res = await request.get(`${platform.url}/api/settle/${id}/explain`, { headers: auth });
      if (!res.ok()) continue;
      const sections = ((await res.json()) as { data: { sections: Record<string, Array<{ basis?: { payoutRule?: { ruleId?: number } } }>> } }).data.sections;
      for (const line of [...(sections.recruit ?? []), ...(sections.maintain ?? [])]) {
        const ruleId = line.basis?.payoutRule?.ruleId;
        if (typeof ruleId === 'number') used.set(ruleId, (used.get(ruleId) ?? 0) + 1);
      }
    }
    const res = await request.get(`${platform.url}/api/rules/payout?pageSize=50&sortField=ruleId&sortOrder=DESC`, { headers: auth });
    const rows = ((await res.json()) as { data: { list: PayoutRow[] } }).data.list.filter(
      (r) => r.effectiveFrom <= monthDay && (r.effectiveTo === null || r.effectiveTo > monthDay),
    );
    target = rows.filter((r) => used.has(r.ruleId)).sort((a, b) => used.get(b.ruleId)! - used.get(a.ruleId)!)[0];
  });

  test('an operator raises one payout rate for the settled month, runs it and sees who gains, in Korean', async ({ page, consoleLog }) => {
    test.skip(!live, 'the simulations API (GET /api/simulations/rule-tables) is not served by ledger-settlement yet');
    test.setTimeout(240_000);
    expect(target, 'a payout rule in force in the settled month').toBeDefined();
    const raised = (Number(target!.payoutPct) + 5).toFixed(2);
    await signIn(page, 'ko');
    await page.goto('/rules/simulations');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('시뮬레이션');

    await page.getByRole('button', { name: '새 시뮬레이션' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('새 시뮬레이션');
    await page.getByLabel('이름').fill(`지급률 ${target!.payoutPct}% → ${raised}%`);
    const month = page.getByLabel('기준월');
    await month.fill(monthText(platform.month));
    await month.press('Enter');
    await page.getByRole('button', { name: '규정 변경 추가' }).click();
    const change = page.locator('.sim-change').first();
    await change.getByLabel('규정 테이블').click();
    await page.locator('.ant-select-dropdown:visible').getByText('지급률', { exact: true }).click();
    await change.getByText('변경', { exact: true }).click();
    await change.getByLabel('변경할 규정').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: new RegExp(`^#${target!.ruleId} ·`) }).click();
    // The replacement starts from the picked row's values, dated the first day of the base month.
    const pct = page.locator('#simulation-form_changes_0_values_payoutPct');
    await expect(pct).not.toHaveValue('');
    await pct.fill(raised);
    // Lines are priced by the rule in force at the contract date: the replacement starts the day after the real
    // row starts (a replacement must start later), so the contracts it priced are repriced (the editor's
    // default, the base month, reprices only contracts written in that month).
    const nextDay = new Date(`${target!.effectiveFrom}T00:00:00Z`);
    nextDay.setUTCDate(nextDay.getUTCDate() + 1);
    const startsAt = nextDay.toISOString().slice(0, 10);
    const from = page.locator('#simulation-form_changes_0_values_effectiveFrom');
    // The editor says how the start day decides which contracts the new row prices.
    await expect(change.getByText('각 건은 계약일에 유효한 규정으로 계산됩니다. 기준월부터 시작하는 변경은 그날 이후에 계약된 건만 다시 계산합니다.')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/simulation-editor-ko-1440.png`, fullPage: true });
    await from.click();
    await from.fill(startsAt);
    // Enter in the form's last field saves it, as the 저장 button does.
    await from.press('Enter');

    // The detail page: a draft, then the run with its progress, then the results.
    await expect(page.locator('.sim-page')).toBeVisible();
    await expect(page.getByText(`적용 시작일 ${startsAt}`, { exact: false })).toBeVisible();
    // The change names the rule's grade (the demo book's grades are Korean), not its id.
    expect(target!.gradeName).toMatch(/^[\uac00-\ud7a3 ]+$/);
    const changeText = page.locator('.sim-page .sim-change-label').first();
    await expect(changeText).toContainText(`직급 ${target!.gradeName} ·`);
    await expect(changeText).not.toContainText(`직급 ${target!.gradeId} ·`);
    await expect(page.getByText('아직 실행하지 않았습니다', { exact: false })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/simulation-draft-ko-1440.png`, fullPage: true });
    await page.getByRole('button', { name: '실행' }).click();
    await expect(page.locator('.sim-page .status-tag[data-code="QUEUED"], .sim-page .status-tag[data-code="RUNNING"], .sim-page .status-tag[data-code="DONE"]')).toBeVisible();
    // The job runs on the simulation queue's own worker; a platform that starts none leaves it queued.
    const started = await page
      .locator('.sim-page .status-tag[data-code="RUNNING"], .sim-page .status-tag[data-code="DONE"]')
      .waitFor({ timeout: 60_000 })
      .then(() => true, () => false);
    test.skip(!started, 'the simulation stayed queued for 60 s: the demo platform (test/platform/serve.ts) starts no worker for the simulation queue');
    await expect(page.locator('.sim-page .status-tag[data-code="DONE"]')).toBeVisible({ timeout: 150_000 });
    const results = page.getByRole('region', { name: '결과' });
    await expect(results.getByText('변경 전 (실제)')).toBeVisible();
    await expect(results.getByRole('img', { name: '차이 분포' })).toBeVisible();
    const gainers = results.locator('.ant-card').filter({ has: page.getByRole('heading', { name: '증가 상위' }) });
    const first = gainers.locator('.sim-agent-link').first();
    await expect(first).toBeVisible();
    await expect(gainers.locator('.sim-up').first()).toContainText('+');
    await page.screenshot({ path: `${SHOTS}/simulation-results-ko-1440.png`, fullPage: true });

    // One agent's month, real next to simulated, the raised rate's lines highlighted.
    await first.click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByRole('columnheader', { name: '실제' })).toBeVisible();
    await expect(drawer.getByRole('columnheader', { name: '시뮬레이션' })).toBeVisible();
    await expect(drawer.locator('.sim-changed').first()).toBeVisible();
    // Each side counts its lines with the Korean counter.
    await expect(drawer.getByText(/^실제 \([\d,]+건\)$/).first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/simulation-explain-ko-1440.png` });
    expect(await seriousViolations(page)).toEqual([]);
    expect(consoleLog.errors).toEqual([]);
  });

  for (const lang of ['ko', 'en'] as const) {
    test(`the simulation pages read in ${lang === 'ko' ? 'Korean' : 'English'} at 1440 and 375 px`, async ({ browser }) => {
      test.skip(!live, 'the simulations API (GET /api/simulations/rule-tables) is not served by ledger-settlement yet');
      test.setTimeout(180_000);
      const context = await browser.newContext({ baseURL: platform.url, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
      try {
        await serveMetadata(context);
        await chooseLanguage(context, lang);
        const page = await context.newPage();
        await signIn(page, lang);
        await page.goto('/rules/simulations');
        // A finished simulation to look at (the journey above makes one when the platform runs its worker).
        const done = page.locator('.sim-list tr').filter({ has: page.locator('.status-tag[data-code="DONE"]') });
        await expect(page.locator('.sim-list .ant-table-row').first()).toBeVisible();
        test.skip((await done.count()) === 0, 'no finished simulation: the demo platform starts no worker for the simulation queue');
        const link = done.locator('a').first();
        await expect(link).toBeVisible();
        const href = await link.getAttribute('href');
        for (const width of [1440, 375]) {
          await page.setViewportSize({ width, height: width > 600 ? 900 : 812 });
          await page.goto('/rules/simulations');
          await expect(page.locator(width > 600 ? '.sim-list' : '.sim-cards')).toBeVisible();
          await page.screenshot({ path: `${SHOTS}/simulation-list-${lang}-${width}.png`, fullPage: true });
          await page.goto(href!);
          await expect(page.locator('.sim-results .sim-total').first()).toBeVisible();
          await expect(page.locator('.sim-agent-table .ant-table-row').first()).toBeVisible();
          // The histogram's chart library comes after the page: the named chart, not its spinner, is pictured.
          await expect(page.getByRole('img', { name: lang === 'ko' ? '차이 분포' : 'Distribution of differences' })).toBeVisible();
          await page.screenshot({ path: `${SHOTS}/simulation-results-${lang}-${width}.png`, fullPage: true });
          // Nothing but the tables' own scroll boxes goes sideways.
          const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(scroll, `page scrolls sideways at ${width}`).toBeLessThanOrEqual(0);
          await page.locator('.sim-agent-table .sim-agent-link').first().click();
          await expect(page.getByRole('dialog').locator('.sim-explain-totals')).toBeVisible();
          await page.screenshot({ path: `${SHOTS}/simulation-explain-${lang}-${width}.png` });
          await page.keyboard.press('Escape');
          await page.goto('/rules/simulations/new');
          await expect(page.locator('.sim-editor')).toBeVisible();
          await page.screenshot({ path: `${SHOTS}/simulation-editor-${lang}-${width}.png`, fullPage: true });
        }
      } finally {
        await context.close();
      }
    });
  }
});
