import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, defineResource, f, registerResource, type ServiceApp } from '../src/index.js';
import { createTestContext, type TestContext } from '../src/testing.js';
import { bearer, createDemoSchema, DEMO_MENU, DEMO_ROLE, eventually, grant } from './demo-app.js';

/** A resource keyed by a string code with every item route on (issue 23 item 8). */
const currencies = defineResource({
  name: 'Currency',
  path: '/api/currencies',
  table: 'demo_currency',
  alias: 'cu',
  menu: DEMO_MENU,
  idParam: 'currencyCode',
  fields: {
    currencyCode: f.text({ max: 3, pattern: /^[A-Z]{3}$/, patternMessage: 'must be three upper-case letters' }).key().required(),
    currencyName: f.text({ max: 40 }).required().search(),
    decimals: f.int({ min: 0, max: 4 }).save({ default: 2 }),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
  defaultSort: 'currencyCode',
});

let ctx: TestContext<ServiceApp>;
let token: string;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as never, headers: bearer(token) });

beforeAll(async () => {
  ctx = await createTestContext({
    serviceName: 'string-keys-test',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_currency (currency_code char(3) PRIMARY KEY, currency_name varchar(40) NOT NULL,
        decimals int NOT NULL DEFAULT 2, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())`.execute(deps.db);
      const app = await createServiceApp({ name: 'string-keys-test', ...deps });
      registerResource(app, currencies);
      return app;
    },
  });
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ', 'CREATE', 'UPDATE', 'DELETE']);
  token = await ctx.tokenFor(DEMO_ROLE);
});
afterAll(async () => {
  await ctx?.close();
});

describe('a resource keyed by a string code', () => {
  it('creates by the key in the body and answers it as the id; gets, updates and deletes by the key', async () => {
    const created = await call('POST', '/api/currencies', { currencyCode: 'KRW', currencyName: 'Won', decimals: 0 });
    expect(created.json()).toMatchObject({ success: true, code: '0000', data: { id: 'KRW' } });
    const got = await call('GET', '/api/currencies/KRW');
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toMatchObject({ currencyCode: 'KRW', currencyName: 'Won', decimals: 0 });

    // the key is create-only: a key in an update body is ignored, the row keeps its key
    expect((await call('PUT', '/api/currencies/KRW', { currencyCode: 'JPY', currencyName: 'Korean won', decimals: 0 })).statusCode).toBe(200);
    expect((await call('GET', '/api/currencies/JPY')).statusCode).toBe(404);
    expect((await call('GET', '/api/currencies/KRW')).json().data).toMatchObject({ currencyCode: 'KRW', currencyName: 'Korean won' });
    expect((await call('DELETE', '/api/currencies/KRW')).statusCode).toBe(200);
    const log = await eventually(async () => {
      const rows = await ctx.db
        .selectFrom('data_change_log')
        .select(['record_id', 'action'])
        .where('table_name', '=', 'demo_currency')
        .orderBy('change_id')
        .execute();
      return rows.length === 3 ? rows : undefined;
    });
    expect(log).toEqual([
      { record_id: 'KRW', action: 'CREATE' },
      { record_id: 'KRW', action: 'UPDATE' },
      { record_id: 'KRW', action: 'DELETE' },
    ]);
    expect((await call('GET', '/api/currencies/KRW')).statusCode).toBe(404);
  });

  it('a key that exists already is B009 and leaves the row as it was', async () => {
    expect((await call('POST', '/api/currencies', { currencyCode: 'USD', currencyName: 'Dollar' })).statusCode).toBe(200);
    const dup = await call('POST', '/api/currencies', { currencyCode: 'USD', currencyName: 'Other dollar', decimals: 4 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ success: false, code: 'B009', message: 'Currency USD exists already' });
    expect((await call('GET', '/api/currencies/USD')).json().data).toMatchObject({ currencyName: 'Dollar', decimals: 2 });
  });

  it('an unknown key is E404 on get, update and delete; a malformed one is E411 on the parameter', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call(method, '/api/currencies/XYZ', method === 'PUT' ? { currencyName: 'x' } : undefined);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'E404', message: 'Currency XYZ not found' });
    }
    const bad = await call('GET', '/api/currencies/usd');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'E411', data: { errors: [{ field: 'currencyCode', message: 'must be three upper-case letters' }] } });
  });

  it('lists rows ordered by the key and describes the key as a string in /api/meta/resources', async () => {
    await call('POST', '/api/currencies', { currencyCode: 'EUR', currencyName: 'Euro' });
    const page = (await call('GET', '/api/currencies?searchKeyword=o')).json().data;
    expect(page.list.map((c: { currencyCode: string }) => c.currencyCode)).toEqual(['EUR', 'USD']);
    const meta = (await call('GET', '/api/meta/resources')).json().data.resources.find((r: { name: string }) => r.name === 'Currency');
    expect(meta).toMatchObject({ idParam: 'currencyCode', idField: 'currencyCode', idType: 'string', permissions: { detail: { perm: 'READ' }, create: { perm: 'CREATE' } } });
    const key = meta.fields.find((x: { key: string }) => x.key === 'currencyCode');
    expect(key).toMatchObject({ save: true, required: true, createOnly: true });
  });
});
