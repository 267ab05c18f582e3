import { expect, login, test } from './fixtures.js';

// A month the platform has not settled yet (WEB_E2E_RUN_MONTH: another one, when rerunning on a kept platform).
const MONTH = process.env.WEB_E2E_RUN_MONTH ?? '202506';

test.describe('an operator settles a month', () => {
  test('runs a month, watches it complete, opens an explain view, holds one row and confirms the rest', async ({ page }) => {
    test.setTimeout(240_000);
    await login(page, 'admin');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('menuitem', { name: 'Settlement', exact: true }).click();
    await nav.getByRole('link', { name: 'Settlement Batch' }).click();
    await expect(page).toHaveURL(/\/settle\/batch/);
    await page.getByLabel('Settle month').fill(MONTH);
    await page.getByRole('button', { name: 'Run month' }).click();
    const run = page.locator('.run-steps');
    await expect(run).toContainText(`· ${MONTH}`);
    await expect(run.getByRole('heading').getByText('COMPLETED')).toBeVisible({ timeout: 180_000 });
    await expect(run.getByRole('table')).toContainText('calcRecruit');

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
    const withStatus = (status: string) => rows.filter({ has: page.locator('.status-tag', { hasText: new RegExp(`^${status}$`) }) });
    await expect(withStatus('HOLD')).toHaveCount(1);

    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.getByRole('button', { name: /Confirm selected/ }).click();
    await expect(page.getByText(/rows updated/)).toBeVisible();
    await expect(withStatus('CONFIRMED')).toHaveCount(count - 1);
    await expect(withStatus('HOLD')).toHaveCount(1);
  });
});
