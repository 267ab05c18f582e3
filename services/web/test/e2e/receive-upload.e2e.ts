import { expect, login, monthText, seriousViolations, test } from './fixtures.js';
import { adminHeaders, csv, ensureCsvProfile, ensureRecruitMappings, policiesOf } from './intake-setup.js';

const CARRIER = 'DC003';
const MONTH = '202504';

test.describe('receiving a carrier file in the browser', () => {
  let policies: string[] = [];

  test.beforeAll(async ({ request }) => {
    // Setup: how DC003 delivers (CSV) and which column feeds which ledger field.
    const headers = await adminHeaders(request);
    await ensureCsvProfile(request, headers, CARRIER);
    await ensureRecruitMappings(request, headers, CARRIER);
    policies = await policiesOf(request, headers, CARRIER, 3);
  });

  test('an operator uploads a carrier CSV, processes it, sees the status counts and the parse errors of the file', async ({ page, consoleLog }) => {
    test.setTimeout(120_000);
    const file = csv([
      ['POLICY_NO', 'PREMIUM', 'COMM_AMT'],
      [policies[0]!, '41000', '1500.50'],
      [policies[1]!, '52000', '980'],
      [policies[2]!, '33000', '410'],
      ['NO-SUCH-POLICY-1', '1000', '10'],
      [policies[0]!, 'twelve', '5'],
    ]);

    await login(page, 'admin');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('menuitem', { name: 'Data Intake', exact: true }).click();
    await nav.getByRole('link', { name: 'Received Data' }).click();
    await expect(page).toHaveURL(/\/receive\/data/);

    const upload = page.locator('.ant-card').filter({ has: page.getByRole('heading', { name: 'Upload a carrier file' }) });
    await upload.getByLabel('Carrier').click();
    await page.locator('.ant-select-dropdown:visible').getByText(`(${CARRIER})`).click();
    await upload.getByLabel('Settle month').fill(monthText(MONTH));
    // the month picker takes what was typed when it loses focus (and closes its calendar)
    await upload.getByLabel('Settle month').press('Tab');
    await upload.getByLabel('Data type').click();
    await page.locator('.ant-select-dropdown:visible').getByText('Recruit', { exact: true }).click();
    // A rerun on a kept platform replaces its earlier file.
    await upload.getByLabel('Replace an earlier file').check();
    await upload.locator('input[type=file]').setInputFiles({ name: 'dc003-202504.csv', mimeType: 'text/csv', buffer: file });
    await upload.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(page.getByText('5 rows received')).toBeVisible();

    // Status per carrier: received, 5 rows, nothing parsed yet.
    const status = page.locator('.ant-card').filter({ has: page.getByRole('heading', { name: 'Received per carrier' }) });
    await expect(status.getByLabel('Settle month')).toHaveValue(monthText(MONTH));
    const carrier = status.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: `(${CARRIER})` });
    const cells = carrier.locator('td');
    // The first tag is the receive status (a MATCHED/DIFF tag may follow).
    await expect(carrier.locator('.status-tag').first()).toHaveAttribute('data-code', 'RECEIVED');
    await expect(carrier.locator('.status-tag').first()).toHaveText('Received');
    await expect(cells.nth(3)).toHaveText('5');
    await expect(cells.nth(4)).toHaveText('0');

    // Steps 2-3 for the carrier: 3 rows reach the ledger, 2 become parse errors.
    await carrier.getByRole('button', { name: 'Process' }).click();
    await expect(cells.nth(4)).toHaveText('3');
    await expect(cells.nth(5)).toHaveText('2');
    expect(await seriousViolations(page)).toEqual([]);

    // The workbench lists exactly those errors, with their raw rows.
    await page.goto(`/receive/data?resource=ParseError&companyCode=${CARRIER}&settleMonth=${MONTH}&resolveStatus=OPEN`);
    const workbench = page.getByRole('region', { name: 'Parse errors' });
    const rows = workbench.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'CONTRACT_NOT_FOUND' })).toContainText('NO-SUCH-POLICY-1');
    const invalid = rows.filter({ hasText: 'INVALID_INPUT' });
    await expect(invalid).toContainText('twelve');
    await invalid.getByRole('button', { name: /^Show the raw row of error/ }).click();
    const raw = workbench.getByRole('group', { name: /^Raw row of error/ });
    await expect(raw).toContainText('dc003-202504.csv, row 6');
    await expect(raw.locator('.raw-error-value')).toHaveText('twelve');
    expect(await seriousViolations(page)).toEqual([]);
    expect(consoleLog.errors).toEqual([]);
  });
});
