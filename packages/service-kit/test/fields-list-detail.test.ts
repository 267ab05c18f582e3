import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, defineResource, f, registerResource, type ServiceApp } from '../src/index.js';
import { createTestContext, type TestContext } from '../src/testing.js';
import { bearer, createDemoSchema, DEMO_MENU, DEMO_ROLE, grant } from './demo-app.js';

/** A list under /list (the collection path is a tree elsewhere), detail-only and encrypted fields, sort and search hooks. */
const members = defineResource({
  name: 'Member',
  path: '/api/members',
  listPath: '/api/members/list',
  table: 'demo_member',
  alias: 'm',
  menu: DEMO_MENU,
  fields: {
    memberId: f.id(),
    memberName: f.text({ max: 50 }).required().search(),
    rank: f.text({ max: 20 }).save().sort('m.rank_level'),
    teamId: f.ref().save().search((pattern) => sql`m.team_id IN (SELECT t.team_id FROM demo_team t WHERE t.team_name ILIKE ${pattern})`),
    residentNo: f.text().save().encrypted().masked('residentNo').detailOnly(),
    level: f.enum(['LOW', 'HIGH']).save({ default: 'LOW' }),
  },
  create: false,
  update: false,
  delete: false,
});

let ctx: TestContext<ServiceApp>;
let token: string;
const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });

beforeAll(async () => {
  ctx = await createTestContext({
    serviceName: 'fields-list-detail-test',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_team (team_id bigserial PRIMARY KEY, team_name varchar(50) NOT NULL)`.execute(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_member (
        member_id bigserial PRIMARY KEY, member_name varchar(50) NOT NULL, rank varchar(20), rank_level int,
        team_id bigint, resident_no text, level varchar(10) NOT NULL DEFAULT 'LOW')`.execute(deps.db);
      const app = await createServiceApp({ name: 'fields-list-detail-test', ...deps });
      registerResource(app, members);
      return app;
    },
  });
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ']);
  token = await ctx.tokenFor(DEMO_ROLE);
  const sealed = ctx.app.cipher.encrypt('900101-1234567');
  await sql`INSERT INTO demo_team (team_name) VALUES ('Blue'), ('Red')`.execute(ctx.db);
  await sql`INSERT INTO demo_member (member_name, rank, rank_level, team_id, resident_no) VALUES
    ('Kim', 'Senior', 2, 1, ${sealed}), ('Lee', 'Junior', 1, 2, 'not-a-ciphertext'), ('Park', 'Lead', 3, 1, NULL)`.execute(ctx.db);
});
afterAll(async () => {
  await ctx?.close();
});

describe('list and detail of a field table', () => {
  it('serves the list at listPath, without the detail-only fields', async () => {
    expect((await get('/api/members')).statusCode).toBe(404);
    const page = (await get('/api/members/list')).json().data;
    expect(page.list[0]).toEqual({ memberId: expect.any(Number), memberName: 'Park', rank: 'Lead', teamId: 1, level: 'LOW' });
  });

  it('the detail has the detail-only fields; a masked value that does not decrypt is never shown', async () => {
    const [kim, lee] = (await get('/api/members/list?sortField=memberId&sortOrder=ASC')).json().data.list;
    expect((await get(`/api/members/${kim.memberId}`)).json().data.residentNo).toBe('900101-*******');
    expect((await get(`/api/members/${lee.memberId}`)).json().data.residentNo).toBe('********');
  });

  it('sorts by the expression sort() names and searches through search()', async () => {
    const ranks = (await get('/api/members/list?sortField=rank')).json().data.list.map((m: { rank: string }) => m.rank);
    expect(ranks).toEqual(['Junior', 'Senior', 'Lead']);
    const red = (await get('/api/members/list?searchType=teamId&searchKeyword=re')).json().data.list;
    expect(red.map((m: { memberName: string }) => m.memberName)).toEqual(['Lee']);
  });

  it('a field saved with a default is not nullable in responses; metadata names listPath and detail-only fields', async () => {
    const meta = (await get('/api/meta/resources')).json().data.resources.find((r: { path: string }) => r.path === '/api/members');
    expect(meta.listPath).toBe('/api/members/list');
    const byKey = Object.fromEntries(meta.fields.map((x: { key: string }) => [x.key, x]));
    expect(byKey.residentNo).toMatchObject({ detailOnly: true });
    expect(byKey.level).toMatchObject({ nullable: false });
  });
});
