import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { buildApp } from '../src/app.js';

// Issue 23 item 8: account codes are a field-table resource keyed by the code (a string key).
let ctx: TestContext<ServiceApp>;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as never, headers: { authorization: `Bearer ${ctx.adminToken}` } });

beforeAll(async () => {
  ctx = await createTestContext({ buildApp, serviceName: 'payment-tax' });
});
afterAll(async () => {
  await ctx?.close();
});

describe('account codes through the kit (string key)', () => {
  it('pages the seeded codes in sort order at /list and gets one by its code', async () => {
    const page = (await call('GET', '/api/common/account-codes/list')).json().data;
    expect(page.total).toBe(6);
    expect(page.list.map((c: { accountCode: string }) => c.accountCode)).toEqual(['5110', '2110', '2120', '1110', '1130', '1350']);
    const one = await call('GET', '/api/common/account-codes/2120');
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toMatchObject({
      accountCode: '2120',
      accountName: '원천세 예수금',
      accountType: 'CREDIT',
      isActive: true,
      sortOrder: 3,
      entryCount: 0,
    });
    const filtered = (await call('GET', '/api/common/account-codes/list?accountType=BOTH')).json().data.list;
    expect(filtered.map((c: { accountCode: string }) => c.accountCode)).toEqual(['1110', '1130']);
  });

  it('validates create and update bodies field by field; an unknown code is E404, a malformed one E411', async () => {
    const bad = await call('POST', '/api/common/account-codes', { accountCode: 'ab-1', accountName: '', accountType: 'SIDE', sortOrder: -1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('E411');
    expect(bad.json().data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['accountCode', 'accountName', 'accountType', 'sortOrder']);
    expect(bad.json().data.errors.find((e: { field: string }) => e.field === 'accountCode').message).toBe('must be 1-10 upper-case letters or digits');

    const created = await call('POST', '/api/common/account-codes', { accountCode: '7100', accountName: 'Training fund', accountType: 'DEBIT' });
    expect(created.json()).toMatchObject({ success: true, data: { id: '7100' } });
    expect((await call('GET', '/api/common/account-codes/7100')).json().data).toMatchObject({ isActive: true, sortOrder: 0, description: null });

    const update = await call('PUT', '/api/common/account-codes/7100', { accountName: 'Training fund (new)', accountType: 'BOTH', sortOrder: 9, description: 'x' });
    expect(update.statusCode).toBe(200);
    expect((await call('GET', '/api/common/account-codes/7100')).json().data).toMatchObject({
      accountCode: '7100',
      accountName: 'Training fund (new)',
      accountType: 'BOTH',
      sortOrder: 9,
      description: 'x',
    });
    const badUpdate = await call('PUT', '/api/common/account-codes/7100', { accountName: 'y'.repeat(101), accountType: 'BOTH' });
    expect(badUpdate.json()).toMatchObject({ code: 'E411', data: { errors: [{ field: 'accountName' }] } });

    expect((await call('GET', '/api/common/account-codes/9999')).json()).toMatchObject({ code: 'E404' });
    expect((await call('PUT', '/api/common/account-codes/9999', { accountName: 'n', accountType: 'BOTH' })).json()).toMatchObject({ code: 'E404' });
    expect((await call('GET', '/api/common/account-codes/abc')).json()).toMatchObject({ code: 'E411' });
  });

  it('is described in /api/meta/resources with its string key and create-only code', async () => {
    const meta = (await call('GET', '/api/meta/resources')).json().data.resources.find((r: { name: string }) => r.name === 'AccountCode');
    expect(meta).toMatchObject({
      path: '/api/common/account-codes',
      listPath: '/api/common/account-codes/list',
      idParam: 'accountCode',
      idField: 'accountCode',
      idType: 'string',
      menu: 'ACCOUNTING_JOURNAL',
      permissions: { detail: { perm: 'READ' }, create: { perm: 'CREATE' }, update: { perm: 'UPDATE' }, delete: null, export: { perm: 'READ' } },
    });
    const byKey = Object.fromEntries(meta.fields.map((x: { key: string }) => [x.key, x]));
    expect(byKey.accountCode).toMatchObject({ required: true, createOnly: true, label: { ko: '계정 코드', en: 'Account code' } });
    expect(byKey.accountType).toMatchObject({ enumValues: ['DEBIT', 'CREDIT', 'BOTH'], codeGroup: 'ACCOUNT_TYPE', filter: 'eq' });
    expect(byKey.entryCount).toMatchObject({ readOnly: true });
  });
});
