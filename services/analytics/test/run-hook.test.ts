import { sql } from 'kysely';
import type { ServiceApp } from '@csp/service-kit';
import type { TestContext } from '@csp/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCompletedRuns, startRunPoll } from '../src/refresh/run-completion-poll.js';
import { addAgent, addCompletedRun, addOrg, addSettle, createAnalyticsContext } from './helpers.js';

let ctx: TestContext<ServiceApp>;
let agent: number;
const quiet = { info: () => {}, error: () => {} };

const monthly = (month: string) => ctx.db.selectFrom('kpi_monthly').selectAll().where('settle_month', '=', month).executeTakeFirst();

beforeAll(async () => {
  ctx = await createAnalyticsContext();
  const org = await addOrg(ctx.db, 'Branch', 'BR', null, 1);
  agent = await addAgent(ctx.db, 'Agent', org, 1);
  await addSettle(ctx.db, agent, '202406', { recruit: '100.00', gross: '100.00', tax: '3.30', net: '96.70' });
  await addSettle(ctx.db, agent, '202407', { recruit: '200.00', gross: '200.00', tax: '6.60', net: '193.40' });
});

afterAll(async () => {
  await ctx?.close();
});

describe('refresh on settlement run completion', () => {
  it('refreshes the month of a COMPLETED run once; a running run waits', async () => {
    const runId = await addCompletedRun(ctx.db, '202406');
    await addCompletedRun(ctx.db, '202407', 'RUNNING');
    const results = await refreshCompletedRuns(ctx.db, quiet);
    expect(results.map((r) => r.settleMonth)).toEqual(['202406']);
    expect(await monthly('202406')).toMatchObject({ agents_settled: 1, gross_total: '100.00' });
    expect(await monthly('202407')).toBeUndefined();
    const log = await ctx.db.selectFrom('kpi_refresh_log').selectAll().where('run_id', '=', runId).execute();
    expect(log).toEqual([expect.objectContaining({ trigger_type: 'RUN', status: 'COMPLETED', attempts: 1, agent_rows: 1 })]);
    expect(await refreshCompletedRuns(ctx.db, quiet)).toEqual([]);
  });

  it('a failed refresh is recorded and retried by the next poll', async () => {
    const runId = await addCompletedRun(ctx.db, '202407');
    await sql`ALTER TABLE kpi_cumulative RENAME TO kpi_cumulative_away`.execute(ctx.db);
    try {
      expect(await refreshCompletedRuns(ctx.db, quiet)).toEqual([]);
    } finally {
      await sql`ALTER TABLE kpi_cumulative_away RENAME TO kpi_cumulative`.execute(ctx.db);
    }
    const failed = await ctx.db.selectFrom('kpi_refresh_log').selectAll().where('run_id', '=', runId).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(failed.error_message).toContain('kpi_cumulative');
    expect(await monthly('202407')).toBeUndefined(); // the transaction rolled back

    const retried = await refreshCompletedRuns(ctx.db, quiet);
    expect(retried.map((r) => r.refreshId)).toEqual([failed.refresh_id]);
    expect(await ctx.db.selectFrom('kpi_refresh_log').selectAll().where('run_id', '=', runId).executeTakeFirstOrThrow()).toMatchObject({ status: 'COMPLETED', attempts: 2 });
    expect(await monthly('202407')).toMatchObject({ gross_total: '200.00' });
  });

  it('a re-run of a month refreshes it again', async () => {
    await ctx.db.updateTable('settle_master').set({ gross_amount: '150.00' }).where('agent_id', '=', agent).where('settle_month', '=', '202406').execute();
    await addCompletedRun(ctx.db, '202406');
    const poll = startRunPoll(ctx.db, 50, quiet);
    try {
      for (let i = 0; i < 100 && (await monthly('202406'))?.gross_total !== '150.00'; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await poll.stop();
    }
    expect(await monthly('202406')).toMatchObject({ gross_total: '150.00' });
  });
});

describe('the app runs the poll', () => {
  it('starts it when ready and stops it on close', async () => {
    const { buildApp } = await import('../src/app.js');
    await addCompletedRun(ctx.db, '202407');
    await ctx.db.updateTable('settle_master').set({ gross_amount: '250.00' }).where('agent_id', '=', agent).where('settle_month', '=', '202407').execute();
    const app = await buildApp({ config: ctx.config, db: ctx.db, pool: ctx.pool, redis: ctx.redis, pollIntervalMs: 50 });
    await app.ready();
    try {
      for (let i = 0; i < 100 && (await monthly('202407'))?.gross_total !== '250.00'; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await app.close();
    }
    expect(await monthly('202407')).toMatchObject({ gross_total: '250.00' });
  });
});
