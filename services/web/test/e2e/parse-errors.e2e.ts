import { expect, login, seriousViolations, test } from './fixtures.js';
import { adminHeaders, csv, ensureCsvProfile, ensureRecruitMappings, policiesOf, receiveAndProcess } from './intake-setup.js';

const CARRIER = 'DC001';
const MONTH = '202503';

test.describe('parse-error workbench', () => {
  test.beforeAll(async ({ request }) => {
    // Setup: one received and processed DC001 file with one good row and three bad ones.
    const headers = await adminHeaders(request);
    await ensureCsvProfile(request, headers, CARRIER);
    await ensureRecruitMappings(request, headers, CARRIER);
    const [policy] = await policiesOf(request, headers, CARRIER, 1);
    await receiveAndProcess(request, headers, {
      companyCode: CARRIER,
      settleMonth: MONTH,
      fileName: 'dc001-202503.csv',
      content: csv([
        ['POLICY_NO', 'PREMIUM', 'COMM_AMT'],
        [policy!, '41000', '1500'],
        ['TEST-POLICY-A', '1000', '10'],
        ['TEST-POLICY-B', '2000', '20'],
        [policy!, 'n/a', '5'],
      ]),
    });
  });

  test('an operator reads a raw row, is told why a re-parse still fails, and ignores two test policies in one go', async ({ page, consoleLog }) => {
    test.setTimeout(120_000);
    await login(page, 'admin');
    await page.goto(`/receive/data?resource=ParseError&companyCode=${CARRIER}&settleMonth=${MONTH}&resolveStatus=OPEN`);
    const workbench = page.getByRole('region', { name: 'Parse errors' });
    const rows = workbench.locator('.ant-table-tbody tr.ant-table-row');
    await expect(rows).toHaveCount(3);
    await expect(workbench.getByRole('combobox', { name: 'Carrier' })).toBeVisible();

    // The raw row of the bad premium, with the refused value marked.
    const invalid = rows.filter({ hasText: 'INVALID_INPUT' });
    const errorId = Number(await invalid.locator('td').nth(2).innerText());
    await invalid.getByRole('button', { name: `Show the raw row of error ${errorId}` }).click();
    const raw = workbench.getByRole('group', { name: `Raw row of error ${errorId}` });
    await expect(raw).toContainText('dc001-202503.csv, row 5');
    await expect(raw.locator('.raw-error-value')).toHaveText('n/a');

    // Resolve = parse again with today's mappings: the premium is still not a number, and the page says so.
    await invalid.getByRole('button', { name: `Resolve error ${errorId}` }).click();
    let dialog = page.getByRole('dialog', { name: 'Close 1 parse error' });
    await dialog.getByLabel('Note').fill('Mapping checked');
    await dialog.getByRole('button', { name: 'Resolve', exact: true }).click();
    await expect(dialog).toBeHidden();
    const outcome = workbench.getByRole('alert');
    await expect(outcome).toContainText('0 closed, 1 refused');
    await expect(outcome).toContainText(`#${errorId}`);
    await expect(outcome).toContainText('still fails: INVALID_INPUT');
    await expect(outcome).toContainText('(E400)');
    await expect(rows).toHaveCount(3);

    // Both unknown policies at once, ignored with a note.
    for (const policy of ['TEST-POLICY-A', 'TEST-POLICY-B']) {
      const id = await rows.filter({ hasText: policy }).locator('td').nth(2).innerText();
      await workbench.getByRole('checkbox', { name: `Select error ${id}` }).check();
    }
    await workbench.getByRole('button', { name: 'Ignore selected (2)' }).click();
    dialog = page.getByRole('dialog', { name: 'Close 2 parse errors' });
    await expect(dialog.getByRole('radio', { name: /^Ignore/ })).toBeChecked();
    await dialog.getByLabel('Note').fill('Carrier test policies');
    await dialog.getByRole('button', { name: 'Ignore', exact: true }).click();
    await expect(workbench.getByRole('status').filter({ hasText: 'closed' })).toContainText('2 closed, 0 refused');
    await expect(rows).toHaveCount(1);
    expect(await seriousViolations(page)).toEqual([]);

    // The status filter finds them again, note included.
    await workbench.getByRole('combobox', { name: 'Status' }).click();
    await page.locator('.ant-select-dropdown:visible').getByText('Ignored', { exact: true }).click();
    await workbench.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/resolveStatus=IGNORED/);
    await expect(rows).toHaveCount(2);
    const ignored = rows.first();
    await ignored.getByRole('button', { name: /^Show the raw row of error/ }).click();
    await expect(workbench.getByRole('group', { name: /^Raw row of error/ })).toContainText('Note: Carrier test policies');
    expect(consoleLog.errors).toEqual([]);
  });
});
