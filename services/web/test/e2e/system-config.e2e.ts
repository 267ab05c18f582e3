import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, login, platform, seriousViolations, test } from './fixtures.js';

const SHOTS = fileURLToPath(new URL('../../test-results/system-config/', import.meta.url));

async function tokenOf(page: Page): Promise<string> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem('csp.session') ?? '{}') as { accessToken: string }).accessToken);
}

test.describe('system configuration page', () => {
  test('an administrator changes a setting and finds it in the change log; a bad value shows the field error in words', async ({ page, consoleLog, request }) => {
    test.setTimeout(420_000);
    mkdirSync(SHOTS, { recursive: true });
    await login(page, 'admin');
    await page.goto('/system/config');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const row = page.locator('.config-list tr.ant-table-row', { hasText: 'BANK_RETRY_LIMIT' });
    await expect(row).toContainText('Failed transfers retried per bank retry run', { timeout: 60_000 });
    await expect(row).toContainText('100');

    // The encrypted key: masked in the list, never sent back, and its change starts from an empty input.
    const secret = page.locator('.config-list tr.ant-table-row', { hasText: 'BANK_API_KEY' });
    await expect(secret).toContainText('Encrypted');
    const token = await tokenOf(page);
    const listed = (await (await request.get(`${platform.url}/api/system/config`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { configKey: string; configValue: string }[];
    };
    expect(['', '********']).toContain(listed.data.find((e) => e.configKey === 'BANK_API_KEY')!.configValue);
    await page.getByRole('button', { name: 'Change BANK_API_KEY' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('New value')).toHaveValue('');
    await expect(dialog.getByText('The stored value is never shown or sent back')).toBeVisible();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Type the new value', { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // A bad value: the server's refusal, on the field, in words; nothing changes.
    await page.getByRole('button', { name: 'Change BANK_RETRY_LIMIT' }).click();
    await expect(dialog.getByLabel('New value')).toHaveValue('100');
    await dialog.getByLabel('New value').fill('ten');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.locator('.ant-form-item-explain-error')).toHaveText('Type a whole number of at least 1');
    expect(await seriousViolations(page)).toEqual([]);

    // A good value: saved, listed, and logged from 100 to 90.
    await dialog.getByLabel('New value').fill('90');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Failed transfers retried per bank retry run changed')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row.locator('td').nth(2)).toHaveText('90');
    const logged = page.locator('.config-changes tr.ant-table-row').first();
    await expect(logged).toContainText('BANK_RETRY_LIMIT');
    await expect(logged.locator('td').nth(2)).toHaveText('100');
    await expect(logged.locator('td').nth(3)).toHaveText('90');
    // Who changed it by name; an approval line by its name; a large whole number grouped.
    await expect(logged.locator('td').nth(4)).toHaveText('Administrator');
    await expect(page.locator('.config-list tr.ant-table-row', { hasText: 'WITHDRAW_APPROVAL_LINE' }).locator('td').nth(2)).toHaveText('출금 요청');
    await expect(page.locator('.config-list tr.ant-table-row', { hasText: 'EXCEL_MAX_ROWS' }).locator('td').nth(2)).toHaveText('1,000,000');
    expect(await seriousViolations(page)).toEqual([]);
    const changes = (await (
      await request.get(`${platform.url}/api/system/logs/changes?tableName=system_config&recordId=BANK_RETRY_LIMIT`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { data: { list: { action: string; beforeData: { configValue: string }; afterData: { configValue: string } }[] } };
    expect(changes.data.list.map((c) => [c.action, c.beforeData.configValue, c.afterData.configValue])).toEqual([['UPDATE', '100', '90']]);

    // Screens in Korean and English at 1440 and 375 px, the list with its log and the refused value.
    for (const lang of ['ko', 'en'] as const) {
      await page.evaluate((chosen) => localStorage.setItem('csp.lang', chosen), lang);
      for (const width of [1440, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/system/config');
        // A first load on this 2-core machine can take longer than the default 20 s.
        await expect(page.locator('.config-changes tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
        await expect(page.locator('.config-list tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
        await page.screenshot({ path: `${SHOTS}config-${lang}-${width}.png`, fullPage: true });
        await page.locator('.config-list tr.ant-table-row', { hasText: 'LOGIN_FAIL_LIMIT' }).getByRole('button').click();
        await page.getByRole('dialog').locator('input').fill('0');
        await page.getByRole('dialog').locator('.ant-btn-primary').click();
        await expect(page.getByRole('dialog').locator('.ant-form-item-explain-error')).toHaveText(
          lang === 'ko' ? '1 이상의 정수를 입력하세요' : 'Type a whole number of at least 1',
        );
        await page.screenshot({ path: `${SHOTS}config-error-${lang}-${width}.png` });
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(consoleLog.errors).toEqual([]);
  });
});
