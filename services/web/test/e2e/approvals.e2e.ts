import { expect, login, platform, test } from './fixtures.js';

test.describe('approvals inbox', () => {
  let title = '';

  test.beforeAll(async ({ request }) => {
    const token = async (who: 'admin' | 'manager') => {
      const res = await request.post(`${platform.url}/api/auth/login`, { data: platform.users[who] });
      return { authorization: `Bearer ${((await res.json()) as { data: { accessToken: string } }).data.accessToken}` };
    };
    // Setup: a confirmed, unpaid balance, and a withdraw request from the manager (a requester never approves).
    const admin = await token('admin');
    const agentId = platform.agentId + 1;
    const rows = await request.get(`${platform.url}/api/settle?settleMonth=${platform.month}&agentId=${agentId}`, { headers: admin });
    const row = ((await rows.json()) as { data: { list: { settleId: number; status: string }[] } }).data.list[0]!;
    if (row.status === 'CALCULATED') expect((await request.put(`${platform.url}/api/settle/${row.settleId}/confirm`, { headers: admin })).status()).toBe(200);
    const created = await request.post(`${platform.url}/api/withdraw-requests`, {
      headers: await token('manager'),
      data: { agentId, amount: '1000.00', note: 'e2e withdraw' },
    });
    expect(created.status(), await created.text()).toBe(200);
    title = `Withdraw request #${((await created.json()) as { data: { id: number } }).data.id} `;
  });

  test('an approver approves a withdraw request from the pending inbox; the second step approves it finally', async ({ page }) => {
    await login(page, 'approver');
    await page.goto('/system/approvals');
    const mine = () => page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: title });
    await expect(mine()).toHaveCount(1);
    await mine().getByRole('button', { name: /Open request/ }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toContainText('WITHDRAW_DEFAULT');
    await drawer.getByLabel('Comment or reason').fill('Balance checked');
    await drawer.getByRole('button', { name: 'Approve' }).click();
    await expect(drawer).toBeHidden();
    await expect(mine()).toHaveCount(0);

    // Step 2 belongs to SUPER_ADMIN.
    await login(page, 'admin');
    await page.goto('/system/approvals');
    await mine().getByRole('button', { name: /Open request/ }).click();
    await expect(page.getByRole('dialog')).toContainText('2 / 2');
    await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(mine()).toHaveCount(0);
  });
});
