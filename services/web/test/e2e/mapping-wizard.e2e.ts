import { expect, login, seriousViolations, test } from './fixtures.js';
import { adminHeaders, clearMappings, csv, ensureCsvProfile, policiesOf } from './intake-setup.js';

const CARRIER = 'DC002';
const MONTH = '202505';

test.describe('carrier mapping wizard', () => {
  let policies: string[] = [];

  test.beforeAll(async ({ request }) => {
    // Setup: DC002 delivers CSV; its columns are not mapped yet (the wizard does that).
    const headers = await adminHeaders(request);
    await ensureCsvProfile(request, headers, CARRIER);
    await clearMappings(request, headers, CARRIER);
    policies = await policiesOf(request, headers, CARRIER, 2);
  });

  test('an operator maps a sample file of a new carrier column by column, saves, and sees the sample parsed with the mapping', async ({ page, consoleLog }) => {
    test.setTimeout(240_000); // slow under a loaded 2-core machine: six steps against a real platform
    const sample = csv([
      ['Policy No', 'Prem', 'Comm Amt', 'Memo'],
      [policies[0]!, '12000', '300.5', 'first'],
      [policies[1]!, '8000', '120', 'second'],
      ['UNKNOWN-9', '100', '1', 'third'],
    ]);
    await login(page, 'admin');
    await page.goto('/receive/mapping');
    await page.getByRole('button', { name: 'Mapping wizard' }).click();
    await expect(page).toHaveURL(/\/receive\/mapping\/wizard$/);

    // 1. Carrier profile.
    await page.getByLabel('Carrier profile').click();
    await page.locator('.ant-select-dropdown:visible').getByText(`(${CARRIER})`, { exact: false }).click();
    await expect(page.getByText('First data row')).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();

    // 2. Sample file and month.
    await page.getByLabel('Settle month').fill(MONTH);
    // the month picker takes what was typed when it loses focus (and closes its calendar)
    await page.getByLabel('Settle month').press('Tab');
    await page.getByRole('radio', { name: 'RECRUIT' }).check();
    await page.locator('input[type=file]').setInputFiles({ name: 'dc002-sample.csv', mimeType: 'text/csv', buffer: sample });
    await page.getByRole('button', { name: 'Read the sample' }).click();

    // 3. Columns: read from the file, first values shown, fields guessed from the header names.
    const columns = page.locator('.mapping-columns .ant-table-tbody tr.ant-table-row');
    await expect(columns).toHaveCount(4);
    await expect(columns.nth(0)).toContainText(policies[0]!);
    await expect(columns.nth(3)).toContainText('first · second · third');
    const chosen = (column: string) => page.locator('.ant-select').filter({ has: page.getByRole('combobox', { name: `Ledger field of column ${column}`, exact: true }) });
    await expect(chosen('Policy No')).toContainText('policy_no');
    await expect(chosen('Comm Amt')).toContainText('company_amount');
    await expect(chosen('Memo')).toContainText('not mapped');
    // Premium is set by hand (whatever was guessed), with a transform rule.
    await page.getByRole('combobox', { name: 'Ledger field of column Prem', exact: true }).click();
    await page.locator('.ant-select-dropdown:visible').getByText('Premium (premium)', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Transform rule of column Prem', exact: true }).fill('TRIM');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Next' }).click();

    // 4. Save from the first day of the month, then the same sample parsed with the saved mapping.
    await expect(page.getByLabel('Mapping valid from')).toHaveValue('2025-05-01');
    await page.getByRole('button', { name: 'Save mapping and preview' }).click();
    const preview = page.getByRole('region', { name: 'The sample parsed with the saved mapping' });
    await expect(preview.locator('.parse-summary')).toContainText('Rows mapped2');
    await expect(preview.locator('.parse-summary')).toContainText('CONTRACT_NOT_FOUND 1');
    const rows = preview.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText(policies[0]!);
    await expect(rows.nth(0)).toContainText('12,000.00');
    await expect(rows.nth(0)).toContainText('300.50');
    await expect(rows.nth(2)).toContainText('CONTRACT_NOT_FOUND');
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);

    // The saved versions are in the carrier's field mappings.
    await preview.getByRole('link', { name: 'Open the field mappings of this carrier' }).click();
    const mappings = page.locator('.ant-table-tbody tr.ant-table-row');
    await expect(mappings.filter({ hasText: 'Policy No' })).toContainText('policy_no');
    await expect(mappings.filter({ hasText: 'Prem' }).filter({ hasText: 'TRIM' })).toContainText('premium');
    expect(consoleLog.errors).toEqual([]);
  });
});
