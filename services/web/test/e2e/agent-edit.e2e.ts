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

  test.beforeAll(async ({ request }) => {
    headers = await adminHeaders(request);
    const list = await request.get(`${platform.url}/api/agents?status=ACTIVE&pageSize=50&sortField=agentId&sortOrder=DESC`, { headers });
    const ids = ((await list.json()) as { data: { list: { agentId: number }[] } }).data.list
      .map((a) => a.agentId)
      .filter((id) => id !== platform.agentId && id !== platform.agentId + 1);
    agentId = ids[Math.floor(ids.length / 2)]!;
    const detail = ((await (await request.get(`${platform.url}/api/agents/${agentId}`, { headers })).json()) as { data: Record<string, unknown> }).data;
    // full personal data through the API first (the demo book has none for most agents)
    const res = await request.put(`${platform.url}/api/agents/${agentId}`, {
      headers,
      data: { agentName: detail.agentName, orgId: detail.orgId, gradeId: detail.gradeId, ...PERSONAL },
    });
    expect(res.status()).toBe(200);
  });

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
  });
});
