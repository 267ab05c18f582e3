import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createAgent, readSheet, seedOrgs, startContext, type Api, type Ctx } from './helpers.js';

let ctx: Ctx;
let a: Api;
let ids: { hqId: number; brId: number; tmId: number };

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  ids = await seedOrgs(a);
});
afterAll(async () => {
  await ctx?.close();
});

describe('organization tree', () => {
  it('GET /api/orgs returns the nested tree with levels computed from the parents', async () => {
    const res = await a.get('/api/orgs');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, code: '0000' });
    const tree = res.body.data;
    expect(tree).toHaveLength(1);
    expect(tree[0]).toEqual({
      orgId: ids.hqId,
      parentOrgId: null,
      orgName: 'Test HQ',
      orgType: 'HQ',
      orgTypeName: '본부',
      orgLevel: 1,
      region: 'Seoul',
      effectiveFrom: null,
      effectiveTo: null,
      isActive: true,
      sortOrder: 0,
      agentCount: 0,
      children: [
        expect.objectContaining({
          orgId: ids.brId,
          orgLevel: 2,
          children: [expect.objectContaining({ orgId: ids.tmId, orgType: 'TM', orgLevel: 3, children: [] })],
        }),
      ],
    });
  });

  it('GET /api/orgs/{id} returns the organization with parent name and audit fields', async () => {
    const res = await a.get(`/api/orgs/${ids.brId}`);
    expect(res.body.data).toEqual({
      orgId: ids.brId,
      parentOrgId: ids.hqId,
      parentOrgName: 'Test HQ',
      orgName: 'Test Branch',
      orgType: 'BR',
      orgTypeName: '지점',
      orgLevel: 2,
      region: 'Seoul',
      effectiveFrom: null,
      effectiveTo: null,
      isActive: true,
      sortOrder: 0,
      agentCount: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      createdBy: expect.any(Number),
    });
  });

  it('GET /api/orgs/list pages the flat list and filters by type', async () => {
    const res = await a.get('/api/orgs/list?orgType=TM&pageSize=10');
    expect(res.body.data).toMatchObject({ pageNum: 1, pageSize: 10, pages: 1, total: 1 });
    expect(res.body.data.list.map((o: { orgId: number }) => o.orgId)).toEqual([ids.tmId]);
  });

  it('a sortField that is not documented is E411', async () => {
    const res = await a.get('/api/orgs/list?sortField=org_name;drop');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('E411');
  });

  it('creating a BR without a parent, or an HQ under a team, is E411', async () => {
    const noParent = await a.post('/api/orgs', { orgName: 'Orphan', orgType: 'BR' });
    expect(noParent.status).toBe(400);
    expect(noParent.body.code).toBe('E411');
    expect(noParent.body.data.errors[0].field).toBe('parentOrgId');
    const inverted = await a.post('/api/orgs', { orgName: 'Upside down', orgType: 'HQ', parentOrgId: ids.tmId });
    expect(inverted.body.code).toBe('E411');
    const missingName = await a.post('/api/orgs', { orgType: 'HQ' });
    expect(missingName.body.code).toBe('E411');
    expect(missingName.body.data.errors).toEqual([expect.objectContaining({ field: 'orgName' })]);
  });

  it('moving an organization under its own descendant is E411', async () => {
    const res = await a.put(`/api/orgs/${ids.brId}`, { orgName: 'Test Branch', orgType: 'BR', parentOrgId: ids.tmId });
    expect(res.body.code).toBe('E411');
  });

  it('moving a team to another branch re-levels it and is change-logged', async () => {
    const hq2 = await a.post('/api/orgs', { orgName: 'Second HQ', orgType: 'HQ' });
    const br2 = await a.post('/api/orgs', { orgName: 'Second Branch', orgType: 'BR', parentOrgId: hq2.body.data.id });
    const team = await a.post('/api/orgs', { orgName: 'Mobile Team', orgType: 'TM', parentOrgId: ids.hqId });
    expect((await a.get(`/api/orgs/${team.body.data.id}`)).body.data.orgLevel).toBe(2);
    const moved = await a.put(`/api/orgs/${team.body.data.id}`, {
      orgName: 'Mobile Team',
      orgType: 'TM',
      parentOrgId: br2.body.data.id,
    });
    expect(moved.body).toMatchObject({ success: true, code: '0000' });
    expect(moved.body.data).toBeUndefined();
    expect((await a.get(`/api/orgs/${team.body.data.id}`)).body.data).toMatchObject({ parentOrgId: br2.body.data.id, orgLevel: 3 });
    await ctx.app.changeLogWriter.flush();
    const logs = await ctx.db
      .selectFrom('data_change_log')
      .select(['menu_code', 'action'])
      .where('table_name', '=', 'organization')
      .where('record_id', '=', String(team.body.data.id))
      .orderBy('change_id')
      .execute();
    expect(logs).toEqual([
      { menu_code: 'ORG_TREE', action: 'CREATE' },
      { menu_code: 'ORG_TREE', action: 'UPDATE' },
    ]);
  });

  it('deleting an organization with children or agents is E400; an empty one is deleted', async () => {
    const withChildren = await a.del(`/api/orgs/${ids.brId}`);
    expect(withChildren.status).toBe(400);
    expect(withChildren.body.code).toBe('E400');

    const team = await a.post('/api/orgs', { orgName: 'Staffed Team', orgType: 'TM', parentOrgId: ids.brId });
    await createAgent(a, { agentName: 'Team Member', orgId: team.body.data.id, gradeId: 1 });
    const withAgents = await a.del(`/api/orgs/${team.body.data.id}`);
    expect(withAgents.body.code).toBe('E400');

    const empty = await a.post('/api/orgs', { orgName: 'Empty Team', orgType: 'TM', parentOrgId: ids.brId });
    expect((await a.del(`/api/orgs/${empty.body.data.id}`)).body.code).toBe('0000');
    expect((await a.get(`/api/orgs/${empty.body.data.id}`)).body.code).toBe('E404');
  });

  it('an AGENT user cannot create organizations (E403)', async () => {
    const token = await ctx.tokenFor('AGENT');
    const res = await a.post('/api/orgs', { orgName: 'Nope', orgType: 'HQ' }, token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('E403');
  });

  it('GET /api/orgs/excel exports the same filtered list', async () => {
    const res = await a.get('/api/orgs/excel?orgType=BR&sortField=orgName&lang=en');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const sheet = await readSheet(res.raw);
    expect(sheet.header[3]).toBe('Name');
    const names = sheet.rows.map((r) => r[3]);
    expect(names).toEqual(['Second Branch', 'Test Branch']);
  });
});
