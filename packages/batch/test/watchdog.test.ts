import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  checkActiveRuns,
  describeRun,
  failRun,
  getRunStatus,
  launchRun,
  listLiveWorkers,
  requestRun,
  restartRun,
  startRun,
} from '../src/index.js';
import { createToyTable, toySteps } from './fixtures/toy-steps.js';
import { createHarness, sleep, waitFor, waitForRunEnd, type Harness } from './helpers.js';

let h: Harness;
const SHORT = { requestedTimeoutMs: 300, stepStallMs: 300 };

beforeAll(async () => {
  h = await createHarness();
  await createToyTable(h.db);
});

afterEach(async () => {
  await h.stopWorkers();
  await sql`UPDATE batch_job_log SET status = 'FAILED' WHERE status IN ('REQUESTED', 'RUNNING')`.execute(h.db);
});

afterAll(async () => {
  await h?.close();
});

describe('the watchdog', () => {
  it('reports a REQUESTED run nobody picks up: no worker for its first step; the operator restarts it', async () => {
    const run = await launchRun(h.db, h.queues, { settleMonth: '202412' });
    expect(await checkActiveRuns(h.db, h.queues, SHORT)).toEqual([
      { runId: run.jobLogId, status: 'REQUESTED', step: 'receiveData', workers: 0, idleMs: expect.any(Number), reason: null },
    ]);
    await sleep(400);
    const [found] = await checkActiveRuns(h.db, h.queues, SHORT);
    expect(found!.reason).toMatch(/^no worker for step receiveData is running \(requested \d+ s ago and no step has started\)$/);
    const status = await getRunStatus(h.db, run.jobLogId);
    expect(status!.run.watchdogReason).toBe(found!.reason);
    expect(status!.run.watchdogAt).toBeInstanceOf(Date);

    // The operator restarts the stalled run (no /fail needed first) and starts a worker: the job of
    // attempt 1 is then stale and only attempt 2 runs.
    const restarted = await restartRun(h.db, h.queues, run.jobLogId);
    expect(restarted).toMatchObject({ status: 'REQUESTED', runAttempt: 2, watchdogReason: null });
    await h.startWorkers({ steps: toySteps(new Map()) });
    const done = await waitForRunEnd(h.db, run.jobLogId);
    expect(done.run).toMatchObject({ status: 'COMPLETED', runAttempt: 2, watchdogReason: null });
  });

  it('reports a REQUESTED run whose first job is not in Redis; failing it frees the next request', async () => {
    await h.startWorkers({ steps: toySteps(new Map()) });
    const run = await requestRun(h.db, { settleMonth: '202501' }); // never enqueued: as if Redis lost it
    await sleep(400);
    const [found] = await checkActiveRuns(h.db, h.queues, SHORT);
    expect(found!.workers).toBe(1);
    expect(found!.reason).toMatch(
      /^the job of step receiveData is not in Redis: lost or removed \(requested \d+ s ago and no step has started\)$/,
    );
    const failed = await failRun(h.db, run.jobLogId, found!.reason!);
    expect(failed).toMatchObject({ status: 'FAILED', watchdogReason: null });
    const next = await launchRun(h.db, h.queues, { settleMonth: '202501' });
    expect((await waitForRunEnd(h.db, next.jobLogId)).run.status).toBe('COMPLETED');
  });

  it('reports a RUNNING run waiting on a step that has no live worker, naming the step', async () => {
    await h.startWorkers({ steps: toySteps(new Map()).filter((s) => s.name !== 'calcMaintain') });
    const run = await launchRun(h.db, h.queues, { settleMonth: '202502' });
    await waitFor(async () => {
      const s = await getRunStatus(h.db, run.jobLogId);
      return s?.steps.find((x) => x.stepName === 'calcRecruit' && x.status === 'COMPLETED');
    });
    await sleep(400);
    const monitor = await describeRun(h.db, h.queues, run.jobLogId, { watchdog: SHORT });
    expect(monitor!.watchdog).toMatchObject({ status: 'RUNNING', step: 'calcMaintain', workers: 0 });
    expect(monitor!.watchdog!.reason).toMatch(/^no worker for step calcMaintain is running \(no progress for \d+ s\)$/);
    expect(monitor!.run.status).toBe('RUNNING');
    expect(monitor!.workers.find((w) => w.step === 'calcMaintain')!.workers).toBe(0);
    expect(monitor!.workers.find((w) => w.step === 'calcRecruit')!.workers).toBe(1);
    expect((await getRunStatus(h.db, run.jobLogId))!.run.watchdogReason).toBe(monitor!.watchdog!.reason);

    // A worker for the step appears: the run goes on and the reason is cleared.
    await h.startWorkers({ steps: toySteps(new Map()), only: ['calcMaintain'] });
    const done = await waitForRunEnd(h.db, run.jobLogId);
    expect(done.run).toMatchObject({ status: 'COMPLETED', watchdogReason: null });
  });

  it('does not report a run that moves, and lists live workers per step queue with their names', async () => {
    await h.startWorkers({ steps: toySteps(new Map()), workerName: 'box-a.1' });
    await h.startWorkers({ steps: toySteps(new Map()), only: ['calcMaintain'], workerName: 'box-b.2' });
    const run = await launchRun(h.db, h.queues, { settleMonth: '202503' });
    expect((await checkActiveRuns(h.db, h.queues, SHORT)).map((d) => d.reason)).toEqual([null]);
    await waitForRunEnd(h.db, run.jobLogId);
    const lists = await listLiveWorkers(h.queues);
    expect(lists).toHaveLength(13);
    const maintain = lists.find((l) => l.step === 'calcMaintain')!;
    expect(maintain).toMatchObject({ queue: 'settlement.calcMaintain', workers: 2 });
    expect(maintain.names.sort()).toEqual(['box-a.1', 'box-b.2']);
    expect(lists.find((l) => l.step === 'aggregate')).toMatchObject({ workers: 1, names: ['box-a.1'] });
  });

  it('sets no reason for a finished run and keeps the restart rule for healthy active runs', async () => {
    const run = await requestRun(h.db, { settleMonth: '202504' });
    await startRun(h.queues, run);
    await expect(restartRun(h.db, h.queues, run.jobLogId)).rejects.toThrow(
      `Batch run ${run.jobLogId} is REQUESTED; expected FAILED (or stalled, as the watchdog reports)`,
    );
  });
});
