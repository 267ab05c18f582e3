import type { APIRequestContext, Page } from '@playwright/test';
import { expect, login, platform, test } from './fixtures.js';

// Issue 24 item 3: references are picked by name (a remote search, an organization tree), months from a
// month picker; the wire keeps ids and YYYYMM.

async function adminHeaders(request: APIRequestContext) {
  const auth = await request.post(`${platform.url}/api/auth/login`, { data: platform.users.admin });
  const token = ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
  return { authorization: `Bearer ${token}` };
}

type Data = Record<string, unknown>;
const data = async (request: APIRequestContext, path: string, headers: Record<string, string>) =>
  ((await (await request.get(`${platform.url}${path}`, { headers })).json()) as { data: Data }).data;

interface OrgNode {
  orgId: number;
  orgName: string;
  children: OrgNode[];
}
const flatten = (nodes: OrgNode[]): OrgNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

/** The open dropdown of a select (antd keeps closed ones in the page, hidden). */
const openDropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

async function screenshots(page: Page, name: string) {
  for (const lang of ['ko', 'en'] as const) {
    await page.evaluate((l) => localStorage.setItem('csp.lang', l), lang);
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await page.locator('#Deduction-form_agentId').click({ timeout: 60_000 });
      await expect(openDropdown(page).locator('.ref-option').first()).toBeVisible();
      await page.screenshot({ path: `test-results/pickers-${name}-${lang}-${width}.png` });
      await page.keyboard.press('Escape');
      // the month calendar speaks the screen's language (the browser's own control spoke the browser's)
      await page.locator('#Deduction-form_settleMonth').click();
      await expect(page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-month-panel')).toContainText(lang === 'ko' ? '7월' : 'Jul');
      await page.screenshot({ path: `test-results/pickers-month-${lang}-${width}.png` });
      await page.keyboard.press('Escape');
    }
  }
  await page.evaluate(() => localStorage.setItem('csp.lang', 'en'));
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe('pickers instead of ids', () => {
  test('a deduction is made by typing part of the agent\'s Korean name and picking July 2026 from the month picker', async ({ page, request }) => {
    test.setTimeout(240_000);
    const headers = await adminHeaders(request);
    const agent = await data(request, `/api/agents/${platform.agentId}`, headers);
    const name = String(agent.agentName);
    expect(name).toMatch(/^[가-힣]{2,4}$/);
    const part = name.slice(1); // the given name, without the family name
    // one deduction per (agent, month, type): a platform reused for a rerun takes the next type
    const made = (await data(request, `/api/deductions?agentId=${platform.agentId}&settleMonth=202607`, headers)) as { list: unknown[] };

    await login(page, 'admin');
    await page.goto('/settle/deductions/new');
    const picker = page.locator('#Deduction-form_agentId');
    await picker.click();
    const searched = page.waitForResponse((r) => r.url().includes('/api/agents?') && decodeURIComponent(r.url()).includes(`searchKeyword=${part}`));
    await picker.fill(part);
    await searched;
    const option = openDropdown(page).locator('.ref-option').filter({ hasText: name }).filter({ hasText: String(agent.licenseNo ?? '') });
    await expect(option.first()).toBeVisible();
    await option.first().click();
    await expect(page.locator('.ant-form-item').filter({ has: picker }).locator('.ant-select-content, .ant-select-selection-item').first()).toHaveText(name);

    const month = page.locator('#Deduction-form_settleMonth');
    await month.click();
    await month.fill('2026-07');
    await month.press('Tab');
    await expect(month).toHaveValue('2026-07');

    await page.locator('#Deduction-form_deductionType').click();
    await openDropdown(page).locator('.ant-select-item-option').nth(made.list.length).click();
    await page.locator('#Deduction-form_amount').fill('15000');
    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/deductions'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const body = (await posted).postDataJSON() as Data;
    expect(body).toMatchObject({ agentId: platform.agentId, settleMonth: '202607', amount: '15000' });

    // The detail names the agent and links to the agent's page.
    await expect(page).toHaveURL(/\/settle\/deductions\/\d+$/);
    const link = page.locator('.resource-detail').getByRole('link', { name, exact: true });
    await expect(link).toHaveAttribute('href', `/org/agents/${platform.agentId}`);
    await expect(page.locator('.resource-detail')).toContainText('2026-07');

    await page.goto('/settle/deductions/new');
    await screenshots(page, 'deduction');
  });

  test('an agent\'s organization is picked from the organization tree', async ({ page, request }) => {
    test.setTimeout(120_000);
    const headers = await adminHeaders(request);
    const listed = (await data(request, '/api/agents?status=ACTIVE&pageSize=50&sortField=agentId&sortOrder=DESC', headers)) as { list: { agentId: number }[] };
    const ids = listed.list.map((a) => a.agentId).filter((id) => id !== platform.agentId && id !== platform.agentId + 1);
    const agentId = ids[ids.length - 1]!;
    const before = await data(request, `/api/agents/${agentId}`, headers);
    const orgs = flatten((await data(request, '/api/orgs', headers)) as unknown as OrgNode[]);
    const current = orgs.find((o) => o.orgId === before.orgId)!;
    const target = orgs.find((o) => o.orgId !== before.orgId && o.children.length === 0 && orgs.filter((x) => x.orgName === o.orgName).length === 1)!;

    await login(page, 'admin');
    await page.goto(`/org/agents/${agentId}/edit`);
    const tree = page.locator('#Agent-form_orgId');
    const item = page.locator('.ant-form-item').filter({ has: tree });
    // the current organization reads as its name, not its id
    await expect(item).toContainText(current.orgName);
    await tree.click();
    await tree.fill(target.orgName);
    const node = page.locator('.ant-select-tree-treenode').filter({ hasText: target.orgName }).first();
    await expect(node).toBeVisible();
    await page.screenshot({ path: 'test-results/pickers-org-tree-en-1440.png' });
    await node.locator('.ant-select-tree-node-content-wrapper').click();
    await expect(item).toContainText(target.orgName);

    const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/agents/${agentId}`));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    try {
      expect((await put).postDataJSON()).toMatchObject({ orgId: target.orgId, gradeId: before.gradeId });
      await expect(page).toHaveURL(new RegExp(`/org/agents/${agentId}$`));
      expect((await data(request, `/api/agents/${agentId}`, headers)).orgId).toBe(target.orgId);
    } finally {
      // the shared platform's agent goes back where it was
      const res = await request.put(`${platform.url}/api/agents/${agentId}`, {
        headers,
        data: { agentName: before.agentName, orgId: before.orgId, gradeId: before.gradeId },
      });
      expect(res.status()).toBe(200);
    }
  });

  test('a filter restored from the URL names its agent, and a list shows the bank by name', async ({ page, request }) => {
    test.setTimeout(150_000);
    const headers = await adminHeaders(request);
    const agent = await data(request, `/api/agents/${platform.agentId}`, headers);
    await login(page, 'admin');
    await page.goto(`/settle/deductions?agentId=${platform.agentId}`);
    const filter = page.locator('#filters-Deduction_agentId');
    await expect(filter).toBeAttached({ timeout: 60_000 });
    await expect(page.locator('.ant-form-item').filter({ has: filter })).toContainText(String(agent.agentName));
    await page.screenshot({ path: 'test-results/pickers-filter-en-1440.png' });

    // The agent's bank reads as the bank's name from the BANK code group, not its code.
    const banks = (await data(request, '/api/common/codes/BANK', headers)) as unknown as { code: string; codeNameEn: string }[];
    const bankCode = String(agent.bankCode ?? '');
    const bank = banks.find((b) => b.code === bankCode);
    expect(bank, `agent ${platform.agentId} has a bank code of the BANK group (${bankCode})`).toBeDefined();
    await page.goto(`/org/agents/${platform.agentId}`);
    await expect(page.locator('.ant-descriptions')).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('.ant-descriptions')).toContainText(bank!.codeNameEn);
    await expect(page.locator('.ant-descriptions-item-content').filter({ hasText: new RegExp(`^${bankCode}$`) })).toHaveCount(0);
  });
});
