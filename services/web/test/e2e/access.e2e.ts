import { expect, login, platform, test } from './fixtures.js';

test.describe('what a user may not do is not shown, and the server refuses it', () => {
  test('a manager cannot see the users page: the menu has no entry and the direct URL is refused', async ({ page }) => {
    await login(page, 'manager');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByText('Settlement', { exact: true })).toBeVisible();
    await expect(nav.getByText('System', { exact: true })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);

    await page.goto('/system/users');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible();

    // The server says the same to a call made with the manager's own token.
    const status = await page.evaluate(async () => {
      const session = JSON.parse(localStorage.getItem('csp.session') ?? '{}') as { accessToken?: string };
      const res = await fetch('/api/users', { headers: { authorization: `Bearer ${session.accessToken}` } });
      return { status: res.status, code: ((await res.json()) as { code: string }).code };
    });
    expect(status).toEqual({ status: 403, code: 'E403' });
  });

  test('an AGENT sees only its own settlement', async ({ page }) => {
    await login(page, 'agent');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByRole('menuitem')).toHaveText(['Ledgers', 'Settlement']);
    await nav.getByRole('menuitem', { name: 'Ledgers' }).click();
    await nav.getByRole('menuitem', { name: 'Settlement' }).click();
    await expect(nav.getByRole('link')).toHaveText(['Recruit Ledger', 'Maintain Ledger', 'Exception Ledger', 'Settlements', 'Commission Disputes']);

    await page.goto(`/settle?settleMonth=${platform.month}`);
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(1);
    // The agent column names the agent and links to it: the row is the agent's own.
    await expect(rows.first().locator('td').nth(0).locator(`a[href="/org/agents/${platform.agentId}"]`)).toHaveCount(1);
    await expect(page.getByRole('button', { name: /Confirm selected/ })).toHaveCount(0);

    await page.goto('/settle');
    await expect(page.getByText(/^\d+ rows$/)).toBeVisible();
    const agentLinks = await page.locator('.ant-table-tbody tr.ant-table-row td:first-child a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(agentLinks.length).toBeGreaterThan(0);
    expect(new Set(agentLinks)).toEqual(new Set([`/org/agents/${platform.agentId}`]));

    await page.goto('/org/agents');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible();
  });
});
