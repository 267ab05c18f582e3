import { expect, login, monthText, platform, test } from './fixtures.js';

test.describe('an operator pays a month', () => {
  test.beforeAll(async ({ request }) => {
    // Payments come from CONFIRMED settlements: confirm the platform's settled month first (not the journey).
    const auth = await request.post(`${platform.url}/api/auth/login`, { data: platform.users.admin });
    const token = ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
    const headers = { authorization: `Bearer ${token}` };
    const list = await request.get(`${platform.url}/api/settle?settleMonth=${platform.month}&status=CALCULATED&pageSize=1000`, { headers });
    for (const row of ((await list.json()) as { data: { list: { settleId: number }[] } }).data.list) {
      const res = await request.put(`${platform.url}/api/settle/${row.settleId}/confirm`, { headers });
      expect(res.status()).toBe(200);
    }
  });

  test('generates payments, calculates taxes, writes the transfer file and downloads a statement', async ({ page }) => {
    test.setTimeout(180_000);
    await login(page, 'admin');
    await page.goto(`/payments?settleMonth=${platform.month}`);
    const panel = page.locator('.ant-card').filter({ hasText: 'Pay a month' });
    await expect(panel.getByLabel('Settle month')).toHaveValue(monthText(platform.month));

    await panel.getByRole('button', { name: '1. Generate payments' }).click();
    await expect(page.getByText(/\d+ payments generated/)).toBeVisible();
    await panel.getByRole('button', { name: '2. Calculate taxes' }).click();
    await expect(page.getByText(/\d+ payments taxed/)).toBeVisible();
    await panel.getByRole('button', { name: '4. Write transfer file' }).click();
    await expect(page.getByText(/\d+ payments in /)).toBeVisible();
    const transfer = page.waitForEvent('download');
    await panel.getByRole('button', { name: /\.csv$/i }).click();
    expect((await transfer).suggestedFilename()).toMatch(/\.csv$/i);
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').first().locator('.status-tag[data-code="SENT"]')).toBeVisible();

    await page.goto(`/payments/statements?settleMonth=${platform.month}`);
    const issue = page.locator('.ant-card').filter({ hasText: 'Issue statements for a month' });
    await issue.getByRole('button', { name: 'Issue statements' }).click();
    await expect(issue.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100', { timeout: 120_000 });
    await page.goto(`/payments/statements?settleMonth=${platform.month}`);
    const first = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await expect(first).toBeVisible();
    const statement = page.waitForEvent('download');
    await first.getByRole('button', { name: 'Download' }).click();
    expect((await statement).suggestedFilename()).toMatch(/\.xlsx$/);
  });
});
