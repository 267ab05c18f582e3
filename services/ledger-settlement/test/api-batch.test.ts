import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentToken, api, REDIS_URL, startContext, type Api, type Ctx } from './api-helpers.js';

let ctx: Ctx;
let a: Api;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
});

afterAll(async () => {
  await ctx?.close();
});

async function runRow(id: number) {
  const { rows } = await ctx.pool.query(
    `SELECT status, settle_month, company_code, requested_by, run_attempt FROM batch_job_log WHERE job_log_id = $1`,
    [id],
  );
  return rows[0];
}

describe('settlement run API (no workers: the jobs wait in the queue)', () => {
  let firstId = 0;

  it('rejects a malformed month with E411 and an AGENT user with E403', async () => {
    for (const month of ['2025-01', '202513', '']) {
      const res = await a.post(`/api/batch/settlement/run?settleMonth=${month}`);
      expect(res.status, month).toBe(400);
      expect(res.body.code, month).toBe('E411');
    }
    expect((await a.post('/api/batch/settlement/run')).body.code).toBe('E411');
    const res = await a.post(
      '/api/batch/settlement/run?settleMonth=202501',
      undefined,
      await agentToken(ctx, null),
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('E403');
  });

  it('accepts a run: data = job log id, a REQUESTED run row, the first job carries the request id', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/batch/settlement/run?settleMonth=202501&companyCode=L001',
      headers: { authorization: `Bearer ${ctx.adminToken}`, 'x-request-id': 'req-run-1' },
    });
    expect(res.statusCode).toBe(200);
    firstId = res.json().data;
    expect(firstId).toBeTypeOf('number');
    expect(await runRow(firstId)).toMatchObject({
      status: 'REQUESTED',
      settle_month: '202501',
      company_code: 'L001',
      run_attempt: 1,
    });
    const queue = new Queue('settlement.receiveData', {
      connection: { url: REDIS_URL },
      prefix: ctx.batchPrefix,
    });
    try {
      const { rows } = await ctx.pool.query(`SELECT run_key FROM batch_job_log WHERE job_log_id = $1`, [firstId]);
      const job = await queue.getJob(`${firstId}-${rows[0].run_key}-1-receiveData`);
      expect(job?.data).toMatchObject({
        runId: firstId,
        attempt: 1,
        settleMonth: '202501',
        companyCode: 'L001',
        requestId: 'req-run-1',
      });
    } finally {
      await queue.close();
    }
  });

  it('refuses a second run while one is REQUESTED, whatever the month (B010)', async () => {
    const res = await a.post('/api/batch/settlement/run?settleMonth=202502');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, code: 'B010' });
  });

  it('refuses 10 concurrent requests while a run is REQUESTED, all with B010', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => a.post('/api/batch/settlement/run?settleMonth=202503')),
    );
    expect(results.map((r) => r.body.code)).toEqual(Array(10).fill('B010'));
  });

  it('shows the run with its (not yet written) steps, and the latest run without an id', async () => {
    const byId = await a.get(`/api/batch/settlement/status?jobLogId=${firstId}`);
    expect(byId.body.data.run).toMatchObject({
      jobLogId: firstId,
      status: 'REQUESTED',
      settleMonth: '202501',
      runAttempt: 1,
      startedAt: null,
    });
    expect(byId.body.data.steps).toEqual([]);
    const latest = await a.get('/api/batch/settlement/status');
    expect(latest.body.data.run.jobLogId).toBe(firstId);
    expect((await a.get('/api/batch/settlement/status?jobLogId=999999')).body.code).toBe('E404');
  });

  it('restart of a run that is not FAILED is E400 with a clear message', async () => {
    const res = await a.post(`/api/batch/settlement/${firstId}/restart`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('E400');
    expect(res.body.message).toBe(`Batch run ${firstId} is REQUESTED: only a FAILED run, or one the watchdog reports stalled, can be restarted`);
    expect((await a.post('/api/batch/settlement/999999/restart')).body.code).toBe('E404');
  });

  it('an operator can fail a stuck run, restart it (attempt 2, resumes at its first unfinished step) and list the history', async () => {
    expect((await a.post(`/api/batch/settlement/${firstId}/fail`, { reason: 'jobs lost' })).status).toBe(200);
    expect(await runRow(firstId)).toMatchObject({ status: 'FAILED' });
    expect((await a.post(`/api/batch/settlement/${firstId}/fail`, { reason: 'again' })).body.code).toBe(
      'E400',
    );

    const other = await a.post('/api/batch/settlement/run?settleMonth=202502');
    expect(other.status).toBe(200);
    // while that one is active the FAILED run cannot come back either
    expect((await a.post(`/api/batch/settlement/${firstId}/restart`)).body.code).toBe('B010');
    await a.post(`/api/batch/settlement/${other.body.data}/fail`, { reason: 'test' });

    const restarted = await a.post(`/api/batch/settlement/${firstId}/restart`);
    expect(restarted.status).toBe(200);
    expect(restarted.body.data).toBe(firstId);
    expect(await runRow(firstId)).toMatchObject({ status: 'REQUESTED', run_attempt: 2 });

    const runs = await a.get('/api/batch/settlement/runs?pageSize=1');
    expect(runs.body.data).toMatchObject({ total: 2, pages: 2, pageSize: 1 });
    expect(runs.body.data.list.map((r: any) => r.jobLogId)).toEqual([other.body.data]);
    expect(
      (await a.get('/api/batch/settlement/runs?settleMonth=202501')).body.data.list.map(
        (r: any) => r.jobLogId,
      ),
    ).toEqual([firstId]);
    expect(
      (await a.get('/api/batch/settlement/runs?status=FAILED')).body.data.list.map((r: any) => r.jobLogId),
    ).toEqual([other.body.data]);
    expect((await a.get('/api/batch/settlement/runs?status=BOGUS')).body.code).toBe('E411');
  });
});
