import { assertAllRoutesGuarded, type ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';

let ctx: TestContext<ServiceApp>;

beforeAll(async () => {
  ctx = await createTestContext({ buildApp, serviceName: 'intake' });
});

afterAll(async () => {
  await ctx?.close();
});

describe('intake app', () => {
  it('answers the public health check with its service name', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      code: '0000',
      data: { status: 'UP', service: 'intake', db: 'UP', redis: 'UP' },
    });
  });

  it('guards every route', () => {
    expect(() => assertAllRoutesGuarded(ctx.app)).not.toThrow();
  });
});
