import type { APIRequestContext } from '@playwright/test';
import { expect, login, platform, test } from './fixtures.js';

// Issue 22: masked and encrypted fields are write-only. The edit form shows them as text, sends them
// only when typed, and saving unchanged keeps every personal field.
const PERSONAL = { phone: '010-5555-7049', email: 'kim.edit@example.com', residentNo: '880202-2345678', accountNo: '123-456-789012', bankCode: '004' };

async function adminHeaders(request: APIRequestContext) {
  const auth = await request.post(`${platform.url}/api/auth/login`, { data: platform.users.admin });
  const token = ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
  return { authorization: `Bearer ${token}` };
}

test.describe('agent edit keeps personal data', () => {
  let agentId: number;
  let headers: Record<string, string>;

  let settleId: number;
  let setupChangeId: number;

  test.beforeAll(async ({ request }) => {
    headers = await adminHeaders(request);
    // An agent with a positive settlement of the settled month still to confirm, so that it can be paid below.
    const list = await request.get(`${platform.url}/api/settle?settleMonth=${platform.month}&status=CALCULATED&pageSize=1000&sortField=agentId`, { headers });
    const rows = ((await list.json()) as { data: { list: { settleId: number; agentId: number; grossAmount: string }[] } }).data.list.filter(
      (r) => r.agentId !== platform.agentId && r.agentId !== platform.agentId + 1 && Number(r.grossAmount) > 0,
    );
    const chosen = rows[Math.floor(rows.length / 2)]!;
    agentId = chosen.agentId;
    settleId = chosen.settleId;
    const detail = ((await (await request.get(`${platform.url}/api/agents/${agentId}`, { headers })).json()) as { data: Record<string, unknown> }).data;
    // The newest change-log entry of the agent before the set-up write (an earlier spec may have left one): the
    // set-up's own entry is the first one after it (the log is written asynchronously).
    const logs = await request.get(
      `${platform.url}/api/system/logs/changes?tableName=agent&recordId=${agentId}&action=UPDATE&sortField=createdAt&sortOrder=DESC&pageSize=1`,
      { headers },
    );
    const earlier = ((await logs.json()) as { data: { list: ChangeLog[] } }).data.list[0]?.changeId ?? 0;
    // full personal data through the API first (the demo book has none for most agents)
    const res = await request.put(`${platform.url}/api/agents/${agentId}`, {
      headers,
      data: { agentName: detail.agentName, orgId: detail.orgId, gradeId: detail.gradeId, ...PERSONAL },
    });
    expect(res.status()).toBe(200);
    setupChangeId = (await lastAgentUpdate(request, earlier)).changeId;
  });

  type ChangeLog = { changeId: number; beforeData: Record<string, unknown>; afterData: Record<string, unknown> };

  /** The newest UPDATE of the agent in data_change_log (after `afterId`); the log is written asynchronously. */
  async function lastAgentUpdate(request: APIRequestContext, afterId = 0): Promise<ChangeLog> {
    let found: ChangeLog | undefined;
    await expect
      .poll(async () => {
        const res = await request.get(
          `${platform.url}/api/system/logs/changes?tableName=agent&recordId=${agentId}&action=UPDATE&sortField=createdAt&sortOrder=DESC&pageSize=1`,
          { headers },
        );
        found = ((await res.json()) as { data: { list: ChangeLog[] } }).data.list[0];
        return found && found.changeId > afterId ? found.changeId : 0;
      })
      .toBeGreaterThan(afterId);
    return found!;
  }

  /** Columns whose stored value the update changed, bookkeeping columns aside. */
  const changedColumns = (log: ChangeLog) =>
    Object.keys(log.afterData)
      .filter((k) => !['version', 'updated_at', 'updated_by'].includes(k))
      .filter((k) => JSON.stringify(log.beforeData[k]) !== JSON.stringify(log.afterData[k]))
      .sort();

  /** Confirm, pay (generate, taxes) and write the month's transfer file through the API; the agent's account in it. */
  async function transferFileAccountOf(request: APIRequestContext): Promise<string | undefined> {
    const month = platform.month;
    expect((await request.put(`${platform.url}/api/settle/${settleId}/confirm`, { headers })).status()).toBe(200);
    expect((await request.post(`${platform.url}/api/payments/generate?settleMonth=${month}`, { headers })).status()).toBe(200);
    expect((await request.post(`${platform.url}/api/payments/calculate-taxes?settleMonth=${month}`, { headers })).status()).toBe(200);
    const file = await request.post(`${platform.url}/api/payments/transfer-file`, { headers, data: { settleMonth: month, bankFormat: 'CSV' } });
    expect(file.status()).toBe(200);
    const { fileId } = ((await file.json()) as { data: { fileId: number } }).data;
    const csv = await (await request.get(`${platform.url}/api/payments/transfer-file/${fileId}`, { headers })).text();
    // detail records: D, seq, paymentId, agentId, bankCode, accountNo, amount, holder
    const line = csv
      .split(/\r?\n/)
      .map((l) => l.split(',').map((c) => c.replace(/^"|"$/g, '')))
      .find((cells) => cells[0] === 'D' && cells[3] === String(agentId));
    expect(line?.[4]).toBe(PERSONAL.bankCode);
    return line?.[5];
  }

  const detailOf = async (request: APIRequestContext) =>
    ((await (await request.get(`${platform.url}/api/agents/${agentId}`, { headers })).json()) as { data: Record<string, unknown> }).data;

  test('saving the edit form unchanged keeps phone and account; changing only the phone changes only the phone', async ({ page, request }) => {
    test.setTimeout(120_000);
    const before = await detailOf(request);
    expect(before).toMatchObject({ phone: '010-****-7049', accountNo: '123-***-******', residentNo: '880202-*******', bankCode: '004' });

    await login(page, 'admin');
    await page.goto(`/org/agents/${agentId}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/org/agents/${agentId}/edit$`));
    const phone = page.locator('.masked-field[data-field="phone"]');
    await expect(phone.locator('.masked-value')).toHaveText('010-****-7049');
    await expect(page.locator('.masked-field[data-field="accountNo"] .masked-value')).toHaveText('123-***-******');

    // Save without changes: the masked fields are not sent, everything stays.
    let saved = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/agents/${agentId}`));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    let body = (await saved).postDataJSON() as Record<string, unknown>;
    for (const key of ['phone', 'email', 'residentNo', 'accountNo']) expect(body).not.toHaveProperty(key);
    expect(body).toMatchObject({ bankCode: '004', agentName: before.agentName });
    await expect(page).toHaveURL(new RegExp(`/org/agents/${agentId}$`));
    expect(await detailOf(request)).toEqual(before);
    // the row as written (data_change_log: encrypted columns as ciphertext): no personal column moved
    const unchanged = await lastAgentUpdate(request, setupChangeId);
    expect(changedColumns(unchanged)).toEqual([]);
    expect(unchanged.afterData).toMatchObject({ phone: '010-****-7049', email: 'k***@example.com', bank_code: PERSONAL.bankCode });
    for (const encrypted of ['account_no', 'resident_no']) expect(unchanged.afterData[encrypted]).toMatch(/^[A-Za-z0-9+/]{40,}={0,2}$/);

    // A transfer file paying this agent carries the full account number, not the masked one.
    expect(await transferFileAccountOf(request)).toBe(PERSONAL.accountNo);

    // Change only the phone.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.locator('.masked-field[data-field="phone"]').getByRole('button', { name: /Change/ }).click();
    await page.locator('.masked-field[data-field="phone"] input').fill('010-7777-1234');
    saved = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/agents/${agentId}`));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    body = (await saved).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ phone: '010-7777-1234' });
    for (const key of ['email', 'residentNo', 'accountNo']) expect(body).not.toHaveProperty(key);
    await expect(page).toHaveURL(new RegExp(`/org/agents/${agentId}$`));
    const after = await detailOf(request);
    expect(after).toEqual({ ...before, phone: '010-****-1234', version: after.version });
    // in the database: the phone and nothing else (phone masked in the log; account and resident no. ciphertexts equal)
    const phoneOnly = await lastAgentUpdate(request, unchanged.changeId);
    expect(changedColumns(phoneOnly)).toEqual(['phone']);
    expect(phoneOnly.afterData.phone).toBe('010-****-1234');
    expect(phoneOnly.afterData.account_no).toBe(unchanged.afterData.account_no);
  });
});
