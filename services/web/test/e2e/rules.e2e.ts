import { expect, login, platform, seriousViolations, test } from './fixtures.js';

interface Rate {
  rateId: number;
  productId: number;
  commissionYear: number;
  ratePct: string;
  effectiveFrom: string;
  effectiveTo: string | null;
}

test.describe('rule versions', () => {
  let rate: Rate;

  test.beforeAll(async ({ request }) => {
    // Setup, not the journey: a commission rate that is still open and not a future version.
    const auth = await request.post(`${platform.url}/api/auth/login`, { data: platform.users.admin });
    const token = ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
    const res = await request.get(`${platform.url}/api/rules/commission-rates?pageSize=100&sortField=rateId&sortOrder=DESC`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const rows = ((await res.json()) as { data: { list: Rate[] } }).data.list;
    rate = rows.find((r) => r.effectiveTo === null && r.effectiveFrom < '2030-01-01')!;
    expect(rate).toBeDefined();
  });

  test('an operator revises a commission rate from 2031 and sees both versions with their periods', async ({ page, consoleLog }) => {
    await login(page, 'admin');
    await page.goto(`/rules/commission?productId=${rate.productId}&commissionYear=${rate.commissionYear}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Commission Rates');
    const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ has: page.getByRole('link', { name: String(rate.rateId), exact: true }) });
    await expect(row).toHaveCount(1);

    await row.getByRole('button', { name: `Revise rule ${rate.rateId}` }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`New version of rule ${rate.rateId}`) });
    await expect(dialog).toContainText(`valid from ${rate.effectiveFrom} to open`);
    // A start before the rule's own start is refused by the server, next to the field.
    await dialog.getByLabel('New version valid from').fill('1999-12-31');
    await dialog.getByLabel('Rate (%)').fill('12.3456');
    await dialog.getByRole('button', { name: 'Create version' }).click();
    const fromItem = dialog.locator('.ant-form-item').filter({ has: page.getByLabel('New version valid from') });
    await expect(fromItem.locator('.ant-form-item-explain-error')).toContainText(`must be after ${rate.effectiveFrom}`);
    await expect(dialog.getByRole('alert').first()).toContainText('E411');

    await dialog.getByLabel('New version valid from').fill('2031-01-01');
    await dialog.getByRole('button', { name: 'Create version' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/Version \d+ valid from 2031-01-01 created/)).toBeVisible();

    // The history drawer of the rule: the old version now ends where the new one starts.
    const drawer = page.getByRole('dialog', { name: 'Versions of this rule' });
    const versions = drawer.locator('.rule-versions .ant-table-tbody tr.ant-table-row');
    const old = versions.filter({ hasText: rate.effectiveFrom });
    const next = versions.filter({ hasText: '2031-01-01' }).filter({ hasText: '12.3456' });
    await expect(next).toHaveCount(1);
    await expect(next).toContainText('open');
    await expect(next).toContainText('future');
    await expect(old.first()).toContainText('2031-01-01');
    await expect(old.first()).toContainText('valid');
    expect(await seriousViolations(page)).toEqual([]);
    await drawer.getByRole('button', { name: 'Close' }).click();

    // The list shows the new row too.
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '12.3456' })).toHaveCount(1);
    expect(consoleLog.errors).toEqual([]);
  });

  test('payout and override rules show their version history and offer a revision', async ({ page, consoleLog }) => {
    await login(page, 'admin');
    await page.goto('/rules/payout?sortField=ruleId&sortOrder=ASC');
    const first = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await first.getByRole('button', { name: /^Version history of rule/ }).click();
    let drawer = page.getByRole('dialog', { name: 'Versions of this rule' });
    await expect(drawer.locator('.rule-versions .ant-table-tbody tr.ant-table-row').first()).toContainText('2000-01-01');
    await expect(drawer).toContainText('Insurance type');
    await expect(drawer.getByRole('button', { name: /^Revise rule/ }).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await drawer.getByRole('button', { name: 'Close' }).click();

    await page.goto('/rules/override');
    const override = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await expect(override.getByRole('button', { name: /^Revise rule/ })).toBeVisible();
    await override.getByRole('button', { name: /^Version history of rule/ }).click();
    drawer = page.getByRole('dialog', { name: 'Versions of this rule' });
    await expect(drawer.locator('.rule-versions .ant-table-tbody tr.ant-table-row')).not.toHaveCount(0);
    await expect(drawer).toContainText('Override (%)');
    expect(consoleLog.errors).toEqual([]);
  });
});
