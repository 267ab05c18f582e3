import { startStepWorkers, type StepWorkers } from '@csp/batch';
import { noopStepsExcept, testLogger } from '@csp/batch/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentToken, api, REDIS_URL, startContext, type Api, type Ctx } from './api-helpers.js';

// Short watchdog time so a run nobody picks up is reported within the test; no background timer.
process.env.BATCH_WATCHDOG_REQUESTED_MS = '300';
process.env.BATCH_WATCHDOG_INTERVAL_MS = '0';

let ctx: Ctx;
let a: Api;
let workers: StepWorkers | undefined;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  delete process.env.BATCH_WATCHDOG_REQUESTED_MS;
  delete process.env.BATCH_WATCHDOG_INTERVAL_MS;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForEnd(id: number) {
  for (let i = 0; i < 400; i++) {
    const res = await a.get(`/api/batch/settlement/status?jobLogId=${id}`);
    if (['COMPLETED', 'FAILED'].includes(res.body.data.run.status)) return res.body.data;
    await sleep(50);
  }
  throw new Error(`run ${id} did not end`);
}

describe('batch status for operators', () => {
  let stalledId = 0;

  it('accepts exactly one of 200 concurrent run requests; the other 199 get B010', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, () => a.post('/api/batch/settlement/run?settleMonth=202501')),
    );
    const accepted = results.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array(199).fill('B010'));
    stalledId = accepted[0]!.body.data;
  });

  it('says why a run stays REQUESTED: no worker for its first step, and lists 0 workers per queue', async () => {
    await sleep(400);
    const res = await a.get(`/api/batch/settlement/status?jobLogId=${stalledId}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.run.status).toBe('REQUESTED');
    expect(data.run.runKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.watchdog).toMatchObject({ step: 'receiveData', workers: 0 });
    expect(data.watchdog.reason).toMatch(/^no worker for step receiveData is running \(requested \d+ s ago/);
    expect(data.run.watchdogReason).toBe(data.watchdog.reason);
    expect(data.workers).toHaveLength(13);
    expect(data.workers.every((w: any) => w.workers === 0)).toBe(true);
  });

  it('lets the operator restart the stalled run; with workers it completes and shows per-step progress and workers', async () => {
    // Restarted first, then a worker appears: only attempt 2's jobs run (attempt 1's are stale).
    const restarted = await a.post(`/api/batch/settlement/${stalledId}/restart`);
    expect(restarted.status).toBe(200);
    workers = await startStepWorkers({
      connection: REDIS_URL,
      prefix: ctx.batchPrefix,
      db: ctx.db,
      steps: noopStepsExcept([]),
      logger: testLogger,
      handleSignals: false,
      workerName: 'api-test.1',
    });
    const done = await waitForEnd(stalledId);
    expect(done.run).toMatchObject({ status: 'COMPLETED', runAttempt: 2, watchdogReason: null });
    expect(done.watchdog).toBeNull();
    expect(done.steps).toHaveLength(13);
    expect(done.steps[0]).toMatchObject({
      stepName: 'receiveData',
      workers: 1,
      progress: { unit: 'records', processed: 0, total: 0, records: 0, etaSeconds: 0, percent: 100 },
    });
    expect(done.workers.find((w: any) => w.step === 'calcMaintain')).toEqual({
      step: 'calcMaintain',
      queue: 'settlement.calcMaintain',
      workers: 1,
      names: ['api-test.1'],
    });
  });

  it('records a dashboard action in the change log under the operator, and refuses an AGENT', async () => {
    const body = { action: 'retry', queue: 'settlement.calcMaintain', jobId: '7-abc-1-calcMaintain', jobState: 'failed', method: 'PUT', path: '/ops/queues/api/queues/settlement.calcMaintain/7-abc-1-calcMaintain/retry/failed' };
    const res = await a.post('/api/batch/settlement/ops-actions', body);
    expect(res.status).toBe(200);
    await ctx.app.changeLogWriter.flush();
    const { rows } = await ctx.pool.query(
      `SELECT menu_code, table_name, record_id, action, after_data, user_id FROM data_change_log WHERE table_name = 'bullmq_queue'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      menu_code: 'BATCH_RUN',
      table_name: 'bullmq_queue',
      record_id: 'settlement.calcMaintain/7-abc-1-calcMaintain',
      action: 'UPDATE',
      after_data: { ...body, action: 'RETRY' },
    });
    expect(Number(rows[0].user_id)).toBeGreaterThan(0);
    const agent = await a.post('/api/batch/settlement/ops-actions', body, await agentToken(ctx, null));
    expect(agent.status).toBe(403);
  });
});
