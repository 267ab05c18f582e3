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
  // 409 (B009): the profile is there (an earlier run, or the demo book's seeded carrier layouts): make it UTF-8 CSV.
  expect([200, 409], await res.text()).toContain(res.status());
  if (res.status() === 200) return;
  const list = await request.get(`${platform.url}/api/mapping/profiles?companyCode=${companyCode}&pageSize=100`, { headers });
  const rows = ((await list.json()) as { data: { list: { profileId: number; companyCode: string; dataFormat: string; fileEncoding: string; version: number }[] } }).data.list;
  const profile = rows.find((p) => p.companyCode === companyCode)!;
  if (profile.dataFormat === 'CSV' && profile.fileEncoding === 'UTF-8') return;
  const put = await request.put(`${platform.url}/api/mapping/profiles/${profile.profileId}`, {
    headers,
    data: { dataFormat: 'CSV', fileEncoding: 'UTF-8', sheetName: null, version: profile.version },
  });
  expect(put.status(), await put.text()).toBe(200);
}

interface ActiveMapping {
  mappingId: number;
  targetTable: string;
  targetField: string;
  sourceField: string;
  isActive: boolean | null;
  effectiveFrom: string;
}

async function activeMappings(request: APIRequestContext, headers: Record<string, string>, companyCode: string, targetTable: string): Promise<ActiveMapping[]> {
  const list = await request.get(`${platform.url}/api/mapping/${companyCode}/fields?targetTable=${targetTable}&pageSize=100`, { headers });
  return ((await list.json()) as { data: { list: ActiveMapping[] } }).data.list.filter((m) => m.isActive !== false);
}

/**
 * Ends every active field mapping of the carrier (both ledgers) from the first version's day, so
 * no month reads them: the demo book seeds each carrier's layout, the journeys bring their own.
 */
export async function clearMappings(request: APIRequestContext, headers: Record<string, string>, companyCode: string, keep: ReadonlyArray<[string, string]> = []): Promise<void> {
  for (const table of ['recruit_ledger', 'maintain_ledger']) {
    for (const m of await activeMappings(request, headers, companyCode, table)) {
      if (table === 'recruit_ledger' && keep.some(([target, source]) => target === m.targetField && source === m.sourceField)) continue;
      const res = await request.delete(`${platform.url}/api/mapping/${companyCode}/fields/${m.mappingId}?effectiveFrom=${m.effectiveFrom}`, { headers });
      expect(res.status(), await res.text()).toBe(200);
    }
  }
}

/** Recruit-ledger mappings POLICY_NO, PREMIUM, COMM_AMT and nothing else (other mappings are ended). */
export async function ensureRecruitMappings(request: APIRequestContext, headers: Record<string, string>, companyCode: string): Promise<void> {
  const wanted: Array<[string, string]> = [
    ['policy_no', 'POLICY_NO'],
    ['premium', 'PREMIUM'],
    ['company_amount', 'COMM_AMT'],
  ];
  await clearMappings(request, headers, companyCode, wanted);
  const mapped = new Set((await activeMappings(request, headers, companyCode, 'recruit_ledger')).map((m) => m.targetField));
  for (const [targetField, sourceField] of wanted) {
    if (mapped.has(targetField)) continue;
    const res = await request.post(`${platform.url}/api/mapping/${companyCode}/fields`, {
      headers,
      // From the first version's day: a month before today reads it too.
      data: { targetTable: 'recruit_ledger', targetField, sourceField, isRequired: targetField === 'policy_no', effectiveFrom: '2000-01-01' },
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
