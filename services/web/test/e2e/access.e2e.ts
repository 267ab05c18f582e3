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

  test('an AGENT gets the agent portal: its menu only, operator pages refused, and only its own rows from the API', async ({ page }) => {
    await login(page, 'agent');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByRole('link')).toHaveText(['My settlement', 'My disputes', 'My statements', 'Withdraw requests']);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My settlement');

    // Operator pages, even those the role may read through the API (its own rows), are "no access" in the client.
    for (const path of [`/settle?settleMonth=${platform.month}`, '/ledger/recruit', '/org/agents']) {
      await page.goto(path);
      await expect(page.getByText('You do not have access to this page.'), path).toBeVisible();
    }

    // The server scopes the rows: the agent's own token lists only its agent's settlements.
    const agentIds = await page.evaluate(async () => {
      const session = JSON.parse(localStorage.getItem('csp.session') ?? '{}') as { accessToken?: string };
      const res = await fetch('/api/settle?pageSize=100', { headers: { authorization: `Bearer ${session.accessToken}` } });
      return ((await res.json()) as { data: { list: { agentId: number }[] } }).data.list.map((r) => r.agentId);
    });
    expect(agentIds.length).toBeGreaterThan(0);
    expect(new Set(agentIds)).toEqual(new Set([platform.agentId]));
  });
});
