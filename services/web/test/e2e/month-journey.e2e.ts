import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, monthText, platform, test } from './fixtures.js';

/**
 * A Korean operator closes a month from the cockpit (the home page) and goes only where the cockpit sends
 * them: run the month, read a settlement's explain, hold one with a reason and release it, confirm the
 * month, generate payments, issue and download a statement, see the KPI. The cockpit's steps move on as
 * the month does. A month no other spec settles (WEB_E2E_JOURNEY_MONTH when rerunning on a kept platform).
 */
const MONTH = process.env.WEB_E2E_JOURNEY_MONTH ?? '202505';
const SHOTS = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));

test.use({ lang: 'ko' });

/** A cockpit step by its title, and the state it shows (done / ready / waiting). */
function step(page: Page, title: string) {
  return page.locator('.month-close .close-step').filter({ has: page.getByRole('heading', { level: 3, name: title, exact: true }) });
}
async function expectState(page: Page, title: string, state: 'done' | 'ready' | 'waiting') {
  await expect(step(page, title), `${title} ${state}`).toHaveClass(new RegExp(`close-${state}`));
}

/** Back to the cockpit through the breadcrumb's home link; the cockpit shows the month of the latest run. */
async function home(page: Page) {
  await page.locator('.ant-breadcrumb').getByRole('link', { name: '홈', exact: true }).click();
  await expect(page.locator('.month-close .card-title').first()).toHaveText(`${monthText(MONTH)} 월 마감`);
}

async function shots(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}journey-${name}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.locator('.month-close .close-step').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}journey-${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('a Korean operator closes a month from the cockpit: run, explain, hold and release, confirm, pay, statement, KPI', async ({ page }) => {
  test.setTimeout(420_000);
  mkdirSync(SHOTS, { recursive: true });
  await page.goto('/login');
  await page.getByLabel('아이디').fill(platform.users.admin.loginId);
  await page.getByLabel('비밀번호').fill(platform.users.admin.password);
  await page.getByRole('button', { name: '로그인' }).click();

  // The cockpit, on the month to close: only receiving and running are open, the rest says why it waits.
  const cockpit = page.locator('.month-close');
  await expect(cockpit).toBeVisible();
  await cockpit.getByLabel('마감할 월').fill(monthText(MONTH));
  await cockpit.getByLabel('마감할 월').press('Enter');
  await expect(cockpit.locator('.card-title').first()).toHaveText(`${monthText(MONTH)} 월 마감`);
  await expectState(page, '정산 실행', 'ready');
  await expect(step(page, '정산 실행')).toContainText('아직 실행하지 않음');
  await expectState(page, '확정', 'waiting');
  await expect(step(page, '지급')).toContainText('먼저 월 정산을 실행하세요');
  await expect(step(page, '지급').getByRole('button', { name: '지급' })).toBeDisabled();
  await shots(page, 'before');

  // Run the month: the batch page opens on this month.
  await step(page, '정산 실행').getByRole('button', { name: '월 정산 실행' }).click();
  await expect(page).toHaveURL(new RegExp(`/settle/batch\\?settleMonth=${MONTH}`));
  await expect(page.getByLabel('정산월', { exact: true })).toHaveValue(monthText(MONTH));
  await page.locator('form[id="batch-run"]').getByRole('button', { name: '월 정산 실행' }).click();
  const run = page.locator('.run-steps');
  await expect(run.getByRole('heading').locator('.status-tag[data-code="COMPLETED"]')).toBeVisible({ timeout: 240_000 });

  // Ran: review and confirmation open, payments wait for the confirmation.
  await home(page);
  await expectState(page, '정산 실행', 'done');
  await expectState(page, '확정', 'ready');
  await expectState(page, '지급', 'waiting');
  await expect(step(page, '지급')).toContainText('먼저 모든 건을 확정하세요');

  // Its settlements: an explain in words, then one held with a reason.
  await step(page, '정산 실행').getByRole('link', { name: '정산 내역' }).click();
  await expect(page).toHaveURL(new RegExp(`/settle\\?settleMonth=${MONTH}`));
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  await rows.first().getByRole('link', { name: /산출 근거/ }).click();
  await expect(page).toHaveURL(/\/settle\/explain\/\d+$/);
  await expect(page.locator('.ant-collapse')).toBeVisible();
  await page.goBack();
  await expect(rows.first()).toBeVisible();
  const withStatus = (status: string) => rows.filter({ has: page.locator(`.status-tag[data-code="${status}"]`) });
  await rows.first().getByRole('button', { name: '보류', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('사유', { exact: true }).fill('자격 갱신 확인 중');
  await dialog.getByRole('button', { name: '보류', exact: true }).click();
  await expect(withStatus('HOLD')).toHaveCount(1);

  // The cockpit counts the hold; its review lists it, and it is released there.
  await home(page);
  await expectState(page, '검토', 'ready');
  await expect(step(page, '검토')).toContainText('보류 1건');
  await step(page, '검토').getByRole('button', { name: '보류 검토' }).click();
  await expect(withStatus('HOLD')).toHaveCount(1);
  await withStatus('HOLD').getByRole('button', { name: '보류 해제' }).click();
  await expect(page.getByText(/1건 처리되었습니다/).last()).toBeVisible();
  await expect(withStatus('HOLD')).toHaveCount(0);

  // Confirm the whole month from the cockpit's confirmation step.
  await home(page);
  await expectState(page, '검토', 'done');
  await step(page, '확정').getByRole('button', { name: '확정', exact: true }).click();
  await page.getByRole('button', { name: '월 전체 확정' }).click();
  await page.getByRole('dialog').getByRole('button', { name: /건 확정$/ }).click();
  await expect(page.getByText(new RegExp(`^${monthText(MONTH)} \\d+건 확정`))).toBeVisible();

  // Confirmed: payments, statements, the period close and the KPI open.
  await home(page);
  await expectState(page, '확정', 'done');
  await expectState(page, '지급', 'ready');
  await expectState(page, '명세서', 'ready');
  await step(page, '지급').getByRole('button', { name: '지급', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/payments\\?settleMonth=${MONTH}`));
  await page.getByRole('button', { name: '1. 지급 생성' }).click();
  await expect(page.getByText(/지급 \d+건 생성/)).toBeVisible();

  await home(page);
  await step(page, '명세서').getByRole('button', { name: '명세서 발행' }).click();
  await expect(page).toHaveURL(new RegExp(`/payments/statements\\?settleMonth=${MONTH}`));
  const issue = page.locator('.ant-card').filter({ hasText: '월 명세서 발행' });
  await issue.getByRole('button', { name: '명세서 발행' }).click();
  await expect(issue.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100', { timeout: 120_000 });
  const first = page.locator('.ant-table-tbody tr.ant-table-row').first();
  await expect(first).toBeVisible({ timeout: 30_000 });
  const statement = page.waitForEvent('download');
  await first.getByRole('button', { name: '다운로드' }).click();
  expect((await statement).suggestedFilename()).toMatch(/\.xlsx$/);

  await home(page);
  await expectState(page, '실적 지표', 'ready');
  await shots(page, 'after');
  await step(page, '실적 지표').getByRole('button', { name: '실적 지표 보기' }).click();
  await expect(page).toHaveURL(/\/kpi\/monthly/);
  await expect(page.locator('main main').getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
});
