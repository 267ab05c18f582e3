import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, defineResource, f, registerResource, type ServiceApp } from '../src/index.js';
import { createTestContext, type TestContext } from '../src/testing.js';
import { bearer, createDemoSchema, DEMO_MENU, DEMO_ROLE, grant } from './demo-app.js';

const KINDS = ['LIFE', 'NON_LIFE', 'OTHER'] as const;

const people = defineResource({
  name: 'Person',
  path: '/api/people',
  table: 'demo_person',
  alias: 'p',
  menu: DEMO_MENU,
  fields: {
    personId: f.id(),
    personName: f.text({ max: 50 }).required().sort().search().masked('name').label('이름', 'Name'),
    kind: f.enum(KINDS).save().filter('in'),
    kindName: f.codeName('DEMO_KIND', 'kind'),
    agentId: f.ref().save().filter(),
    salary: f.money().save().filter('range').sort(),
    residentNo: f.text({ max: 14 }).save().encrypted().masked('residentNo'),
    phone: f.phone().save().masked('phone'),
    joinedOn: f.date().save().createOnly(),
    active: f.bool().save({ default: true }).filter(),
    tagCount: f.computed(sql`(select count(*) from demo_person_tag t where t.person_id = p.person_id)`, 'int').label('Tags'),
    version: f.version(),
    createdAt: f.createdAt(),
  },
  defaultSort: '-personId',
  agentScope: 'agentId',
  bigTable: true,
});

let ctx: TestContext<ServiceApp>;
let token: string;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, auth = token) =>
  ctx.app.inject({ method, url, payload: payload as never, headers: bearer(auth) });

beforeAll(async () => {
  ctx = await createTestContext({
    serviceName: 'fields-test',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_person (
        person_id bigserial PRIMARY KEY, person_name varchar(50) NOT NULL, kind varchar(20), agent_id bigint,
        salary numeric(15,2), resident_no varchar(200), phone varchar(20), joined_on date,
        active boolean NOT NULL DEFAULT true, version integer NOT NULL DEFAULT 0, created_at timestamptz NOT NULL DEFAULT now())`.execute(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_person_tag (tag_id bigserial PRIMARY KEY, person_id bigint NOT NULL)`.execute(deps.db);
      await sql`INSERT INTO common_code_group (group_code, group_name) VALUES ('DEMO_KIND', 'Demo kinds') ON CONFLICT DO NOTHING`.execute(deps.db);
      await sql`INSERT INTO common_code (group_code, code, code_name) VALUES ('DEMO_KIND', 'LIFE', 'Life insurance') ON CONFLICT DO NOTHING`.execute(deps.db);
      const app = await createServiceApp({ name: 'fields-test', ...deps });
      registerResource(app, people);
      return app;
    },
  });
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT']);
  await grant(ctx.db, 'AGENT', DEMO_MENU, ['READ']);
  token = await ctx.tokenFor(DEMO_ROLE);
});
afterAll(async () => {
  await ctx?.close();
});

async function create(body: Record<string, unknown>): Promise<number> {
  const res = await call('POST', '/api/people', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

describe('a field-table resource', () => {
  let kimId: number;
  beforeAll(async () => {
    kimId = await create({ personName: '김철수', kind: 'LIFE', agentId: 7, salary: 1000.5, residentNo: '900101-1234567', phone: '010-1234-5678', joinedOn: '2024-01-02' });
    await create({ personName: 'Lee', kind: 'NON_LIFE', agentId: 8, salary: '2000' });
    await create({ personName: 'Park', kind: 'OTHER', salary: '3000.00', active: false });
    await sql`INSERT INTO demo_person_tag (person_id) VALUES (${kimId}), (${kimId})`.execute(ctx.db);
  });

  it('derives the response: money with two places, masked, decrypted, computed and code-name fields', async () => {
    const res = await call('GET', `/api/people/${kimId}`);
    expect(res.json().data).toEqual({
      personId: kimId,
      personName: '김*수',
      kind: 'LIFE',
      kindName: 'Life insurance',
      agentId: 7,
      salary: '1000.50',
      residentNo: '900101-*******',
      phone: '010-****-5678',
      joinedOn: '2024-01-02',
      active: true,
      tagCount: 2,
      version: 0,
      createdAt: expect.any(String),
    });
    const raw = await sql<{ resident_no: string }>`select resident_no from demo_person where person_id = ${kimId}`.execute(ctx.db);
    expect(raw.rows[0]!.resident_no).not.toContain('900101');
    expect(ctx.app.cipher.decrypt(raw.rows[0]!.resident_no)).toBe('900101-1234567');
  });

  it('validates the save body from the field kinds (E411 per field)', async () => {
    const res = await call('POST', '/api/people', { personName: '', kind: 'CAR', salary: '1.234', phone: 'abc' });
    expect(res.statusCode).toBe(400);
    const fields = res.json().data.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['kind', 'personName', 'phone', 'salary']);
  });

  it('filters by eq, in and range fields, searches and sorts', async () => {
    const list = async (q: string) => (await call('GET', `/api/people?${q}`)).json().data;
    expect((await list('kind=LIFE,OTHER&sortField=salary&sortOrder=ASC')).list.map((p: { salary: string }) => p.salary)).toEqual([
      '1000.50',
      '3000.00',
    ]);
    expect((await list('salaryFrom=1500&salaryTo=2500')).list.map((p: { agentId: number }) => p.agentId)).toEqual([8]);
    expect((await list('active=false')).total).toBe(1);
    expect((await list('searchKeyword=ar')).list.map((p: { kind: string }) => p.kind)).toEqual(['OTHER']);
    expect((await call('GET', '/api/people?kind=LIFE,CAR')).statusCode).toBe(400);
    expect((await call('GET', '/api/people?sortField=phone')).statusCode).toBe(400);
  });

  it('an unfiltered list of a big table reports the planner estimate and says so', async () => {
    await sql`ANALYZE demo_person`.execute(ctx.db);
    const page = (await call('GET', '/api/people?pageSize=2')).json().data;
    expect(page).toMatchObject({ total: 3, totalEstimated: true, pages: 2 });
    const filtered = (await call('GET', '/api/people?kind=LIFE')).json().data;
    expect(filtered.totalEstimated).toBeUndefined();
    expect(filtered.total).toBe(1);
  });

  it('an AGENT-only user sees only rows of its own agent, in lists and details', async () => {
    const agentToken = await ctx.tokenFor('AGENT');
    await sql`UPDATE users SET agent_id = 7 WHERE login_id = 'test_agent'`.execute(ctx.db);
    const { signAccessToken } = await import('../src/auth.js');
    const user = { ...(await ctx.userFor('AGENT')), agentId: 7 };
    const scoped = signAccessToken(ctx.app, user);
    expect(agentToken).toBeTruthy();
    const page = (await call('GET', '/api/people', undefined, scoped)).json().data;
    expect(page.list.map((p: { agentId: number }) => p.agentId)).toEqual([7]);
    const others = (await call('GET', '/api/people?pageSize=50')).json().data.list.filter((p: { agentId: number }) => p.agentId !== 7);
    expect((await call('GET', `/api/people/${others[0].personId}`, undefined, scoped)).statusCode).toBe(404);
  });

  it('create-only fields are not in the update body; update without version works', async () => {
    const res = await call('PUT', `/api/people/${kimId}`, { personName: '김철수', kind: 'LIFE', agentId: 7, joinedOn: '2030-01-01' });
    expect(res.statusCode).toBe(200);
    const detail = (await call('GET', `/api/people/${kimId}`)).json().data;
    expect(detail).toMatchObject({ joinedOn: '2024-01-02', version: 1, salary: null });
  });

  it('exports money as number cells with the field labels', async () => {
    const res = await call('GET', '/api/people/excel?salaryFrom=2500&lang=en');
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = sheet.getRow(1).values as unknown[];
    expect(header).toContain('Name');
    expect(header).toContain('Tags');
    const salaryCol = header.indexOf('salary');
    expect(sheet.getRow(2).getCell(salaryCol).value).toBe(3000);
  });

  it('describes itself at /api/meta/resources', async () => {
    const res = await call('GET', '/api/meta/resources');
    expect(res.statusCode).toBe(200);
    const meta = res.json().data.resources.find((r: { path: string }) => r.path === '/api/people');
    expect(meta).toMatchObject({
      name: 'Person',
      menu: DEMO_MENU,
      idField: 'personId',
      service: 'fields-test',
      defaultSort: '-personId',
      permissions: { list: { menu: DEMO_MENU, perm: 'READ' }, export: { menu: DEMO_MENU, perm: 'READ' } },
    });
    const byKey = Object.fromEntries(meta.fields.map((x: { key: string }) => [x.key, x]));
    expect(byKey.kind).toMatchObject({ kind: 'enum', enumValues: [...KINDS], filter: 'in', save: true, required: false });
    expect(byKey.personName).toMatchObject({ required: true, sort: true, search: true, masked: 'name', label: { ko: '이름', en: 'Name' } });
    expect(byKey.kindName).toMatchObject({ codeGroup: 'DEMO_KIND', readOnly: true });
    expect(byKey.joinedOn).toMatchObject({ createOnly: true });
  });
});
