import { assertAllRoutesGuarded, type ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';

let ctx: TestContext<ServiceApp>;

beforeAll(async () => {
  ctx = await createTestContext({ buildApp, serviceName: 'payment-tax' });
});

afterAll(async () => {
  await ctx?.close();
});

describe('payment-tax app', () => {
  it('answers the public health check with its service name', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      code: '0000',
      data: { status: 'UP', service: 'payment-tax', db: 'UP', redis: 'UP' },
    });
  });

  it('guards every route', () => {
    expect(() => assertAllRoutesGuarded(ctx.app)).not.toThrow();
  });

  it('has the seeded account codes: four of V032 and the two payment entries need (V050)', async () => {
    const { rows } = await sql<{ account_code: string; account_type: string }>`
      SELECT account_code, account_type FROM account_code ORDER BY account_code`.execute(ctx.db);
    expect(rows).toEqual([
      { account_code: '1110', account_type: 'BOTH' },
      { account_code: '1130', account_type: 'BOTH' },
      { account_code: '1350', account_type: 'DEBIT' },
      { account_code: '2110', account_type: 'CREDIT' },
      { account_code: '2120', account_type: 'CREDIT' },
      { account_code: '5110', account_type: 'DEBIT' },
    ]);
  });
});
