import { expect, login, test } from './fixtures.js';

test.describe('generic resource pages from the server metadata', () => {
  test("a form shows the server's E411 field errors next to the fields", async ({ page }) => {
    await login(page, 'admin');
    await page.goto('/companies/new');
    const form = page.locator('form.resource-form-body');
    await expect(form).toBeVisible();
    // Only "required" is checked in the browser: the code's pattern is the server's rule.
    await form.getByLabel('Code', { exact: true }).fill('bad code!');
    await form.getByLabel('Name', { exact: true }).fill('Form Error Insurance');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/companies') && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Save' }).click();
    const response = await saved;
    expect(response.status()).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('E411');

    const codeItem = form.locator('.ant-form-item').filter({ has: page.getByLabel('Code', { exact: true }) });
    await expect(codeItem.locator('.ant-form-item-explain-error')).not.toHaveText('');
    await expect(page.getByRole('alert').first()).toContainText('E411');
  });

  test('a list keeps filters, page size and sort in the URL, and a new record is created and shown', async ({ page }) => {
    await login(page, 'admin');
    await page.goto('/companies/new');
    const form = page.locator('form.resource-form-body');
    await form.getByLabel('Code', { exact: true }).fill('E2E_WEB_CO');
    await form.getByLabel('Name', { exact: true }).fill('Web Journey Insurance');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/companies\/\d+$/);
    await expect(page.getByText('Web Journey Insurance')).toBeVisible();

    await page.goto('/companies?searchKeyword=Journey&pageSize=50&sortField=companyName&sortOrder=DESC');
    await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(1);
    await expect(page.getByRole('textbox', { name: 'Keyword' })).toHaveValue('Journey');
    const exportLink = page.getByRole('link', { name: /Export to Excel/ });
    await expect(exportLink).toHaveAttribute('href', /\/api\/companies\/excel\?.*searchKeyword=Journey/);
    await expect(exportLink).toHaveAttribute('href', /sortField=companyName/);
  });
});
