import type { APIRequestContext } from '@playwright/test';
import { expect, login, monthText, platform, seriousViolations, test } from './fixtures.js';

// Months the platform has not settled yet (WEB_E2E_RUN_MONTH / WEB_E2E_CONFIRM_MONTH: others, when rerunning on a kept platform).
const MONTH = process.env.WEB_E2E_RUN_MONTH ?? '202506';
const WHOLE_MONTH = process.env.WEB_E2E_CONFIRM_MONTH ?? '202503';

/** The admin's API: a call's envelope data, failing the test on any refusal. */
async function adminApi(request: APIRequestContext) {
  const auth = await request.post(`${platform.url}/api/auth/login`, { data: platform.users.admin });
  const headers = { authorization: `Bearer ${((await auth.json()) as { data: { accessToken: string } }).data.accessToken}` };
  return async <T>(method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(`${platform.url}${path}`, { method, headers, ...(data === undefined ? {} : { data }) });
    const body = (await res.json()) as { success: boolean; data: T };
    expect(body.success, `${method} ${path}: ${JSON.stringify(body)}`).toBe(true);
    return body.data;
  };
}

const grouped = (amount: string) => amount.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

test.describe('an operator settles a month', () => {
  test('runs a month, watches it complete, opens an explain view, holds one row and confirms the rest', async ({ page }) => {
    test.setTimeout(240_000);
    await login(page, 'admin');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('menuitem', { name: 'Settlement', exact: true }).click();
    await nav.getByRole('link', { name: 'Settlement Batch' }).click();
    await expect(page).toHaveURL(/\/settle\/batch/);
    await page.getByLabel('Settle month').fill(monthText(MONTH));
    // the month picker takes what was typed when it loses focus (and closes its calendar)
    await page.getByLabel('Settle month').press('Tab');
    await page.getByRole('button', { name: 'Run month' }).click();
    const run = page.locator('.run-steps');
    await expect(run).toContainText(`· ${monthText(MONTH)}`);
    await expect(run.getByRole('heading').locator('.status-tag[data-code="COMPLETED"]')).toHaveText('Completed', { timeout: 180_000 });
    await expect(run.getByRole('table')).toContainText('Recruit commission');
    // A finished run leads to its settlements.
    await expect(run.getByRole('link', { name: 'Settlements of this month' })).toHaveAttribute('href', `/settle?settleMonth=${MONTH}`);

    await page.goto(`/settle?settleMonth=${MONTH}&pageSize=100`);
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows.first()).toBeVisible();
    const count = await rows.count();
    expect(count).toBeGreaterThan(1);

    await rows.first().getByRole('link', { name: /Explain/ }).click();
    await expect(page).toHaveURL(/\/settle\/explain\/\d+$/);
    await expect(page.getByText('The lines below add up to the stored settlement.')).toBeVisible();
    await page.getByRole('button', { name: 'Back', exact: true }).click();

    await rows.first().getByRole('button', { name: 'Hold' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason', { exact: true }).fill('License renewal pending');
    await dialog.getByRole('button', { name: 'Hold' }).click();
    const withStatus = (status: string) => rows.filter({ has: page.locator(`.status-tag[data-code="${status}"]`) });
    await expect(withStatus('HOLD')).toHaveCount(1);

    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.getByRole('button', { name: /Confirm selected/ }).click();
    await expect(page.getByText(/rows updated/)).toBeVisible();
    await expect(withStatus('CONFIRMED')).toHaveCount(count - 1);
    await expect(withStatus('HOLD')).toHaveCount(1);
  });

  test('confirms a whole month in one step: every CALCULATED row but the held one becomes CONFIRMED', async ({ page, request }) => {
    test.setTimeout(240_000);
    const call = await adminApi(request);
    // The month is run through the API (the journey above runs one through the page).
    const runId = await call<number>('POST', `/api/batch/settlement/run?settleMonth=${WHOLE_MONTH}`);
    await expect
      .poll(async () => (await call<{ run: { status: string } }>('GET', `/api/batch/settlement/status?jobLogId=${runId}`)).run.status, {
        timeout: 180_000,
        intervals: [500],
      })
      .toBe('COMPLETED');
    const listed = await call<{ list: { settleId: number; status: string }[]; total: number }>('GET', `/api/settle?settleMonth=${WHOLE_MONTH}&pageSize=100`);
    expect(listed.total).toBeGreaterThan(1);
    expect(listed.list.every((r) => r.status === 'CALCULATED')).toBe(true);
    await call('PUT', `/api/settle/${listed.list[0]!.settleId}/hold`, { reason: 'Bank account check' });
    const summary = await call<{ byStatus: { status: string; count: number; totals: { net: string } }[] }>('GET', `/api/settle/summary?settleMonth=${WHOLE_MONTH}`);
    const calculated = summary.byStatus.find((b) => b.status === 'CALCULATED')!;
    expect(calculated.count).toBe(listed.total - 1);

    await login(page, 'admin');
    const wholeMonth = page.getByRole('button', { name: 'Confirm the whole month' });
    await page.goto('/settle');
    await expect(page.getByText(/^\d+ rows$/)).toBeVisible();
    await expect(wholeMonth).toBeDisabled();

    await page.goto(`/settle?settleMonth=${WHOLE_MONTH}&pageSize=100`);
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(listed.total);
    await expect(wholeMonth).toBeEnabled();
    await wholeMonth.click();
    const dialog = page.getByRole('dialog', { name: `Confirm the whole month ${monthText(WHOLE_MONTH)}?` });
    await expect(dialog).toContainText(`${calculated.count} calculated rows of ${monthText(WHOLE_MONTH)} (net total ${grouped(calculated.totals.net)})`);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: `Confirm ${calculated.count} rows` }).click();

    await expect(
      page.getByText(`${calculated.count} rows of ${monthText(WHOLE_MONTH)} confirmed; skipped 1 on hold and 0 with an open dispute; 0 already confirmed, 0 paid`),
    ).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const withStatus = (status: string) => rows.filter({ has: page.locator(`.status-tag[data-code="${status}"]`) });
    await expect(withStatus('CONFIRMED')).toHaveCount(calculated.count);
    await expect(withStatus('HOLD')).toHaveCount(1);
    await expect(withStatus('CALCULATED')).toHaveCount(0);
    await expect(wholeMonth).toBeDisabled();
    const after = await call<{ list: { status: string }[] }>('GET', `/api/settle?settleMonth=${WHOLE_MONTH}&pageSize=100`);
    expect(after.list.filter((r) => r.status === 'CONFIRMED')).toHaveLength(calculated.count);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
