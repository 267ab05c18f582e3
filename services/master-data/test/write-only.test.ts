import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWriteOnlyRoundTrip, scanMaskedColumns } from '@csp/service-kit/testing';
import { api, createAgent, seedOrgs, startContext, type Api, type Ctx } from './helpers.js';

// Issue 22 / DECISIONS "Masked and encrypted fields are write-only".
let ctx: Ctx;
let a: Api;
let orgs: { hqId: number; brId: number; tmId: number };

const FULL = {
  agentName: 'Kim Write-Only',
  gradeId: 1,
  licenseNo: 'LIC-W1',
  phone: '010-5555-7049',
  email: 'kim@example.com',
  bankCode: '004',
  residentNo: '880202-2345678',
  accountNo: '123-456-789012',
  joinDate: '2024-02-01',
  taxType: 'BUSINESS_INCOME',
  businessNo: '123-45-67890',
  vatType: 'TAXABLE',
};
/** FULL's columns as `stored` reads them back (decrypted). */
const STORED = {
  phone: '010-5555-7049',
  email: 'kim@example.com',
  residentNo: '880202-2345678',
  accountNo: '123-456-789012',
  bankCode: '004',
  joinDate: '2024-02-01',
  licenseNo: 'LIC-W1',
  businessNo: '123-45-67890',
};
const PERSONAL = ['phone', 'email', 'residentNo', 'accountNo'] as const;

async function stored(id: number) {
  const row = await ctx.db
    .selectFrom('agent')
    .select(['phone', 'email', 'resident_no', 'account_no', 'bank_code', 'join_date', 'license_no', 'business_no'])
    .where('agent_id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    phone: row.phone,
    email: row.email,
    residentNo: ctx.app.cipher.decryptNullable(row.resident_no),
    accountNo: ctx.app.cipher.decryptNullable(row.account_no),
    bankCode: row.bank_code,
    joinDate: row.join_date,
    licenseNo: row.license_no,
    businessNo: row.business_no,
  };
}

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  orgs = await seedOrgs(a);
});
afterAll(async () => {
  await ctx?.close();
});

describe('masked and encrypted agent fields are write-only', () => {
  it('the generated round trip covers every write-only field of the field tables with 0 failures', async () => {
    const report = await runWriteOnlyRoundTrip({
      app: ctx.app,
      token: ctx.adminToken,
      cases: [{ resource: 'Agent', full: { phone: FULL.phone, email: FULL.email, residentNo: FULL.residentNo, accountNo: FULL.accountNo }, create: () => createAgent(a, { ...FULL, orgId: orgs.tmId }) }],
    });
    console.log(`write-only round trip covered: ${report.covered.join(', ')}; read-only masked: ${report.readOnly.join(', ') || '-'}`);
    expect(report.failures).toEqual([]);
    expect(report.uncovered).toEqual([]);
    expect(report.covered).toEqual(['Agent.phone', 'Agent.email', 'Agent.accountNo', 'Agent.residentNo']);
  });

  it('saving the edit form unchanged (masked phone/account, null e-mail/resident no) keeps all personal data', async () => {
    const id = await createAgent(a, { ...FULL, orgId: orgs.tmId });
    const detail = (await a.get(`/api/agents/${id}`)).body.data;
    expect(detail).toMatchObject({ phone: '010-****-7049', accountNo: '123-***-******' });
    // what the old form sent: the masked texts it showed, null for the fields it could not show
    const res = await a.put(`/api/agents/${id}`, { ...detail, email: null, residentNo: null });
    expect(res.body).toMatchObject({ success: true, code: '0000' });
    expect(await stored(id)).toEqual(STORED);
  });

  it('an update that leaves fields out keeps them (bankCode, joinDate and the personal fields)', async () => {
    const id = await createAgent(a, { ...FULL, orgId: orgs.tmId });
    const res = await a.put(`/api/agents/${id}`, { agentName: 'Renamed', orgId: orgs.tmId, gradeId: 1 });
    expect(res.body).toMatchObject({ success: true, code: '0000' });
    expect(await stored(id)).toMatchObject({
      bankCode: '004',
      joinDate: '2024-02-01',
      phone: '010-5555-7049',
      email: 'kim@example.com',
      residentNo: '880202-2345678',
      accountNo: '123-456-789012',
    });
    const detail = (await a.get(`/api/agents/${id}`)).body.data;
    expect(detail).toMatchObject({ agentName: 'Renamed', taxType: 'BUSINESS_INCOME', vatType: 'TAXABLE' });
  });

  it('changing only the phone changes only the phone', async () => {
    const id = await createAgent(a, { ...FULL, orgId: orgs.tmId });
    const detail = (await a.get(`/api/agents/${id}`)).body.data;
    const res = await a.put(`/api/agents/${id}`, { ...detail, phone: '010-7777-1234' });
    expect(res.body).toMatchObject({ success: true, code: '0000' });
    expect(await stored(id)).toEqual({ ...STORED, phone: '010-7777-1234' });
  });

  it('a masked-looking value that is not the shown one is E411 on that field, on update and on create', async () => {
    const id = await createAgent(a, { ...FULL, orgId: orgs.tmId });
    const detail = (await a.get(`/api/agents/${id}`)).body.data;
    for (const field of PERSONAL) {
      const res = await a.put(`/api/agents/${id}`, { ...detail, [field]: '010-****-0000' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'E411', data: { errors: [{ field, message: 'send the full value or leave it out' }] } });
    }
    const created = await a.post('/api/agents', { ...FULL, orgId: orgs.tmId, accountNo: '123-***-******' });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: 'E411',
      data: { errors: [{ field: 'accountNo', message: 'send the full value or leave it out' }] },
    });
    expect(await stored(id)).toMatchObject({ phone: '010-5555-7049', accountNo: '123-456-789012' });
  });

  it('"" clears an optional personal field; the others stay', async () => {
    const id = await createAgent(a, { ...FULL, orgId: orgs.tmId });
    const res = await a.put(`/api/agents/${id}`, { agentName: FULL.agentName, orgId: orgs.tmId, gradeId: 1, email: '', accountNo: '' });
    expect(res.body).toMatchObject({ success: true, code: '0000' });
    expect(await stored(id)).toMatchObject({ email: null, accountNo: null, phone: '010-5555-7049', residentNo: '880202-2345678' });
  });

  it('after everything above, no masked or encrypted column holds the mask character', async () => {
    const scan = await scanMaskedColumns(ctx.app);
    expect(scan.scanned).toEqual(['agent.account_no', 'agent.email', 'agent.phone', 'agent.resident_no']);
    expect(scan.findings).toEqual([]);
  });
});
