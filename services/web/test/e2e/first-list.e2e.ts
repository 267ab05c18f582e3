import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, platform, test } from './fixtures.js';

// What a user waits for, not what the test machinery adds: no trace recording, and a context of its
// own without the metadata stand-in of the other tests (the gateway serves /api/meta/resources).
test.use({ trace: 'off' });

test('time from opening the app to the first list rendered (contracts, recruit ledger, agents)', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: platform.url });
  const page = await context.newPage();
  const res = await context.request.post('/api/auth/login', { data: platform.users.admin });
  const data = ((await res.json()) as { data: { accessToken: string; refreshToken: string } }).data;
  await page.addInitScript((value) => {
    if (!localStorage.getItem('csp.session')) localStorage.setItem('csp.session', value);
  }, JSON.stringify({ accessToken: data.accessToken, refreshToken: data.refreshToken }));
  // The first visit of a browser: nothing cached yet.
  const timings: Record<string, number> = {};
  for (const path of ['/contracts', `/ledger/recruit?settleMonth=${platform.month}`, '/org/agents', '/contracts']) {
    const started = Date.now();
    await page.goto(path);
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
    timings[path in timings ? `${path} (again)` : path] = Date.now() - started;
  }
  await context.close();
  test.info().annotations.push({ type: 'first list (ms)', description: JSON.stringify(timings) });
  writeFileSync(fileURLToPath(new URL('../../test-results/first-list.json', import.meta.url)), `${JSON.stringify(timings, null, 2)}\n`);
});
