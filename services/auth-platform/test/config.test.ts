import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, flushLogs, setup, type Ctx } from './helpers.js';

let ctx: Ctx;
let headers: Record<string, string>;

beforeAll(async () => {
  ctx = await setup();
  headers = bearer(ctx.adminToken);
});
afterAll(async () => {
  await ctx?.close();
});

function put(key: string, value: unknown) {
  return ctx.app.inject({ method: 'PUT', url: `/api/system/config/${key}`, headers, payload: { value } });
}

async function list() {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/system/config', headers });
  expect(res.statusCode).toBe(200);
  return res.json().data as Array<{ configKey: string; configValue: string; isEncrypted: string }>;
}

describe('system config', () => {
  it('lists the seeded entries', async () => {
    const entries = await list();
    expect(entries.find((e) => e.configKey === 'LOGIN_FAIL_LIMIT')).toMatchObject({ configValue: '5', configGroup: 'AUTH', isEncrypted: 'N' });
    expect(entries.find((e) => e.configKey === 'TAX_RATE')).toMatchObject({ configValue: '3.3' });
  });

  it('stores an encrypted key encrypted and only ever shows it masked', async () => {
    const res = await put('BANK_API_KEY', 'secret-api-key-123');
    expect(res.statusCode).toBe(200);
    const stored = await ctx.db.selectFrom('system_config').select('config_value').where('config_key', '=', 'BANK_API_KEY').executeTakeFirstOrThrow();
    expect(stored.config_value).not.toContain('secret');
    expect(ctx.app.cipher.decrypt(stored.config_value)).toBe('secret-api-key-123');

    const entry = (await list()).find((e) => e.configKey === 'BANK_API_KEY')!;
    expect(entry).toMatchObject({ configValue: '********', isEncrypted: 'Y' });

    await flushLogs(ctx);
    const log = await ctx.db
      .selectFrom('data_change_log')
      .select(['before_data', 'after_data', 'menu_code'])
      .where('table_name', '=', 'system_config')
      .where('record_id', '=', 'BANK_API_KEY')
      .executeTakeFirstOrThrow();
    expect(log.menu_code).toBe('SYSTEM_CONFIG');
    expect(JSON.stringify(log)).not.toContain('secret-api-key-123');
    expect(JSON.stringify(log)).not.toContain(stored.config_value);
  });

  it('updates a plain value', async () => {
    expect((await put('TAX_RATE', '3.5')).statusCode).toBe(200);
    expect((await list()).find((e) => e.configKey === 'TAX_RATE')!.configValue).toBe('3.5');
    expect((await put('LOGIN_FAIL_LIMIT', 6)).statusCode).toBe(200);
    expect((await list()).find((e) => e.configKey === 'LOGIN_FAIL_LIMIT')!.configValue).toBe('6');
  });

  it('rejects non-numeric values for numeric keys with E411', async () => {
    for (const [key, value] of [
      ['TAX_RATE', 'abc'],
      ['TAX_RATE_VAT', '-1'],
      ['LOGIN_FAIL_LIMIT', '2.5'],
      ['LOGIN_FAIL_LIMIT', '0'],
      ['RECON_DIFF_THRESHOLD', 'ten'],
    ] as const) {
      const res = await put(key, value);
      expect(res.statusCode, `${key}=${value}`).toBe(400);
      expect(res.json().code).toBe('E411');
      expect(res.json().data.errors[0].field).toBe('value');
    }
  });

  it('validates each key by its own rule: closed days, percents, hours, approval lines', async () => {
    for (const [key, value, message] of [
      ['BANK_CLOSED_DAYS', '2026-12-31,2026-02-30', 'must be dates YYYY-MM-DD separated by commas (2026-02-30 is not one)'],
      ['BANK_CLOSED_DAYS', 'tomorrow', 'must be dates YYYY-MM-DD separated by commas (tomorrow is not one)'],
      ['RETENTION_ALERT_13M', '101', 'must be a percent between 0 and 100'],
      ['TRAINING_HOURS_REQUIRED', '12.5', 'must be a whole number of hours (0-9999)'],
      ['WITHDRAW_APPROVAL_LINE', 'NO_SUCH_LINE', 'approval line NO_SUCH_LINE does not exist'],
    ] as const) {
      const res = await put(key, value);
      expect(res.json(), `${key}=${value}`).toMatchObject({ code: 'E411', data: { errors: [{ field: 'value', message }] } });
    }
    expect((await put('BANK_CLOSED_DAYS', '2026-12-31, 2027-01-02')).statusCode).toBe(200);
    expect((await put('RETENTION_ALERT_13M', '82.5')).statusCode).toBe(200);
    expect((await put('WITHDRAW_APPROVAL_LINE', 'WITHDRAW_DEFAULT')).statusCode).toBe(200);
    const entries = await list();
    expect(entries.find((e) => e.configKey === 'BANK_CLOSED_DAYS')!.configValue).toBe('2026-12-31, 2027-01-02');
    expect(entries.find((e) => e.configKey === 'RETENTION_ALERT_13M')!.configValue).toBe('82.5');
  });

  it('each change is in the change log API with its before and after values', async () => {
    expect((await put('RECON_DIFF_THRESHOLD', '0.5')).statusCode).toBe(200);
    await flushLogs(ctx);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/system/logs/changes?tableName=system_config&recordId=RECON_DIFF_THRESHOLD', headers });
    expect(res.statusCode).toBe(200);
    const [entry] = res.json().data.list;
    expect(entry).toMatchObject({ menuCode: 'SYSTEM_CONFIG', action: 'UPDATE', recordId: 'RECON_DIFF_THRESHOLD' });
    expect(entry.beforeData).toMatchObject({ configKey: 'RECON_DIFF_THRESHOLD', configValue: '0' });
    expect(entry.afterData).toMatchObject({ configKey: 'RECON_DIFF_THRESHOLD', configValue: '0.5' });
  });

  it('an unknown key is E404', async () => {
    const res = await put('NO_SUCH_KEY', 'x');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('E404');
  });

  it('needs SYSTEM_CONFIG grants (ADMIN has none)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/system/config', headers: bearer(await ctx.tokenFor('ADMIN')) });
    expect(res.statusCode).toBe(403);
  });
});
