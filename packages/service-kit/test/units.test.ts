import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AppError,
  ConfigError,
  createFieldCipher,
  ERRORS,
  invalid,
  isoDate,
  isoTimestamp,
  listQuery,
  loadServiceConfig,
  money,
  notFound,
  ok,
  pageQuery,
  rate,
  toPage,
  zDate,
  zId,
  zMoney,
  zQuarter,
  zRate,
  zSettleMonth,
} from '../src/index.js';

describe('FieldCipher', () => {
  const cipher = createFieldCipher('short-key');

  it('round-trips a value and two encryptions of the same value differ', () => {
    const a = cipher.encrypt('900101-1234567');
    const b = cipher.encrypt('900101-1234567');
    expect(a).not.toBe(b);
    expect(cipher.decrypt(a)).toBe('900101-1234567');
    expect(cipher.decrypt(b)).toBe('900101-1234567');
    expect(Buffer.from(a, 'base64').length).toBe(32); // 16-byte IV + one block
  });

  it('decrypting something that is not a ciphertext throws a clear error', () => {
    expect(() => cipher.decrypt('900101-1234567')).toThrow(/not a FieldCipher ciphertext/);
    expect(() => cipher.decrypt(Buffer.alloc(32, 7).toString('base64'))).toThrow(/could not be decrypted/);
  });

  it('pads short keys with zero bytes (same as an explicit zero-padded key)', () => {
    const padded = createFieldCipher(Buffer.concat([Buffer.from('short-key'), Buffer.alloc(23)]));
    expect(padded.decrypt(cipher.encrypt('x'))).toBe('x');
    expect(() => createFieldCipher('k'.repeat(33))).toThrow(/at most|1 to 32/);
  });

  it('nullable helpers pass null through', () => {
    expect(cipher.encryptNullable(null)).toBeNull();
    expect(cipher.decryptNullable(undefined)).toBeNull();
  });
});

describe('loadServiceConfig', () => {
  it('applies defaults and dev secrets with warnings in development', () => {
    const config = loadServiceConfig('svc', { PORT: z.coerce.number().default(8101) }, {});
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      HOST: '0.0.0.0',
      PORT: 8101,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/commission',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'info',
      SERVICE_NAME: 'svc',
    });
    expect(config.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(config.warnings).toHaveLength(2);
  });

  it('refuses production with a short JWT_SECRET or without ENCRYPT_KEY', () => {
    const strong = 'x'.repeat(32);
    expect(() => loadServiceConfig('svc', {}, { NODE_ENV: 'production', JWT_SECRET: 'short', ENCRYPT_KEY: 'k' })).toThrow(ConfigError);
    expect(() => loadServiceConfig('svc', {}, { NODE_ENV: 'production', JWT_SECRET: strong })).toThrow(/ENCRYPT_KEY/);
    const config = loadServiceConfig('svc', {}, { NODE_ENV: 'production', JWT_SECRET: strong, ENCRYPT_KEY: 'k', PORT: '9000' });
    expect(config.PORT).toBe(9000);
    expect(config.warnings).toEqual([]);
  });

  it('rejects invalid values', () => {
    expect(() => loadServiceConfig('svc', {}, { PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadServiceConfig('svc', {}, { LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});

describe('errors and envelope', () => {
  it('the ERRORS table follows spec 7', () => {
    expect(Object.fromEntries(Object.entries(ERRORS).map(([k, v]) => [k, `${v.code}/${v.status}`]))).toEqual({
      SUCCESS: '0000/200',
      BAD_REQUEST: 'E400/400',
      UNAUTHORIZED: 'E401/401',
      FORBIDDEN: 'E403/403',
      NOT_FOUND: 'E404/404',
      INVALID_PARAMETER: 'E411/400',
      INTERNAL_ERROR: 'E500/500',
      TOKEN_EXPIRED: 'A001/401',
      LOGIN_FAIL: 'A003/401',
      ACCOUNT_LOCKED: 'A004/403',
      ALREADY_CONFIRMED: 'B001/400',
      RULE_VERSION_CONFLICT: 'B002/409',
      APPROVAL_REQUIRED: 'B003/400',
      SYSTEM_CODE_LOCKED: 'B008/400',
      DUPLICATE_DATA: 'B009/409',
      BATCH_RUNNING: 'B010/409',
      FILE_NOT_FOUND: 'F001/404',
      FILE_UPLOAD_FAIL: 'F002/500',
    });
  });

  it('shorthands build the right AppError', () => {
    expect(notFound('Agent 7')).toMatchObject({ code: 'E404', statusCode: 404, message: 'Agent 7 not found' });
    expect(invalid('agentId', 'must exist')).toMatchObject({
      code: 'E411',
      data: { errors: [{ field: 'agentId', message: 'must exist' }] },
    });
    expect(new AppError('BATCH_RUNNING').message).toBe('A batch is already running');
  });

  it('ok() omits data when there is none; toPage computes pages', () => {
    expect(ok()).toEqual({ success: true, code: '0000', message: 'Success', timestamp: expect.any(String) });
    expect(toPage(['a'], 41, { pageNum: 3, pageSize: 20 })).toEqual({ list: ['a'], pageNum: 3, pageSize: 20, pages: 3, total: 41 });
    expect(toPage([], 0, { pageNum: 1, pageSize: 20 }).pages).toBe(0);
  });
});

describe('field schemas', () => {
  it('zMoney normalizes numbers and strings to 2 places and refuses more', () => {
    expect(zMoney.parse(1234.5)).toBe('1234.50');
    expect(zMoney.parse('-0.5')).toBe('-0.50');
    expect(zMoney.parse('9999999999999.99')).toBe('9999999999999.99');
    expect(zMoney.safeParse('1.001').success).toBe(false);
    expect(zMoney.safeParse('10000000000000').success).toBe(false);
    expect(zMoney.safeParse('1e3').success).toBe(false);
    expect(zMoney.safeParse('abc').success).toBe(false);
    expect(zMoney.safeParse(0.1 + 0.2).success).toBe(false);
  });

  it('zRate keeps up to 4 places', () => {
    expect(zRate.parse(3.3)).toBe('3.3');
    expect(zRate.parse('12.3450')).toBe('12.345');
    expect(zRate.safeParse('1.23456').success).toBe(false);
  });

  it('dates, months, quarters and ids', () => {
    expect(zDate.safeParse('2024-02-29').success).toBe(true);
    expect(zDate.safeParse('2023-02-29').success).toBe(false);
    expect(zSettleMonth.safeParse('202413').success).toBe(false);
    expect(zSettleMonth.parse('202412')).toBe('202412');
    expect(zQuarter.safeParse('2024-Q5').success).toBe(false);
    expect(zId.parse('17')).toBe(17);
    expect(zId.safeParse('0').success).toBe(false);
    expect(zId.safeParse('1.5').success).toBe(false);
  });

  it('pageQuery defaults and bounds; listQuery restricts sortField', () => {
    expect(pageQuery.parse({})).toEqual({ pageNum: 1, pageSize: 20 });
    expect(pageQuery.safeParse({ pageSize: '1001' }).success).toBe(false);
    const q = listQuery(['agentName'], { orgId: zId.optional() });
    expect(q.parse({ sortField: 'agentName', sortOrder: 'asc', orgId: '3' })).toMatchObject({ sortField: 'agentName', sortOrder: 'ASC', orgId: 3 });
    expect(q.safeParse({ sortField: 'password' }).success).toBe(false);
  });

  it('output helpers', () => {
    expect(money('1234.5')).toBe('1234.50');
    expect(money('2.345')).toBe('2.35');
    expect(money('-2.345')).toBe('-2.35');
    expect(money(null)).toBeNull();
    expect(rate('3.3000')).toBe('3.3');
    expect(rate('10')).toBe('10');
    expect(isoDate('2024-01-05')).toBe('2024-01-05');
    expect(isoDate(new Date(2024, 0, 5, 23, 59))).toBe('2024-01-05');
    expect(isoTimestamp(new Date('2024-01-05T01:02:03.000Z'))).toBe('2024-01-05T01:02:03.000Z');
  });
});
