import { expect, login, platform, seriousViolations, test } from './fixtures.js';

test.describe('role permission matrix', () => {
  test('an administrator creates a role, grants it menus in the matrix, saves, and finds the grants after a reload', async ({ page, consoleLog, request }) => {
    test.setTimeout(120_000);
    const code = `E2E_AUDIT_${Date.now().toString(36).toUpperCase()}`;
    await login(page, 'admin');
    await page.goto('/system/roles/new');
    const form = page.locator('form.resource-form-body');
    await form.getByLabel('Role code', { exact: true }).fill(code);
    await form.getByLabel('Role name', { exact: true }).fill('Journey auditor');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/system\/roles\/\d+/);
    const roleId = Number(/\/system\/roles\/(\d+)/.exec(page.url())![1]);

    await page.goto(`/system/roles?searchKeyword=${code}`);
    await page.getByRole('link', { name: `Permissions of ${code}` }).click();
    await expect(page).toHaveURL(new RegExp(`/system/roles/${roleId}/permissions$`));
    await expect(page.getByText(`Journey auditor (${code})`)).toBeVisible();
    const companiesRead = page.getByRole('checkbox', { name: 'Insurance Companies: Read', exact: true });
    await expect(companiesRead).not.toBeChecked();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();

    // One cell, one whole row, and a cell the menu does not offer stays absent.
    await companiesRead.check();
    await page.getByRole('button', { name: 'All permissions of Contracts', exact: true }).click();
    await expect(page.getByRole('checkbox', { name: 'Contracts: Update', exact: true })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Contracts: Delete', exact: true })).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'unsaved changes' })).toHaveText('4 unsaved changes');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Permissions saved (4 changes)')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'unsaved changes' })).toHaveText('0 unsaved changes');

    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Insurance Companies: Read', exact: true })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Contracts: Create', exact: true })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Products: Read', exact: true })).not.toBeChecked();

    // The server holds exactly those grants.
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('csp.session') ?? '{}') as { accessToken: string }).accessToken);
    const res = await request.get(`${platform.url}/api/roles/${roleId}/permissions`, { headers: { authorization: `Bearer ${token}` } });
    const menus = ((await res.json()) as { data: { menus: { menuCode: string; permissions: { permCode: string; granted: boolean }[] }[] } }).data.menus;
    const granted = menus.flatMap((m) => m.permissions.filter((p) => p.granted).map((p) => `${m.menuCode}:${p.permCode}`)).sort();
    expect(granted).toEqual(['COMPANY:READ', 'CONTRACT_LIST:CREATE', 'CONTRACT_LIST:READ', 'CONTRACT_LIST:UPDATE']);
    expect(consoleLog.errors).toEqual([]);
  });

  test('the SUPER_ADMIN matrix is shown read-only', async ({ page }) => {
    await login(page, 'admin');
    await page.goto('/system/roles?searchKeyword=SUPER_ADMIN');
    await page.getByRole('link', { name: 'Permissions of SUPER_ADMIN' }).click();
    await expect(page.getByText('The super administrator holds every permission')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Insurance Companies: Read', exact: true })).toBeDisabled();
    await expect(page.getByRole('checkbox', { name: 'Insurance Companies: Read', exact: true })).toBeChecked();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  });
});
