import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, login, platform, test } from './fixtures.js';

test('time from opening the app to the first list rendered (contracts, recruit ledger)', async ({ page }) => {
  await login(page, 'admin');
  const timings: Record<string, number> = {};
  for (const path of ['/contracts', `/ledger/recruit?settleMonth=${platform.month}`]) {
    const started = Date.now();
    await page.goto(path);
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
    timings[path] = Date.now() - started;
  }
  test.info().annotations.push({ type: 'first list (ms)', description: JSON.stringify(timings) });
  writeFileSync(fileURLToPath(new URL('../../test-results/first-list.json', import.meta.url)), `${JSON.stringify(timings, null, 2)}\n`);
});
