import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger, type ServiceApp } from '@csp/service-kit';
import { createTestContext } from '@csp/service-kit/testing';
import { buildApp } from '../src/app.js';
import { api, seedOrgs, type Ctx } from './helpers.js';

class Sink extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line));
    done();
  }
}

const sink = new Sink();
let ctx: Ctx;

beforeAll(async () => {
  ctx = await createTestContext<ServiceApp>({
    serviceName: 'master-data',
    buildApp: (deps) => buildApp({ ...deps, logger: createLogger({ name: 'master-data', level: 'warn', destination: sink }) }),
  });
});
afterAll(async () => {
  await ctx?.close();
});

it('a business-income agent without business number is saved and only a warning without personal data is logged', async () => {
  const a = api(ctx);
  const { tmId } = await seedOrgs(a);
  const res = await a.post('/api/agents', {
    agentName: 'Warned Agent',
    orgId: tmId,
    gradeId: 1,
    phone: '010-9876-5432',
    residentNo: '850505-2345678',
    taxType: 'BUSINESS_INCOME',
  });
  expect(res.body).toMatchObject({ success: true, code: '0000', data: { id: expect.any(Number) } });
  const warnings = sink.lines.filter((l) => l.msg === 'business-income agent saved without a business number');
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatchObject({ level: 40, agentId: res.body.data.id });
  const text = JSON.stringify(sink.lines);
  expect(text).not.toContain('Warned Agent');
  expect(text).not.toContain('9876');
  expect(text).not.toContain('2345678');

  await a.post('/api/agents', { agentName: 'Other Income', orgId: tmId, gradeId: 1, taxType: 'OTHER_INCOME' });
  expect(sink.lines.filter((l) => l.msg === 'business-income agent saved without a business number')).toHaveLength(1);
});
