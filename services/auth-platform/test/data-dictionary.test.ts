import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, setup, type Ctx } from './helpers.js';

let ctx: Ctx;
let headers: Record<string, string>;

beforeAll(async () => {
  ctx = await setup();
  headers = bearer(ctx.adminToken);
});
afterAll(async () => {
  await ctx?.close();
});

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

const domain = {
  domainCode: 'TEST_CODE',
  domainName: 'Test code',
  category: 'CODE',
  dataType: 'varchar',
  length: 20,
  validationRegex: '^[A-Z]+$',
};

describe('data domains', () => {
  it('CRUD, category filter and options', async () => {
    expect((await call('POST', '/api/data-domains', domain)).statusCode).toBe(200);
    const detail = (await call('GET', '/api/data-domains/TEST_CODE')).json().data;
    expect(detail).toMatchObject({ domainCode: 'TEST_CODE', category: 'CODE', length: 20, encrypted: 'N', isActive: 'Y', usageCount: 0 });

    const codes = (await call('GET', '/api/data-domains?domainCategory=CODE&pageSize=100')).json().data;
    expect(codes.list.every((d: any) => d.category === 'CODE')).toBe(true);
    expect(codes.list.map((d: any) => d.domainCode)).toContain('TEST_CODE');

    const options = (await call('GET', '/api/data-domains/options')).json().data;
    expect(options).toContainEqual({ value: 'TEST_CODE', label: 'Test code', category: 'CODE' });

    const { domainCode: _code, ...rest } = domain;
    expect((await call('PUT', '/api/data-domains/TEST_CODE', { ...rest, domainName: 'Renamed', isActive: 'N' })).statusCode).toBe(200);
    expect((await call('GET', '/api/data-domains/options')).json().data.map((o: any) => o.value)).not.toContain('TEST_CODE');

    expect((await call('POST', '/api/data-domains', domain)).json().code).toBe('B009');
    const badRegex = await call('POST', '/api/data-domains', { ...domain, domainCode: 'BAD_RE', validationRegex: '([' });
    expect(badRegex.json().code).toBe('E411');
    const badCategory = await call('POST', '/api/data-domains', { ...domain, domainCode: 'BAD_CAT', category: 'NOPE' });
    expect(badCategory.json().data.errors[0].field).toBe('category');

    expect((await call('DELETE', '/api/data-domains/TEST_CODE')).statusCode).toBe(200);
    expect((await call('GET', '/api/data-domains/TEST_CODE')).statusCode).toBe(404);
  });

  it('deleting a domain referenced by a dictionary row is rejected with E400', async () => {
    expect((await call('POST', '/api/data-domains', { ...domain, domainCode: 'USED_DOMAIN' })).statusCode).toBe(200);
    const dict = await call('POST', '/api/data-dictionary', { tableName: 'users', columnName: 'password_changed_at', domainCode: 'USED_DOMAIN', columnLabel: 'Password changed' });
    expect(dict.statusCode).toBe(200);
    const res = await call('DELETE', '/api/data-domains/USED_DOMAIN');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'E400', message: 'Data domain USED_DOMAIN is referenced by 1 dictionary row(s)' });
    expect((await call('GET', '/api/data-domains/USED_DOMAIN')).statusCode).toBe(200);
  });
});

describe('data dictionary', () => {
  it('/tables lists every table of the schema, sorted', async () => {
    const tables = (await call('GET', '/api/data-dictionary/tables')).json().data as string[];
    expect(tables).toEqual(expect.arrayContaining(['users', 'role', 'menu', 'notice', 'data_dictionary', 'refresh_token']));
    expect(tables).toEqual([...tables].sort());
    expect(tables).not.toContain('schema_migration');
  });

  it('/full lists every column of a table, also those without a dictionary row', async () => {
    await call('POST', '/api/data-domains', { ...domain, domainCode: 'NOTICE_TITLE', category: 'TEXT' });
    const created = await call('POST', '/api/data-dictionary', {
      tableName: 'notice',
      columnName: 'title',
      domainCode: 'NOTICE_TITLE',
      columnLabel: 'Title',
      businessRule: 'Shown in the list',
    });
    expect(created.statusCode).toBe(200);
    const rows = (await call('GET', '/api/data-dictionary/full?tableName=notice')).json().data as any[];
    const columns = await ctx.db
      .selectFrom('information_schema.columns' as any)
      .select('column_name' as any)
      .where('table_schema' as any, '=', 'public')
      .where('table_name' as any, '=', 'notice')
      .execute();
    expect(rows).toHaveLength(columns.length);
    expect(rows.map((r) => r.ordinalPosition)).toEqual([...rows.map((r) => r.ordinalPosition)].sort((a, b) => a - b));

    const title = rows.find((r) => r.columnName === 'title');
    expect(title).toMatchObject({
      tableName: 'notice',
      dataType: 'varchar(200)',
      isNullable: 'N',
      dictId: created.json().data.id,
      columnLabel: 'Title',
      domainCode: 'NOTICE_TITLE',
      domainName: 'Test code',
      category: 'TEXT',
      businessRule: 'Shown in the list',
    });
    const content = rows.find((r) => r.columnName === 'content');
    expect(content).toMatchObject({ dictId: null, columnLabel: null, domainCode: null, isPk: 'N', dataType: 'text' });
    expect(rows.find((r) => r.columnName === 'notice_id')).toMatchObject({ isPk: 'Y', columnLabel: 'Notice id', domainCode: 'ID' });
  });

  it('CRUD with filters; a column that does not exist is E411; a duplicate row is B009', async () => {
    const id = (await call('POST', '/api/data-dictionary', { tableName: 'role', columnName: 'role_desc', columnLabel: 'Role description' })).json().data.id;
    const filtered = (await call('GET', '/api/data-dictionary?tableName=role')).json().data;
    expect(filtered.list.find((r: any) => r.dictId === id)).toMatchObject({ tableName: 'role', columnName: 'role_desc', columnLabel: 'Role description', isPk: 'N' });
    expect(filtered.list.every((r: any) => r.tableName === 'role')).toBe(true);

    const upd = await call('PUT', `/api/data-dictionary/${id}`, { tableName: 'role', columnName: 'role_desc', columnLabel: 'Description of the role', isPk: 'N' });
    expect(upd.statusCode).toBe(200);
    expect((await call('GET', `/api/data-dictionary/${id}`)).json().data.columnLabel).toBe('Description of the role');

    const ghost = await call('POST', '/api/data-dictionary', { tableName: 'role', columnName: 'no_such_column' });
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().data.errors[0].field).toBe('columnName');
    const dup = await call('POST', '/api/data-dictionary', { tableName: 'role', columnName: 'role_desc' });
    expect(dup.json().code).toBe('B009');

    expect((await call('DELETE', `/api/data-dictionary/${id}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/data-dictionary/${id}`)).statusCode).toBe(404);
  });
});
