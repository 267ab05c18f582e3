import type { APIRequestContext } from '@playwright/test';
import { expect, platform } from './fixtures.js';

/**
 * Setup through the API for the intake journeys (never the journey itself): a carrier profile,
 * field mappings and received files. Tolerant of a kept platform where an earlier run made them.
 */
export async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const res = await request.post(`${platform.url}/api/auth/login`, { data: platform.users.admin });
  return { authorization: `Bearer ${((await res.json()) as { data: { accessToken: string } }).data.accessToken}` };
}

/** Policy numbers of contracts of a carrier (product codes start with the company code in the demo book). */
export async function policiesOf(request: APIRequestContext, headers: Record<string, string>, companyCode: string, count: number): Promise<string[]> {
  const res = await request.get(`${platform.url}/api/contracts?pageSize=100&sortField=contractId&sortOrder=ASC`, { headers });
  const list = ((await res.json()) as { data: { list: { policyNo: string; productCode: string; status: string }[] } }).data.list;
  const found = list.filter((c) => c.productCode.startsWith(`${companyCode}-`)).map((c) => c.policyNo).slice(0, count);
  expect(found.length, `${count} contracts of ${companyCode}`).toBe(count);
  return found;
}

export async function ensureCsvProfile(request: APIRequestContext, headers: Record<string, string>, companyCode: string): Promise<void> {
  const res = await request.post(`${platform.url}/api/mapping/profiles`, { headers, data: { companyCode, dataFormat: 'CSV', fileEncoding: 'UTF-8' } });
  // 409 (B009): the profile is there from an earlier run.
  expect([200, 409], await res.text()).toContain(res.status());
}

/** Recruit-ledger mappings POLICY_NO, PREMIUM, COMM_AMT (a new version only when the field is not mapped yet). */
export async function ensureRecruitMappings(request: APIRequestContext, headers: Record<string, string>, companyCode: string): Promise<void> {
  const list = await request.get(`${platform.url}/api/mapping/${companyCode}/fields?targetTable=recruit_ledger&pageSize=100`, { headers });
  const mapped = new Set(((await list.json()) as { data: { list: { targetField: string }[] } }).data.list.map((m) => m.targetField));
  const wanted: Array<[string, string]> = [
    ['policy_no', 'POLICY_NO'],
    ['premium', 'PREMIUM'],
    ['company_amount', 'COMM_AMT'],
  ];
  for (const [targetField, sourceField] of wanted) {
    if (mapped.has(targetField)) continue;
    const res = await request.post(`${platform.url}/api/mapping/${companyCode}/fields`, {
      headers,
      data: { targetTable: 'recruit_ledger', targetField, sourceField, isRequired: targetField === 'policy_no' },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
}

export function csv(rows: string[][]): Buffer {
  return Buffer.from(`${rows.map((r) => r.join(',')).join('\n')}\n`, 'utf8');
}

/** A received file, then steps 2-3 for the carrier and month (as the receive page's Process button does). */
export async function receiveAndProcess(
  request: APIRequestContext,
  headers: Record<string, string>,
  input: { companyCode: string; settleMonth: string; fileName: string; content: Buffer },
): Promise<void> {
  const up = await request.post(`${platform.url}/api/receive/upload`, {
    headers,
    multipart: {
      companyCode: input.companyCode,
      settleMonth: input.settleMonth,
      dataType: 'RECRUIT',
      replace: 'true',
      file: { name: input.fileName, mimeType: 'text/csv', buffer: input.content },
    },
  });
  expect(up.status(), await up.text()).toBe(200);
  const run = await request.post(`${platform.url}/api/receive/process`, { headers, data: { companyCode: input.companyCode, settleMonth: input.settleMonth } });
  expect(run.status(), await run.text()).toBe(200);
}
