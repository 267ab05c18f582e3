import { expect, login, platform, test } from './fixtures.js';

test.describe('signing in and the shell', () => {
  test('a wrong password is refused in words (A003), the right one opens the menu with the user and roles', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Login ID').fill(platform.users.admin.loginId);
    await page.getByLabel('Password').fill('definitely-wrong-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('The login ID or password is wrong.');

    await page.getByLabel('Password').fill(platform.users.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByText('Settlement', { exact: true })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('Super administrator');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
  });

  test('five wrong passwords lock the account, and the next attempt says so (A004)', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Login ID').fill(platform.users.locked.loginId);
    for (let i = 1; i <= 5; i++) {
      await page.getByLabel('Password').fill(`wrong-password-${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toBeVisible();
    }
    await page.getByLabel('Password').fill(platform.users.locked.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText(/account is locked/);
  });

  test('the language switch turns the menu Korean and is remembered after a reload', async ({ page }) => {
    await login(page, 'manager');
    await page.getByRole('banner').getByText('한국어').click();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByText('정산', { exact: true })).toBeVisible();
    await page.reload();
    await expect(nav.getByText('정산', { exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
    await page.getByRole('banner').getByText('EN').click();
    await expect(nav.getByText('Settlement', { exact: true })).toBeVisible();
  });

  test('an expired access token is refreshed once and the page loads anyway', async ({ page }) => {
    await login(page, 'manager');
    let expired = 0;
    await page.route('**/api/menus/my', async (route) => {
      if (expired++ === 0) {
        await route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'A001', message: 'Token expired' }) });
      } else await route.fallback();
    });
    const refresh = page.waitForResponse((r) => r.url().endsWith('/api/auth/refresh') && r.status() === 200);
    await page.reload();
    await refresh;
    await expect(page.getByRole('navigation', { name: 'Main menu' }).getByText('Settlement', { exact: true })).toBeVisible();
    expect(expired).toBe(2);
  });

  test('breadcrumbs name the directory and the page', async ({ page }) => {
    await login(page, 'manager');
    await page.goto('/org/agents');
    const crumbs = page.locator('.app-breadcrumbs');
    await expect(crumbs).toContainText('Home');
    await expect(crumbs).toContainText('Organization');
    await expect(crumbs).toContainText('Agents');
  });

  test('a user changes the password, signs out and signs in with the new one', async ({ page }) => {
    await login(page, 'clerk');
    await page.getByRole('button', { name: /e2e\.clerk/ }).click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByLabel('Current password').fill(platform.users.clerk.password);
    await dialog.getByLabel('New password', { exact: true }).fill('Changed12345');
    await dialog.getByLabel('Repeat the new password').fill('Changed12345');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Password changed')).toBeVisible();

    await page.getByRole('button', { name: /e2e\.clerk/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Login ID').fill(platform.users.clerk.loginId);
    await page.getByLabel('Password').fill('Changed12345');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  });
});
