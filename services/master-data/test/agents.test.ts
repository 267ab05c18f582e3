import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createAgent,
  createCompanyAndProduct,
  createContract,
  readSheet,
  seedOrgs,
  startContext,
  type Api,
  type Ctx,
} from './helpers.js';

let ctx: Ctx;
let a: Api;
let orgs: { hqId: number; brId: number; tmId: number };
let agentId: number;

const FULL = {
  agentName: 'Hong Gildong',
  gradeId: 1,
  licenseNo: 'LIC-0001',
  phone: '010-1234-5678',
  email: 'hong@example.com',
  bankCode: '004',
  residentNo: '900101-1234567',
  accountNo: '110-123-456789',
  joinDate: '2024-03-01',
  taxType: 'BUSINESS_INCOME',
  businessNo: '123-45-67890',
  vatType: 'TAXABLE',
};

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  orgs = await seedOrgs(a);
  agentId = await createAgent(a, { ...FULL, orgId: orgs.tmId });
  const { productId } = await createCompanyAndProduct(a);
  await createContract(a, { agentId, productId, policyNo: 'AG-1', premium: '100000.50', contractDate: '2024-04-01' });
  await createContract(a, { agentId, productId, policyNo: 'AG-2', premium: 20000, contractDate: '2024-05-01' });
});
afterAll(async () => {
  await ctx?.close();
});

describe('agents', () => {
  it('GET /api/agents/{id} returns the detail with every personal field masked', async () => {
    const res = await a.get(`/api/agents/${agentId}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      agentId,
      orgId: orgs.tmId,
      gradeId: 1,
      agentName: 'Hong Gildong',
      status: 'ACTIVE',
      statusName: '재직',
      orgName: 'Test Team',
      gradeName: 'Financial Consultant',
      contractCount: 2,
      totalAmt: '120000.50',
      phone: '010-****-5678',
      licenseNo: 'LIC-0001',
      joinDate: '2024-03-01',
      taxTypeName: '사업소득',
      vatTypeName: '과세',
      email: 'h***@example.com',
      bankCode: '004',
      accountNo: '110-***-******',
      residentNo: '900101-*******',
      taxType: 'BUSINESS_INCOME',
      vatType: 'TAXABLE',
      businessNo: '123-45-67890',
      leaveDate: null,
    });
  });

  it('GET /api/agents lists AgentResp exactly, phone masked, with contract count and premium total', async () => {
    const res = await a.get(`/api/agents?orgId=${orgs.hqId}&licenseNo=LIC-0001`);
    expect(res.body.data).toEqual({
      list: [
        {
          agentId,
          orgId: orgs.tmId,
          gradeId: 1,
          agentName: 'Hong Gildong',
          status: 'ACTIVE',
          statusName: '재직',
          orgName: 'Test Team',
          gradeName: 'Financial Consultant',
          contractCount: 2,
          totalAmt: '120000.50',
          phone: '010-****-5678',
          licenseNo: 'LIC-0001',
          joinDate: '2024-03-01',
          taxTypeName: '사업소득',
          vatTypeName: '과세',
        },
      ],
      pageNum: 1,
      pageSize: 20,
      pages: 1,
      total: 1,
    });
    expect(JSON.stringify(res.body)).not.toContain('1234567');
  });

  it('stores resident and account numbers as ciphertext that decrypts back', async () => {
    const row = await ctx.pool.query('SELECT resident_no, account_no FROM agent WHERE agent_id = $1', [agentId]);
    const { resident_no, account_no } = row.rows[0];
    expect(resident_no).not.toContain('900101');
    expect(account_no).not.toContain('456789');
    expect(ctx.app.cipher.decrypt(resident_no)).toBe('900101-1234567');
    expect(ctx.app.cipher.decrypt(account_no)).toBe('110-123-456789');
  });

  it('creation writes a JOIN history row; the history lists display names without audit fields', async () => {
    const res = await a.get(`/api/agents/${agentId}/history`);
    expect(res.body.data).toEqual([
      {
        historyId: expect.any(Number),
        agentId,
        agentName: 'Hong Gildong',
        fromOrgId: null,
        fromOrgName: null,
        toOrgId: orgs.tmId,
        toOrgName: 'Test Team',
        fromGradeId: null,
        fromGradeName: null,
        toGradeId: 1,
        toGradeName: 'Financial Consultant',
        changeType: 'JOIN',
        changeTypeName: '위촉',
        changeDate: '2024-03-01',
        changeReason: null,
      },
    ]);
  });

  it('bad bodies are E411 with field errors', async () => {
    const missing = await a.post('/api/agents', { orgId: orgs.tmId, gradeId: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('E411');
    expect(missing.body.data.errors).toEqual([expect.objectContaining({ field: 'agentName' })]);

    const badFormats = await a.post('/api/agents', {
      agentName: 'X',
      orgId: orgs.tmId,
      gradeId: 1,
      residentNo: '900101-*******',
      phone: '010-****-5678',
      taxType: 'SALARY',
      businessNo: '1'.repeat(21),
    });
    expect(badFormats.body.code).toBe('E411');
    expect(badFormats.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'businessNo',
      'phone',
      'residentNo',
      'taxType',
    ]);

    const unknownOrg = await a.post('/api/agents', { agentName: 'X', orgId: 999999, gradeId: 1 });
    expect(unknownOrg.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'orgId', message: 'organization not found' }] } });
  });

  it('an AGENT user gets E403 on create', async () => {
    const token = await ctx.tokenFor('AGENT');
    const res = await a.post('/api/agents', { agentName: 'X', orgId: orgs.tmId, gradeId: 1 }, token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('E403');
  });

  it('a business-income agent without business number is saved with a warning only', async () => {
    const id = await createAgent(a, { agentName: 'No Biz', orgId: orgs.tmId, gradeId: 1 });
    const res = await a.get(`/api/agents/${id}`);
    expect(res.body.data).toMatchObject({ taxType: 'BUSINESS_INCOME', businessNo: null, vatType: 'NONE', residentNo: null });
  });

  it('an update without the masked fields keeps them; a grade change writes PROMOTE history', async () => {
    const id = await createAgent(a, { ...FULL, agentName: 'Update Me', licenseNo: 'LIC-U', orgId: orgs.tmId });
    const res = await a.put(`/api/agents/${id}`, {
      agentName: 'Updated Name',
      orgId: orgs.tmId,
      gradeId: 2,
      licenseNo: 'LIC-U',
      joinDate: '2024-03-01',
      taxType: 'OTHER_INCOME',
      vatType: 'NONE',
    });
    expect(res.body).toMatchObject({ success: true, code: '0000' });
    const detail = (await a.get(`/api/agents/${id}`)).body.data;
    expect(detail).toMatchObject({
      agentName: 'Updated Name',
      gradeId: 2,
      phone: '010-****-5678',
      residentNo: '900101-*******',
      accountNo: '110-***-******',
      taxTypeName: '기타소득',
      // an update is a PATCH (issue 22): the business number left out of the body is kept
      businessNo: '123-45-67890',
    });
    const history = (await a.get(`/api/agents/${id}/history`)).body.data;
    expect(history.map((h: { changeType: string }) => h.changeType)).toEqual(['JOIN', 'PROMOTE']);
    expect(history[1]).toMatchObject({ fromGradeId: 1, toGradeId: 2, fromOrgId: orgs.tmId, toOrgId: orgs.tmId });
  });

  it('PUT /move writes TRANSFER and PROMOTE history rows and changes the agent', async () => {
    const id = await createAgent(a, { agentName: 'Mover', orgId: orgs.tmId, gradeId: 1, joinDate: '2024-01-01' });
    const transfer = await a.put(`/api/agents/${id}/move`, {
      orgId: orgs.brId,
      changeType: 'TRANSFER',
      changeDate: '2024-06-01',
      changeReason: 'Branch needs staff',
    });
    expect(transfer.body).toMatchObject({ success: true, code: '0000' });
    const promote = await a.put(`/api/agents/${id}/move`, { gradeId: 3, changeType: 'PROMOTE', changeDate: '2024-07-01' });
    expect(promote.body.code).toBe('0000');
    const wrongWay = await a.put(`/api/agents/${id}/move`, { gradeId: 4, changeType: 'DEMOTE', changeDate: '2024-08-01' });
    expect(wrongWay.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'gradeId' }] } });
    const nothing = await a.put(`/api/agents/${id}/move`, { changeType: 'TRANSFER', changeDate: '2024-08-01' });
    expect(nothing.body.code).toBe('E411');

    const detail = (await a.get(`/api/agents/${id}`)).body.data;
    expect(detail).toMatchObject({ orgId: orgs.brId, orgName: 'Test Branch', gradeId: 3, gradeName: 'Team Manager' });
    const history = (await a.get(`/api/agents/${id}/history`)).body.data;
    expect(history.slice(1)).toEqual([
      expect.objectContaining({
        changeType: 'TRANSFER',
        changeTypeName: '이동',
        changeDate: '2024-06-01',
        fromOrgId: orgs.tmId,
        fromOrgName: 'Test Team',
        toOrgId: orgs.brId,
        toOrgName: 'Test Branch',
        fromGradeId: 1,
        toGradeId: 1,
        changeReason: 'Branch needs staff',
      }),
      expect.objectContaining({
        changeType: 'PROMOTE',
        changeTypeName: '승격',
        changeDate: '2024-07-01',
        fromOrgId: orgs.brId,
        toOrgId: orgs.brId,
        fromGradeName: 'Financial Consultant',
        toGradeName: 'Team Manager',
      }),
    ]);
  });

  it('PUT /retire sets LEAVE with the leave date and a LEAVE history row; a second retire is E400', async () => {
    const id = await createAgent(a, { agentName: 'Leaver', orgId: orgs.tmId, gradeId: 2, joinDate: '2024-01-01' });
    const early = await a.put(`/api/agents/${id}/retire`, { leaveDate: '2023-12-31' });
    expect(early.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'leaveDate' }] } });
    const res = await a.put(`/api/agents/${id}/retire`, { leaveDate: '2025-01-31', reason: 'Personal' });
    expect(res.body.code).toBe('0000');
    expect((await a.get(`/api/agents/${id}`)).body.data).toMatchObject({ status: 'LEAVE', statusName: '해촉', leaveDate: '2025-01-31' });
    const history = (await a.get(`/api/agents/${id}/history`)).body.data;
    expect(history[history.length - 1]).toMatchObject({
      changeType: 'LEAVE',
      changeDate: '2025-01-31',
      changeReason: 'Personal',
      fromOrgId: orgs.tmId,
      toOrgId: orgs.tmId,
      fromGradeId: 2,
      toGradeId: 2,
    });
    expect((await a.put(`/api/agents/${id}/retire`, { leaveDate: '2025-02-01' })).body.code).toBe('E400');
    expect((await a.put(`/api/agents/${id}/move`, { gradeId: 3, changeType: 'PROMOTE', changeDate: '2025-03-01' })).body.code).toBe(
      'E400',
    );
    const leavers = await a.get(`/api/agents?status=LEAVE`);
    expect(leavers.body.data.list.map((x: { agentId: number }) => x.agentId)).toEqual([id]);
  });

  it('the change log never holds the plaintext resident or account number', async () => {
    await ctx.app.changeLogWriter.flush();
    const rows = await ctx.pool.query(`SELECT after_data::text AS t FROM data_change_log WHERE table_name = 'agent'`);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const r of rows.rows) {
      expect(r.t).not.toContain('900101-1234567');
      expect(r.t).not.toContain('110-123-456789');
      expect(r.t).not.toContain('1234-5678');
    }
  });

  it('GET /api/agents/excel streams the filtered list with masking', async () => {
    const res = await a.get('/api/agents/excel?searchType=agentName&searchKeyword=gildong&lang=en');
    expect(res.status).toBe(200);
    const sheet = await readSheet(res.raw);
    expect(sheet.header).toEqual([
      'Agent ID',
      'Name',
      'Organization',
      'Grade',
      'Status',
      'Phone',
      'E-mail',
      'License no',
      'Join date',
      'Leave date',
      'Contracts',
      'Total premium',
      'Tax type',
      'VAT type',
      'Business no',
      'Bank',
      'Account no',
      'Resident no',
    ]);
    expect(sheet.rows).toHaveLength(1);
    const [row] = sheet.rows;
    expect(row![0]).toBe(agentId);
    expect(row![1]).toBe('Hong Gildong');
    expect(row![5]).toBe('010-****-5678');
    expect(row![6]).toBe('h***@example.com');
    expect(row![11]).toBe(120000.5);
    expect(row![16]).toBe('110-***-******');
    expect(row![17]).toBe('900101-*******');
    expect(res.raw.includes(Buffer.from('1234567'))).toBe(false);
  });

  it('GET /api/grades lists the six seeded grades in order', async () => {
    const res = await a.get('/api/grades');
    expect(res.body.data.total).toBe(6);
    expect(res.body.data.list.map((g: { gradeCode: string }) => g.gradeCode)).toEqual([
      'FC',
      'SFC',
      'TM_LEADER',
      'BR_MANAGER',
      'HQ_DIRECTOR',
      'EXEC',
    ]);
    expect(res.body.data.list[0]).toEqual({
      gradeId: 1,
      gradeCode: 'FC',
      gradeName: 'Financial Consultant',
      gradeLevel: 1,
      gradeGroup: 'AGENT',
      gradeGroupName: '설계사',
      description: 'Entry sales grade',
      isActive: true,
      sortOrder: 1,
    });
  });
});
